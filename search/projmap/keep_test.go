package projmap

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/search/internal/defrec"
)

// TestMapKeepSame: a map that keeps only the definitions that may rank
// among its best (keep.go) ranks and shows its best as the whole
// map does.
func TestMapKeepSame(t *testing.T) {
	for _, tc := range []struct {
		dir     string
		folders []string
	}{
		{mapFixture(t), []string{".", "lib"}},
		{"../../internal", []string{".", "project", "diskcache"}},
		{"../../testdata", []string{".", "outline"}},
	} {
		ix, _, _ := testIndex(t, tc.dir, "-", true)
		for _, folder := range tc.folders {
			ix.Mu.RLock()
			full := ix.mapLocked(folder, math.MaxInt, 0)
			var kept []*Map
			for _, keep := range []int{1, 5, 40} {
				kept = append(kept, ix.mapLocked(folder, 0, keep))
			}
			ix.Mu.RUnlock()
			for i, keep := range []int{1, 5, 40} {
				m := kept[i]
				name := fmt.Sprintf("%s %q keep %d", tc.dir, folder, keep)
				if m.Files != full.Files || m.Defs != full.Defs || m.Indexed != full.Indexed || m.Total != full.Total {
					t.Errorf("%s: %d files, %d definitions, %d of %d indexed; want %d, %d, %d of %d", name,
						m.Files, m.Defs, m.Indexed, m.Total, full.Files, full.Defs, full.Indexed, full.Total)
				}
				if diff := cmp.Diff(weights(full, keep), weights(m, keep)); diff != "" {
					t.Errorf("%s: ranking (-whole +kept):\n%s", name, diff)
				}
				for _, budget := range []int{60, 300, 2000} {
					want, err := full.Select(context.Background(), budget, keep, lineSizer{})
					if err != nil {
						t.Fatal(err)
					}
					got, err := m.Select(context.Background(), budget, keep, lineSizer{})
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(render(want), render(got)); diff != "" {
						t.Errorf("%s: Select(%d) (-whole +kept):\n%s", name, budget, diff)
					}
				}
				t.Logf("%s keeps %d of %d definitions", name, len(m.defs), len(full.defs))
				if folder == "." && keep < 40 && len(m.defs) >= len(full.defs) {
					t.Errorf("%s keeps %d of %d definitions", name, len(m.defs), len(full.defs))
				}
			}
		}
	}
}

// TestAppendRawDefs: the map's reader of definition records reads what
// defrec.Walk reads, of whole records and of every cut or damaged one.
func TestAppendRawDefs(t *testing.T) {
	ix, _, _ := testIndex(t, "../../testdata/outline", "-", true)
	ix.Mu.RLock()
	defer ix.Mu.RUnlock()
	nstrs := ix.Words.Len()
	walk := func(rec []byte) []rawDef {
		var raw []rawDef
		defrec.Walk(rec, uint64(nstrs), func(name uint32, k byte, line, before, after uint64, quals []uint32) {
			d := rawDef{name: name, last: name, cont: noString, kind: grammar.Kind(k &^ defrec.DeclBit),
				line: int32(line), start: int32(line - before), end: int32(line + after)}
			if n := len(quals); n > 0 {
				d.last = quals[n-1]
				if n >= 2 {
					d.cont = quals[n-2]
				}
			}
			raw = append(raw, d)
		})
		return raw
	}
	same := func(rec []byte) {
		t.Helper()
		if want, got := walk(rec), appendRawDefs(nil, rec, nstrs); !slices.Equal(want, got) {
			t.Fatalf("record % x: got %v, want %v", rec, got, want)
		}
	}
	n := 0
	for _, r := range ix.Files {
		if r == nil || len(r.Recs.Get(ix.DefsKind)) == 0 {
			continue
		}
		defs := r.Recs.Get(ix.DefsKind)
		n++
		same(defs)
		if n%10 != 0 {
			continue
		}
		for i := range defs {
			same(defs[:i])
			bad := slices.Clone(defs)
			bad[i] ^= 0xff
			same(bad)
		}
	}
	if n < 50 {
		t.Fatalf("%d records read", n)
	}
}
