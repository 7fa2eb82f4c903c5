package findcode

// How many of find_code's definitions an answer shows. The engine finds
// the best Limit; an agent that needs the first two should not read
// twenty, so unless it asks for a number the answer stops at
// DefaultLimit, or earlier where the score falls off sharply: below
// that fall the definitions match the description much worse than those
// above it (often one word of it, the commonest).

// DefaultLimit is how many definitions find_code shows unless asked
// for another number (1 to Limit).
const DefaultLimit = 10

// A codeCut says where the default answer is cut: never before min
// definitions; after that, before the first definition scoring under
// fall times the one before it, or under top times the best.
type codeCut struct {
	min       int
	fall, top float64
}

// defaultCodeCut was chosen on the benchmark's queries
// (scripts/code_bench.sh; TestCodeCut logs the figures): their answers
// show 8.4 definitions on average instead of 10, and of the 148 targets
// in the first 10, one is cut (0.8 and 0.5 cut four to six; 0.7 alone,
// none, but it shows 9.7). The benchmark's queries are hard, with many
// near scores; an agent's usual question falls off sooner.
var defaultCodeCut = codeCut{min: 3, fall: 0.7, top: 0.45}

// Shown is how many of defs (best first) find_code shows: with
// limit from 1 to Limit, up to limit; with 0, up to
// DefaultLimit, cut where the score falls off.
func Shown(defs []Def, limit int) int {
	if limit > 0 {
		return min(limit, len(defs))
	}
	scores := make([]float64, len(defs))
	for i := range defs {
		scores[i] = defs[i].Score
	}
	return defaultCodeCut.shown(scores)
}

// shown is how many of scores (best first) the default answer shows.
func (c codeCut) shown(scores []float64) int {
	n := min(DefaultLimit, len(scores))
	for i := c.min; i < n; i++ {
		if scores[i] < c.fall*scores[i-1] || scores[i] < c.top*scores[0] {
			return i
		}
	}
	return n
}
