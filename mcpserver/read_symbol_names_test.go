package mcpserver

import (
	"fmt"
	"strings"
	"testing"
)

// TestReadSymbolNames: names reads several definitions in one call, in
// order, each as alone, sharing one 200-line budget; the names the budget
// leaves out are named on a last line (issue 26, item 6).
func TestReadSymbolNames(t *testing.T) {
	t.Parallel()
	var long strings.Builder
	long.WriteString("package a\n\nfunc Long() {\n")
	for i := range 150 {
		fmt.Fprintf(&long, "\t_ = %d\n", i)
	}
	long.WriteString("}\n")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.go":    "package a\n\nfunc F() int {\n\treturn 1\n}\n",
		"b.ts":    "class C {\n  m() {\n    return 1;\n  }\n}\n",
		"c.py":    "def top():\n    pass\n",
		"long.go": long.String(),
	})
	c := startTestServer(t, dir, false)
	got, isError := c.tool("read_symbol", map[string]any{"names": []string{"F", "C.m", "c.py:2", "nope"}})
	want := "a.go:3-5 function F\nfunc F() int {\n\treturn 1\n}\n\n" +
		"b.ts:2-4 method C.m\n  m() {\n    return 1;\n  }\n\n" +
		"c.py:1-2 function top\ndef top():\n    pass\n\n" +
		"No definition of nope and no names containing it."
	if isError || got != want {
		t.Errorf("read_symbol names = %q, %v; want %q", got, isError, want)
	}
	got, _ = c.tool("read_symbol", map[string]any{"names": []string{"Long", "Long", "F"}})
	parts := strings.Split(got, "\n\n")
	if len(parts) != 3 || !strings.HasSuffix(parts[1], "read those lines of long.go") || parts[2] != "… not read, the 200 lines are used up: F; read them in another call" {
		t.Errorf("read_symbol names Long, Long, F = %d parts, ending %q; want Long whole, Long cut, F not read", len(parts), got[max(0, len(got)-300):])
	}
	if n := strings.Count(got, "\n"); n > 215 {
		t.Errorf("read_symbol names Long, Long, F: %d lines; want about 200", n)
	}
	if _, isError := c.tool("read_symbol", map[string]any{"names": []string{"x", "x", "x", "x", "x", "x", "x", "x", "x", "x", "x"}}); !isError {
		t.Error("11 names: no error; want at most 10")
	}
	if got, isError := c.tool("read_symbol", map[string]any{"name": "F", "names": []string{"c.py:1"}}); isError || !strings.HasPrefix(got, "a.go:3-5 function F") || !strings.Contains(got, "\n\nc.py:1-2 function top") {
		t.Errorf("read_symbol name and names = %q; want name first, then names", got)
	}
}
