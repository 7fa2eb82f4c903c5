package mcpserver

import (
	"fmt"
	"strings"
	"testing"
)

// TestReadSymbolLongDoc: a doc comment over 12 lines shows its first 3
// lines and a marker "⋮ FROM-TO doc comment (N lines)"; a licence above a
// definition is no documentation: one marker stands for all of it; full
// shows them whole; a doc comment of 12 lines is shown whole (issue 26,
// item 5).
func TestReadSymbolLongDoc(t *testing.T) {
	t.Parallel()
	doc := func(first, middle, last string, n int) string {
		var sb strings.Builder
		if first != "" {
			sb.WriteString(first + "\n")
			n--
		}
		for i := range n {
			if i == n-1 && last != "" {
				sb.WriteString(last + "\n")
				break
			}
			fmt.Fprintf(&sb, "%s line %d\n", middle, i+1)
		}
		return sb.String()
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.go":   "package a\n\n" + doc("", "//", "", 20) + "func Long() {}\n\n" + doc("", "//", "", 12) + "func Short() {}\n",
		"a.ts":   doc("/**", " *", " */", 16) + "export function long(): void {}\n",
		"a.py":   doc("", "#", "", 14) + "def long():\n    pass\n",
		"lic.ts": "/*!\n * Copyright 2024 X.\n * Licensed under MIT.\n */\n/** Makes a thing. */\nexport function make(): void {}\n",
		"lic.py": "# Copyright 2024 X.\n# SPDX-License-Identifier: MIT\ndef licensed():\n    pass\n",
	})
	c := startTestServer(t, dir, false)
	for _, tc := range []struct {
		name string
		full bool
		want string
	}{
		{"Long", false, "a.go:3-23 function Long\n// line 1\n// line 2\n// line 3\n⋮ 3-22 doc comment (20 lines)\nfunc Long() {}"},
		{"a.go:23", false, "a.go:3-23 function Long\n// line 1\n// line 2\n// line 3\n⋮ 3-22 doc comment (20 lines)\nfunc Long() {}"},
		{"a.ts:17", false, "a.ts:1-17 function long\n/**\n * line 1\n * line 2\n ⋮ 1-16 doc comment (16 lines)\nexport function long(): void {}"},
		{"a.py:15", false, "a.py:1-16 function long\n# line 1\n# line 2\n# line 3\n⋮ 1-14 doc comment (14 lines)\ndef long():\n    pass"},
		{"make", false, "lic.ts:1-6 function make\n⋮ 1-4 licence comment (4 lines)\n/** Makes a thing. */\nexport function make(): void {}"},
		{"licensed", false, "lic.py:1-4 function licensed\n⋮ 1-2 licence comment (2 lines)\ndef licensed():\n    pass"},
		{"licensed", true, "lic.py:1-4 function licensed\n# Copyright 2024 X.\n# SPDX-License-Identifier: MIT\ndef licensed():\n    pass"},
	} {
		if got, isError := c.tool("read_symbol", map[string]any{"name": tc.name, "full": tc.full}); isError || got != tc.want {
			t.Errorf("read_symbol %s = %q, %v; want %q", tc.name, got, isError, tc.want)
		}
	}
	if got, _ := c.tool("read_symbol", map[string]any{"name": "Long", "full": true}); strings.Contains(got, "⋮") || !strings.Contains(got, "// line 20\nfunc Long") {
		t.Errorf("read_symbol Long full = %q; want the doc comment whole", got)
	}
	if got, _ := c.tool("read_symbol", map[string]any{"name": "Short"}); strings.Contains(got, "⋮") {
		t.Errorf("read_symbol Short = %q; want its 12-line doc comment whole", got)
	}
}
