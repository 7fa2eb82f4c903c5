package mcpserver

import (
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
		{"a.go", "T", "3 struct T\n5 method T.A\n7 method T.B\n3 entries shown", false},
		{"a.go", "T.B", "7 method T.B\n1 entry shown", false},
		{"a.ts", "C", "1 class C\n  2 method m\n  3 method n\n3 entries shown", false},
		{"a.ts", "m", "2 method m\n7 method m\n2 entries shown", false},
		{"a.ts", "D.m", "7 method m\n1 entry shown", false},
		{"a.py", "K", "1 class K\n  2 method m\n  5 class Inner\n    6 method x\n4 entries shown", false},
		{"a.py", "K.Inner", "5 class Inner\n  6 method x\n2 entries shown", false},
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
