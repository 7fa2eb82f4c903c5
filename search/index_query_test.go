package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/internal/watch"
	"github.com/zumba-dev/zumba/search/internal/filetier"
)

// TestFuzzyLastSameAsEveryFile checks the fallback that visits keys in
// rank order and stops when its answer is full against decoding every
// parsed file, over this repository, for pieces of its own names (common
// ones such as "er" and rare ones), with the usual limit and none.
func TestFuzzyLastSameAsEveryFile(t *testing.T) {
	t.Parallel()
	ix, _ := repoIndex(t)
	pieces := map[string]bool{"er": true, "ret": true, "get": true, "x": true, "é": true, "SUM": true, "_": true}
	step := 211
	if testing.Short() {
		step = 2111
	}
	ix.Mu.RLock()
	strs := ix.Words.View()
	for i := range strs.Len() {
		w := strs.Str(uint32(i))
		if i%step == 0 && len(w) >= 4 && !ix.defines.Empty(uint32(i)) {
			pieces[strings.ToLower(w[1:4])] = true
			pieces[w[:len(w)-1]] = true
		}
	}
	all := ix.LiveIDsLocked()
	ix.Mu.RUnlock()
	sc := &project.Scratch{}
	defer sc.Close()
	compareFallbacks(t, ix, pieces, all, sc)
	// Once with the names in the postings' overlay, once merged into the
	// base (the fallback finds them differently).
	ix.Mu.Lock()
	ix.MergeLocked(true)
	ix.Mu.Unlock()
	compareFallbacks(t, ix, pieces, all, sc)
	// The first call after the merge added the merged names as extra
	// text; the next makes the whole text again.
	compareFallbacks(t, ix, pieces, all, sc)
	ix.names.mu.Lock()
	extra, main := len(ix.names.extraIDs), ix.names.keys
	ix.names.mu.Unlock()
	if extra != 0 || main == 0 {
		t.Errorf("names after two calls: %d in the text, %d extra; want all in the text", main, extra)
	}
}

func compareFallbacks(t *testing.T, ix *Index, pieces map[string]bool, all []uint32, sc *project.Scratch) {
	t.Helper()
	ctx := context.Background()
	for p := range pieces {
		q := ParseSymbolQuery(p)
		if q.qualified() || checkName(q.Name) != nil {
			continue
		}
		for _, limit := range []int{SymbolLimit, 3, -1} {
			want, err := ix.fuzzy(ctx, q, limit, all, sc, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := ix.fuzzyLast(ctx, q, limit, sc, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if g, w := showDefs(got), showDefs(want); g != w {
				t.Errorf("fallback %q, limit %d: rank-ordered keys give\n%s\nevery file gives\n%s", p, limit, g, w)
			}
		}
	}
}

func showDefs(defs []Def) string {
	var b strings.Builder
	for _, d := range defs {
		fmt.Fprintf(&b, "%s:%d %v %s %q %v\n", d.Path, d.Line, d.Kind, d.QualifiedName(), d.Text, d.tier)
	}
	return b.String()
}

// countingSource counts the files read.
type countingSource struct {
	project.Source
	mu    sync.Mutex
	reads map[string]int
}

func (c *countingSource) Contents(e project.Entry, sc *project.Scratch) ([]byte, error) {
	c.mu.Lock()
	c.reads[e.Path]++
	c.mu.Unlock()
	return c.Source.Contents(e, sc)
}

// TestColdFiles checks the file list of a call answered before the word
// index: the build's walk, with what the watcher saw change since (a new
// file, a new folder, a file removed, a folder removed, a file grown, a
// new ignored file), is the walk made at the call.
func TestColdFiles(t *testing.T) {
	dir := freshProject(t)
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(root, index.Options{CacheFile: "-", SyncTimeout: testSyncTimeout})
	w, err := watch.Start(root.Real, watch.Options{Skip: ix.Rules.DirIgnored, SyncTimeout: testSyncTimeout})
	if err != nil {
		t.Skip("no watcher:", err)
	}
	defer w.Close()
	ix.Watcher = w
	ix.Started.Store(true)
	ctx := context.Background()
	walked, err := root.Walk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ix.Walk.Set(walked, true)

	fixture.WriteFile(t, dir, "new.go", "package x\n")
	fixture.WriteFile(t, dir, "newdir/sub/a.go", "package a\n")
	fixture.WriteFile(t, dir, "pkg1/f01.go", "package pkg\n\nfunc Grown() {}\n")
	fixture.WriteFile(t, dir, "skip.log", "ignored\n")
	os.Remove(filepath.Join(dir, "pkg0/f00.go"))
	os.RemoveAll(filepath.Join(dir, "pkg2"))

	v, err := ix.coldView(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	got := v.files
	want, err := root.Walk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("coldFiles (-walk now +build's walk with changes):\n%s", diff)
	}
	// The files unchanged since the walk are at their walk's index, the
	// others at none.
	for k, e := range got {
		i := v.walkIndex(k)
		changed := e.Path == "pkg1/f01.go" || strings.HasPrefix(e.Path, "new")
		if changed != (i < 0) || i >= 0 && walked[i].Path != e.Path {
			t.Errorf("%s at walk index %d", e.Path, i)
		}
	}
	// The changes are left for the index's first sync.
	if ch := w.Changes(ctx); !slices.Contains(ch.Paths, "new.go") {
		t.Errorf("coldFiles took the watcher's changes: %q left", ch.Paths)
	}
}

// TestColdStillListing checks the calls answered while the build's walk
// has not listed the project's files yet: each waits for the walk only
// until its call must be answered, then says that nothing was searched
// (Building with no files) instead of an answer that reads as complete;
// once the walk is in, the same calls search its files.
func TestColdStillListing(t *testing.T) {
	t.Parallel()
	dir := freshProject(t)
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(root, index.Options{CacheFile: "-", SyncTimeout: testSyncTimeout})
	ix.Started.Store(true) // a build whose walk goes on
	soon := func() context.Context {
		return AnswerBy(context.Background(), time.Now().Add(50*time.Millisecond))
	}
	refs, err := ix.References(soon(), "shared", nil)
	if err != nil || !refs.Building || refs.Files != 0 || len(refs.Refs) != 0 {
		t.Errorf("References before the walk = %+v, %v; want Building, no files", refs, err)
	}
	syms, err := ix.Symbols(soon(), SymbolQuery{Name: "Old03"})
	if err != nil || !syms.Building || syms.Files != 0 || len(syms.Defs) != 0 {
		t.Errorf("Symbols before the walk = %+v, %v; want Building, no files", syms, err)
	}
	code, err := ix.Code(soon(), "shared method", nil)
	if err != nil || !code.Building || code.Files != 0 {
		t.Errorf("Code before the walk = %+v, %v; want Building, no files", code, err)
	}
	sites, err := ix.Sites(soon(), "shared", nil, RefOptions{Group: true, Code: true}, nil)
	if err != nil || !sites.Building || len(sites.Sites) != 0 {
		t.Errorf("Sites before the walk = %+v, %v; want Building", sites, err)
	}
	m, err := ix.Map(soon(), ".")
	if err != nil || !m.Building || m.Total != 0 {
		t.Errorf("Map before the walk = %+v, %v; want Building, Total 0", m, err)
	}

	walked, err := root.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ix.Walk.Set(walked, true)
	refs, err = ix.References(soon(), "shared", nil)
	if err != nil || refs.Building || len(refs.Refs) != 21 {
		t.Errorf("References after the walk = %+v, %v; want the 21 lines of the walk's files, complete", refs, err)
	}
}

// TestIndexReferencesInChunks checks find_references read in path order
// chunk by chunk against the direct search, with files (re)read after
// the build (numbered after the others, out of path order) and removed,
// for a name in every file (the answer is cut), in some files, and with
// a path filter.
func TestIndexReferencesInChunks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := range 300 {
		fixture.WriteFile(t, dir, fmt.Sprintf("d%d/f%03d.c", i%7, i), fmt.Sprintf("int common;\nint f%03d(void) { return common; }\n", i))
	}
	touchPast(t, dir)
	ix, root, _ := testIndex(t, dir, "-", false)
	for _, i := range []int{0, 5, 77, 150, 299} {
		fixture.WriteFile(t, dir, fmt.Sprintf("d%d/f%03d.c", i%7, i), fmt.Sprintf("int common, again;\nint f%03d(void) { return common; }\n", i))
	}
	os.Remove(filepath.Join(dir, "d1/f001.c"))
	fixture.WriteFile(t, dir, "d0/a_new.c", "int common;\n")
	ctx := context.Background()
	for _, c := range []struct{ name, path string }{{"common", ""}, {"again", ""}, {"f150", ""}, {"common", "d3"}, {"common", "**/f2*.c"}} {
		var filter *project.PathFilter
		if c.path != "" {
			var err error
			if filter, err = project.ParsePathFilter(c.path); err != nil {
				t.Fatal(err)
			}
		}
		want, werr := root.References(ctx, c.name, filter)
		got, gerr := ix.References(ctx, c.name, filter)
		if werr != nil || gerr != nil {
			t.Fatalf("references %q in %q: error from the index %v, without %v", c.name, c.path, gerr, werr)
		}
		if d := cmp.Diff(want, got, resultOpts); d != "" {
			t.Errorf("references %q in %q (-without +from the index):\n%s", c.name, c.path, d)
		}
		if c.name == "common" && c.path == "" && (!got.More || len(got.Refs) != RefLimit) {
			t.Errorf("references common: %d lines, more %v; want %d and more", len(got.Refs), got.More, RefLimit)
		}
	}
}

// TestFallbackNamesAfterMerge checks that a name defined after the index
// was built is found by the fallback while its postings are in the
// overlay, and after a merge brings them into the base (the names'
// extra text).
func TestFallbackNamesAfterMerge(t *testing.T) {
	t.Parallel()
	dir := freshProject(t)
	ix, _, _ := testIndex(t, dir, "-", false)
	ctx := context.Background()
	ask := func(when string) {
		t.Helper()
		res, err := ix.Symbols(ctx, ParseSymbolQuery("ewlyadd"))
		if err != nil {
			t.Fatal(err)
		}
		if got := showDefs(res.Defs); !res.Fuzzy || !strings.Contains(got, "NewlyAdded") {
			t.Errorf("%s: fallback ewlyadd = %q (fuzzy %v); want NewlyAdded", when, got, res.Fuzzy)
		}
	}
	fixture.WriteFile(t, dir, "pkg1/late.go", "package pkg\n\nfunc NewlyAdded() {}\n")
	ask("in the overlay")
	ix.Mu.Lock()
	ix.MergeLocked(true)
	ix.Mu.Unlock()
	ask("merged")
	ix.names.mu.Lock()
	extra := len(ix.names.extraIDs)
	ix.names.mu.Unlock()
	if extra == 0 {
		t.Errorf("after the merge, no name was added as extra text")
	}
	ask("merged, asked again")
}

// TestIndexTiers: the tier kept beside each record (Index.tiers) is the
// one its path and head give, for files read, taken from the disk cache,
// edited into and out of the generated tier, and added; and the index
// ranks a name's files as the direct search does.
func TestIndexTiers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	use := "package p\n\nfunc f() { shared() }\n"
	gen := "// Code generated by hand. DO NOT EDIT.\n\n" + use
	fixture.WriteFile(t, dir, "a/own.go", use)
	fixture.WriteFile(t, dir, "a/own_test.go", use)
	fixture.WriteFile(t, dir, "vendor/x/v.go", use)
	fixture.WriteFile(t, dir, "b/gen.go", gen)
	fixture.WriteFile(t, dir, "b/later.go", use)
	fixture.WriteFile(t, dir, "c/def.go", "package p\n\nfunc shared() {}\n")
	touchPast(t, dir)
	cache := filepath.Join(t.TempDir(), "files")
	check := func(what string, ix *Index, root *Root) {
		t.Helper()
		ix.Mu.RLock()
		if len(ix.Tiers) != len(ix.Files) {
			t.Errorf("%s: %d tiers for %d ids", what, len(ix.Tiers), len(ix.Files))
		}
		for f, r := range ix.Files {
			if r == nil {
				continue
			}
			if want := filetier.Head(filetier.Of(r.Path), r.Generated); ix.Tiers[f] != want || r.Tier != want {
				t.Errorf("%s: %s: tier %d beside the record, %d in it, want %d", what, r.Path, ix.Tiers[f], r.Tier, want)
			}
		}
		ix.Mu.RUnlock()
		sameAnswers(t, what, ix, root, []string{"shared", "f"})
	}
	ix, root, _ := testIndex(t, dir, cache, false)
	check("read", ix, root)
	fixture.WriteFile(t, dir, "b/gen.go", use)
	fixture.WriteFile(t, dir, "b/later.go", gen)
	fixture.WriteFile(t, dir, "a/new_test.go", use)
	check("edited", ix, root)
	ix.Close()
	touchPast(t, dir)
	ix2, root2, _ := testIndex(t, dir, cache, true)
	check("from the cache", ix2, root2)
}

// TestIndexNamesMade: the names' text for find_symbol's fallback is made
// as the index completes, not by the fallback's first call.
func TestIndexNamesMade(t *testing.T) {
	t.Parallel()
	ix, _, _ := testIndex(t, freshProject(t), "-", false)
	ix.names.mu.Lock()
	defer ix.names.mu.Unlock()
	if ix.names.pairAt == nil {
		t.Fatal("no names' text once the index is complete")
	}
}
