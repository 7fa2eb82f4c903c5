package search

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/diskcache"
	"github.com/zumba-dev/zumba/internal/fixture"
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
	t.Parallel()
	dir := freshProject(t)
	touchPast(t, dir)
	fixture.WriteFile(t, dir, "racy.go", "package r\n\nfunc Racy() {}\n")
	cache := filepath.Join(t.TempDir(), "files")
	ix, root, _ := testIndex(t, dir, cache, true)
	ix.Close()
	b, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	s, err := decodeSnapshot(b, root.Real, diskcache.Producer())
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
	v := newVocab()
	v.load(s.strs)
	var names []string
	for _, d := range decodeDefs(v.view(), r.defs) {
		names = append(names, d.QualifiedName())
	}
	if want := []string{"Old03", "T03", "T03.Method"}; !slices.Equal(names, want) {
		t.Errorf("definitions of pkg0/f03.go = %q; want %q", names, want)
	}
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
	t.Parallel()
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

// TestDiskCacheDefsRobust: a saved file's definitions record damaged in
// ways the cache's checksum would not catch, or read with a string table
// cut short, never makes decodeDefs panic or read out of range (see
// internal/diskcache's tests for the rest of the file).
func TestDiskCacheDefsRobust(t *testing.T) {
	t.Parallel()
	dir, _, b := savedProject(t)
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := decodeSnapshot(b, root.Real, diskcache.Producer())
	if err != nil {
		t.Fatal(err)
	}
	var recs [][]byte
	for _, r := range s.files {
		if r != nil && len(r.defs) > 0 {
			recs = append(recs, r.defs)
		}
	}
	if len(recs) == 0 {
		t.Fatal("no definitions saved")
	}
	v := newVocab()
	v.load(s.strs)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		c := slices.Clone(recs[rng.IntN(len(recs))])
		for range 1 + rng.IntN(4) {
			c[rng.IntN(len(c))] = byte(rng.IntN(256))
		}
		if rng.IntN(4) == 0 {
			c = c[:rng.IntN(len(c))]
		}
		strs := *v.view()
		if rng.IntN(4) == 0 {
			strs.refs = strs.refs[:rng.IntN(len(strs.refs))]
		}
		decodeDefs(&strs, c)
	}
}

// TestDiskCacheConcurrentSave: two indexes of one project saving one
// cache file leave a whole file that a third one uses.
func TestDiskCacheConcurrentSave(t *testing.T) {
	t.Parallel()
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
	raw := encodeDefs(v, defs)
	got := decodeDefs(v.view(), raw)
	if d := cmp.Diff(defs, got); d != "" {
		t.Errorf("definitions (-want +got):\n%s", d)
	}
}
