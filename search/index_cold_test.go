package search

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
)

// coldIndex returns an index of dir whose build has walked (and done
// nothing else), read through a counting source, as calls before the word
// index see it.
func coldIndex(t *testing.T, dir string) (*Index, *Root, *countingSource) {
	t.Helper()
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	root.SymbolTimeLimit = time.Hour
	ix := NewIndex(root, index.Options{CacheFile: "-", NoWatch: true})
	src := &countingSource{Source: root, reads: map[string]int{}}
	ix.src = src
	ix.Started.Store(true)
	walked, err := root.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ix.Walk.Set(walked, true)
	return ix, root, src
}

// reads returns how many files src read since the last call, and forgets
// them.
func (c *countingSource) taken() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, k := range c.reads {
		n += k
	}
	clear(c.reads)
	return n
}

// TestColdSymbolsRemembers checks what a find_symbol call before the word
// index remembers for the next call: the files that cannot answer the
// same query, and the definitions of those that can, are not read again
// unless their stat changed; the answers stay those of the direct search,
// and another query starts afresh.
func TestColdSymbolsRemembers(t *testing.T) {
	dir := freshProject(t)
	touchPast(t, dir)
	ix, root, src := coldIndex(t, dir)
	ctx := context.Background()
	ask := func(name string) int {
		t.Helper()
		q := ParseSymbolQuery(name)
		got, err := ix.coldSymbols(ctx, q, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		files, err := root.Walk(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Symbols(ctx, files, root, q, q.limit(), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if g, w := showDefs(got.Defs), showDefs(want.Defs); g != w || got.Searched != want.Searched || got.Files != want.Files || got.Fuzzy != want.Fuzzy {
			t.Errorf("find_symbol %s remembering (%d of %d searched):\n%s\ndirect (%d of %d):\n%s", name, got.Searched, got.Files, g, want.Searched, want.Files, w)
		}
		return src.taken()
	}
	for _, c := range []struct {
		name  string
		reads int
	}{
		{"Old03", 21},  // every file with a grammar (20 .go, README.md)
		{"Old03", 0},   // none: f03's definitions are remembered
		{"Method", 21}, // another query
		// A fallback: every file read, then the 20 that hold "ethod" in
		// another case read again for their definitions, as the direct
		// search does.
		{"ethod", 41},
		{"ethod", 0},
		{"Old03", 21}, // afresh
	} {
		if got := ask(c.name); got != c.reads {
			t.Errorf("find_symbol %s read %d files; want %d", c.name, got, c.reads)
		}
	}
	fixture.WriteFile(t, dir, "pkg1/f04.go", "package pkg\n\nfunc Changed() {}\n")
	if got := ask("Old03"); got != 1 {
		t.Errorf("after a change, find_symbol Old03 read %d files; want 1 (the changed f04)", got)
	}
}

// TestColdRefsRemembers: the same for find_references, with a path
// filter, and the answer cut at its time limit says what it covered.
func TestColdRefsRemembers(t *testing.T) {
	dir := freshProject(t)
	touchPast(t, dir)
	ix, root, src := coldIndex(t, dir)
	ctx := context.Background()
	ask := func(name, path string) int {
		t.Helper()
		var filter *project.PathFilter
		if path != "" {
			var err error
			if filter, err = project.ParsePathFilter(path); err != nil {
				t.Fatal(err)
			}
		}
		got, err := ix.coldReferences(ctx, name, filter)
		if err != nil {
			t.Fatal(err)
		}
		want, err := root.References(ctx, name, filter)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got, resultOpts); d != "" {
			t.Errorf("references %s in %q (-direct +remembering):\n%s", name, path, d)
		}
		return src.taken()
	}
	for _, c := range []struct {
		name, path string
		reads      int
	}{
		{"shared", "", 22}, // every file (.gitignore too)
		{"shared", "", 0},
		{"shared", "pkg1/**", 0},
		{"Old03", "", 22},
		{"Old03", "", 0},
	} {
		if got := ask(c.name, c.path); got != c.reads {
			t.Errorf("find_references %s in %q read %d files; want %d", c.name, c.path, got, c.reads)
		}
	}
	fixture.WriteFile(t, dir, "pkg1/f04.go", "package pkg\n\nfunc Changed() { Old03() }\n")
	if got := ask("Old03", ""); got != 1 {
		t.Errorf("after a change, find_references Old03 read %d files; want 1 (the changed f04)", got)
	}

	// A time limit already past: nothing covered, and the answer says so.
	ix.symbolLimit = -time.Second
	res, err := ix.coldReferences(ctx, "Method", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Building || res.Searched >= res.Files || res.Files != 22 {
		t.Errorf("partial answer: building %v, %d of %d files searched; want part of 22", res.Building, res.Searched, res.Files)
	}
}

// TestColdCooperates: with the word pass half done, a call reads only the
// files the pass has not read and those of the files it read whose words
// hold the name; its answers are the direct search's; the definitions a
// find_symbol call parsed are the index's once its records are in.
func TestColdCooperates(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"watch", "sweep"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for i := range 40 {
				fixture.WriteFile(t, dir, fmt.Sprintf("d%d/f%02d.go", i%4, i), fmt.Sprintf("package d\n\n// F%02d calls common.\nfunc F%02d() { common() }\n", i, i))
			}
			fixture.WriteFile(t, dir, "d0/common.go", "package d\n\nfunc common() {}\n")
			touchPast(t, dir)
			root, err := OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			root.SymbolTimeLimit = time.Hour
			ix := NewIndex(root, index.Options{CacheFile: "-", NoWatch: mode == "sweep", SyncTimeout: testSyncTimeout})
			src := &countingSource{Source: root, reads: map[string]int{}}
			ix.src = src
			// The walk: d0/common.go, d0/f00.go, d0/f04.go, ... d3/f39.go;
			// the pass reads the first 21 (d0 and d1) and waits.
			const held = 21
			ix.HoldWords, ix.HoldWordsAt = make(chan struct{}), held
			ix.Start(t.Context())
			t.Cleanup(ix.Close)
			for ix.Pass.Load().CoveredCount() < held {
				time.Sleep(time.Millisecond)
			}
			ctx := t.Context()
			// F05 is in d1/f05.go, read by the pass: the call reads it and
			// the 20 files not read yet.
			sameRefs(t, "word pass half done", ix, root, "F05")
			if got := src.taken(); got != 1+20 {
				t.Errorf("find_references F05 read %d files; want 21 (F05's file and the 20 not read by the pass)", got)
			}
			// F30 is in d2, not read by the pass.
			sameRefs(t, "word pass half done", ix, root, "F30")
			if got := src.taken(); got != 20 {
				t.Errorf("find_references F30 read %d files; want 20 (those not read by the pass)", got)
			}
			sameRefs(t, "word pass half done, again", ix, root, "F30")
			if got := src.taken(); got != 0 {
				t.Errorf("find_references F30 again read %d files; want none", got)
			}
			// find_references group and code: the same files are read,
			// and the answer is the direct search's.
			for _, opts := range []RefOptions{{Group: true}, {Group: true, Code: true}, {Code: true, Limit: 3}} {
				want, werr := root.Sites(ctx, "F05", nil, opts, nil)
				got, gerr := ix.Sites(ctx, "F05", nil, opts, nil)
				if werr != nil || gerr != nil {
					t.Fatalf("sites %+v: %v, %v", opts, werr, gerr)
				}
				if d := cmp.Diff(want, got, cmp.AllowUnexported(Sites{})); d != "" {
					t.Errorf("sites %+v of F05, word pass half done (-direct +index):\n%s", opts, d)
				}
				if n := src.taken(); n != 1+20 {
					t.Errorf("sites %+v of F05 read %d files; want 21 (F05's file and the 20 not read by the pass)", opts, n)
				}
			}
			sameSymbols(t, "word pass half done", ix, root, "F05")
			if got := src.taken(); got != 21 {
				t.Errorf("find_symbol F05 read %d files; want 21", got)
			}
			// A fallback: files whose words hold "f0" in any case.
			sameSymbols(t, "word pass half done", ix, root, "f0")
			src.taken()
			// common is in every file: the answer is found in the first.
			sameSymbols(t, "word pass half done", ix, root, "common")
			close(ix.HoldWords)
			<-ix.Ready()
			if n := ix.Ahead.Taken; n == 0 {
				t.Errorf("the build took no definitions from the calls' parses")
			}
			sameAnswers(t, "built", ix, root, []string{"F05", "F30", "f0", "common"})
			_ = ctx
		})
	}
}

// TestColdSharesFlight: identical calls in flight together read the files
// once.
func TestColdSharesFlight(t *testing.T) {
	dir := freshProject(t)
	touchPast(t, dir)
	ix, root, src := coldIndex(t, dir)
	slow := &slowSource{Source: src, wait: 5 * time.Millisecond}
	ix.src = slow
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { sameRefs(t, "in flight together", ix, root, "Method") })
	}
	wg.Wait()
	if got := src.taken(); got != 22 {
		t.Errorf("4 calls in flight together read %d files; want 22, once each", got)
	}
}

// slowSource reads slowly.
type slowSource struct {
	project.Source
	wait time.Duration
}

func (s *slowSource) Contents(e project.Entry, sc *project.Scratch) ([]byte, error) {
	time.Sleep(s.wait)
	return s.Source.Contents(e, sc)
}

var _ = strings.Contains

// TestColdWordsReady: a call that found the word index missing, but comes
// to list the files once it is in, answers from it: the direct search
// reads no file (it used to walk and read every file, a direct search of
// the whole project: on the Go tree a call made as the word pass ended
// took 4.1 s, past the answer's bound).
func TestColdWordsReady(t *testing.T) {
	t.Parallel()
	dir := freshProject(t)
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	root.SymbolTimeLimit = time.Hour
	ix := NewIndex(root, index.Options{CacheFile: "-", NoWatch: true, SyncTimeout: testSyncTimeout})
	src := &countingSource{Source: root, reads: map[string]int{}}
	ix.src = src
	ix.HoldSymbols = make(chan struct{})
	ix.Start(context.Background())
	defer ix.Close()
	for !ix.WordsReady.Load() {
		time.Sleep(5 * time.Millisecond)
	}
	ctx := context.Background()
	if _, err := ix.coldSymbols(ctx, ParseSymbolQuery("Old03"), time.Time{}); !errors.Is(err, errWordsReady) {
		t.Errorf("find_symbol before the word index, listing after: %v; want %v", err, errWordsReady)
	}
	if _, err := ix.coldReferences(ctx, "shared", nil); !errors.Is(err, errWordsReady) {
		t.Errorf("find_references before the word index, listing after: %v; want %v", err, errWordsReady)
	}
	if n := src.taken(); n != 0 {
		t.Errorf("the calls read %d files directly; want 0", n)
	}
	res, err := ix.Symbols(ctx, ParseSymbolQuery("Old03"))
	if err != nil || len(res.Defs) != 1 || res.Building {
		t.Errorf("find_symbol Old03 from the word index: %+v, %v; want its definition, complete", res, err)
	}
}
