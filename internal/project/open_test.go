package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/zumba-dev/zumba/internal/fixture"
)

// TestContentsLinkToFIFO: a listed file behind a link whose target became
// a named pipe is skipped at once, not waited on (issue 11, defect 3).
func TestContentsLinkToFIFO(t *testing.T) {
	dir := t.TempDir()
	fixture.WriteFile(t, dir, "p/real.go", "package p\n\nfunc F() {}\n")
	if err := os.Symlink("real.go", filepath.Join(dir, "p/alias.go")); err != nil {
		t.Fatal(err)
	}
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, err := root.Walk(t.Context())
	if err != nil || len(files) != 2 {
		t.Fatalf("Walk = %v, %v; want 2 files", files, err)
	}
	if err := os.Remove(filepath.Join(dir, "p/real.go")); err != nil {
		t.Fatal(err)
	}
	fixture.Mkfifo(t, filepath.Join(dir, "p/real.go"))
	done := make(chan error, 1)
	go func() {
		sc := &Scratch{}
		defer sc.Close()
		for _, e := range files {
			if _, err := root.Contents(e, sc); err != ErrSkip {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Contents of a named pipe: err %v; want ErrSkip", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Contents waits on a named pipe behind a link")
	}
}

// TestIgnoreRulesAgreeWithWalk: for every fixture, the rules the index
// asks about one path at a time (after a change) keep exactly the files
// the walk lists; one reading of each ignore file, a symbolic link
// included (issue 11, defect 7).
func TestIgnoreRulesAgreeWithWalk(t *testing.T) {
	t.Parallel()
	names, err := filepath.Glob(filepath.Join(fixtureDir, "*.txtar"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no fixtures in %s: %v", fixtureDir, err)
	}
	for _, file := range names {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dir := unpack(t, a)
			root, err := OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			files, err := root.Walk(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			listed := map[string]bool{}
			for _, e := range files {
				listed[e.Path] = true
			}
			rules := root.Rules()
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() || d.Type()&os.ModeSymlink != 0 {
					return nil
				}
				rel, _ := filepath.Rel(dir, p)
				rel = filepath.ToSlash(rel)
				if fi, err := d.Info(); err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxFileSize {
					return nil
				}
				if rules.FileCovered(rel) != listed[rel] {
					t.Errorf("%s: covered by the rules %v, listed by the walk %v", rel, !listed[rel], listed[rel])
				}
				return nil
			})
		})
	}
}
