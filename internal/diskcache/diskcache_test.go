package diskcache

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/internal/filestat"
)

// sample is a snapshot of four files, one with nothing in it.
func sample() *Snapshot {
	st := func(i int64) filestat.Stat {
		return filestat.Stat{Size: 100 * i, MTime: 1_700_000_000_000_000_000 + i, Inode: uint64(1000 + i), CTime: -i}
	}
	key := func(b byte) Key { return Key{b, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, b} }
	return &Snapshot{
		Written: 1_700_000_000_123_456_789,
		Files: []File{
			{Path: "README.md", Stat: st(1), Key: key(1)},
			{Path: "main.go", Stat: st(2), Key: key(2)},
			{Path: "bin/data", Stat: st(3)},
			{Path: "dir/empty.go", Stat: st(4), Key: key(4)},
		},
	}
}

// TestRoundTrip: a snapshot comes out of its file as it went in.
func TestRoundTrip(t *testing.T) {
	want := sample()
	b, err := Encode("/project", "zumba test", want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b, "/project", "zumba test")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("snapshot (-want +got):\n%s", d)
	}
	empty, err := Encode("/p", "z", &Snapshot{})
	if err != nil {
		t.Fatal(err)
	}
	if s, err := Decode(empty, "/p", "z"); err != nil || len(s.Files) != 0 {
		t.Errorf("empty snapshot: %+v, %v", s, err)
	}
}

// TestDiscarded: a cache file that is truncated, damaged, of another
// version, or written for another project or by another build is
// discarded as a whole, saying why.
func TestDiscarded(t *testing.T) {
	const root, producer = "/project", "zumba test"
	b, err := Encode(root, producer, sample())
	if err != nil {
		t.Fatal(err)
	}
	damaged := slices.Clone(b)
	damaged[len(damaged)/2] ^= 0x40
	older := slices.Clone(b)
	binary.LittleEndian.PutUint32(older[8:], version-1)
	cases := []struct {
		name, root, producer string
		b                    []byte
		want                 string
	}{
		{"empty", root, producer, nil, "truncated header"},
		{"magic", root, producer, append([]byte("notzumba"), b[8:]...), "not a zumba cache"},
		{"version", root, producer, older, "format version"},
		{"truncated", root, producer, b[:len(b)-3], "truncated"},
		{"damaged", root, producer, damaged, "checksum"},
		{"other project", "/elsewhere", producer, b, "written for"},
		{"other build", root, "zumba other", b, "written by"},
	}
	for _, c := range cases {
		if _, err := Decode(c.b, c.root, c.producer); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v; want %q", c.name, err, c.want)
		}
	}
	file := filepath.Join(t.TempDir(), FileName)
	if err := WriteAtomic(file, damaged); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(file, root, producer); err == nil || !strings.Contains(err.Error(), "discarded") {
		t.Errorf("Load of a damaged file: %v", err)
	}
	if err := WriteAtomic(file, b); err != nil {
		t.Fatal(err)
	}
	if s, err := Load(file, root, producer); err != nil || len(s.Files) != 4 {
		t.Errorf("Load of a good file = %+v, %v", s, err)
	}
	if s, err := Load(filepath.Join(t.TempDir(), "none"), root, producer); s != nil || err != nil {
		t.Errorf("Load of no file = %v, %v", s, err)
	}
	if _, err := Load(t.TempDir(), root, producer); err == nil {
		t.Error("Load of a folder: no error")
	}
}

// TestBadRecords: records that pass the checksum but break the format's
// rules are refused.
func TestBadRecords(t *testing.T) {
	dup := sample()
	dup.Files[3].Path = "main.go"
	empty := sample()
	empty.Files[1].Path = ""
	for name, s := range map[string]*Snapshot{"duplicate path": dup, "empty path": empty} {
		b, err := Encode("/p", "z", s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(b, "/p", "z"); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// reframe gives payload a valid header, so that damage reaches the decoder.
func reframe(payload []byte) []byte {
	b := make([]byte, headerSize, headerSize+len(payload))
	copy(b, magic)
	binary.LittleEndian.PutUint32(b[8:], version)
	b = append(b, payload...)
	binary.LittleEndian.PutUint32(b[12:], crc32.Checksum(payload, castagnoli))
	binary.LittleEndian.PutUint64(b[16:], uint64(len(payload)))
	return b
}

// checkDecoded decodes a cache file's bytes and, if the decoder accepts
// them, checks what it returned: every file has a path, and none twice.
func checkDecoded(t *testing.T, b []byte, root, producer string) {
	t.Helper()
	s, err := Decode(b, root, producer)
	if err != nil {
		return
	}
	seen := map[string]bool{}
	for _, r := range s.Files {
		if r.Path == "" || seen[r.Path] {
			t.Fatalf("bad record accepted: %+v", r)
		}
		seen[r.Path] = true
	}
}

// TestDecoderRobust: damage that the checksum does not catch (the
// checksum recomputed) never makes the decoder or a reader of what it
// returns panic, loop or read out of range.
func TestDecoderRobust(t *testing.T) {
	const root, producer = "/project", "zumba test"
	b, err := Encode(root, producer, sample())
	if err != nil {
		t.Fatal(err)
	}
	seed, err := os.ReadFile("testdata/fuzz/FuzzDiskCacheDecode/saved-project")
	if err != nil {
		t.Fatal(err)
	}
	var real []byte
	if _, err := fmt.Sscanf(string(bytes.SplitN(seed, []byte("\n"), 2)[1]), "[]byte(%q)", &real); err != nil {
		t.Fatalf("seed: %v", err)
	}
	fuzzRoot, fuzzProducer := "/project", "zumba-fuzz"
	realB := reframe(append(appendString(appendString(nil, fuzzRoot), fuzzProducer), real...))
	if _, err := Decode(realB, fuzzRoot, fuzzProducer); err != nil {
		t.Fatalf("the saved project's seed does not decode: %v", err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		c, r, p := b, root, producer
		if i%2 == 1 {
			c, r, p = realB, fuzzRoot, fuzzProducer
		}
		c = slices.Clone(c[headerSize:])
		for range 1 + rng.IntN(4) {
			c[rng.IntN(len(c))] = byte(rng.IntN(256))
		}
		if rng.IntN(4) == 0 {
			c = c[:rng.IntN(len(c))]
		}
		checkDecoded(t, reframe(c), r, p)
	}
}

// FuzzDiskCacheDecode: any cache payload behind a valid header (length and
// checksum recomputed, so the fuzzer reaches the decoder) is refused with an
// error or decodes into a snapshot that can be read without a panic. The
// input is the payload after its root and producer strings; the seed in
// testdata/fuzz is a snapshot of 44 files.
func FuzzDiskCacheDecode(f *testing.F) {
	f.Add([]byte{})
	const root, producer = "/project", "zumba-fuzz"
	f.Fuzz(func(t *testing.T, tail []byte) {
		payload := appendString(appendString(nil, root), producer)
		checkDecoded(t, reframe(append(payload, tail...)), root, producer)
	})
}

// TestWriteAtomic: concurrent writers of one file leave one of their files
// whole, and a stale temporary file of a dead writer is removed.
func TestWriteAtomic(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	file := filepath.Join(dir, FileName)
	if err := WriteAtomic(file, []byte("first")); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, FileName+".123.tmp")
	fresh := filepath.Join(dir, FileName+".456.tmp")
	os.WriteFile(stale, nil, 0o600)
	os.WriteFile(fresh, nil, 0o600)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	var wg sync.WaitGroup
	contents := make([][]byte, 8)
	for i := range contents {
		contents[i] = bytes.Repeat([]byte{byte('a' + i)}, 1<<16)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := WriteAtomic(file, contents[i]); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(contents, func(c []byte) bool { return bytes.Equal(c, got) }) {
		t.Errorf("file is none of the writes: %d bytes starting %q", len(got), got[:min(len(got), 8)])
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("stale temporary file left")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a recent temporary file (a live writer's) was removed")
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "*.tmp"))
	if len(matches) != 1 {
		t.Errorf("temporary files left: %q", matches)
	}
}

// TestDir: two projects never share a cache folder, and one project
// always gets the same.
func TestDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	a, err := Dir("/src/a")
	if err != nil {
		t.Fatal(err)
	}
	a2, _ := Dir("/src/a")
	b, _ := Dir("/src/b")
	if a != a2 || a == b || !strings.Contains(a, filepath.Join("zumba", "")) {
		t.Errorf("Dir: %q, %q, %q", a, a2, b)
	}
	if p := Producer(); !strings.HasPrefix(p, "zumba") || p != Producer() {
		t.Errorf("Producer = %q", p)
	}
}
