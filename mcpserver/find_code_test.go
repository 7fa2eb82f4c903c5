package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/search/findcode"
)

var codeFiles = map[string]string{
	"mime/mediatype.go": `package mime

// ParseMediaType parses a media type value and any optional
// parameters, per RFC 1521.
func ParseMediaType(v string) (mediatype string, params map[string]string, err error) {
	return "", nil, nil
}

func FormatMediaType(t string, param map[string]string) string {
	return ""
}
`,
	"mime/mediatype_test.go": `package mime

func TestParseMediaType(t *testing.T) { ParseMediaType("text/html; charset=utf-8") }
`,
	"retry/retry.py": `def with_backoff(f, attempts=5):
    """Call f until it succeeds, sleeping exponentially longer between attempts."""
    pass
`,
}

// TestFindCode pins find_code's answers: the line format, the own code
// before its test, the doc line or else the signature,
// path globs, limit and the line counting what it left out, and the
// one-line answers.
func TestFindCode(t *testing.T) {
	s := newTestServer(t, codeFiles)
	ask := func(args map[string]string) (string, bool) {
		t.Helper()
		return s.CallArgs(context.Background(), "find_code", args)
	}
	for _, tc := range []struct {
		args    map[string]string
		want    string
		isError bool
	}{
		{map[string]string{"query": "parse media type"}, "mime/mediatype.go:5 function ParseMediaType (5 lines) — ParseMediaType parses a media type value and any optional\n" +
			"mime/mediatype.go:9 function FormatMediaType (3 lines) — func FormatMediaType(t string, param map[string]string) string {\n" +
			"mime/mediatype_test.go:3 function TestParseMediaType (1 line) — func TestParseMediaType(t *testing.T) { ParseMediaType(\"text/html; charset=utf-8\") }", false},
		{map[string]string{"query": "parse media type", "limit": "1"}, "mime/mediatype.go:5 function ParseMediaType (5 lines) — ParseMediaType parses a media type value and any optional\n" +
			"… 2 more definitions scored lower; limit=3 shows them", false},
		{map[string]string{"query": "parse media type", "limit": "2"}, "mime/mediatype.go:5 function ParseMediaType (5 lines) — ParseMediaType parses a media type value and any optional\n" +
			"mime/mediatype.go:9 function FormatMediaType (3 lines) — func FormatMediaType(t string, param map[string]string) string {\n" +
			"… 1 more definition scored lower; limit=3 shows them", false},
		{map[string]string{"query": "parse media type", "limit": "0"}, "", true},
		{map[string]string{"query": "parse media type", "limit": "21"}, "", true},
		{map[string]string{"query": "sleeping exponentially between attempts", "path": "*.py"}, "retry/retry.py:1 function with_backoff (3 lines) — Call f until it succeeds, sleeping exponentially longer between attempts.", false},
		{map[string]string{"query": "media", "path": "retry/**"}, "No definition matches media in files matching retry/**.", false},
		{map[string]string{"query": "zebra giraffe"}, "No definition has any word of zebra giraffe.", false},
		{map[string]string{"query": "the of 42"}, "No words to search for in the of 42: common words (the, of, return) and numbers are left out; describe what the code does.", false},
		{map[string]string{"query": "  "}, "find_code: query is empty", true},
		{map[string]string{"query": "x", "path": "[a"}, "", true},
		{map[string]string{"query": strings.Repeat("long ", 300)}, "", true},
	} {
		got, isError := ask(tc.args)
		if isError != tc.isError || tc.want != "" && got != tc.want {
			t.Errorf("find_code %v = %q, %v; want %q, %v", tc.args, got, isError, tc.want, tc.isError)
		}
		if strings.Count(got, "\n") > 0 && isError {
			t.Errorf("find_code %v: an error of several lines: %q", tc.args, got)
		}
		if len(got) > 2000 && isError {
			t.Errorf("find_code %v: error too long", tc.args)
		}
	}
}

// TestFindCodeIndexed: the indexed server answers as the direct search.
func TestFindCodeIndexed(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, codeFiles)
	c := startIndexedServer(t, dir)
	plain := startServer(t, dir)
	for _, q := range []string{"parse media type", "sleeping attempts", "zebra"} {
		args := map[string]any{"query": q}
		a, _ := c.tool("find_code", args)
		b, _ := plain.tool("find_code", args)
		if a != b {
			t.Errorf("find_code %q: indexed %q; direct %q", q, a, b)
		}
	}
}

// TestFindCodeMore: the line counting the definitions left out, when
// fewer than the best 20 were found and when 20 were (more may match).
func TestFindCodeMore(t *testing.T) {
	defs := make([]findcode.Def, 20)
	for i := range defs {
		defs[i].Path, defs[i].Line, defs[i].End, defs[i].Start = "a.go", i+1, i+1, i+1
		defs[i].Name, defs[i].Signature = fmt.Sprintf("F%d", i), fmt.Sprintf("func F%d()", i)
		defs[i].Score = 10 - float64(i)*0.1
	}
	res := &findcode.Result{Defs: defs, Words: []string{"f"}}
	got := strings.Split(codeText("f", "", res, 0), "\n")
	if len(got) != 11 || got[10] != "… at least 10 more definitions scored lower; limit=20 shows the best 20" {
		t.Errorf("20 found, no limit: %d lines ending %q", len(got), got[len(got)-1])
	}
	res.Defs = defs[:12]
	got = strings.Split(codeText("f", "", res, 4), "\n")
	if len(got) != 5 || got[4] != "… 8 more definitions scored lower; limit=12 shows them" {
		t.Errorf("12 found, limit 4: %d lines ending %q", len(got), got[len(got)-1])
	}
	if got := codeText("f", "", res, 12); strings.Contains(got, "more") {
		t.Errorf("12 found, limit 12: %q has a more line", got)
	}
}
