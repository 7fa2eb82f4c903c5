package diskcache

import (
	"bufio"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The store holds each file's records by the file's content, shared by
// every project and every zumba process of the user: a second checkout of
// a project finds the records of its unchanged files there and parses
// only the files that differ.
//
// It is a folder of pack files. A pack is written by one process, to a
// temporary file renamed into place when complete, and never changes
// after: concurrent writers each add their own pack, and a reader sees a
// pack whole or not at all. A pack:
//
//	header        magic "zumbaPK\x00", version (uint32), the producer
//	              (uvarint length, bytes; see [Producer])
//	entries       each entry's bytes, end to end
//	index         uvarint count, then per entry: its key (16 bytes), its
//	              offset and length (uvarints), its CRC-32C (uint32)
//	trailer       the index's offset (uint64), its CRC-32C (uint32),
//	              "zpk\x00"
//
// Integers of fixed size are little-endian. An entry whose checksum fails
// is not returned (the caller computes it again); a pack whose header,
// index or trailer is damaged is deleted. Packs of another producer are
// left alone, to be evicted.
//
// The store is bounded: after a pack is added, the least recently used
// packs (by modification time, which a process reading a pack sets to
// the time it read it) are deleted until the folder's packs fit the
// limit. A process holding a deleted pack open keeps reading it. When a
// store holds more than maxPacks packs of its producer (a server adds one
// at each save while files change), a commit merges the smallest into one.

const (
	packMagic   = "zumbaPK\x00"
	packVersion = 1
	packSuffix  = ".zpk"
	trailerSize = 8 + 4 + 4
	trailerTag  = "zpk\x00"
	// maxPack bounds a pack, so that offsets fit in uint32.
	maxPack = 1<<32 - 1
)

// DefaultStoreLimit is the store's size limit unless the program gives
// another.
const DefaultStoreLimit = 4 << 30

// Key names an entry: a hash of what the entry is computed from.
type Key [16]byte

// String is the key in hex.
func (k Key) String() string { return hex.EncodeToString(k[:]) }

// StoreDir is the store's folder under the user's cache folder.
func StoreDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cache folder: %w", err)
	}
	return filepath.Join(base, "zumba", "store"), nil
}

// Store is an open store: the index of every pack of its producer.
// A Store is safe for concurrent use.
type Store struct {
	dir, producer string
	limit         int64
	mu            sync.RWMutex
	packs         []*pack
	index         map[Key]loc
	// refs counts the users of a store OpenShared returned (guarded by
	// openStores.mu).
	refs int
}

type pack struct {
	name string
	f    *os.File
	// used: an entry was read from it since the last Touch.
	used atomic.Bool
}

type loc struct {
	pack     uint32
	off, n   uint32
	checksum uint32
}

// OpenStore opens the store in dir for the records of producer, with a
// size limit in bytes (0: DefaultStoreLimit). A missing folder is an
// empty store. Damaged packs are deleted; errors reading the folder are
// returned with the store of what could be read.
func OpenStore(dir, producer string, limit int64) (*Store, error) {
	if limit <= 0 {
		limit = DefaultStoreLimit
	}
	s := &Store{dir: dir, producer: producer, limit: limit, index: map[Key]loc{}}
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), packSuffix) || !e.Type().IsRegular() {
			continue
		}
		if err := s.open(e.Name()); err != nil {
			errs = append(errs, err)
		}
	}
	return s, errors.Join(errs...)
}

// open reads the index of the pack name, if it is of the store's
// producer.
func (s *Store) open(name string) error {
	path := filepath.Join(s.dir, name)
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // evicted meanwhile
		}
		return err
	}
	idx, err := readPackIndex(f, s.producer)
	switch {
	case errors.Is(err, errOtherProducer):
		f.Close()
		return nil
	case err != nil:
		f.Close()
		os.Remove(path)
		return fmt.Errorf("store pack %s deleted: %w", name, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := uint32(len(s.packs))
	s.packs = append(s.packs, &pack{name: name, f: f})
	for _, e := range idx {
		if _, ok := s.index[e.key]; !ok {
			s.index[e.key] = loc{pack: p, off: e.off, n: e.n, checksum: e.sum}
		}
	}
	return nil
}

var errOtherProducer = errors.New("another producer's pack")

type indexEntry struct {
	key         Key
	off, n, sum uint32
}

// readPackIndex checks a pack's header and trailer and reads its index.
func readPackIndex(f *os.File, producer string) ([]indexEntry, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if size < int64(len(packMagic)+4+trailerSize) || size > maxPack {
		return nil, fmt.Errorf("bad size %d", size)
	}
	head := make([]byte, len(packMagic)+4+binary.MaxVarintLen64+len(producer))
	n, err := f.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	head = head[:n]
	if string(head[:len(packMagic)]) != packMagic || binary.LittleEndian.Uint32(head[len(packMagic):]) != packVersion {
		return nil, errors.New("not a pack of this version")
	}
	r := NewReader(head[len(packMagic)+4:])
	if l := r.Uvarint(); r.Err() != nil || l != uint64(len(producer)) || !strings.HasPrefix(string(r.Rest()), producer) {
		return nil, errOtherProducer
	}
	var tr [trailerSize]byte
	if _, err := f.ReadAt(tr[:], size-trailerSize); err != nil {
		return nil, err
	}
	at := binary.LittleEndian.Uint64(tr[:])
	if string(tr[12:]) != trailerTag || at > uint64(size-trailerSize) {
		return nil, errors.New("bad trailer")
	}
	b := make([]byte, uint64(size-trailerSize)-at)
	if _, err := f.ReadAt(b, int64(at)); err != nil {
		return nil, err
	}
	if crc32.Checksum(b, castagnoli) != binary.LittleEndian.Uint32(tr[8:]) {
		return nil, errors.New("index checksum mismatch")
	}
	ir := NewReader(b)
	count := ir.Count()
	out := make([]indexEntry, 0, count)
	for range count {
		var e indexEntry
		rest := ir.Rest()
		if len(rest) < len(e.key) {
			return nil, errTruncated
		}
		copy(e.key[:], rest)
		ir.Skip(len(e.key))
		off, n := ir.Uvarint(), ir.Uvarint()
		if ir.Err() == nil && len(ir.Rest()) < 4 {
			return nil, errTruncated
		}
		if ir.Err() != nil {
			return nil, ir.Err()
		}
		e.sum = binary.LittleEndian.Uint32(ir.Rest())
		ir.Skip(4)
		if off+n > at || off < uint64(len(packMagic)) {
			return nil, errors.New("bad index entry")
		}
		e.off, e.n = uint32(off), uint32(n)
		out = append(out, e)
	}
	if !ir.Done() {
		return nil, errors.New("trailing index bytes")
	}
	return out, nil
}

// Len is how many entries the store holds.
func (s *Store) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.index)
}

// Has reports whether the store holds an entry for k.
func (s *Store) Has(k Key) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, ok := s.index[k]
	return ok
}

// ErrDamaged is returned for an entry whose checksum fails.
var ErrDamaged = errors.New("damaged store entry")

// Get appends the entry for k to buf. It reports false for no entry; a
// damaged entry (or a failed read) is an error, and forgotten.
func (s *Store) Get(k Key, buf []byte) ([]byte, bool, error) {
	s.mu.RLock()
	l, ok := s.index[k]
	var p *pack
	if ok {
		p = s.packs[l.pack]
	}
	s.mu.RUnlock()
	if !ok {
		return buf, false, nil
	}
	start := len(buf)
	buf = slices.Grow(buf, int(l.n))[:start+int(l.n)]
	_, err := p.f.ReadAt(buf[start:], int64(l.off))
	if err == nil && crc32.Checksum(buf[start:], castagnoli) != l.checksum {
		err = ErrDamaged
	}
	if err != nil {
		s.mu.Lock()
		delete(s.index, k)
		s.mu.Unlock()
		return buf[:start], false, fmt.Errorf("store pack %s, entry %s: %w", p.name, k, err)
	}
	if !p.used.Load() {
		p.used.Store(true)
	}
	return buf, true, nil
}

// Touch marks the packs read since the last Touch as used now, for the
// eviction's order.
func (s *Store) Touch() {
	now := time.Now()
	s.mu.Lock()
	var names []string
	for _, p := range s.packs {
		if p.used.Swap(false) {
			names = append(names, p.name)
		}
	}
	s.mu.Unlock()
	for _, n := range names {
		os.Chtimes(filepath.Join(s.dir, n), now, now)
	}
}

// Close closes the packs.
func (s *Store) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.packs {
		p.f.Close()
	}
	s.packs, s.index = nil, map[Key]loc{}
}

// PackWriter writes a new pack; Commit adds it to the store.
type PackWriter struct {
	s     *Store
	f     *os.File
	w     *bufio.Writer
	off   uint64
	index []indexEntry
	seen  map[Key]bool
	err   error
	// copy: entries the store holds are written too (compact).
	copy bool
	name string // once committed
}

// NewPack starts a pack.
func (s *Store) NewPack() (*PackWriter, error) {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	removeStaleTemps(s.dir, "pack")
	f, err := os.CreateTemp(s.dir, "pack.*.tmp")
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	w := &PackWriter{s: s, f: f, w: bufio.NewWriterSize(f, 1<<20), seen: map[Key]bool{}}
	head := append([]byte(packMagic), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(head[len(packMagic):], packVersion)
	head = appendString(head, s.producer)
	w.write(head)
	return w, nil
}

func (w *PackWriter) write(b []byte) {
	if w.err != nil {
		return
	}
	_, w.err = w.w.Write(b)
	w.off += uint64(len(b))
	if w.err == nil && w.off > maxPack-1<<20 {
		w.err = errors.New("pack too large")
	}
}

// Add writes the entry b for k, unless the store or the pack has one.
func (w *PackWriter) Add(k Key, b []byte) error {
	if w.seen[k] || !w.copy && w.s.Has(k) {
		return w.err
	}
	off := w.off
	w.write(b)
	if w.err != nil {
		return w.err
	}
	w.seen[k] = true
	w.index = append(w.index, indexEntry{key: k, off: uint32(off), n: uint32(len(b)), sum: crc32.Checksum(b, castagnoli)})
	return nil
}

// Len is how many entries the pack holds.
func (w *PackWriter) Len() int { return len(w.index) }

// Abort drops the pack.
func (w *PackWriter) Abort() {
	w.f.Close()
	os.Remove(w.f.Name())
}

// Commit completes the pack, renames it into place, adds it to the
// store, and evicts the least recently used packs past the limit. A pack
// without entries is dropped.
func (w *PackWriter) Commit() error {
	if w.err != nil || len(w.index) == 0 {
		w.Abort()
		return w.err
	}
	at := w.off
	idx := binary.AppendUvarint(nil, uint64(len(w.index)))
	for _, e := range w.index {
		idx = append(idx, e.key[:]...)
		idx = binary.AppendUvarint(idx, uint64(e.off))
		idx = binary.AppendUvarint(idx, uint64(e.n))
		idx = binary.LittleEndian.AppendUint32(idx, e.sum)
	}
	w.write(idx)
	tr := binary.LittleEndian.AppendUint64(nil, at)
	tr = binary.LittleEndian.AppendUint32(tr, crc32.Checksum(idx, castagnoli))
	w.write(append(tr, trailerTag...))
	if w.err == nil {
		w.err = w.w.Flush()
	}
	if cerr := w.f.Close(); w.err == nil {
		w.err = cerr
	}
	var rnd [8]byte
	rand.Read(rnd[:])
	name := "pack-" + hex.EncodeToString(rnd[:]) + packSuffix
	w.name = name
	if w.err == nil {
		w.err = os.Rename(w.f.Name(), filepath.Join(w.s.dir, name))
	}
	if w.err != nil {
		os.Remove(w.f.Name())
		return fmt.Errorf("store: %w", w.err)
	}
	err := w.s.open(name)
	if !w.copy {
		w.s.evict(name)
		if cerr := w.s.compact(); err == nil {
			err = cerr
		}
	}
	return err
}

// maxPacks is how many packs of its producer a store holds before a
// commit merges all but the keepPacks largest into one: a server saves a
// pack every few minutes while files change.
// It merges the smallest, up to maxMerge bytes of them.
const (
	maxPacks  = 48
	keepPacks = 8
	maxMerge  = 256 << 20
)

// compact merges the store's smaller packs into one when it holds more
// than maxPacks, and deletes them. Another process that opened them
// reads them still; one that lists the folder meanwhile may miss their
// entries, and computes them again.
func (s *Store) compact() error {
	s.mu.RLock()
	type sized struct {
		p    uint32
		size int64
	}
	var packs []sized
	for i, p := range s.packs {
		if fi, err := p.f.Stat(); err == nil {
			packs = append(packs, sized{uint32(i), fi.Size()})
		}
	}
	s.mu.RUnlock()
	if len(packs) <= maxPacks {
		return nil
	}
	// The smallest first, at most maxMerge bytes of them.
	slices.SortFunc(packs, func(a, b sized) int { return int(a.size - b.size) })
	merged := map[uint32]bool{}
	var total int64
	for _, p := range packs[:len(packs)-keepPacks] {
		if total+p.size > maxMerge {
			break
		}
		merged[p.p] = true
		total += p.size
	}
	if len(merged) < 2 {
		return nil
	}
	s.mu.RLock()
	var keys []Key
	for k, l := range s.index {
		if merged[l.pack] {
			keys = append(keys, k)
		}
	}
	s.mu.RUnlock()
	w, err := s.NewPack()
	if err != nil {
		return err
	}
	w.copy = true
	var buf []byte
	for _, k := range keys {
		var ok bool
		if buf, ok, _ = s.Get(k, buf[:0]); ok {
			w.Add(k, buf)
		}
	}
	if err := w.Commit(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// The new pack's entries replace theirs.
	at := slices.IndexFunc(s.packs, func(p *pack) bool { return p.name == w.name })
	for _, e := range w.index {
		if l, ok := s.index[e.key]; ok && merged[l.pack] && at >= 0 {
			s.index[e.key] = loc{pack: uint32(at), off: e.off, n: e.n, checksum: e.sum}
		}
	}
	for k, l := range s.index {
		if merged[l.pack] {
			delete(s.index, k)
		}
	}
	for p := range merged {
		s.packs[p].f.Close()
		os.Remove(filepath.Join(s.dir, s.packs[p].name))
	}
	return nil
}

// evict deletes the least recently used packs (any producer's) until
// the packs fit the limit, keeping the pack keep.
func (s *Store) evict(keep string) {
	packs, _ := listPacks(s.dir)
	var total int64
	for _, p := range packs {
		total += p.size
	}
	// Oldest first.
	slices.SortFunc(packs, func(a, b packInfo) int { return a.used.Compare(b.used) })
	for _, p := range packs {
		if total <= s.limit {
			break
		}
		if p.name == keep {
			continue
		}
		if os.Remove(filepath.Join(s.dir, p.name)) == nil {
			total -= p.size
		}
	}
}

type packInfo struct {
	name string
	size int64
	used time.Time
}

func listPacks(dir string) ([]packInfo, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var out []packInfo
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), packSuffix) {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() {
			out = append(out, packInfo{e.Name(), fi.Size(), fi.ModTime()})
		}
	}
	return out, err
}

// BaseDir is zumba's folder under the user's cache folder: the store and
// every project's snapshot folder (see [Dir]).
func BaseDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cache folder: %w", err)
	}
	return filepath.Join(base, "zumba"), nil
}

// Usage is what the cache folder base holds: its size in bytes (the
// store's packs and every project's snapshot) and how many projects have
// a snapshot.
func Usage(base string) (size int64, roots int, err error) {
	err = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			size += fi.Size()
		}
		if d.Name() == FileName {
			roots++
		}
		return nil
	})
	return size, roots, err
}

// Clean empties the cache folder base: the store and every project's
// snapshot. Servers running keep the packs they hold open.
func Clean(base string) error {
	ents, err := os.ReadDir(base)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range ents {
		if err := os.RemoveAll(filepath.Join(base, e.Name())); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// The stores open in this process, shared by its indexes (one server of
// several projects opens the store once).
var openStores struct {
	mu sync.Mutex
	m  map[[2]string]*Store
}

// OpenShared is OpenStore, but returns the store already open in this
// process for dir and producer if there is one (with the limit it was
// opened with). Each call is matched by a Release.
func OpenShared(dir, producer string, limit int64) (*Store, error) {
	openStores.mu.Lock()
	defer openStores.mu.Unlock()
	key := [2]string{dir, producer}
	if s := openStores.m[key]; s != nil {
		s.refs++
		return s, nil
	}
	s, err := OpenStore(dir, producer, limit)
	if openStores.m == nil {
		openStores.m = map[[2]string]*Store{}
	}
	s.refs = 1
	openStores.m[key] = s
	return s, err
}

// Release ends a use of a store OpenShared returned, closing it after
// the last.
func (s *Store) Release() {
	openStores.mu.Lock()
	defer openStores.mu.Unlock()
	if s.refs--; s.refs > 0 {
		return
	}
	delete(openStores.m, [2]string{s.dir, s.producer})
	s.Close()
}
