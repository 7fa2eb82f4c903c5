package search

import (
	"strings"
	"testing"
)

// TestLongNames: a name longer than any identifier is a one-line error,
// and an answer repeats at most 300 characters of a name (issue 11,
// defect 10: a 60 MB name came back whole).
func TestLongNames(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.go", "package a\n\nfunc A() {}\n")
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix, _, _ := testIndex(t, dir, "-", true)
	ctx := t.Context()
	tools := map[string]func(name string) (string, error){
		"FindSymbol":       func(n string) (string, error) { return FindSymbol(ctx, root, n) },
		"FindReferences":   func(n string) (string, error) { return FindReferences(ctx, root, n, "") },
		"Index.FindSymbol": func(n string) (string, error) { return ix.FindSymbol(ctx, n) },
		"Index.FindReferences": func(n string) (string, error) {
			return ix.FindReferences(ctx, n, "")
		},
	}
	for name, tool := range tools {
		huge := strings.Repeat("x", 1<<20)
		if _, err := tool(huge); err == nil || !strings.Contains(err.Error(), "name too long (1048576 bytes; the limit is 1000)") || len(err.Error()) > 400 {
			t.Errorf("%s(1 MB name) = error %.120q; want a short error saying the name is too long", name, err)
		}
		long := strings.Repeat("y", 900)
		got, err := tool(long)
		if err != nil || len(got) > 420 || !strings.Contains(got, strings.Repeat("y", 300)+"…") {
			t.Errorf("%s(900-byte name) = %.120q (%d bytes), %v; want the name cut at 300 characters", name, got, len(got), err)
		}
	}
}
