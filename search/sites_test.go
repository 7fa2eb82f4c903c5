package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/fixture"
)

// TestParseCacheFreshness: a parse is reused while the file's stat is
// unchanged and old enough to trust, and redone when the file changes.
func TestParseCacheFreshness(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.go")
	old := time.Now().Add(-time.Hour)
	write := func(src string, mtime time.Time) {
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	write("package a\n\n// target\nvar x = target\n", old)
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cache ParseCache
	ctx := context.Background()
	code := func() []int {
		res, err := allSites(ctx, root, "target", RefOptions{Code: true}, &cache)
		if err != nil {
			t.Fatal(err)
		}
		var lines []int
		for _, s := range res.Sites {
			lines = append(lines, s.Line)
		}
		return lines
	}
	if got := code(); len(got) != 1 || got[0] != 4 {
		t.Fatalf("code hits = %v; want [4]", got)
	}
	if n := cache.c.Len(); n != 1 {
		t.Fatalf("the cache holds %d parses; want 1", n)
	}
	first, _ := cache.c.Peek("a.go")
	code()
	if p, _ := cache.c.Peek("a.go"); p != first {
		t.Error("an unchanged file was parsed again")
	}
	// The same size, another time: the comment and the code swap lines.
	write("package a\n\nvar x = target\n// target\n", old.Add(time.Second))
	if got := code(); len(got) != 1 || got[0] != 3 {
		t.Errorf("after the edit, code hits = %v; want [3]", got)
	}
	// A file modified just now is parsed at every call.
	write("package a\n\nvar x = target\n// target\n", time.Now())
	code()
	p1, _ := cache.c.Peek("a.go")
	code()
	if p, _ := cache.c.Peek("a.go"); p == p1 {
		t.Error("a racily clean file's parse was trusted")
	}
}

// allSites is find_references with options over every file of the
// project, without the answer's limit.
func allSites(ctx context.Context, root *Root, name string, opts RefOptions, cache *ParseCache) (*Sites, error) {
	files, err := root.Walk(ctx)
	if err != nil {
		return nil, err
	}
	return ReferenceSites(ctx, files, root, name, opts, -1, cache)
}

// TestSitesUncounted: with Uncounted, the hits past the limit are not
// counted (the total is a lower bound: what the workers reading ahead of
// the answer met, however far they got); without it every file left is
// read and its code hits counted exactly.
func TestSitesUncounted(t *testing.T) {
	dir := t.TempDir()
	const n = 40
	for i := range n {
		fixture.WriteFile(t, dir, fmt.Sprintf("f%02d.go", i), "package p\n\nfunc f() { target() }\n")
	}
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, err := root.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, uncounted := range []bool{false, true} {
		src := &countingSource{Source: root, reads: map[string]int{}}
		var cache ParseCache
		opts := RefOptions{Group: true, Code: true, Uncounted: uncounted}
		res, err := ReferenceSites(context.Background(), files, src, "target", opts, 3, &cache)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Sites) != 3 || !res.More {
			t.Fatalf("uncounted %v: %d sites, more %v; want 3 and more", uncounted, len(res.Sites), res.More)
		}
		read := src.taken()
		switch {
		case uncounted && (!res.MoreAtLeast || res.MoreHits > n-3):
			t.Errorf("uncounted: %d more hits, at least %v; want a lower bound (at most %d), at least", res.MoreHits, res.MoreAtLeast, n-3)
		case !uncounted && (read < n || res.MoreHits != n-3 || res.MoreAtLeast):
			t.Errorf("counted: read %d files, %d more hits (at least %v); want all %d read, %d more, exact", read, res.MoreHits, res.MoreAtLeast, n, n-3)
		}
	}
}
