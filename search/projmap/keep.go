package projmap

import "math"

// A large map (the Linux tree's millions of definitions) is weighed
// file by file in a scratch, and keeps only the definitions that may be
// among its mapKeep best: those weighing at least the mapKeep-th best
// weight seen so far (the floor, which only rises, never above the
// final one), the containers of those, and Go's types, which methods in
// other files credit (their weights are kept aside, in order). As the
// floor rises, what it has risen above is dropped. What is dropped could
// not rank among the mapKeep best, so that the best n of the map (top,
// Select) are those of the whole map for n up to mapKeep.

const (
	// mapKeep is how many of the best definitions a large map is sure to
	// keep: more than a map shows (maxMapLines, 200).
	mapKeep = 1000
	// mapStreamAbove is how many definitions make a map large.
	mapStreamAbove = 20000
)

// mapKeeper keeps the definitions of a large map, file by file.
type mapKeeper struct {
	floor   scoreFloor
	nest    nester
	scratch []mapDef
	keep    []bool
	at      []int32
	credits []typeCredit
	// next is how many definitions kept make add drop those the floor
	// has risen above.
	next int
	// users, if set, bounds the files using a name (its list's length
	// in the word index) without counting them: a definition outside Go
	// whose name and members' names are used by too few files to weigh
	// up to the floor is dropped before it is weighed (most are).
	users  func(w uint32) int
	bounds []float64
}

// add nests, weighs and keeps the definitions of the file fi (whose
// record m.files already holds), and reports whether it kept any.
func (k *mapKeeper) add(m *Map, r *ranker, fi int32, raw []rawDef) bool {
	defs := k.nest.nest(k.scratch[:0], fi, raw)
	k.scratch = defs
	f := &m.files[fi]
	if k.users != nil && !f.goFile {
		defs = k.dropLight(defs)
	}
	r.weigh(defs, 0)
	for i := range defs {
		d := &defs[i]
		if !d.again {
			k.floor.add(d.score)
		}
		// A Go method's weight goes to its type, which may be in a file
		// to come: its credit is kept, in order.
		if f.goFile && d.parent < 0 && d.cont != noString && (d.score != 0 || d.tests != 0) {
			k.credits = append(k.credits, typeCredit{d.cont, f.dir, d.score, d.tests})
		}
	}
	m.defs = k.keepAbove(m, defs, m.defs)
	if len(m.defs) >= k.next {
		// The floor has risen since most were kept: those below it
		// are dropped.
		m.defs = k.keepAbove(m, m.defs, m.defs[:0])
		k.next = len(m.defs) + 4*k.floor.n
	}
	return len(m.defs) > 0 && m.defs[len(m.defs)-1].file == fi
}

// dropLight drops from one file's definitions the top-level ones (with
// their members) that cannot weigh up to the floor: a definition weighs
// at most as many files as use its name (k.users), plus its members'
// weights. (A margin covers the rounding of the weights' sums.)
func (k *mapKeeper) dropLight(defs []mapDef) []mapDef {
	t := float64(k.floor.min())
	if math.IsInf(t, -1) {
		return defs
	}
	b := append(k.bounds[:0], make([]float64, len(defs))...)
	k.bounds = b
	for i := range defs {
		b[i] = float64(k.users(defs[i].last))
	}
	for i := len(defs) - 1; i >= 0; i-- {
		if p := defs[i].parent; p >= 0 {
			b[p] += b[i]
		}
	}
	at := append(k.at[:0], make([]int32, len(defs))...)
	k.at = at
	out := defs[:0]
	drop := false
	for i, d := range defs {
		if d.parent < 0 {
			drop = b[i]*(1+1e-3)+1 < t
		}
		if drop {
			continue
		}
		if d.parent >= 0 {
			d.parent = at[d.parent]
		}
		at[i] = int32(len(out))
		out = append(out, d)
	}
	return out
}

// keepAbove appends to dst those of defs (one file's, or m.defs) that
// are not under the floor, the containers of those and Go's types,
// their containers' indices in defs made indices in dst. dst may be
// defs[:0].
func (k *mapKeeper) keepAbove(m *Map, defs, dst []mapDef) []mapDef {
	t := k.floor.min()
	keep := append(k.keep[:0], make([]bool, len(defs))...)
	k.keep = keep
	for i := len(defs) - 1; i >= 0; i-- {
		d := &defs[i]
		if !d.again && d.score >= t || d.parent < 0 && typeKinds[d.kind] && m.files[d.file].goFile {
			keep[i] = true
		}
		if keep[i] && d.parent >= 0 {
			keep[d.parent] = true
		}
	}
	at := append(k.at[:0], make([]int32, len(defs))...)
	k.at = at
	for i, d := range defs {
		if !keep[i] {
			continue
		}
		if d.parent >= 0 {
			d.parent = at[d.parent]
		}
		at[i] = int32(len(dst))
		dst = append(dst, d)
	}
	return dst
}

// done drops what the floor has risen above, then credits Go's types
// with their methods' weights.
func (k *mapKeeper) done(m *Map) {
	m.defs = k.keepAbove(m, m.defs, m.defs[:0])
	m.applyCredits(k.credits)
}

// scoreFloor is the n-th greatest of the weights added (a min-heap of
// the n greatest).
type scoreFloor struct {
	n int
	h []float32
}

func (s *scoreFloor) add(w float32) {
	h := s.h
	if len(h) < s.n {
		h = append(h, w)
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if h[p] <= h[i] {
				break
			}
			h[p], h[i] = h[i], h[p]
			i = p
		}
		s.h = h
		return
	}
	if len(h) == 0 || w <= h[0] {
		return
	}
	h[0] = w
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && h[c+1] < h[c] {
			c++
		}
		if h[i] <= h[c] {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// min is the floor: the n-th greatest weight, or -Inf before n were
// added.
func (s *scoreFloor) min() float32 {
	if len(s.h) < s.n {
		return float32(math.Inf(-1))
	}
	return s.h[0]
}
