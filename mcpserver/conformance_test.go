package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// TestConformance runs the cases of testdata/mcp/*.txtar. Each archive
// holds the lines a client sends (file "client"), the lines the server must
// answer (file "server") and the project's files (files under "project/").
// Replies are compared as JSON values, in any order, since tool calls run
// concurrently. In "server", a string "*" matches any value and a string
// ending in "*" matches any string starting with what precedes it;
// $VERSION stands for the server's version.
func TestConformance(t *testing.T) {
	files, err := filepath.Glob("../testdata/mcp/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance cases in testdata/mcp (%v)", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			project := map[string]string{}
			var client, server []byte
			for _, f := range ar.Files {
				switch {
				case f.Name == "client":
					client = f.Data
				case f.Name == "server":
					server = bytes.ReplaceAll(f.Data, []byte("$VERSION"), []byte(Version))
				case strings.HasPrefix(f.Name, "project/"):
					project[strings.TrimPrefix(f.Name, "project/")] = string(f.Data)
				default:
					t.Fatalf("unknown file %q in %s", f.Name, file)
				}
			}
			s := newTestServer(t, project)
			got := serve(t, s, string(client))
			want := nonBlank(server)
			if err := matchLines(want, got); err != nil {
				t.Errorf("%s: %v\n(-want +got):\n%s", file, err, cmp.Diff(want, got))
			}
		})
	}
}

func nonBlank(b []byte) []string {
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// matchLines pairs each wanted line with a different got line that it
// matches. Patterns are tried most specific first so that a wildcard does
// not take the line a literal one needs.
func matchLines(want, got []string) error {
	if len(want) != len(got) {
		return fmt.Errorf("got %d replies; want %d", len(got), len(want))
	}
	type pattern struct {
		line string
		v    any
		wild int
	}
	pats := make([]pattern, len(want))
	for i, w := range want {
		v, err := decodeNumbers([]byte(w))
		if err != nil {
			return fmt.Errorf("want line %q: %v", w, err)
		}
		pats[i] = pattern{w, v, strings.Count(w, `*"`)}
	}
	sort.SliceStable(pats, func(i, j int) bool { return pats[i].wild < pats[j].wild })
	used := make([]bool, len(got))
	values := make([]any, len(got))
	for i, g := range got {
		v, err := decodeNumbers([]byte(g))
		if err != nil {
			return fmt.Errorf("got line %q: %v", g, err)
		}
		values[i] = v
	}
	for _, p := range pats {
		found := false
		for i := range got {
			if !used[i] && matchValue(p.v, values[i]) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			return fmt.Errorf("no reply matches %s", p.line)
		}
	}
	return nil
}

// decodeNumbers decodes JSON keeping numbers as written, so that an id
// 1.0 is not the same as 1.
func decodeNumbers(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

func matchValue(want, got any) bool {
	switch w := want.(type) {
	case string:
		if w == "*" {
			return true
		}
		g, ok := got.(string)
		if !ok {
			return false
		}
		if prefix, ok := strings.CutSuffix(w, "*"); ok {
			return strings.HasPrefix(g, prefix)
		}
		return w == g
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !matchValue(wv, gv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !matchValue(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return cmp.Equal(want, got)
}
