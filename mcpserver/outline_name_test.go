package mcpserver

import (
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOutlineName: outline {path, name} shows only that definition and
// what it contains (in Go, the methods declared beside the type), then a
// line counting the entries shown (issue 26, item 13).
func TestOutlineName(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.go": "package a\n\ntype T struct{}\n\nfunc (T) A() {}\n\nfunc (t *T) B() {}\n\nfunc F() {}\n",
		"a.ts": "class C {\n  m() {}\n  n() {}\n}\n\nclass D {\n  m() {}\n}\n\nfunction f() {}\n",
		"a.py": "class K:\n    def m(self):\n        pass\n\n    class Inner:\n        def x(self):\n            pass\n\n\ndef top():\n    pass\n",
	})
	c := startTestServer(t, dir, false)
	for _, tc := range []struct {
		path, name, want string
		isError          bool
	}{
		{"a.go", "T", "3 struct T\n5 method T.A\n7 method T.B\n3 entries shown: 2 methods, 1 struct", false},
		{"a.go", "T.B", "7 method T.B\n1 entry shown: 1 method", false},
		{"a.ts", "C", "1 class C\n  2 method m\n  3 method n\n3 entries shown: 2 methods, 1 class", false},
		{"a.ts", "m", "2 method m\n7 method m\n2 entries shown: 2 methods", false},
		{"a.ts", "D.m", "7 method m\n1 entry shown: 1 method", false},
		{"a.py", "K", "1 class K\n  2 method m\n  5 class Inner\n    6 method x\n4 entries shown: 2 methods, 2 classes", false},
		{"a.py", "K.Inner", "5 class Inner\n  6 method x\n2 entries shown: 1 method, 1 class", false},
		{"a.py", "nope", "no definition named nope in a.py; outline a.py lists its definitions", true},
	} {
		got, isError := c.tool("outline", map[string]any{"path": tc.path, "name": tc.name})
		if got != tc.want || isError != tc.isError {
			t.Errorf("outline %s name=%s = %q, %v; want %q, %v", tc.path, tc.name, got, isError, tc.want, tc.isError)
		}
	}
	// Without a name, the whole outline, as before.
	if got, _ := c.tool("outline", map[string]any{"path": "a.go"}); strings.Contains(got, "shown") {
		t.Errorf("outline a.go = %q; want no count line", got)
	}
}

// TestOutlineDecls: outline's signatures and exported options, alone,
// together and with name; the counts line counts what is listed, by
// kind (issue 47, item 1). The default outline is unchanged.
func TestOutlineDecls(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.go": "package a\n\ntype T struct{}\n\nfunc (T) A(x int) error { return nil }\n\nfunc (t *T) b() {}\n\nfunc F(\n\ta, b int,\n) {}\n",
		"a.rb": "class K\n  def m\n  end\nend\n",
		"b.go": "package a\n\nfunc f() {}\n",
	})
	c := startTestServer(t, dir, false)
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "a.go"}, "3 struct T\n5 method T.A\n7 method T.b\n9 function F"},
		{map[string]any{"path": "a.go", "signatures": true}, "3 struct — type T struct\n5 method — func (T) A(x int) error\n7 method — func (t *T) b()\n9 function — func F(a, b int)\n4 entries shown: 1 function, 2 methods, 1 struct"},
		{map[string]any{"path": "a.go", "exported": true}, "3 struct T\n5 method T.A\n9 function F\n3 entries shown: 1 function, 1 method, 1 struct"},
		{map[string]any{"path": "a.go", "exported": "true", "signatures": "true", "name": "T"}, "3 struct — type T struct\n5 method — func (T) A(x int) error\n2 entries shown: 1 method, 1 struct"},
		{map[string]any{"path": "b.go", "exported": true}, "No exported definitions in b.go."},
		{map[string]any{"path": "a.rb", "exported": true}, "1 class K\n  2 method m\n2 entries shown: 1 method, 1 class (ruby marks no definitions exported: all are listed)"},
	} {
		if got, isError := c.tool("outline", tc.args); got != tc.want || isError {
			t.Errorf("outline %v = %q, %v; want %q", tc.args, got, isError, tc.want)
		}
	}
	if got, isError := c.tool("outline", map[string]any{"path": ".", "exported": true}); !isError || !strings.Contains(got, "exported needs a file") {
		t.Errorf("outline . exported = %q, %v; want an error saying it needs a file", got, isError)
	}
}

// TestOutlineCobraExported: issue 47's case, on cobra v1.8.1's
// command.go when the module cache holds it (GOFLAGS=-mod=mod go mod
// download github.com/spf13/cobra@v1.8.1): Command and its 98 exported
// methods, each with its signature, counted on the last line.
func TestOutlineCobraExported(t *testing.T) {
	t.Parallel()
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		cache = filepath.Join(build.Default.GOPATH, "pkg", "mod")
	}
	dir := filepath.Join(cache, "github.com", "spf13", "cobra@v1.8.1")
	if _, err := os.Stat(filepath.Join(dir, "command.go")); err != nil {
		t.Skipf("cobra v1.8.1 is not in the module cache: %v", err)
	}
	c := startTestServer(t, dir, false)
	got, isError := c.tool("outline", map[string]any{"path": "command.go", "name": "Command", "exported": true, "signatures": true})
	lines := strings.Split(got, "\n")
	if isError || len(lines) != 100 || lines[99] != "99 entries shown: 98 methods, 1 struct" {
		t.Fatalf("outline command.go name=Command exported signatures: %d lines ending %q; want 99 entries and their count", len(lines), lines[len(lines)-1])
	}
	if want := "1830 method — func (c *Command) ParseFlags(args []string) error"; !slices.Contains(lines, want) {
		t.Errorf("no line %q", want)
	}
}
