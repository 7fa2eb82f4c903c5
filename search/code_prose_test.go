package search

import (
	"context"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/project"
)

// A guide whose section holds every word of the question, and the code
// that does it, whose doc comment holds fewer.
const proseProject = `
-- guide.md --
# Guide

## Retrying a request with exponential backoff

When a request fails, retry the request with exponential backoff:
each retry of the request waits twice as long as the retry before.

-- retry.go --
package retry

// Backoff retries a failing request, waiting twice as long each time.
func Backoff(f func() error) error { return f() }
`

// TestCodeProse: a documentation file's headings come after code of
// comparable score, unless the query asks for documentation or path
// keeps only documentation files.
func TestCodeProse(t *testing.T) {
	dir := fixture.Unpack(t, txtar.Parse([]byte(proseProject)))
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	first := func(q, path string) string {
		t.Helper()
		filter, err := project.ParsePathFilter(path)
		if err != nil {
			t.Fatal(err)
		}
		res, err := root.Code(context.Background(), q, filter)
		if err != nil || len(res.Defs) == 0 {
			t.Fatalf("Code(%q, %q) = %v, %v", q, path, res, err)
		}
		var all []string
		for _, d := range res.Defs {
			all = append(all, d.Path+" "+d.QualifiedName())
		}
		t.Logf("Code(%q, %q): %q", q, path, all)
		return all[0]
	}
	if got := first("retry a request with exponential backoff", ""); got != "retry.go Backoff" {
		t.Errorf("code query: first %q; want the code", got)
	}
	for _, q := range []string{"docs on retrying a request with exponential backoff", "retry a request with exponential backoff guide"} {
		if got := first(q, ""); !strings.HasPrefix(got, "guide.md ") {
			t.Errorf("%q: first %q; want the guide", q, got)
		}
	}
	if got := first("retry a request with exponential backoff", "*.md"); !strings.HasPrefix(got, "guide.md ") {
		t.Errorf("path *.md: first %q; want the guide", got)
	}
	for _, p := range []string{"README.md", "docs/guide.markdown", "doc/x.rst", "NOTES.TXT"} {
		if !proseFile(p) {
			t.Errorf("proseFile(%q) = false", p)
		}
	}
	for _, p := range []string{"md.go", "docs/gen.go", "mdx/x.ts"} {
		if proseFile(p) {
			t.Errorf("proseFile(%q) = true", p)
		}
	}
}
