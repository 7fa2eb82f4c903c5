package projmap

import (
	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/search/internal/filetier"
)

// The ranking's weights (projmap.go says the rule), given file by file:
// a file's definitions and their containers are all in the file, so that
// a large map can weigh each file's definitions in a scratch and keep
// only those that may be shown (keep.go).

// rankCounts are a name's counts: the files using it, defining it, and
// the tests using it.
type rankCounts struct{ users, definers, testers int32 }

// memoUsers is how many files must use a name for its counts to be
// kept (ranker.memo).
const memoUsers = 16

// rankKey is a name counted where a Go scope says.
type rankKey struct {
	w  uint32
	in mapWhere
}

// ranker weighs definitions from c's counts, each name counted once
// over the whole project or once per Go scope.
type ranker struct {
	m *Map
	c mapCounter
	// A name counted over the whole project (most of a large project's)
	// is kept in memo the second time it is asked (seen), if many files
	// use it (memoUsers): most of a large project's names are defined
	// once (the Linux tree's millions of register macros), and a name
	// few files use is counted again faster than a memo of every name
	// is made.
	seen   bitSet
	memo   map[uint32]rankCounts
	scoped map[rankKey]rankCounts
	pkgs   map[string]uint32
	header headerMemo
	// share marks the names counted at predeclaredShare: 1 all, 2 in Go,
	// 4 in C and C++ (by name id).
	share map[uint32]uint8
	// vendored: the map is of a vendored folder, whose code counts.
	vendored bool
}

func newRanker(m *Map, c mapCounter) *ranker {
	// Vendored and generated code is not the project's own, unless the
	// map is of a vendored folder.
	r := &ranker{m: m, c: c, memo: map[uint32]rankCounts{}, scoped: map[rankKey]rankCounts{}, pkgs: map[string]uint32{},
		share: map[uint32]uint8{}, vendored: grammar.IsVendoredFile(m.Dir + "/x")}
	if m.strs != nil {
		words := (m.strs.Len() + 63) / 64
		r.seen, r.header.known, r.header.yes = make(bitSet, words), make(bitSet, words), make(bitSet, words)
	}
	mark := func(s string, bit uint8) {
		if w, ok := c.word(s); ok {
			r.share[w] |= bit
		}
	}
	for b := range 256 {
		mark(string([]byte{byte(b)}), 1)
	}
	for s := range goPredeclared {
		mark(s, 2)
	}
	for s := range cReserved {
		mark(s, 4)
	}
	return r
}

// rank gives every definition its weight, from c's counts.
func (m *Map) rank(c mapCounter) {
	r := newRanker(m, c)
	for _, f := range m.files {
		r.weigh(m.defs[f.first:f.first+f.n], int32(f.first))
	}
	m.creditTypes()
}

// count counts the name w's users and, when they are few, testers in
// in; its definers (in defs) too if eager, else on demand (definers):
// most names count no other file, and their definers do not matter.
func (r *ranker) count(w uint32, in, defs mapWhere, eager bool) rankCounts {
	n := rankCounts{users: int32(r.c.users(w, in))}
	if eager && n.users > 0 {
		n.definers = int32(max(r.c.definers(w, defs), 1))
	}
	// Tests only order what no other file uses.
	if n.users <= 1 {
		n.testers = int32(r.c.testers(w, in))
	}
	return n
}

// counts are the counts of the definition d's name, its definers not
// yet counted (0) for a name counted over the whole project.
func (r *ranker) counts(d *mapDef, f *mapFile) rankCounts {
	if !f.goFile {
		if r.seen.has(d.last) {
			if n, ok := r.memo[d.last]; ok {
				return n
			}
		}
		n := r.count(d.last, everywhere, everywhere, false)
		if n.users > memoUsers {
			if r.seen.has(d.last) {
				r.memo[d.last] = n
			}
			r.seen.set(d.last)
		}
		return n
	}
	k, defs := r.m.goKey(r.c, d, r.pkgs)
	if n, ok := r.scoped[rankKey{d.last, k}]; ok {
		return n
	}
	n := r.count(d.last, k, defs, true)
	r.scoped[rankKey{d.last, k}] = n
	return n
}

// definers counts the files defining the name w, over the whole
// project, for its counts n (kept in the memo if n is).
func (r *ranker) definers(w uint32, n *rankCounts) {
	n.definers = int32(max(r.c.definers(w, everywhere), 1))
	if r.seen.has(w) {
		if _, ok := r.memo[w]; ok {
			r.memo[w] = *n
		}
	}
}

// weigh gives the definitions of one file their weights, then adds each
// member's to its container's; defs[i].parent-base is the index in defs
// of the container.
func (r *ranker) weigh(defs []mapDef, base int32) {
	m := r.m
	for i := range defs {
		d := &defs[i]
		f := &m.files[d.file]
		// A heading's name is prose, which no code uses.
		if d.again || f.tier == filetier.Test || f.tier >= filetier.Vendored && !r.vendored || d.kind == grammar.Heading {
			continue
		}
		n := r.counts(d, f)
		// Its own file holds the name too, and is not another file.
		u := n.users
		if f.user {
			u--
		}
		// What a C source file defines and no header does is used in
		// that file alone (static) or through an extern declaration
		// (rare): other files' words so named are other things. (Asked
		// only of names other files hold: most are not.)
		if u > 0 && f.cSource && !r.header.has(r.c, d.last) {
			continue
		}
		if u > 0 {
			if n.definers == 0 {
				r.definers(d.last, &n)
			}
			d.score = float32(u) / float32(n.definers)
			if s := r.share[d.last]; s&1 != 0 || s&2 != 0 && f.goFile || s&4 != 0 && f.cFamily {
				d.score *= predeclaredShare
			}
		}
		d.tests = float32(n.testers)
	}
	// Members after their container: summing from the end adds each
	// definition's whole weight to its container's.
	for i := len(defs) - 1; i >= 0; i-- {
		if p := defs[i].parent; p >= 0 {
			defs[p-base].score += defs[i].score
			defs[p-base].tests += defs[i].tests
		}
	}
}

// goKey is where the Go definition d's name is counted (goScope): its
// users, and its definers.
func (m *Map) goKey(c mapCounter, d *mapDef, pkgs map[string]uint32) (users, defs mapWhere) {
	f := &m.files[d.file]
	pkg, exported, _ := goScope(f.path, m.strs.Str(d.last))
	users = mapWhere{dir: f.dir, pkg: noString}
	if !exported {
		return users, users
	}
	id, seen := pkgs[pkg]
	if !seen {
		id = noString
		if w, ok := c.word(pkg); ok {
			id = w
		}
		pkgs[pkg] = id
	}
	users.pkg = id
	return users, everywhere
}

// typeCredit is a Go method's weight, for the type it is declared with:
// cont is the type's name, dir the folder.
type typeCredit struct {
	cont         uint32
	dir          int32
	score, tests float32
}

// creditTypes adds to a Go type the weights of the methods declared
// beside it in its folder (top-level definitions named Type.method).
func (m *Map) creditTypes() {
	var credits []typeCredit
	for _, d := range m.defs {
		if d.parent < 0 && d.cont != noString && m.files[d.file].goFile {
			credits = append(credits, typeCredit{d.cont, m.files[d.file].dir, d.score, d.tests})
		}
	}
	m.applyCredits(credits)
}

// applyCredits adds each method's weight to its type, in order.
func (m *Map) applyCredits(credits []typeCredit) {
	if len(credits) == 0 {
		return
	}
	type typeKey struct {
		name uint32
		dir  int32
	}
	types := map[typeKey]int{}
	for i, d := range m.defs {
		if d.parent < 0 && typeKinds[d.kind] && m.files[d.file].goFile {
			types[typeKey{d.last, m.files[d.file].dir}] = i
		}
	}
	for _, c := range credits {
		if t, ok := types[typeKey{c.cont, c.dir}]; ok {
			m.defs[t].score += c.score
			m.defs[t].tests += c.tests
		}
	}
}

// headerMemo remembers mapCounter.inHeader by name id.
type headerMemo struct{ known, yes bitSet }

func (h *headerMemo) has(c mapCounter, w uint32) bool {
	if !h.known.has(w) {
		h.known.set(w)
		if c.inHeader(w) {
			h.yes.set(w)
		}
	}
	return h.yes.has(w)
}

// bitSet is a set of ids, grown as needed.
type bitSet []uint64

func (b bitSet) has(id uint32) bool {
	return int(id>>6) < len(b) && b[id>>6]&(1<<(id&63)) != 0
}

func (b *bitSet) set(id uint32) {
	if int(id>>6) >= len(*b) {
		*b = append(*b, make([]uint64, int(id>>6)+1-len(*b))...)
	}
	(*b)[id>>6] |= 1 << (id & 63)
}
