package search

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/outline"
)

// CacheRecord is what the disk cache keeps for one file: its definitions
// and the distinct identifiers it contains.
type CacheRecord struct {
	// Definitions are the file's definitions, without their Path.
	Definitions []outline.Definition
	// Words is the file's word set, in no particular order.
	Words []string
}

// DiskCache is the on-disk cache of a project's per-file records, so that a
// restart costs one stat pass and one file read instead of parsing the whole
// project again. A record is only ever returned for a file whose size,
// modification time and inode still match, and never for a file modified so
// close to the time it was read that a later write could hide behind the
// same time stamp (see [RacyWindow]).
//
// The file starts with a magic, a format version, a checksum and the length
// of what follows; what follows names the project's real path and the
// program that produced the records. A file that fails any check is
// discarded as a whole. Saving writes a temporary file and renames it over
// the old one, so concurrent savers (two zumba servers on one project) leave
// one complete file, the last one written.
//
// Records are kept encoded, in memory as on disk, with every string
// interned in one table: thousands of files share their identifiers, a load
// makes one string for the whole table instead of one per word, and a save
// copies records instead of encoding them again. A string's id in the table
// is stable for the life of the DiskCache (see [DiskCache.LookupIDs]).
//
// A DiskCache is safe for concurrent use.
type DiskCache struct {
	file, root, producer string

	mu        sync.Mutex
	entries   map[string]*cacheEntry
	gen       uint64 // bumped by every change, so Save knows what it saved
	savedGen  uint64
	discarded error

	// strs is the string table: the loaded file's strings (slices of one
	// string), then those interned by Put. Only ever appended to, so a
	// reader may use a copy of the slice header outside the lock.
	strs []string
	// ids maps strs back to ids; built on the first Put, as a restart that
	// finds every file unchanged never needs it.
	ids map[string]uint32
}

type cacheEntry struct {
	stat FileStat
	// ref is when the record was known to describe the file (Unix ns):
	// when it was put, or the write time of the file it was loaded from.
	ref int64
	// path is the id of the entry's path in the string table.
	path uint32
	// raw is the encoded record; see the format below.
	raw []byte
}

// The cache file format. Bump cacheVersion whenever the layout or the
// meaning of a record changes.
const (
	cacheMagic      = "zumbaFC\x00"
	cacheVersion    = 5
	cacheHeaderSize = 8 + 4 + 4 + 8 // magic, version, crc32c, payload length
	cacheFileName   = "files"
	// maxCacheFile keeps a damaged length field from asking for memory that
	// was never written.
	maxCacheFile = 1 << 30
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CacheDir is the folder of the disk cache of the project whose real path
// (symbolic links resolved) is realRoot: the user's cache folder, then
// zumba, then a hash of the path, so two projects never share a file and
// the path needs no escaping.
func CacheDir(realRoot string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cache folder: %w", err)
	}
	sum := sha256.Sum256([]byte(realRoot))
	return filepath.Join(base, "zumba", hex.EncodeToString(sum[:16])), nil
}

// LoadDiskCache opens the disk cache of the project at realRoot in its
// usual place (see [CacheDir]) for records produced by this build of zumba.
// A missing, corrupt, truncated or foreign cache file gives an empty cache
// (see [DiskCache.Discarded]); an error means there is no usable cache
// folder at all, and the caller goes on without a disk cache.
func LoadDiskCache(realRoot string) (*DiskCache, error) {
	dir, err := CacheDir(realRoot)
	if err != nil {
		return nil, err
	}
	return OpenDiskCache(filepath.Join(dir, cacheFileName), realRoot, BuildProducer()), nil
}

// OpenDiskCache reads the cache file at file, accepting it only if it was
// written for the project at realRoot by producer. It never fails: a file
// it cannot use gives an empty cache, and Discarded says why.
func OpenDiskCache(file, realRoot, producer string) *DiskCache {
	c := &DiskCache{file: file, root: realRoot, producer: producer, entries: map[string]*cacheEntry{}}
	b, err := readCacheFile(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		c.discarded = err
	default:
		if err := c.decode(b); err != nil {
			c.entries = map[string]*cacheEntry{}
			c.discarded = fmt.Errorf("cache %s discarded: %w", file, err)
		}
	}
	return c
}

func readCacheFile(file string) ([]byte, error) {
	f, err := OpenRegular(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read cache %s: %w", file, err)
	}
	if fi.Size() > maxCacheFile {
		return nil, fmt.Errorf("cache %s discarded: %d bytes is too large", file, fi.Size())
	}
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("read cache %s: %w", file, err)
	}
	return b, nil
}

// Discarded says why the cache file on disk was not used: it was corrupt,
// truncated, or written for another project or by another build. It is nil
// when the file was used or did not exist.
func (c *DiskCache) Discarded() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.discarded
}

// File is the path of the cache file.
func (c *DiskCache) File() string { return c.file }

// Len is the number of files with a record.
func (c *DiskCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// Lookup returns the record of the project file rel (a clean relative path
// with "/" separators) if it was made from the file as it is now: st, taken
// just now, must equal the stat the record was put with, and the file must
// not have been modified within RacyWindow of when it was read.
func (c *DiskCache) Lookup(rel string, st FileStat) (CacheRecord, bool) {
	syms, ids, strs, ok := c.lookup(rel, st)
	if !ok {
		return CacheRecord{}, false
	}
	rec := CacheRecord{Definitions: syms}
	if len(ids) > 0 {
		rec.Words = make([]string, len(ids))
		for i, id := range ids {
			rec.Words[i] = strs[id]
		}
	}
	return rec, true
}

// LookupIDs is Lookup for a caller that interns words itself: the file's
// words come as ids in the cache's string table (see [DiskCache.Word]),
// which stay the same for the life of the DiskCache. Rebuilding a word
// index from them needs one map operation per distinct word in the project
// instead of one per word per file.
func (c *DiskCache) LookupIDs(rel string, st FileStat) (defs []outline.Definition, words []uint32, ok bool) {
	defs, words, _, ok = c.lookup(rel, st)
	return defs, words, ok
}

func (c *DiskCache) lookup(rel string, st FileStat) ([]outline.Definition, []uint32, []string, bool) {
	c.mu.Lock()
	e := c.entries[rel]
	strs := c.strs
	c.mu.Unlock()
	if e == nil || e.stat != st || st.RacyAt(e.ref) {
		return nil, nil, nil, false
	}
	d, _ := decodeScratch.Get().(*decoded)
	if d == nil {
		d = &decoded{}
	}
	defer decodeScratch.Put(d)
	d.words = nil // the caller keeps them
	err := d.decode(e.raw, len(strs))
	if err != nil {
		// The checksum passed, so this is a record of a shape this build
		// does not know; it goes like any other doubtful record.
		c.mu.Lock()
		if c.entries[rel] == e {
			delete(c.entries, rel)
			c.gen++
		}
		c.mu.Unlock()
		return nil, nil, nil, false
	}
	var defs []outline.Definition
	if len(d.defs) > 0 {
		defs = make([]outline.Definition, len(d.defs))
		// One backing array for every qualified name of the file.
		quals := make([]string, len(d.quals))
		for i, id := range d.quals {
			quals[i] = strs[id]
		}
		for i, cd := range d.defs {
			defs[i] = outline.Definition{
				Name: strs[cd.name], Kind: cd.kind,
				Qualified: quals[cd.qual[0]:cd.qual[1]:cd.qual[1]],
				Line:      cd.line, Start: cd.start, End: cd.end, Decl: cd.decl,
			}
		}
	}
	return defs, d.words, strs, true
}

// Word returns the string with id in the cache's string table; ids come
// from LookupIDs.
func (c *DiskCache) Word(id uint32) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if int(id) >= len(c.strs) {
		return ""
	}
	return c.strs[id]
}

// Put records rec as the contents of the project file rel, whose stat st
// was taken before the file was read (so that a write during the read
// shows as a changed stat). The cache does not keep rec's slices.
func (c *DiskCache) Put(rel string, st FileStat, rec CacheRecord) {
	ref := time.Now().UnixNano()
	c.mu.Lock()
	defer c.mu.Unlock()
	raw := c.encodeRecord(rec)
	c.entries[rel] = &cacheEntry{stat: st, ref: ref, path: c.intern(rel), raw: raw}
	c.gen++
}

// intern returns s's id in the string table, adding it if new. The caller
// holds c.mu.
func (c *DiskCache) intern(s string) uint32 {
	if c.ids == nil {
		c.ids = make(map[string]uint32, len(c.strs)+1024)
		for i, t := range c.strs {
			if _, dup := c.ids[t]; !dup {
				c.ids[t] = uint32(i)
			}
		}
	}
	if id, ok := c.ids[s]; ok {
		return id
	}
	// A copy, so that the table never keeps a caller's larger buffer alive.
	s = strings.Clone(s)
	id := uint32(len(c.strs))
	c.strs = append(c.strs, s)
	c.ids[s] = id
	return id
}

func (c *DiskCache) encodeRecord(rec CacheRecord) []byte {
	b := make([]byte, 0, 8+len(rec.Definitions)*10+len(rec.Words)*3)
	b = binary.AppendUvarint(b, uint64(len(rec.Definitions)))
	for _, d := range rec.Definitions {
		b = binary.AppendUvarint(b, uint64(c.intern(d.Name)))
		b = append(b, kindByte(d.Kind, d.Decl))
		line := max(d.Line, 0)
		b = binary.AppendUvarint(b, uint64(line))
		b = binary.AppendUvarint(b, uint64(max(line-d.Start, 0)))
		b = binary.AppendUvarint(b, uint64(max(d.End-line, 0)))
		b = binary.AppendUvarint(b, uint64(len(d.Qualified)))
		for _, q := range d.Qualified {
			b = binary.AppendUvarint(b, uint64(c.intern(q)))
		}
	}
	b = binary.AppendUvarint(b, uint64(len(rec.Words)))
	for _, w := range rec.Words {
		b = binary.AppendUvarint(b, uint64(c.intern(w)))
	}
	return b
}

// Delete forgets the record of rel (a deleted file).
func (c *DiskCache) Delete(rel string) {
	c.mu.Lock()
	if _, ok := c.entries[rel]; ok {
		delete(c.entries, rel)
		c.gen++
	}
	c.mu.Unlock()
}

// Prune forgets every record whose path keep rejects: after a full walk,
// the files that are gone or now ignored.
func (c *DiskCache) Prune(keep func(rel string) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for rel := range c.entries {
		if !keep(rel) {
			delete(c.entries, rel)
			c.gen++
		}
	}
}

// Save writes the cache file if anything changed since it was loaded or
// last saved (or the file on disk was discarded). Records that are racy
// (their file was modified within RacyWindow of being read) are left out:
// on the next start they would be re-read anyway, and written under a later
// time they would look verified. Strings no saved record uses are left out
// too.
func (c *DiskCache) Save() error {
	c.mu.Lock()
	if c.gen == c.savedGen && c.discarded == nil {
		c.mu.Unlock()
		return nil
	}
	gen := c.gen
	entries := make([]*cacheEntry, 0, len(c.entries))
	for _, e := range c.entries {
		entries = append(entries, e)
	}
	strs := c.strs
	c.mu.Unlock()

	b, err := encodeCache(c.root, c.producer, time.Now().UnixNano(), entries, strs)
	if err != nil {
		return fmt.Errorf("save cache %s: %w", c.file, err)
	}
	if err := writeFileAtomic(c.file, b); err != nil {
		return err
	}
	c.mu.Lock()
	c.savedGen = max(c.savedGen, gen)
	c.discarded = nil
	c.mu.Unlock()
	return nil
}

// writeFileAtomic replaces file with b by writing a temporary file beside
// it and renaming it: readers see the old file or the new one, never a
// mixture. The file is not synced: a crash may leave a torn file, which
// the checksum rejects at the next load, and an fsync per save would cost
// more than the rare rebuild it saves.
func writeFileAtomic(file string, b []byte) error {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("save cache: %w", err)
	}
	removeStaleTemps(dir, filepath.Base(file))
	tmp, err := os.CreateTemp(dir, filepath.Base(file)+".*.tmp")
	if err != nil {
		return fmt.Errorf("save cache: %w", err)
	}
	name := tmp.Name()
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(name, file)
	}
	if werr != nil {
		os.Remove(name)
		return fmt.Errorf("save cache %s: %w", file, werr)
	}
	return nil
}

// removeStaleTemps deletes temporary files left by a saver that died
// between writing and renaming; a recent one may belong to a live saver.
func removeStaleTemps(dir, base string) {
	matches, _ := filepath.Glob(filepath.Join(dir, base+".*.tmp"))
	for _, m := range matches {
		if fi, err := os.Lstat(m); err == nil && time.Since(fi.ModTime()) > 10*time.Minute {
			os.Remove(m)
		}
	}
}

// BuildProducer names the build of zumba that produces records, so that a
// cache written by another build (whose queries may find other symbols) is
// not trusted: the module version and VCS revision, and for a build from a
// modified or unknown tree, the executable's size and time.
func BuildProducer() string {
	var sb strings.Builder
	sb.WriteString("zumba")
	dev := true
	if bi, ok := debug.ReadBuildInfo(); ok {
		sb.WriteString(" " + bi.Main.Version)
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				sb.WriteString(" " + s.Value)
				dev = false
			case "vcs.modified":
				if s.Value == "true" {
					dev = true
				}
			}
		}
	}
	if dev {
		if exe, err := os.Executable(); err == nil {
			if fi, err := os.Stat(exe); err == nil {
				fmt.Fprintf(&sb, " exe %d %d", fi.Size(), fi.ModTime().UnixNano())
			}
		}
	}
	return sb.String()
}

// The payload, after the header:
//
//	root          string (uvarint length, bytes)
//	producer      string
//	written at    varint, Unix ns
//	strings       uvarint count, count uvarint lengths, the bytes end to end
//	entries       uvarint count, each:
//	                path id, size, mtime (varint), inode, ctime (varint),
//	                record length, record
//
// and a record:
//
//	definitions   uvarint count, each: name id, kind (1 byte, its top bit
//	                Definition.Decl), line,
//	                line - first line, last line - line, the qualified
//	                name's part count, then their ids
//	words         uvarint count, each a string id
//
// Numbers are uvarints unless marked; ids index the string table.

func (c *DiskCache) decode(b []byte) error {
	if len(b) < cacheHeaderSize {
		return fmt.Errorf("truncated header (%d bytes)", len(b))
	}
	if string(b[:8]) != cacheMagic {
		return errors.New("not a zumba cache file")
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != cacheVersion {
		return fmt.Errorf("format version %d, want %d", v, cacheVersion)
	}
	sum := binary.LittleEndian.Uint32(b[12:])
	n := binary.LittleEndian.Uint64(b[16:])
	payload := b[cacheHeaderSize:]
	if n != uint64(len(payload)) {
		return fmt.Errorf("truncated: %d payload bytes, header says %d", len(payload), n)
	}
	if crc32.Checksum(payload, castagnoli) != sum {
		return errors.New("checksum mismatch")
	}
	r := &cacheReader{b: payload}
	root := r.bytes()
	producer := r.bytes()
	written := r.varint()
	if r.err != nil {
		return r.err
	}
	if string(root) != c.root {
		return fmt.Errorf("written for %s, not %s", root, c.root)
	}
	if string(producer) != c.producer {
		return fmt.Errorf("written by %q, not %q", producer, c.producer)
	}
	strs := r.table()
	count := r.count()
	entries := make(map[string]*cacheEntry, count)
	for range count {
		pathID := r.uvarint()
		st := FileStat{Size: int64(r.uvarint()), MTime: r.varint(), Inode: r.uvarint(), CTime: r.varint()}
		raw := r.bytes()
		if r.err != nil {
			return r.err
		}
		if pathID >= uint64(len(strs)) || strs[pathID] == "" || st.Size < 0 {
			return errors.New("bad entry")
		}
		entries[strs[pathID]] = &cacheEntry{stat: st, ref: written, path: uint32(pathID), raw: raw}
	}
	if r.err != nil {
		return r.err
	}
	if r.off != len(r.b) {
		return errors.New("trailing bytes")
	}
	c.entries, c.strs = entries, strs
	return nil
}

// decodeScratch holds decoded records on their way to outline.Definition.
var decodeScratch sync.Pool

// cacheDef is one encoded definition: ids in the string table, and its
// qualified name's parts as a range of decoded.quals.
type cacheDef struct {
	name             uint32
	kind             grammar.Kind
	decl             bool
	line, start, end int
	qual             [2]int
}

// declBit, in a definition's kind byte, is Definition.Decl.
const declBit = 0x80

func kindByte(k grammar.Kind, decl bool) byte {
	if decl {
		return byte(k) | declBit
	}
	return byte(k)
}

// decoded is one record, decoded; its slices are reused.
type decoded struct {
	defs  []cacheDef
	quals []uint32
	words []uint32
}

// decode decodes a record into d, checking every id against a table of
// nstrs strings.
func (d *decoded) decode(raw []byte, nstrs int) error {
	d.defs, d.quals, d.words = d.defs[:0], d.quals[:0], d.words[:0]
	r := &cacheReader{b: raw}
	maxKind := uint64(len(grammar.Kinds()))
	n := uint64(nstrs)
	ndef := r.count()
	if ndef > 0 {
		d.defs = slices.Grow(d.defs, ndef)
	}
	for range ndef {
		name := r.uvarint()
		k := r.byte()
		decl := k&declBit != 0
		k &^= declBit
		line, before, after := r.uvarint(), r.uvarint(), r.uvarint()
		nq := r.count()
		if r.err != nil {
			return r.err
		}
		if name >= n {
			return errBadID
		}
		if k == 0 || uint64(k) > maxKind || line > math.MaxInt32 || before > line || after > math.MaxInt32-line {
			return errors.New("bad definition")
		}
		from := len(d.quals)
		for range nq {
			q := r.uvarint()
			if r.err != nil {
				return r.err
			}
			if q >= n {
				return errBadID
			}
			d.quals = append(d.quals, uint32(q))
		}
		d.defs = append(d.defs, cacheDef{
			name: uint32(name), kind: grammar.Kind(k), decl: decl,
			line: int(line), start: int(line - before), end: int(line + after),
			qual: [2]int{from, len(d.quals)},
		})
	}
	nw := r.count()
	if r.err != nil {
		return r.err
	}
	if d.words == nil && nw > 0 {
		d.words = make([]uint32, 0, nw)
	}
	// The hot loop of a restart: most ids are one or two bytes.
	b, off := r.b, r.off
	for range nw {
		var v uint64
		if off < len(b) && b[off] < 0x80 {
			v = uint64(b[off])
			off++
		} else {
			var m int
			v, m = binary.Uvarint(b[off:])
			if m <= 0 {
				return errCacheTruncated
			}
			off += m
		}
		if v >= n {
			return errBadID
		}
		d.words = append(d.words, uint32(v))
	}
	if off != len(b) {
		return errors.New("trailing bytes in record")
	}
	return nil
}

var errBadID = errors.New("string id out of range")

// cacheReader reads the payload defensively: the checksum makes damage
// unlikely but not impossible, and a bad count must not allocate memory or
// index out of range. After the first error every read returns zero.
type cacheReader struct {
	b   []byte
	off int
	err error
}

var errCacheTruncated = errors.New("truncated record")

func (r *cacheReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.err = errCacheTruncated
		return 0
	}
	r.off += n
	return v
}

func (r *cacheReader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b[r.off:])
	if n <= 0 {
		r.err = errCacheTruncated
		return 0
	}
	r.off += n
	return v
}

func (r *cacheReader) byte() byte {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.b) {
		r.err = errCacheTruncated
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

// count reads a number of items, each at least one byte long, so that a
// damaged count is caught before anything is allocated for it.
func (r *cacheReader) count() int {
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.b)-r.off) {
		r.err = errCacheTruncated
		return 0
	}
	return int(n)
}

func (r *cacheReader) bytes() []byte {
	n := r.uvarint()
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)-r.off) {
		r.err = errCacheTruncated
		return nil
	}
	b := r.b[r.off : r.off+int(n) : r.off+int(n)]
	r.off += int(n)
	return b
}

// table reads the string table as slices of one string.
func (r *cacheReader) table() []string {
	n := r.count()
	if r.err != nil {
		return nil
	}
	lens := make([]uint32, n)
	var total uint64
	for i := range lens {
		l := r.uvarint()
		total += l
		if r.err != nil {
			return nil
		}
		if total > uint64(len(r.b)) {
			r.err = errCacheTruncated
			return nil
		}
		lens[i] = uint32(l)
	}
	if total > uint64(len(r.b)-r.off) {
		r.err = errCacheTruncated
		return nil
	}
	blob := string(r.b[r.off : r.off+int(total)])
	r.off += int(total)
	strs := make([]string, n)
	off := 0
	for i, l := range lens {
		strs[i] = blob[off : off+int(l)]
		off += int(l)
	}
	return strs
}

// encodeCache writes the cache file's bytes. Only the strings the saved
// records use are written; when some are unused (records replaced or
// deleted since the load), ids are renumbered and the records re-encoded,
// which needs no hashing, only a table from old id to new.
func encodeCache(root, producer string, written int64, entries []*cacheEntry, strs []string) ([]byte, error) {
	live := make([]bool, len(strs))
	nlive := 0
	mark := func(id uint32) {
		if !live[id] {
			live[id] = true
			nlive++
		}
	}
	kept := entries[:0:0]
	var d decoded
	for _, e := range entries {
		if e.stat.RacyAt(e.ref) {
			continue
		}
		// Loaded records are checked here, not at load: a restart only
		// pays for the records it looks up. A record that fails may have
		// marked some strings first; they are only kept for nothing.
		if err := d.decode(e.raw, len(strs)); err != nil {
			continue
		}
		kept = append(kept, e)
		mark(e.path)
		for _, cd := range d.defs {
			mark(cd.name)
		}
		for _, q := range d.quals {
			mark(q)
		}
		for _, w := range d.words {
			mark(w)
		}
	}
	// Sorted by path, so that equal caches make equal files.
	slices.SortFunc(kept, func(a, b *cacheEntry) int { return strings.Compare(strs[a.path], strs[b.path]) })
	newID := make([]uint32, len(strs))
	table := strs
	if nlive < len(strs) {
		table = make([]string, 0, nlive)
		for i, s := range strs {
			if live[i] {
				newID[i] = uint32(len(table))
				table = append(table, s)
			}
		}
	} else {
		for i := range newID {
			newID[i] = uint32(i)
		}
	}

	var blobLen, rawLen int
	for _, s := range table {
		blobLen += len(s)
	}
	for _, e := range kept {
		rawLen += len(e.raw)
	}
	out := make([]byte, cacheHeaderSize, cacheHeaderSize+64+len(root)+len(producer)+5*len(table)+blobLen+32*len(kept)+rawLen)
	copy(out, cacheMagic)
	binary.LittleEndian.PutUint32(out[8:], cacheVersion)
	out = binary.AppendUvarint(out, uint64(len(root)))
	out = append(out, root...)
	out = binary.AppendUvarint(out, uint64(len(producer)))
	out = append(out, producer...)
	out = binary.AppendVarint(out, written)
	out = binary.AppendUvarint(out, uint64(len(table)))
	for _, s := range table {
		out = binary.AppendUvarint(out, uint64(len(s)))
	}
	for _, s := range table {
		out = append(out, s...)
	}
	out = binary.AppendUvarint(out, uint64(len(kept)))
	var rec []byte
	for _, e := range kept {
		out = binary.AppendUvarint(out, uint64(newID[e.path]))
		out = binary.AppendUvarint(out, uint64(e.stat.Size))
		out = binary.AppendVarint(out, e.stat.MTime)
		out = binary.AppendUvarint(out, e.stat.Inode)
		out = binary.AppendVarint(out, e.stat.CTime)
		raw := e.raw
		if nlive < len(strs) {
			rec = renumber(rec[:0], raw, len(strs), newID)
			raw = rec
		}
		out = binary.AppendUvarint(out, uint64(len(raw)))
		out = append(out, raw...)
	}
	if len(out) > maxCacheFile {
		return nil, fmt.Errorf("cache too large: %d bytes", len(out))
	}
	payload := out[cacheHeaderSize:]
	binary.LittleEndian.PutUint32(out[12:], crc32.Checksum(payload, castagnoli))
	binary.LittleEndian.PutUint64(out[16:], uint64(len(payload)))
	return out, nil
}

// renumber appends raw to b with every string id mapped through newID.
// raw has been checked by decoded.decode.
func renumber(b, raw []byte, nstrs int, newID []uint32) []byte {
	var d decoded
	_ = d.decode(raw, nstrs)
	b = binary.AppendUvarint(b, uint64(len(d.defs)))
	for _, cd := range d.defs {
		b = binary.AppendUvarint(b, uint64(newID[cd.name]))
		b = append(b, kindByte(cd.kind, cd.decl))
		b = binary.AppendUvarint(b, uint64(cd.line))
		b = binary.AppendUvarint(b, uint64(cd.line-cd.start))
		b = binary.AppendUvarint(b, uint64(cd.end-cd.line))
		quals := d.quals[cd.qual[0]:cd.qual[1]]
		b = binary.AppendUvarint(b, uint64(len(quals)))
		for _, q := range quals {
			b = binary.AppendUvarint(b, uint64(newID[q]))
		}
	}
	b = binary.AppendUvarint(b, uint64(len(d.words)))
	for _, w := range d.words {
		b = binary.AppendUvarint(b, uint64(newID[w]))
	}
	return b
}
