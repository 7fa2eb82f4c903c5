package search

import (
	"bytes"
	"context"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/project"
)

// TestReferencesAgainstGitGrep compares find_references, with the cap
// lifted, with git grep -w -F over the Go standard library: the same
// path:line pairs, in the files the search covers. The names are ASCII and
// chosen so that git's ASCII-only word boundaries agree with ours.
func TestReferencesAgainstGitGrep(t *testing.T) {
	fixture.NeedGit(t)
	if testing.Short() {
		t.Skip("reads the whole standard library")
	}
	dir := fixture.GoSrc(t)
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	files, err := root.Walk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, e := range files {
		covered[e.Path] = true
	}
	// From rare to very common.
	for _, name := range []string{"Getpagesize", "NewTicker", "ServeHTTP", "Reader", "Fprintf", "err"} {
		t.Run(name, func(t *testing.T) {
			refs, more, err := References(ctx, files, root, name, -1)
			if err != nil || more {
				t.Fatalf("References(%q) = more %v, %v", name, more, err)
			}
			var got []string
			for _, r := range refs {
				got = append(got, r.Path+":"+strconv.Itoa(r.Line))
			}
			want := gitGrep(t, dir, name, func(p string) bool {
				if !covered[p] {
					return false
				}
				data, err := root.Contents(project.Entry{Path: p, Size: project.MaxFileSize}, nil)
				return err == nil && data != nil
			})
			if len(want) < 5 {
				t.Fatalf("git grep found only %d lines for %q; pick another name", len(want), name)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("find_references %s differs from git grep -w -F (-git +ours):\n%s", name, diff)
			}
			t.Logf("%s: %d lines", name, len(got))
		})
	}
}

// gitGrep lists "path:line" of git grep -n -w -F name in dir, in the
// search's order (by path, then line), keeping the paths keep accepts.
func gitGrep(t *testing.T, dir, name string, keep func(string) bool) []string {
	t.Helper()
	cmd := exec.Command("git", "grep", "--no-index", "-a", "-n", "-w", "-F", "-z", "-e", name)
	cmd.Dir = dir
	cmd.Env = fixture.GitEnv(t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git grep %s: %v", name, err)
	}
	type hit struct {
		path string
		line int
	}
	var hits []hit
	ok := map[string]bool{}
	for _, rec := range bytes.Split(out, []byte("\n")) {
		// -z: PATH NUL LINE NUL TEXT
		parts := bytes.SplitN(rec, []byte{0}, 3)
		if len(parts) < 3 {
			continue
		}
		p := string(parts[0])
		kept, seen := ok[p]
		if !seen {
			kept = keep(p)
			ok[p] = kept
		}
		if !kept {
			continue
		}
		n, _ := strconv.Atoi(string(parts[1]))
		hits = append(hits, hit{p, n})
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return a.line - b.line
	})
	var res []string
	for _, h := range hits {
		res = append(res, h.path+":"+strconv.Itoa(h.line))
	}
	return res
}
