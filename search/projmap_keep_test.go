package search

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMapKeepSame: a map that keeps only the definitions that may rank
// among its best (projmap_keep.go) ranks and shows its best as the whole
// map does.
func TestMapKeepSame(t *testing.T) {
	for _, tc := range []struct {
		dir     string
		folders []string
	}{
		{mapFixture(t), []string{".", "lib"}},
		{"../internal", []string{".", "project", "diskcache"}},
		{"../testdata", []string{".", "outline"}},
	} {
		ix, _, _ := testIndex(t, tc.dir, "-", true)
		for _, folder := range tc.folders {
			ix.mu.RLock()
			full := ix.mapLocked(folder, math.MaxInt, 0)
			var kept []*ProjectMap
			for _, keep := range []int{1, 5, 40} {
				kept = append(kept, ix.mapLocked(folder, 0, keep))
			}
			ix.mu.RUnlock()
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
