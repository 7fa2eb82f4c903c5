package grammar

import (
	"regexp"
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

// TestQueriesCompile compiles every query and checks its captures and
// predicates: only the kinds of SPEC.md and the helper captures, and only
// the predicates smacker/go-tree-sitter evaluates.
func TestQueriesCompile(t *testing.T) {
	allowed := map[string]bool{"name": true, "scope": true, "trait": true, "skip": true, "member": true, "listed": true}
	for _, k := range Kinds() {
		allowed["definition."+k.String()] = true
	}
	predicate := regexp.MustCompile(`\(#([a-z-]+[?!])`)
	for _, l := range registry {
		t.Run(l.Name, func(t *testing.T) {
			q, err := l.Query()
			if err != nil {
				t.Fatal(err)
			}
			for i := uint32(0); i < q.CaptureCount(); i++ {
				// Captures named _x only feed predicates.
				if name := q.CaptureNameForId(i); !allowed[name] && !strings.HasPrefix(name, "_") {
					t.Errorf("capture @%s is not a kind of SPEC.md nor a helper capture", name)
				}
			}
			src, err := l.Source()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(src, "; ") {
				t.Errorf("the query's first line must name the language and grammar version")
			}
			for _, m := range predicate.FindAllStringSubmatch(src, -1) {
				switch m[1] {
				case "eq?", "not-eq?", "match?", "not-match?":
				default:
					t.Errorf("predicate #%s is silently ignored by smacker/go-tree-sitter", m[1])
				}
			}
		})
	}
}

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
		{"bin/tool", "#!/usr/bin/perl -w\n", ""},
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
