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
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"
	"unsafe"
)

// The disk cache is one file holding a snapshot of the whole index: its
// strings, its file records (stat and encoded definitions), and its two
// postings as they are in memory, so that a restart reads one file, checks
// each file's stat against the walk, and re-reads only the files that
// changed. A record is only ever used for a file whose size, modification
// time, inode and status change time still match, and never for a file
// modified so close to the time it was read that a later write could hide
// behind the same time stamp (see [RacyWindow]); files that could not be
// read, or whose parse failed, are not saved as empty.
//
// The file starts with a magic, a format version, a checksum and the
// length of what follows; what follows names the project's real path and
// the program that produced the records. A file that fails any check is
// discarded as a whole. Saving writes a temporary file and renames it
// over the old one, so concurrent savers (two zumba servers on one
// project) leave one complete file, the last one written.
//
// The payload, after the header:
//
//	root          string (uvarint length, bytes)
//	producer      string
//	written at    varint, Unix ns
//	strings       uvarint count, count uvarint lengths, the bytes end to end
//	files         uvarint count (the ids), each: a state byte (0: no
//	                record, 1: words only, 2: words and definitions);
//	                for a record its path (string), size, mtime (varint),
//	                inode, ctime (varint), and with definitions their
//	                encoding (see index_defs.go) as a string
//	words         postings: uvarint key count, each key's byte length,
//	                then the bytes (see postings)
//	definitions   postings, the same way
//
// Numbers are uvarints unless marked; ids index the string table.

// The cache file format. Bump cacheVersion whenever the layout or the
// meaning of a record changes.
const (
	cacheMagic      = "zumbaFC\x00"
	cacheVersion    = 6
	cacheHeaderSize = 8 + 4 + 4 + 8 // magic, version, crc32c, payload length
	cacheFileName   = "files"
	// maxCacheFile keeps a damaged length field from asking for memory that
	// was never written.
	maxCacheFile = 1 << 31
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

// snapshot is the index as the disk cache holds it.
type snapshot struct {
	written int64
	strs    []string
	// files by id; nil for an id without a record.
	files          []*fileRec
	words, defines postings
}

// Record states in the files section.
const (
	stateNone   = 0
	stateWords  = 1
	stateParsed = 2
)

// saveLocked writes the disk cache if the index changed since it was
// last saved or loaded. The caller holds syncMu. The postings are merged
// first, so the snapshot needs no overlay.
func (ix *Index) saveLocked() {
	if ix.cacheFile == "" {
		return
	}
	ix.mu.Lock()
	if ix.gen == ix.savedGen {
		ix.mu.Unlock()
		return
	}
	ix.mergeLocked(true)
	gen := ix.gen
	s := &snapshot{strs: ix.words.strs, words: ix.wordPost, defines: ix.defines}
	s.files = make([]*fileRec, len(ix.files))
	for i, r := range ix.files {
		// A racy record would be re-read at the next start anyway, and
		// saved under a later time it would look verified.
		if r == nil || r.failed || r.ref != 0 && r.st.RacyAt(r.ref) {
			continue
		}
		c := &fileRec{path: r.path, st: r.st}
		if r.parsed && !r.parseFailed {
			c.parsed, c.defs = true, r.defs
		}
		s.files[i] = c
	}
	ix.mu.Unlock()
	b, err := encodeSnapshot(ix.root.Real, BuildProducer(), time.Now().UnixNano(), s)
	if err == nil {
		err = writeFileAtomic(ix.cacheFile, b)
	}
	if err != nil {
		ix.logf("save cache %s: %v", ix.cacheFile, err)
		return
	}
	ix.mu.Lock()
	ix.savedGen = max(ix.savedGen, gen)
	ix.mu.Unlock()
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendPostings(b []byte, p postings) []byte {
	nkeys := max(len(p.off)-1, 0)
	b = binary.AppendUvarint(b, uint64(nkeys))
	for k := range nkeys {
		b = binary.AppendUvarint(b, uint64(p.off[k+1]-p.off[k]))
	}
	return append(b, p.data...)
}

// encodeSnapshot writes the cache file's bytes.
func encodeSnapshot(root, producer string, written int64, s *snapshot) ([]byte, error) {
	size := cacheHeaderSize + 64 + len(root) + len(producer) + len(s.words.data) + len(s.defines.data) + 5*(len(s.words.off)+len(s.defines.off))
	for _, t := range s.strs {
		size += 1 + len(t)
	}
	for _, r := range s.files {
		if r != nil {
			size += 40 + len(r.path) + len(r.defs)
		}
	}
	if size > maxCacheFile {
		return nil, fmt.Errorf("cache too large: about %d bytes", size)
	}
	out := make([]byte, cacheHeaderSize, size)
	copy(out, cacheMagic)
	binary.LittleEndian.PutUint32(out[8:], cacheVersion)
	out = appendString(out, root)
	out = appendString(out, producer)
	out = binary.AppendVarint(out, written)
	out = binary.AppendUvarint(out, uint64(len(s.strs)))
	for _, t := range s.strs {
		out = binary.AppendUvarint(out, uint64(len(t)))
	}
	for _, t := range s.strs {
		out = append(out, t...)
	}
	out = binary.AppendUvarint(out, uint64(len(s.files)))
	for _, r := range s.files {
		switch {
		case r == nil:
			out = append(out, stateNone)
			continue
		case r.parsed:
			out = append(out, stateParsed)
		default:
			out = append(out, stateWords)
		}
		out = appendString(out, r.path)
		out = binary.AppendUvarint(out, uint64(r.st.Size))
		out = binary.AppendVarint(out, r.st.MTime)
		out = binary.AppendUvarint(out, r.st.Inode)
		out = binary.AppendVarint(out, r.st.CTime)
		if r.parsed {
			out = binary.AppendUvarint(out, uint64(len(r.defs)))
			out = append(out, r.defs...)
		}
	}
	out = appendPostings(out, s.words)
	out = appendPostings(out, s.defines)
	if len(out) > maxCacheFile {
		return nil, fmt.Errorf("cache too large: %d bytes", len(out))
	}
	payload := out[cacheHeaderSize:]
	binary.LittleEndian.PutUint32(out[12:], crc32.Checksum(payload, castagnoli))
	binary.LittleEndian.PutUint64(out[16:], uint64(len(payload)))
	return out, nil
}

// loadSnapshot reads the cache file, accepting it only if it was written
// for the project at root by producer. No file gives no snapshot and no
// error; a file it cannot use gives an error saying why it was discarded.
func loadSnapshot(file, root, producer string) (*snapshot, error) {
	b, err := readCacheFile(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	}
	s, err := decodeSnapshot(b, root, producer)
	if err != nil {
		return nil, fmt.Errorf("cache %s discarded: %w", file, err)
	}
	return s, nil
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

// decodeSnapshot checks and decodes a cache file's bytes. The snapshot's
// strings and slices point into b, which must not change afterwards.
func decodeSnapshot(b []byte, root, producer string) (*snapshot, error) {
	if len(b) < cacheHeaderSize {
		return nil, fmt.Errorf("truncated header (%d bytes)", len(b))
	}
	if string(b[:8]) != cacheMagic {
		return nil, errors.New("not a zumba cache file")
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != cacheVersion {
		return nil, fmt.Errorf("format version %d, want %d", v, cacheVersion)
	}
	sum := binary.LittleEndian.Uint32(b[12:])
	n := binary.LittleEndian.Uint64(b[16:])
	payload := b[cacheHeaderSize:]
	if n != uint64(len(payload)) {
		return nil, fmt.Errorf("truncated: %d payload bytes, header says %d", len(payload), n)
	}
	if crc32.Checksum(payload, castagnoli) != sum {
		return nil, errors.New("checksum mismatch")
	}
	r := &cacheReader{b: payload}
	gotRoot := r.bytes()
	gotProducer := r.bytes()
	s := &snapshot{written: r.varint()}
	if r.err != nil {
		return nil, r.err
	}
	if string(gotRoot) != root {
		return nil, fmt.Errorf("written for %s, not %s", gotRoot, root)
	}
	if string(gotProducer) != producer {
		return nil, fmt.Errorf("written by %q, not %q", gotProducer, producer)
	}
	s.strs = r.table()
	nfiles := r.count()
	if r.err != nil {
		return nil, r.err
	}
	s.files = make([]*fileRec, nfiles)
	seen := make(map[string]bool, nfiles)
	for i := range s.files {
		state := r.byte()
		if state == stateNone {
			continue
		}
		path := r.bytes()
		st := FileStat{Size: int64(r.uvarint()), MTime: r.varint(), Inode: r.uvarint(), CTime: r.varint()}
		var defs []byte
		if state == stateParsed {
			defs = r.bytes()
		}
		if r.err != nil {
			return nil, r.err
		}
		p := unsafe.String(unsafe.SliceData(path), len(path))
		if state > stateParsed || len(path) == 0 || st.Size < 0 || seen[p] {
			return nil, errors.New("bad file record")
		}
		seen[p] = true
		if len(defs) == 0 {
			defs = nil
		}
		s.files[i] = &fileRec{path: p, id: uint32(i), st: st, parsed: state == stateParsed, defs: defs}
	}
	for _, p := range []*postings{&s.words, &s.defines} {
		r.postings(p, nfiles)
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.off != len(r.b) {
		return nil, errors.New("trailing bytes")
	}
	return s, nil
}

// postings reads a postings section, checking that every list decodes
// into increasing file ids below nfiles.
func (r *cacheReader) postings(p *postings, nfiles int) {
	nkeys := r.count()
	if r.err != nil {
		return
	}
	off := make([]uint32, nkeys+1)
	var total uint64
	for k := range nkeys {
		l := r.uvarint()
		total += l
		if r.err == nil && total > uint64(len(r.b)) {
			r.err = errCacheTruncated
		}
		if r.err != nil {
			return
		}
		off[k+1] = uint32(total)
	}
	if total > uint64(len(r.b)-r.off) {
		r.err = errCacheTruncated
		return
	}
	data := r.b[r.off : r.off+int(total) : r.off+int(total)]
	r.off += int(total)
	for k := range nkeys {
		b := data[off[k]:off[k+1]]
		var f uint64
		for i := 0; i < len(b); {
			d, m := binary.Uvarint(b[i:])
			if m <= 0 || d == 0 {
				r.err = errors.New("bad postings")
				return
			}
			i += m
			f += d
			if f > uint64(nfiles) {
				r.err = errors.New("bad postings")
				return
			}
		}
	}
	p.off, p.data = off, data
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
	blob := unsafe.String(unsafe.SliceData(r.b[r.off:]), int(total))
	r.off += int(total)
	strs := make([]string, n)
	off := 0
	for i, l := range lens {
		strs[i] = blob[off : off+int(l)]
		off += int(l)
	}
	return strs
}
