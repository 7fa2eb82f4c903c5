package search

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/internal/fixture"
)

// TestIndexCopies: files of the same bytes at several paths are parsed
// once, the others' records made from the first's (index_copies.go), and
// every answer about a copy is what it would be had the copy been parsed
// itself: its own paths, the words of its own path in find_code, its own
// package's uses in a resolved find_references.
func TestIndexCopies(t *testing.T) {
	dir := t.TempDir()
	fixture.WriteFile(t, dir, "go.mod", "module example.com/m\n\ngo 1.22\n")
	goSrc := `package p

// File is an open file.
type File struct{ name string }

// Close closes the file.
func (f *File) Close() error { return nil }

func use() {
	var f File
	f.Close()
}
`
	pySrc := "class Conn:\n    \"\"\"A connection.\"\"\"\n\n    def close(self):\n        pass\n\n\ndef run(c: Conn):\n    c.close()\n"
	tsSrc := "export class Pipe {\n  /** Flushes the pipe. */\n  flush(): void {}\n}\n\nexport function drain(p: Pipe) {\n  p.flush();\n}\n"
	// alpha and beta hold the same bytes; gamma one comment more, so
	// that it is parsed itself: beta (a copy) and gamma (parsed) must
	// score alike.
	for _, d := range []string{"alpha", "beta"} {
		fixture.WriteFile(t, dir, d+"/p.go", goSrc)
		fixture.WriteFile(t, dir, d+"/m.py", pySrc)
		fixture.WriteFile(t, dir, d+"/u.ts", tsSrc)
	}
	fixture.WriteFile(t, dir, "gamma/p.go", goSrc+"\n// gamma\n")
	touchPast(t, dir)
	ix, root, logs := testIndex(t, dir, "-", true)
	// Three unless the load made a copy's parse start before its
	// original's ended.
	if !strings.Contains(logs.String(), "files were copies of others") {
		t.Errorf("log does not say files were copies:\n%s", logs)
	}

	for _, name := range []string{"Close", "File", "close", "Pipe.flush"} {
		q := ParseSymbolQuery(name)
		want, err := root.Symbols(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ix.Symbols(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want.Defs, got.Defs, cmp.AllowUnexported(Def{})); d != "" {
			t.Errorf("find_symbol %s (-direct +index):\n%s", name, d)
		}
	}

	for _, def := range []string{"alpha/p.go:7", "beta/p.go:7", "gamma/p.go:7", "beta/m.py:4", "beta/u.ts:3"} {
		q := ResolveQuery{Definition: def}
		want, err := root.Resolved(t.Context(), q, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ix.Resolved(t.Context(), q, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got, cmp.AllowUnexported(Def{})); d != "" {
			t.Errorf("find_references %s (-direct +index):\n%s", def, d)
		}
		// The uses are the copy's own: the declaration and the call.
		dirOf := def[:strings.IndexByte(def, '/')]
		if got.Uses != 2 {
			t.Errorf("find_references %s: %d uses; want 2", def, got.Uses)
		}
		for _, s := range got.Sites {
			if !strings.HasPrefix(s.Path, dirOf+"/") {
				t.Errorf("find_references %s lists %s:%d", def, s.Path, s.Line)
			}
		}
	}

	// find_code: a copy scores as the file parsed itself, and the words
	// of its own path count.
	closes := func(query string) map[string]float64 {
		res, err := ix.Code(t.Context(), query, nil)
		if err != nil {
			t.Fatal(err)
		}
		score := map[string]float64{}
		for _, d := range res.Defs {
			if d.Name == "File.Close" {
				score[d.Path] = d.Score
			}
		}
		return score
	}
	if s := closes("closes the file"); len(s) != 3 || s["beta/p.go"] != s["gamma/p.go"] || s["alpha/p.go"] != s["gamma/p.go"] {
		t.Errorf("find_code's scores of the three Close methods %v; want three equal", s)
	}
	if s := closes("beta closes the file"); len(s) != 3 || s["beta/p.go"] <= s["gamma/p.go"] || s["alpha/p.go"] != s["gamma/p.go"] {
		t.Errorf("find_code's scores of the three Close methods %v; want beta's first, alpha's and gamma's equal", s)
	}
}
