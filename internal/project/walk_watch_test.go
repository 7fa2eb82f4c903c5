package project

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/watch"
)

// TestWalkWatches: a Deferred watcher told of the folders by the walk
// (WalkLinksHooked) reports a change in every folder the walk read, and
// in none it left out (ignored, .git); a .gitignore removed is an ignore
// change, as with the watcher's own walk.
func TestWalkWatches(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(body), 0o644))
	}
	write(".gitignore", "build/\n*.o\n")
	write("a.go", "package a\n")
	write("src/b.go", "package b\n")
	write("src/deep/er/c.go", "package c\n")
	write("src/deep/.gitignore", "gen/\n")
	write("src/deep/gen/d.go", "package d\n")
	write("build/e.go", "package e\n")
	write(".git/HEAD", "ref: refs/heads/main\n")
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	w, err := watch.Start(dir, watch.Options{Skip: root.Rules().DirIgnored, SyncTimeout: 10 * time.Second, Deferred: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	files, _, err := root.WalkLinksHooked(context.Background(), w)
	if err != nil || len(files) != 5 {
		t.Fatalf("walk: %d files, %v; want 5", len(files), err)
	}
	if ch := w.Changes(context.Background()); ch.Rescan || len(ch.Paths) > 0 {
		t.Fatalf("after the walk: %+v; want nothing", ch)
	}
	for _, rel := range []string{"a.go", "src/b.go", "src/deep/er/c.go", "src/deep/er/new.go", "src/deep/gen/d.go", "build/e.go"} {
		write(rel, "package x // changed\n")
	}
	ch := w.Changes(context.Background())
	for _, rel := range []string{"a.go", "src/b.go", "src/deep/er/c.go", "src/deep/er/new.go"} {
		if !slices.Contains(ch.Paths, rel) {
			t.Errorf("%s: not reported; changes %q", rel, ch.Paths)
		}
	}
	for _, rel := range []string{"src/deep/gen/d.go", "build/e.go"} {
		if slices.Contains(ch.Paths, rel) {
			t.Errorf("%s (ignored): reported", rel)
		}
	}
	if ch.Rescan {
		t.Errorf("changes ask for a rescan: %+v", ch)
	}
	must(t, os.RemoveAll(filepath.Join(dir, "src/deep")))
	if ch := w.Changes(context.Background()); !ch.IgnoreChanged {
		t.Errorf("a folder holding a .gitignore removed: %+v; want an ignore change", ch)
	}
}
