package search

import (
	"bytes"
	"context"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
)

// TestReferencesAgainstRipgrep compares find_references for names that
// end in punctuation, with the cap lifted, with rg over the Go standard
// library, the word rule written as the regular expression it is (\b only
// beside a word character: "ParseMediaType(" is \bParseMediaType\(): the
// same path:line pairs, in the files the search covers. The word index
// must name every file holding a match. rg's \b is Unicode-aware, as ours
// is.
func TestReferencesAgainstRipgrep(t *testing.T) {
	if _, err := exec.LookPath("rg"); err != nil {
		t.Skip("rg (ripgrep) is not installed")
	}
	if testing.Short() || raceEnabled {
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
	ix := NewIndex(root, index.Options{CacheFile: "-", NoWatch: true})
	ix.HoldSymbols = make(chan struct{})
	ix.Start(ctx)
	defer ix.Close()
	for words, _, _ := ix.Progress(); !words; words, _, _ = ix.Progress() {
		time.Sleep(10 * time.Millisecond)
	}
	close(ix.HoldSymbols)
	// Calls and package selectors, from rare to very common.
	for _, name := range []string{"ParseMediaType(", "NewTicker(", "Fprintf(", "utf8.", "strconv."} {
		t.Run(name, func(t *testing.T) {
			refs, more, err := References(ctx, files, root, name, -1)
			if err != nil || more {
				t.Fatalf("References(%q) = more %v, %v", name, more, err)
			}
			got := refLines(refs)
			re := regexpFor(name)
			want := ripgrep(t, dir, re, func(p string) bool {
				if !covered[p] {
					return false
				}
				data, err := root.Contents(project.Entry{Path: p, Size: project.MaxFileSize}, nil)
				return err == nil && data != nil
			})
			if len(want) < 5 {
				t.Fatalf("rg found only %d lines for %q; pick another name", len(want), re)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("find_references %s differs from rg -n -e '%s' (-rg +ours):\n%s", name, re, diff)
			}
			ixRefs, _, err := References(ctx, ix.Candidates(name), root, name, -1)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, refLines(ixRefs)); diff != "" {
				t.Errorf("find_references %s from the word index's candidates (-all files +candidates):\n%s", name, diff)
			}
			t.Logf("%s: %d lines (rg -e '%s': %d)", name, len(got), re, len(want))
		})
	}
}

func refLines(refs []Ref) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.Path+":"+strconv.Itoa(r.Line))
	}
	return out
}

// regexpFor writes the word rule for name as a regular expression: name
// quoted, with \b at each end that is a word character.
func regexpFor(name string) string {
	re := regexp.QuoteMeta(name)
	first, last := []rune(name)[0], []rune(name)[len([]rune(name))-1]
	if IsWordRune(first) {
		re = `\b` + re
	}
	if IsWordRune(last) {
		re += `\b`
	}
	return re
}

// ripgrep lists "path:line" of rg -n -e re in dir, every file searched as
// text with no ignore rules of its own (the walk's coverage is applied by
// keep), in the search's order (by path, then line).
func ripgrep(t *testing.T, dir, re string, keep func(string) bool) []string {
	t.Helper()
	cmd := exec.Command("rg", "-n", "--no-heading", "--with-filename", "--null", "--no-config",
		"--no-ignore", "--hidden", "--text", "--encoding", "none", "-e", re)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rg -e %s: %v", re, err)
	}
	type hit struct {
		path string
		line int
	}
	var hits []hit
	ok := map[string]bool{}
	for _, rec := range bytes.Split(out, []byte("\n")) {
		// --null: PATH NUL LINE:TEXT
		p, rest, found := bytes.Cut(rec, []byte{0})
		if !found {
			continue
		}
		path := strings.TrimPrefix(string(p), "./")
		kept, seen := ok[path]
		if !seen {
			kept = keep(path)
			ok[path] = kept
		}
		if !kept {
			continue
		}
		num, _, _ := bytes.Cut(rest, []byte(":"))
		n, _ := strconv.Atoi(string(num))
		hits = append(hits, hit{path, n})
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
