package findcode

import "testing"

// TestCodeShown: a limit shows that many; the default stops at
// DefaultLimit, or where the score falls off (never before
// codeCutMin).
func TestCodeShown(t *testing.T) {
	defs := func(scores ...float64) []Def {
		out := make([]Def, len(scores))
		for i, s := range scores {
			out[i].Score = s
		}
		return out
	}
	for _, tc := range []struct {
		scores []float64
		limit  int
		want   int
	}{
		{[]float64{10, 9.5, 9, 8.8, 8.5, 8.4, 8.3, 8.2, 8.1, 8, 7.9, 7.8}, 0, 10},
		{[]float64{10, 9.5, 9, 8.8, 8.5, 8.4, 8.3, 8.2, 8.1, 8, 7.9, 7.8}, 12, 12},
		{[]float64{10, 9.5, 9, 8.8, 8.5, 8.4, 8.3, 8.2, 8.1, 8, 7.9, 7.8}, 20, 12},
		{[]float64{10, 9.5, 9, 8.8, 5, 4.9}, 0, 4},     // a fall
		{[]float64{10, 9.5, 9, 8.8, 5, 4.9}, 6, 6},     // a limit is not cut
		{[]float64{10, 3, 2.9, 2.8}, 0, 3},             // never fewer than codeCutMin
		{[]float64{10, 9, 8, 7, 6, 5, 4.4, 4.3}, 0, 6}, // under codeCutTop of the best
		{[]float64{10, 9}, 0, 2},
		{nil, 0, 0},
	} {
		if got := Shown(defs(tc.scores...), tc.limit); got != tc.want {
			t.Errorf("Shown(%v, %d) = %d; want %d", tc.scores, tc.limit, got, tc.want)
		}
	}
}
