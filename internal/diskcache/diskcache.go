// Package diskcache is the file format of the index's disk cache: one
// file holding a snapshot of a whole index (its strings, its file records
// with their stat, encoded definitions and their words, and its two
// postings), so that
// a restart reads one file, checks each file's stat against the walk, and
// re-reads only the files that changed. It knows nothing of what the
// records mean: definitions are bytes the index encodes, postings are
// lists of file ids.
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
//	                encoding as a string, then the length of their words'
//	                encoding (find_code's)
//	words         postings: uvarint key count, each key's byte length,
//	                then the bytes (see [Postings])
//	definitions   postings, the same way
//	code words    the words' encodings of every record, end to end in
//	                file order, compressed with DEFLATE (compress/flate):
//	                uvarint compressed length, then the bytes (they are
//	                varints with little else to squeeze: compressed, the
//	                Go standard library's 6.4 MB take about 4 MB)
//
// Numbers are uvarints unless marked; ids index the string table.
package diskcache

import (
	"bytes"
	"compress/flate"
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

	"github.com/zumba-dev/zumba/internal/filestat"
)

// The cache file format. Bump version whenever the layout or the meaning
// of a record changes (the definitions' encoding included).
const (
	magic      = "zumbaFC\x00"
	version    = 10
	headerSize = 8 + 4 + 4 + 8 // magic, version, crc32c, payload length
	// maxFile keeps a damaged length field from asking for memory that
	// was never written.
	maxFile = 1 << 31
)

// FileName is the cache file's name in its folder (see [Dir]).
const FileName = "files"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Dir is the folder of the disk cache of the project whose real path
// (symbolic links resolved) is realRoot: the user's cache folder, then
// zumba, then a hash of the path, so two projects never share a file and
// the path needs no escaping.
func Dir(realRoot string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cache folder: %w", err)
	}
	sum := sha256.Sum256([]byte(realRoot))
	return filepath.Join(base, "zumba", hex.EncodeToString(sum[:16])), nil
}

// Snapshot is an index as the disk cache holds it.
type Snapshot struct {
	// Written is when the snapshot was taken (Unix ns): a record whose
	// stat is racy at this time is not to be trusted (see
	// [filestat.Stat.RacyAt]).
	Written int64
	// Strings are the strings the records and postings number: a
	// *Table once decoded.
	Strings Strings
	// Files by id; a File with an empty Path is an id without a record.
	Files          []File
	Words, Defines Postings
}

// Strings is a table of strings by number.
type Strings interface {
	Len() int
	At(i int) string
}

// StringList is a Strings of a slice.
type StringList []string

// Len returns the number of strings.
func (l StringList) Len() int { return len(l) }

// At returns string i.
func (l StringList) At(i int) string { return l[i] }

// Table is a decoded string table: the strings end to end in Data (a
// part of the cache file's bytes), string i ending at Ends[i], so that
// millions of strings cost 4 bytes each and no pointer.
type Table struct {
	Data []byte
	Ends []uint32
}

// Len returns the number of strings.
func (t *Table) Len() int { return len(t.Ends) }

// At returns string i, pointing into Data.
func (t *Table) At(i int) string {
	start := uint32(0)
	if i > 0 {
		start = t.Ends[i-1]
	}
	return unsafe.String(unsafe.SliceData(t.Data[start:]), int(t.Ends[i]-start))
}

// EndToEnd returns Data and Ends.
func (t *Table) EndToEnd() ([]byte, []uint32) { return t.Data, t.Ends }

// File is one file's record.
type File struct {
	Path string
	Stat filestat.Stat
	// Parsed: Defs are the file's definitions, encoded by the index
	// (empty for none); otherwise only its words are known.
	Parsed bool
	Defs   []byte
	// Code is the definitions' words for find_code, encoded by the
	// index (empty for none); with Parsed only.
	Code []byte
	// Generated: the file's first lines say it is generated
	// (grammar.IsGeneratedHead).
	Generated bool
}

// Postings maps each key k (a string id) to a list of file ids: Data from
// Off[k] to Off[k+1], each id written as a uvarint of its difference from
// the one before (the first from zero), so ids increase and are never 0
// apart. Off has one more entry than there are keys, or none.
type Postings struct {
	Off  []uint32
	Data []byte
}

// Record states in the files section.
const (
	stateNone   = 0
	stateWords  = 1
	stateParsed = 2
	// stateGenerated is or'ed into a record's state when its file is
	// generated (File.Generated).
	stateGenerated = 0x80
)

func generatedBit(generated bool) byte {
	if generated {
		return stateGenerated
	}
	return 0
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendPostings(b []byte, p Postings) []byte {
	nkeys := max(len(p.Off)-1, 0)
	b = binary.AppendUvarint(b, uint64(nkeys))
	for k := range nkeys {
		b = binary.AppendUvarint(b, uint64(p.Off[k+1]-p.Off[k]))
	}
	return append(b, p.Data...)
}

// Encode writes the cache file's bytes for the project at root, written
// by producer (see [Producer]).
func Encode(root, producer string, s *Snapshot) ([]byte, error) {
	size := headerSize + 64 + len(root) + len(producer) + len(s.Words.Data) + len(s.Defines.Data) + 5*(len(s.Words.Off)+len(s.Defines.Off))
	nstr := 0
	if s.Strings != nil {
		nstr = s.Strings.Len()
	}
	for i := range nstr {
		size += 1 + len(s.Strings.At(i))
	}
	for i := range s.Files {
		if r := &s.Files[i]; r.Path != "" {
			size += 45 + len(r.Path) + len(r.Defs) + len(r.Code)
		}
	}
	if size > maxFile {
		return nil, fmt.Errorf("cache too large: about %d bytes", size)
	}
	out := make([]byte, headerSize, size)
	copy(out, magic)
	binary.LittleEndian.PutUint32(out[8:], version)
	out = appendString(out, root)
	out = appendString(out, producer)
	out = binary.AppendVarint(out, s.Written)
	out = binary.AppendUvarint(out, uint64(nstr))
	for i := range nstr {
		out = binary.AppendUvarint(out, uint64(len(s.Strings.At(i))))
	}
	for i := range nstr {
		out = append(out, s.Strings.At(i)...)
	}
	out = binary.AppendUvarint(out, uint64(len(s.Files)))
	for i := range s.Files {
		r := &s.Files[i]
		switch {
		case r.Path == "":
			out = append(out, stateNone)
			continue
		case r.Parsed:
			out = append(out, stateParsed|generatedBit(r.Generated))
		default:
			out = append(out, stateWords|generatedBit(r.Generated))
		}
		out = appendString(out, r.Path)
		out = binary.AppendUvarint(out, uint64(r.Stat.Size))
		out = binary.AppendVarint(out, r.Stat.MTime)
		out = binary.AppendUvarint(out, r.Stat.Inode)
		out = binary.AppendVarint(out, r.Stat.CTime)
		if r.Parsed {
			out = appendString(out, unsafe.String(unsafe.SliceData(r.Defs), len(r.Defs)))
			out = binary.AppendUvarint(out, uint64(len(r.Code)))
		}
	}
	out = appendPostings(out, s.Words)
	out = appendPostings(out, s.Defines)
	out, err := appendCode(out, s.Files)
	if err != nil {
		return nil, err
	}
	if len(out) > maxFile {
		return nil, fmt.Errorf("cache too large: %d bytes", len(out))
	}
	payload := out[headerSize:]
	binary.LittleEndian.PutUint32(out[12:], crc32.Checksum(payload, castagnoli))
	binary.LittleEndian.PutUint64(out[16:], uint64(len(payload)))
	return out, nil
}

// Load reads the cache file, accepting it only if it was written for the
// project at root by producer. No file gives no snapshot and no error; a
// file it cannot use gives an error saying why it was discarded.
func Load(file, root, producer string) (*Snapshot, error) {
	b, err := readFile(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	}
	s, err := Decode(b, root, producer)
	if err != nil {
		return nil, fmt.Errorf("cache %s discarded: %w", file, err)
	}
	return s, nil
}

func readFile(file string) ([]byte, error) {
	f, err := filestat.OpenRegular(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read cache %s: %w", file, err)
	}
	if fi.Size() > maxFile {
		return nil, fmt.Errorf("cache %s discarded: %d bytes is too large", file, fi.Size())
	}
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("read cache %s: %w", file, err)
	}
	return b, nil
}

// Decode checks and decodes a cache file's bytes. The snapshot's strings
// and slices point into b, which must not change afterwards. Every
// postings list of a snapshot it returns decodes into increasing file ids
// below len(Files); the definitions are not checked.
func Decode(b []byte, root, producer string) (*Snapshot, error) {
	if len(b) < headerSize {
		return nil, fmt.Errorf("truncated header (%d bytes)", len(b))
	}
	if string(b[:8]) != magic {
		return nil, errors.New("not a zumba cache file")
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != version {
		return nil, fmt.Errorf("format version %d, want %d", v, version)
	}
	sum := binary.LittleEndian.Uint32(b[12:])
	n := binary.LittleEndian.Uint64(b[16:])
	payload := b[headerSize:]
	if n != uint64(len(payload)) {
		return nil, fmt.Errorf("truncated: %d payload bytes, header says %d", len(payload), n)
	}
	if crc32.Checksum(payload, castagnoli) != sum {
		return nil, errors.New("checksum mismatch")
	}
	r := &Reader{b: payload}
	gotRoot := r.Bytes()
	gotProducer := r.Bytes()
	s := &Snapshot{Written: r.Varint()}
	if r.err != nil {
		return nil, r.err
	}
	if string(gotRoot) != root {
		return nil, fmt.Errorf("written for %s, not %s", gotRoot, root)
	}
	if string(gotProducer) != producer {
		return nil, fmt.Errorf("written by %q, not %q", gotProducer, producer)
	}
	s.Strings = r.table()
	nfiles := r.Count()
	if r.err != nil {
		return nil, r.err
	}
	s.Files = make([]File, nfiles)
	codeLens := make([]int, nfiles)
	var codeTotal uint64
	seen := make(map[string]bool, nfiles)
	for i := range s.Files {
		state := r.Byte()
		if state == stateNone {
			continue
		}
		generated := state&stateGenerated != 0
		state &^= stateGenerated
		path := r.Bytes()
		st := filestat.Stat{Size: int64(r.Uvarint()), MTime: r.Varint(), Inode: r.Uvarint(), CTime: r.Varint()}
		var defs []byte
		var codeLen uint64
		if state == stateParsed {
			defs, codeLen = r.Bytes(), r.Uvarint()
		}
		if r.err != nil {
			return nil, r.err
		}
		p := unsafe.String(unsafe.SliceData(path), len(path))
		codeTotal += codeLen
		if state > stateParsed || len(path) == 0 || st.Size < 0 || seen[p] || codeTotal > maxFile {
			return nil, errors.New("bad file record")
		}
		seen[p] = true
		if len(defs) == 0 {
			defs = nil
		}
		codeLens[i] = int(codeLen)
		s.Files[i] = File{Path: p, Stat: st, Parsed: state == stateParsed, Defs: defs, Generated: generated}
	}
	for _, p := range []*Postings{&s.Words, &s.Defines} {
		r.postings(p, nfiles)
	}
	if r.err != nil {
		return nil, r.err
	}
	if err := r.code(s.Files, codeLens, codeTotal); err != nil {
		return nil, err
	}
	if r.off != len(r.b) {
		return nil, errors.New("trailing bytes")
	}
	return s, nil
}

// appendCode appends the code words section: every record's Code, end to
// end, compressed.
func appendCode(out []byte, files []File) ([]byte, error) {
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.DefaultCompression)
	if err != nil {
		return nil, err
	}
	for i := range files {
		if r := &files[i]; r.Path != "" && r.Parsed {
			w.Write(r.Code)
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	out = binary.AppendUvarint(out, uint64(buf.Len()))
	return append(out, buf.Bytes()...), nil
}

// code reads the code words section and gives each parsed record its
// Code, of the lengths the files section gave (total in all).
func (r *Reader) code(files []File, lens []int, total uint64) error {
	n := r.Uvarint()
	if r.err == nil && n > uint64(len(r.b)-r.off) {
		r.err = errTruncated
	}
	if r.err != nil {
		return r.err
	}
	z := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	// DEFLATE expands at most about 1032 times: a larger total is damage,
	// not a reason to allocate.
	if total > 1032*n+64 {
		return errors.New("code words: bad length")
	}
	all := make([]byte, total)
	fr := flate.NewReader(bytes.NewReader(z))
	defer fr.Close()
	if _, err := io.ReadFull(fr, all); err != nil {
		return fmt.Errorf("code words: %w", err)
	}
	if m, _ := fr.Read(make([]byte, 1)); m != 0 {
		return errors.New("code words: trailing bytes")
	}
	at := 0
	for i := range files {
		if l := lens[i]; l > 0 {
			files[i].Code = all[at : at+l : at+l]
			at += l
		}
	}
	return nil
}

// postings reads a postings section, checking that every list decodes
// into increasing file ids below nfiles.
func (r *Reader) postings(p *Postings, nfiles int) {
	nkeys := r.Count()
	if r.err != nil {
		return
	}
	off := make([]uint32, nkeys+1)
	var total uint64
	for k := range nkeys {
		l := r.Uvarint()
		total += l
		if r.err == nil && total > uint64(len(r.b)) {
			r.err = errTruncated
		}
		if r.err != nil {
			return
		}
		off[k+1] = uint32(total)
	}
	if total > uint64(len(r.b)-r.off) {
		r.err = errTruncated
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
	p.Off, p.Data = off, data
}

// WriteAtomic replaces file with b by writing a temporary file beside it
// and renaming it: readers see the old file or the new one, never a
// mixture. The file is not synced: a crash may leave a torn file, which
// the checksum rejects at the next load, and an fsync per save would cost
// more than the rare rebuild it saves.
func WriteAtomic(file string, b []byte) error {
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

// Producer names the build of zumba that produces records, so that a
// cache written by another build (whose queries may find other symbols) is
// not trusted: the module version and VCS revision, and for a build from a
// modified or unknown tree, the executable's size and time.
func Producer() string {
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
