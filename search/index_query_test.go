package search

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFuzzyLastSameAsEveryFile checks the fallback that visits keys in
// rank order and stops when its answer is full against decoding every
// parsed file, over this repository, for pieces of its own names (common
// ones such as "er" and rare ones), with the usual limit and none.
func TestFuzzyLastSameAsEveryFile(t *testing.T) {
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	ix, _, _ := testIndex(t, dir, "-", true)
	pieces := map[string]bool{"er": true, "ret": true, "get": true, "x": true, "é": true, "SUM": true, "_": true}
	step := 211
	if testing.Short() {
		step = 2111
	}
	ix.mu.RLock()
	for i, w := range ix.words.strs {
		if i%step == 0 && len(w) >= 4 && !ix.defines.empty(uint32(i)) {
			pieces[strings.ToLower(w[1:4])] = true
			pieces[w[:len(w)-1]] = true
		}
	}
	all := ix.liveIDsLocked()
	ix.mu.RUnlock()
	ctx := context.Background()
	sc := &Scratch{}
	defer sc.Close()
	for p := range pieces {
		q := ParseSymbolQuery(p)
		if q.qualified() || checkName(q.Name) != nil {
			continue
		}
		for _, limit := range []int{SymbolLimit, 3, -1} {
			want, err := ix.fuzzy(ctx, q, limit, all, sc, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := ix.fuzzyLast(ctx, q, limit, sc, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if g, w := showDefs(got), showDefs(want); g != w {
				t.Errorf("fallback %q, limit %d: rank-ordered keys give\n%s\nevery file gives\n%s", p, limit, g, w)
			}
		}
	}
}

func showDefs(defs []Def) string {
	var b strings.Builder
	for _, d := range defs {
		fmt.Fprintf(&b, "%s:%d %v %s %q %v\n", d.Path, d.Line, d.Kind, d.QualifiedName(), d.Text, d.test)
	}
	return b.String()
}
