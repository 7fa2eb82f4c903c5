package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReadSymbolFrames: a stack-trace frame as Python, Node, Rust, Go and
// the JVM print it reads the innermost definition at its line, as
// path:line does (issue 26, item 7); absolute paths inside the project
// too.
func TestReadSymbolFrames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"pkg/x.py":                   "def foo():\n    x = 1\n    return x\n",
		"src/x.ts":                   "export function foo(): number {\n  return 1;\n}\n",
		"src/main.rs":                "fn main() {\n    let x = 1;\n}\n",
		"pkg/x.go":                   "package pkg\n\nfunc F() int {\n\treturn 1\n}\n",
		"src/main/java/com/x/Y.java": "package com.x;\n\nclass Y {\n    void m() {\n        int a = 1;\n    }\n\n    static class In {\n        void m() {\n            int b = 2;\n        }\n    }\n}\n",
	})
	c := startTestServer(t, dir, false)
	for _, tc := range []struct{ frame, header string }{
		{`File "pkg/x.py", line 2, in foo`, "pkg/x.py:1-3 function foo"},
		{`  File "` + filepath.Join(dir, "pkg/x.py") + `", line 3, in foo`, "pkg/x.py:1-3 function foo"},
		{"at foo (src/x.ts:2:5)", "src/x.ts:1-3 function foo"},
		{"at async Object.foo (" + filepath.Join(dir, "src/x.ts") + ":2:3)", "src/x.ts:1-3 function foo"},
		{"at src/x.ts:2:5", "src/x.ts:1-3 function foo"},
		{"at src/main.rs:2:5", "src/main.rs:1-3 function main"},
		{filepath.Join(dir, "pkg/x.go") + ":4 +0x1d", "pkg/x.go:3-5 function F"},
		{"pkg/x.go:4", "pkg/x.go:3-5 function F"},
		{"at com.x.Y.m(Y.java:5)", "src/main/java/com/x/Y.java:4-6 method Y.m"},
		{"at com.x.Y$In.m(Y.java:10)", "src/main/java/com/x/Y.java:9-11 method Y.In.m"},
	} {
		got, isError := c.tool("read_symbol", map[string]any{"name": tc.frame})
		if first, _, _ := strings.Cut(got, "\n"); isError || first != tc.header {
			t.Errorf("read_symbol %q = %q, %v; want %q first", tc.frame, got, isError, tc.header)
		}
	}
}
