// Package diskcache is the file format of the index's disk cache: a
// store of every file's records by the file's content, shared by every
// project and process of the user (see [Store]), and per project one
// file, its snapshot, listing the project's files with their stat and the
// key of their records in the store, so that a restart reads one file,
// checks each file's stat against the walk, and re-reads only the files
// that changed; beside it the project's image, the whole index in
// sections (see [Image]). It knows nothing of what the records mean.
//
// The snapshot file starts with a magic, a format version, a checksum
// and the length of what follows; what follows names the project's real
// path and the program that produced the records. A file that fails any
// check is discarded as a whole. Saving writes a temporary file and
// renames it over the old one, so concurrent savers (two zumba servers on
// one project) leave one complete file, the last one written.
//
// The payload, after the header:
//
//	root          string (uvarint length, bytes)
//	producer      string
//	written at    varint, Unix ns
//	files         uvarint count, each: its path (how many bytes it shares
//	              with the path before, then the rest as a string), size,
//	              mtime (varint, less the file before's), inode, ctime
//	              (varint, less the file before's), and its key (16 bytes)
//
// Numbers are uvarints unless marked.
package diskcache

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

	"github.com/zumba-dev/zumba/internal/filestat"
)

// The cache file format. Bump version whenever the layout or the meaning
// of a record changes (the definitions' encoding included).
const (
	magic      = "zumbaFC\x00"
	version    = 13
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

// Snapshot is a project's part of the disk cache: its files, each with
// its stat and the key of its records in the store (see [Store]).
type Snapshot struct {
	// Written is when the snapshot was taken (Unix ns): a record whose
	// stat is racy at this time is not to be trusted (see
	// [filestat.Stat.RacyAt]).
	Written int64
	Files   []File
}

// File is one file's record.
type File struct {
	Path string
	Stat filestat.Stat
	// Key is its records' key in the store; the zero key for a file
	// nothing is read from (binary, too large).
	Key Key
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Encode writes the cache file's bytes for the project at root, written
// by producer (see [Producer]).
func Encode(root, producer string, s *Snapshot) ([]byte, error) {
	size := headerSize + 64 + len(root) + len(producer)
	for i := range s.Files {
		size += 40 + len(s.Files[i].Path) + len(Key{})
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
	out = binary.AppendUvarint(out, uint64(len(s.Files)))
	prev := ""
	var prevM, prevC int64
	for i := range s.Files {
		r := &s.Files[i]
		// The path as the length it shares with the one before, then
		// the rest: a project's paths come sorted, and share most.
		n := 0
		for n < len(prev) && n < len(r.Path) && prev[n] == r.Path[n] {
			n++
		}
		out = binary.AppendUvarint(out, uint64(n))
		out = appendString(out, r.Path[n:])
		prev = r.Path
		out = binary.AppendUvarint(out, uint64(r.Stat.Size))
		// Times as their difference from the file before's: the files
		// of a checkout were written within moments of each other.
		out = binary.AppendVarint(out, r.Stat.MTime-prevM)
		out = binary.AppendUvarint(out, r.Stat.Inode)
		out = binary.AppendVarint(out, r.Stat.CTime-prevC)
		prevM, prevC = r.Stat.MTime, r.Stat.CTime
		out = append(out, r.Key[:]...)
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
	nfiles := r.Count()
	if r.err != nil {
		return nil, r.err
	}
	s.Files = make([]File, nfiles)
	seen := make(map[string]bool, nfiles)
	// The paths, end to end, as they are decoded (the strings point into
	// it: a larger array for the next ones leaves them where they are).
	paths := make([]byte, 0, 3*len(r.b))
	// A damaged shared length repeats the path before: bounded, so that
	// it cannot ask for memory.
	maxPaths := 32*len(r.b) + 1<<20
	prev := 0 // where the path before starts in paths
	var prevM, prevC int64
	for i := range s.Files {
		f := &s.Files[i]
		shared := r.Uvarint()
		rest := r.Bytes()
		if r.err == nil && (shared > uint64(len(paths)-prev) || len(paths)+int(shared)+len(rest) > maxPaths) {
			r.err = errors.New("bad path")
		}
		if r.err != nil {
			return nil, r.err
		}
		start := len(paths)
		paths = append(paths, paths[prev:prev+int(shared)]...)
		paths = append(paths, rest...)
		prev = start
		path := paths[start:]
		f.Stat = filestat.Stat{Size: int64(r.Uvarint()), MTime: prevM + r.Varint(), Inode: r.Uvarint(), CTime: prevC + r.Varint()}
		prevM, prevC = f.Stat.MTime, f.Stat.CTime
		if r.err == nil && len(r.b)-r.off < len(f.Key) {
			r.err = errTruncated
		}
		if r.err != nil {
			return nil, r.err
		}
		copy(f.Key[:], r.b[r.off:])
		r.off += len(f.Key)
		p := unsafe.String(unsafe.SliceData(path), len(path))
		if len(path) == 0 || f.Stat.Size < 0 || seen[p] {
			return nil, errors.New("bad file record")
		}
		seen[p] = true
		f.Path = p
	}
	if r.off != len(r.b) {
		return nil, errors.New("trailing bytes")
	}
	return s, nil
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
