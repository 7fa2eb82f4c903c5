package grammar

import (
	"sort"
	"strings"
	"testing"
)

func TestRegistrySorted(t *testing.T) {
	if !sort.SliceIsSorted(registry, func(i, j int) bool { return registry[i].Name < registry[j].Name }) {
		t.Error("registry is not sorted by name")
	}
	seen := map[string]string{}
	for _, l := range registry {
		for _, e := range l.Extensions {
			if e != strings.ToLower(e) || !strings.HasPrefix(e, ".") {
				t.Errorf("%s: extension %q must be lower case and start with a dot", l.Name, e)
			}
			if other, dup := seen[e]; dup {
				t.Errorf("extension %s is claimed by %s and %s", e, other, l.Name)
			}
			seen[e] = l.Name
		}
	}
}

// TestUnbound: without package grammar/langs (which these tests do not
// link) a language has no grammar, and says so instead of crashing.
func TestUnbound(t *testing.T) {
	l := ByName("go")
	if _, err := l.Query(); err == nil || !strings.Contains(err.Error(), "grammar/langs") {
		t.Errorf("Query without a linked grammar: %v; want an error naming grammar/langs", err)
	}
	if l.Sitter() != nil {
		t.Error("Sitter without a linked grammar is not nil")
	}
	if _, err := l.CodeQuery(); err == nil {
		t.Error("CodeQuery without a linked grammar: no error")
	}
}

// The checks that need tree-sitter's grammars (every query compiles with
// its captures and predicates; every code rule names a node type of its
// grammar) are outline's TestQueriesCompile and TestCodeRules.

func TestForPath(t *testing.T) {
	tests := []struct {
		name, head, want string
	}{
		{"main.go", "", "go"},
		{"src/lib.rs", "", "rust"},
		{"README.md", "", "markdown"},
		{"types.d.ts", "", "typescript"},
		{"App.TSX", "", "tsx"},
		{"notes.txt", "", ""},
		{"bin/tool", "#!/usr/bin/env python3\n", "python"},
		{"bin/tool", "#!/usr/bin/python3.12 -u\n", "python"},
		{"bin/run", "#!/usr/bin/env -S node --harmony\n", "javascript"},
		{"bin/run", "no shebang\n", ""},
		// #! shapes found in /usr/bin and in the wild.
		{"bin/tool", "#!/usr/bin/env -S python3 -u\n", "python"},
		{"bin/tool", "#!/usr/bin/python3.12\n", "python"},
		{"bin/tool", "#! /usr/bin/env python3\n", "python"},
		{"bin/tool", "#!/usr/bin/env python\r\nimport sys\r\n", "python"},
		{"bin/tool", "#!/usr/bin/env -S PYTHONPATH=. python3\n", "python"},
		{"bin/tool", "#!/usr/local/bin/pypy3.10\n", "python"},
		{"bin/tool", "#!/usr/bin/python", "python"},
		{"bin/tool", "#!/usr/bin/perl -w\n", "perl"},
		{"bin/tool", "#!/usr/bin/awk -f\n", ""},
		{"bin/tool", "#!/bin/sh\nexec python3 \"$0\"\n", "bash"},
		{"bin/tool", "#!/usr/bin/pythonista\n", ""},
		{"bin/tool", "#!\n", ""},
		{"bin/tool.sh", "#!/usr/bin/env python3\n", "bash"},
		{".envrc", "#!/usr/bin/env python3\n", "python"},
		{"bin/setup", "#!/bin/sh\n", "bash"},
		{"Gemfile", "", "ruby"},
		{"src/Main.java", "", "java"},
		{"lib/x.h", "int f(void);\n", "c"},
		{"lib/x.h", "namespace x {\n", "cpp"},
	}
	for _, tt := range tests {
		got := ""
		if l := ForPath(tt.name, []byte(tt.head)); l != nil {
			got = l.Name
		}
		if got != tt.want {
			t.Errorf("ForPath(%q, %q) = %q; want %q", tt.name, tt.head, got, tt.want)
		}
	}
}
