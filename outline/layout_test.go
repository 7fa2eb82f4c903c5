package outline

import (
	"os"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"
)

// TestPinnedTreeSitter fails on any go-tree-sitter but the one whose
// private layouts layout.go reads and whose api.h internal/tsapi holds:
// another version must have both checked again (see
// internal/tsapi/README.md) before treeSitterVersion names it.
func TestPinnedTreeSitter(t *testing.T) {
	const advice = "; copy its api.h into outline/internal/tsapi, check its Node, Query and Parser against layout.go, then set treeSitterVersion"
	// A test binary's build information lists no dependencies (go test
	// leaves them out); a program's does, and go.mod is read below
	// either way.
	info, _ := debug.ReadBuildInfo()
	for _, m := range info.Deps {
		if m.Path != treeSitterModule {
			continue
		}
		if m.Replace != nil {
			t.Errorf("%s is replaced by %s %s; layout.go was checked against %s%s", m.Path, m.Replace.Path, m.Replace.Version, treeSitterVersion, advice)
		} else if m.Version != treeSitterVersion {
			t.Errorf("%s is %s; layout.go was checked against %s%s", m.Path, m.Version, treeSitterVersion, advice)
		}
	}
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	var required []string
	for _, line := range strings.Split(string(mod), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && (f[0] == treeSitterModule || len(f) >= 3 && f[1] == treeSitterModule) {
			required = append(required, line)
		}
	}
	want := "\t" + treeSitterModule + " " + treeSitterVersion
	if len(required) != 1 || strings.TrimSpace(required[0]) != strings.TrimSpace(want) {
		t.Errorf("go.mod says %q of %s; layout.go was checked against %s%s", required, treeSitterModule, treeSitterVersion, advice)
	}
}

// TestSameLayout: sameLayout, which init runs on go-tree-sitter's Node,
// Query and Parser, tells fields moved, renamed or resized.
func TestSameLayout(t *testing.T) {
	type ours struct {
		a bool
		b *int
		c [2]uint32
	}
	for _, tc := range []struct {
		name   string
		theirs any
		ok     bool
	}{
		{"same", struct {
			a bool
			b *int
			c [2]uint32
		}{}, true},
		{"renamed", struct {
			a bool
			x *int
			c [2]uint32
		}{}, false},
		{"swapped", struct {
			b *int
			a bool
			c [2]uint32
		}{}, false},
		{"resized", struct {
			a bool
			b *int
			c [3]uint32
		}{}, false},
		{"added", struct {
			a bool
			b *int
			c [2]uint32
			d bool
		}{}, false},
	} {
		err := sameLayout(reflect.TypeOf(tc.theirs), reflect.TypeOf(ours{}))
		if (err == nil) != tc.ok {
			t.Errorf("%s: sameLayout = %v; want ok %v", tc.name, err, tc.ok)
		}
	}
}
