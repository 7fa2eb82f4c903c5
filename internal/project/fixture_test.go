package project

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/zumba-dev/zumba/internal/fixture"
)

var update = flag.Bool("update", false, "rewrite the walk sections of testdata/search")

const fixtureDir = "../../testdata/search"

// unpack writes the archive's project into a temporary folder (see
// fixture.Unpack) and returns the project folder.
func unpack(t *testing.T, a *txtar.Archive) string { return fixture.Unpack(t, a) }

// TestFixtures runs the walk commands of every archive in testdata/search
// and compares their output with the section's text:
//
//	-- $ walk --              the files the walk lists, one per line; a
//	                          file the tools would skip as binary ends
//	                          with " (skipped: binary)"
//
// -update rewrites them. The archives' find_symbol and find_references
// sections ("$ symbol NAME", "$ refs NAME [GLOBS]") are answers of the
// tools: mcpserver's TestSearchFixtures checks them.
func TestFixtures(t *testing.T) {
	names, err := filepath.Glob(filepath.Join(fixtureDir, "*.txtar"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no fixtures in %s: %v", fixtureDir, err)
	}
	for _, file := range names {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			a, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var dir string
			changed := false
			for i := range a.Files {
				f := &a.Files[i]
				if f.Name != "$ walk" {
					continue
				}
				if dir == "" {
					dir = unpack(t, a)
				}
				got := walkListing(t, dir) + "\n"
				if got == string(f.Data) {
					continue
				}
				if *update {
					f.Data, changed = []byte(got), true
					continue
				}
				t.Errorf("%s: walk (-want +got)\n%s", file, cmp.Diff(string(f.Data), got))
			}
			if changed {
				if err := os.WriteFile(file, txtar.Format(a), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// walkTimeout is how long a fixture's walk may take: a walk that blocks
// (on a named pipe, say) fails the test instead of hanging it.
const walkTimeout = 30 * time.Second

// walkListing lists the files the walk of dir finds, marking those the
// tools skip as binary.
func walkListing(t *testing.T, dir string) string {
	t.Helper()
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), walkTimeout)
	defer cancel()
	out := make(chan string, 1)
	go func() {
		files, err := root.Walk(ctx)
		if err != nil {
			out <- "walk failed: " + err.Error()
			return
		}
		var lines []string
		for _, e := range files {
			if _, err := root.Contents(e, nil); err != nil {
				lines = append(lines, e.Path+" (skipped: binary)")
				continue
			}
			lines = append(lines, e.Path)
		}
		out <- strings.Join(lines, "\n")
	}()
	select {
	case s := <-out:
		return s
	case <-time.After(walkTimeout + time.Second):
		t.Fatalf("walk of %s: no answer in %v", dir, walkTimeout)
		return ""
	}
}
