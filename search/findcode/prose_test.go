package findcode

import (
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/zumba-dev/zumba/grammar"
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
	first := func(q, path string) string {
		t.Helper()
		filter, err := project.ParsePathFilter(path)
		if err != nil {
			t.Fatal(err)
		}
		res, err := dirCode(t, dir, q, filter)
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

// TestCodeCobraSuggestions is issue 46's case: on cobra v1.8.1 (fetched
// into the module cache by the go command when it is not there), a
// description in an agent's words puts SuggestionsFor or findSuggestions
// in the first three, with no Markdown heading above it: "suggest" meets
// "suggestions" through the stemmer, and the user guide's sections come
// after the code.
func TestCodeCobraSuggestions(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no module download")
	}
	t.Parallel()
	dir := fixture.DownloadModule(t, "github.com/spf13/cobra@v1.8.1")
	const q = "suggest similar command names when a user mistypes a subcommand"
	res, err := dirCode(t, dir, q, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, d := range res.Defs {
		got = append(got, d.Path+":"+strconv.Itoa(d.Line)+" "+d.Kind.String()+" "+d.QualifiedName())
		if i >= 3 {
			continue
		}
		if n := d.LastSegment(); n == "SuggestionsFor" || n == "findSuggestions" {
			return
		}
		if d.Kind == grammar.Heading {
			t.Errorf("Code(%q): a heading at %d, before SuggestionsFor or findSuggestions", q, i+1)
		}
	}
	t.Errorf("Code(%q): SuggestionsFor or findSuggestions not in the first 3:\n%s", q, strings.Join(got, "\n"))
}

// TestCodeForms: a query word meets the other forms of it that the
// index holds (Snowball's stem is theirs), below the form itself.
func TestCodeForms(t *testing.T) {
	dir := fixture.Unpack(t, txtar.Parse([]byte(`
-- a.go --
package a

// SuggestionsFor returns suggestions for a mistyped name.
func SuggestionsFor(name string) []string { return nil }

// Suggest suggests.
func Suggest() {}

// Stop stops the server gracefully.
func Stop() {}
`)))
	ask := func(q string) []string {
		t.Helper()
		res, err := dirCode(t, dir, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, d := range res.Defs {
			out = append(out, d.Name)
		}
		return out
	}
	for _, tc := range []struct{ q, want string }{
		{"suggest", "Suggest SuggestionsFor"},
		{"graceful", "Stop"},
	} {
		if got := strings.Join(ask(tc.q), " "); got != tc.want {
			t.Errorf("Code(%q) = %q; want %q", tc.q, got, tc.want)
		}
	}
}
