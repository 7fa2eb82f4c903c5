package search

import (
	"encoding/binary"
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

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/outline"
)

// savedProject builds the index of a fresh project with a disk cache,
// closes it, and returns the project, the cache file and its bytes.
func savedProject(t *testing.T) (dir, cache string, b []byte) {
	t.Helper()
	dir = freshProject(t)
	touchPast(t, dir)
	cache = filepath.Join(t.TempDir(), "files")
	ix, _, logs := testIndex(t, dir, cache, true)
	ix.Close()
	b, err := os.ReadFile(cache)
	if err != nil {
		t.Fatalf("no cache file after Close: %v; log:\n%s", err, logs)
	}
	return dir, cache, b
}

// TestDiskCacheSnapshot: the cache holds every file with its definitions
// and the postings, and leaves out a racy file (written just now).
func TestDiskCacheSnapshot(t *testing.T) {
	dir := freshProject(t)
	touchPast(t, dir)
	writeFile(t, dir, "racy.go", "package r\n\nfunc Racy() {}\n")
	cache := filepath.Join(t.TempDir(), "files")
	ix, root, _ := testIndex(t, dir, cache, true)
	ix.Close()
	b, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	s, err := decodeSnapshot(b, root.Real, BuildProducer())
	if err != nil {
		t.Fatal(err)
	}
	paths := map[string]*fileRec{}
	for _, r := range s.files {
		if r != nil {
			paths[r.path] = r
		}
	}
	if paths["racy.go"] != nil {
		t.Error("racy file saved")
	}
	r := paths["pkg0/f03.go"]
	if r == nil || !r.parsed {
		t.Fatalf("pkg0/f03.go missing or unparsed: %+v", r)
	}
	var names []string
	for _, d := range decodeDefs(s.strs, r.defs) {
		names = append(names, d.QualifiedName())
	}
	if want := []string{"Old03", "T03", "T03.Method"}; !slices.Equal(names, want) {
		t.Errorf("definitions of pkg0/f03.go = %q; want %q", names, want)
	}
	v := newVocab()
	v.load(s.strs)
	id, ok := v.lookupString("shared")
	if !ok {
		t.Fatal("word shared not saved")
	}
	var withShared []string
	for _, f := range s.words.list(id, nil) {
		if s.files[f] != nil {
			withShared = append(withShared, s.files[f].path)
		}
	}
	if len(withShared) != 21 || withShared[0] != "README.md" {
		t.Errorf("files holding shared: %q", withShared)
	}
}

// TestDiskCacheUnchangedNotRewritten: a restart that finds every file
// unchanged does not write the cache again.
func TestDiskCacheUnchangedNotRewritten(t *testing.T) {
	dir, cache, _ := savedProject(t)
	past := time.Now().Add(-time.Hour)
	os.Chtimes(cache, past, past)
	ix, _, logs := testIndex(t, dir, cache, true)
	ix.Close()
	fi, err := os.Stat(cache)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.ModTime().Equal(past) {
		t.Errorf("unchanged index saved again; log:\n%s", logs)
	}
}

// TestDiskCacheDiscarded: a cache file that is truncated, damaged, of
// another version, or written for another project or by another build
// is discarded as a whole, saying why.
func TestDiskCacheDiscarded(t *testing.T) {
	_, _, b := savedProject(t)
	root, producer := string(readPayloadString(b, 0)), BuildProducer()
	if _, err := decodeSnapshot(b, root, producer); err != nil {
		t.Fatalf("good cache: %v", err)
	}
	damaged := slices.Clone(b)
	damaged[len(damaged)/2] ^= 0x40
	version := slices.Clone(b)
	binary.LittleEndian.PutUint32(version[8:], cacheVersion-1)
	cases := []struct {
		name, root, producer string
		b                    []byte
		want                 string
	}{
		{"empty", root, producer, nil, "truncated header"},
		{"magic", root, producer, append([]byte("notzumba"), b[8:]...), "not a zumba cache"},
		{"version", root, producer, version, "format version"},
		{"truncated", root, producer, b[:len(b)-3], "truncated"},
		{"damaged", root, producer, damaged, "checksum"},
		{"other project", "/elsewhere", producer, b, "written for"},
		{"other build", root, "zumba other", b, "written by"},
	}
	for _, c := range cases {
		if _, err := decodeSnapshot(c.b, c.root, c.producer); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v; want %q", c.name, err, c.want)
		}
	}
	file := filepath.Join(t.TempDir(), "files")
	os.WriteFile(file, damaged, 0o644)
	if _, err := loadSnapshot(file, root, producer); err == nil || !strings.Contains(err.Error(), "discarded") {
		t.Errorf("loadSnapshot of a damaged file: %v", err)
	}
	if s, err := loadSnapshot(filepath.Join(t.TempDir(), "none"), root, producer); s != nil || err != nil {
		t.Errorf("loadSnapshot of no file = %v, %v", s, err)
	}
}

// readPayloadString reads the i-th leading string of a cache payload.
func readPayloadString(b []byte, i int) []byte {
	r := &cacheReader{b: b[cacheHeaderSize:]}
	var s []byte
	for range i + 1 {
		s = r.bytes()
	}
	return s
}

// TestDiskCacheDecoderRobust: damage that the checksum does not catch
// (the checksum recomputed) never makes the decoder or a reader of what
// it returns panic, loop or read out of range.
func TestDiskCacheDecoderRobust(t *testing.T) {
	_, _, b := savedProject(t)
	root, producer := string(readPayloadString(b, 0)), BuildProducer()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		c := slices.Clone(b)
		for range 1 + rng.IntN(4) {
			i := cacheHeaderSize + rng.IntN(len(c)-cacheHeaderSize)
			c[i] = byte(rng.IntN(256))
		}
		if rng.IntN(4) == 0 {
			c = c[:cacheHeaderSize+rng.IntN(len(c)-cacheHeaderSize)]
			binary.LittleEndian.PutUint64(c[16:], uint64(len(c)-cacheHeaderSize))
		}
		binary.LittleEndian.PutUint32(c[12:], crc32.Checksum(c[cacheHeaderSize:], castagnoli))
		checkDecoded(t, c, root, producer)
	}
}

// checkDecoded decodes a cache file's bytes and, if the decoder accepts
// them, reads every definition and every postings list it returned: none
// may panic or name a file id out of range.
func checkDecoded(t *testing.T, b []byte, root, producer string) {
	t.Helper()
	s, err := decodeSnapshot(b, root, producer)
	if err != nil {
		return
	}
	for _, r := range s.files {
		if r != nil {
			decodeDefs(s.strs, r.defs)
		}
	}
	for _, p := range []postings{s.words, s.defines} {
		for k := range max(len(p.off)-1, 0) {
			for _, f := range p.list(uint32(k), nil) {
				if int(f) >= len(s.files) {
					t.Fatalf("file id %d of %d", f, len(s.files))
				}
			}
		}
	}
}

// FuzzDiskCacheDecode: any cache payload behind a valid header (length and
// checksum recomputed, so the fuzzer reaches the decoder) is refused with an
// error or decodes into a snapshot that can be read without a panic. The
// input is the payload after its root and producer strings; the seed in
// testdata/fuzz is a real saved project's.
func FuzzDiskCacheDecode(f *testing.F) {
	f.Add([]byte{})
	const root, producer = "/project", "zumba-fuzz"
	f.Fuzz(func(t *testing.T, tail []byte) {
		payload := appendString(appendString(nil, root), producer)
		payload = append(payload, tail...)
		b := make([]byte, cacheHeaderSize, cacheHeaderSize+len(payload))
		copy(b, cacheMagic)
		binary.LittleEndian.PutUint32(b[8:], cacheVersion)
		b = append(b, payload...)
		binary.LittleEndian.PutUint32(b[12:], crc32.Checksum(payload, castagnoli))
		binary.LittleEndian.PutUint64(b[16:], uint64(len(payload)))
		checkDecoded(t, b, root, producer)
	})
}

// TestDiskCacheConcurrentSave: two indexes of one project saving one
// cache file leave a whole file that a third one uses.
func TestDiskCacheConcurrentSave(t *testing.T) {
	dir, cache, _ := savedProject(t)
	os.Remove(cache)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			root, err := OpenRoot(dir)
			if err != nil {
				t.Error(err)
				return
			}
			ix := NewIndex(root, IndexOptions{CacheFile: cache, NoWatch: true})
			ix.Start(t.Context())
			<-ix.Ready()
			ix.Close()
		}()
	}
	wg.Wait()
	ix, root, logs := testIndex(t, dir, cache, true)
	if m := fromCacheRE.FindStringSubmatch(logs.String()); m == nil || m[2] != m[1] {
		t.Errorf("cache written concurrently not used whole; log:\n%s", logs)
	}
	sameAnswers(t, "concurrent save", ix, root, []string{"shared", "Old03", "T05.Method", "Usage"})
}

// TestDefsRoundTrip: definitions come out of their encoding as they went
// in, strings, extents and Decl included.
func TestDefsRoundTrip(t *testing.T) {
	defs := []outline.Definition{
		{Name: "Rpc", Qualified: []string{"Rpc"}, Kind: grammar.Struct, Line: 3, Start: 1, End: 9},
		{Name: "spawn", Qualified: []string{"Rpc", "spawn"}, Kind: grammar.Method, Line: 5, Start: 4, End: 8},
		{Name: "spawn", Qualified: []string{"Rpc", "spawn"}, Kind: grammar.Method, Line: 4, Start: 4, End: 4, Decl: true},
		{Name: "Ünïcode heading", Qualified: []string{"Ünïcode heading"}, Kind: grammar.Heading, Line: 1 << 20, Start: 1 << 20, End: 1<<20 + 1},
	}
	v := newVocab()
	got := decodeDefs(v.strs, encodeDefs(v, defs))
	if d := cmp.Diff(defs, got); d != "" {
		t.Errorf("definitions (-want +got):\n%s", d)
	}
}
