package findcode

import (
	"cmp"
	"context"
	"encoding/binary"
	"math"
	"slices"
	"strings"

	"github.com/zumba-dev/zumba/internal/diskcache"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/search/internal/defrec"
)

// The scoring of find_code's candidates: a file's record read for the
// query's words, its definitions scored by BM25F (defScore), the best
// Limit kept.

// run scores the files and returns the best Limit definitions. With
// every set, it scores every file holding a query word (for tests: the
// answer must be the same).
func (sc *codeScorer) run(ctx context.Context, every bool) ([]codeHit, error) {
	ix, live, w := sc.ix, sc.terms, sc.w
	// A definition scores at most the sum over the query's words its
	// file holds of their idf times the most a word's saturation can
	// give, times the share of the query's words the file holds to the
	// power coord (tier and private factors are at most 1): files are
	// scored from the highest such bound down, until the bound falls
	// below the score to beat.
	held := make([]uint16, len(ix.Files))
	groups := float64(sc.groups)
	sum := make([]float64, len(ix.Files))
	var files []codeBound
	for _, t := range live {
		for _, f := range t.files {
			if held[f] == 0 {
				files = append(files, codeBound{file: f})
			}
			held[f]++
			sum[f] += t.idf
		}
	}
	top := w.maxSaturation() * max(1, w.private) * max(1, slices.Max(w.tier[:]))
	for i := range files {
		f := files[i].file
		b := sum[f] * top
		if w.coord > 0 {
			b *= math.Pow(min(float64(held[f]), groups)/groups, w.coord)
		}
		files[i].bound = b * (1 + 1e-9) // rounding
	}
	slices.SortFunc(files, func(a, b codeBound) int { return cmp.Or(cmp.Compare(b.bound, a.bound), cmp.Compare(a.file, b.file)) })
	for i, fb := range files {
		if !every && len(sc.top) == Limit && fb.bound < sc.floor() {
			break
		}
		if i%256 == 255 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		sc.file(fb.file)
	}
	slices.SortFunc(sc.top, compareHits)
	return sc.top, nil
}

// A codeBound is a file and the most any of its definitions can score.
type codeBound struct {
	file  uint32
	bound float64
}

// maxSaturation is the most a query word's saturation x/(k1+x) can be:
// with x the sum of the path's weight and every field's, each at its
// shortest length's normalisation. A definition scores at most that
// times the sum of its words' idf (before the coordination, tier and
// private factors).
func (w codeWeights) maxSaturation() float64 {
	x := w.path
	for f, v := range w.field {
		n := 1 - w.b[f]
		if n <= 0 {
			return 1
		}
		x += v / n
	}
	if x <= 0 {
		return 1
	}
	return x / (w.k1 + x)
}

// codeScorer scores the definitions of one file at a time, keeping the
// best Limit.
type codeScorer struct {
	ix    *Index
	terms []codeTerm // by id
	w     codeWeights
	avg   [codeFields]float64
	nstrs uint64
	top   []codeHit
	// groups is how many of the query's words have terms; best is each
	// group's best term's score, for one definition.
	groups int
	best   []float64
	// per file: the query words' lists, whether the path holds each word,
	// and for the definitions holding some (touched) the fields holding
	// each word, masks[def*len(terms)+term], valid where mark[def] is gen.
	spans   []codeSpan
	path    []bool
	touched []int
	masks   []uint8
	mark    []uint32
	gen     uint32
	// cands are the file's definitions scoring past the floor.
	cands []codeHit
	// rec is the memory a file's record is read back into (the
	// kind's records are spilled, see Kind.Spill).
	rec []byte
}

// A codeSpan is where a query word's list is in a record.
type codeSpan struct{ term, off, size int }

// floor is the score a definition must pass to enter the best; 0 while
// there are fewer.
func (s *codeScorer) floor() float64 {
	if len(s.top) < Limit {
		return 0
	}
	return s.top[len(s.top)-1].score
}

func (s *codeScorer) keep(h codeHit) {
	if len(s.top) == Limit && compareHits(h, s.top[len(s.top)-1]) >= 0 {
		return
	}
	i, _ := slices.BinarySearchFunc(s.top, h, compareHits)
	s.top = slices.Insert(s.top, i, h)
	if len(s.top) > Limit {
		s.top = s.top[:Limit]
	}
}

// touch makes def d one of the file's touched definitions.
func (s *codeScorer) touch(d int) {
	if s.mark[d] == s.gen {
		return
	}
	s.mark[d] = s.gen
	nt := len(s.terms)
	clear(s.masks[d*nt : (d+1)*nt])
	s.touched = append(s.touched, d)
}

// file scores the definitions of file f that hold a query word (all of
// them when its path holds one). A record that does not decode is
// skipped.
func (s *codeScorer) file(f uint32) {
	r := s.ix.Files[f]
	if r == nil {
		return
	}
	code, err := s.ix.AppendRecord(s.rec, s.ix.CodeKind, r.Recs.Get(s.ix.CodeKind))
	if err != nil || len(code) == 0 {
		return
	}
	if cap(code) > cap(s.rec) {
		s.rec = code[:0]
	}
	nt := len(s.terms)
	if len(s.path) != nt {
		s.path = make([]bool, nt)
	}
	clear(s.path)
	rd := diskcache.NewReader(code)
	ndefs := readCodeHead(rd).defs
	lensAt := rd.Offset()
	rd.Skip(2 * ndefs)
	n := rd.Count()
	if rd.Err() != nil {
		return
	}
	s.spans = s.spans[:0]
	var id uint64
	off, q, inPath := 0, 0, false
	// The word table is most of what is read: its numbers are read where
	// they lie (most are one byte), not through rd.
	b, at := code, rd.Offset()
	for range n {
		delta, next, ok := diskcache.UvarintAt(b, at)
		l, next2, ok2 := diskcache.UvarintAt(b, next)
		if !ok || !ok2 {
			return
		}
		at = next2
		id += delta
		size := int(l >> 1)
		for q < nt && uint64(s.terms[q].id) < id {
			q++
		}
		if q < nt && uint64(s.terms[q].id) == id {
			s.spans = append(s.spans, codeSpan{q, off, size})
			if l&1 != 0 {
				s.path[q], inPath = true, true
			}
		}
		off += size
	}
	listsAt := at
	if id >= s.nstrs || listsAt+off != len(code) {
		return
	}
	lens := code[lensAt : lensAt+2*ndefs]
	if len(s.mark) < ndefs {
		s.mark = make([]uint32, ndefs)
		s.gen = 0
	}
	if len(s.masks) < ndefs*nt {
		s.masks = make([]uint8, ndefs*nt)
	}
	s.gen++
	s.touched = s.touched[:0]
	if inPath {
		for d := range ndefs {
			s.touch(d)
		}
	}
	for _, sp := range s.spans {
		list := code[listsAt+sp.off : listsAt+sp.off+sp.size]
		d := 0
		for i := 0; i < len(list); {
			e, next, ok := diskcache.UvarintAt(list, i)
			if !ok {
				return
			}
			i = next
			d += int(e >> 1)
			mask := uint8(1 << fieldBody)
			if e&1 != 0 {
				if i >= len(list) {
					return
				}
				mask = list[i]
				i++
			}
			if d >= ndefs {
				return
			}
			s.touch(d)
			s.masks[d*nt+sp.term] = mask
		}
	}
	s.scoreTouched(f, r, lens)
}

// scoreTouched scores the touched definitions of file f, whose record is
// r and whose definitions' lengths are lens.
func (s *codeScorer) scoreTouched(f uint32, r *index.FileRec, lens []byte) {
	tier := r.Tier
	factor := s.w.tier[tier]
	if s.w.internal != 1 && internalPath(r.Path) {
		factor *= s.w.internal
	}
	if s.w.prose != 1 && proseFile(r.Path) {
		factor *= s.w.prose
	}
	s.cands = s.cands[:0]
	for _, d := range s.touched {
		score := s.defScore(d, lens)
		if score > 0 {
			score *= factor
			if len(s.top) < Limit || score >= s.floor() {
				s.cands = append(s.cands, codeHit{file: f, def: d, score: score, tier: tier, path: r.Path})
			}
		}
	}
	if len(s.cands) > 1 {
		s.cands = s.distinct(r, s.cands)
	}
	for _, h := range s.cands {
		s.keep(h)
	}
}

// distinct returns the hits of one file, whose record is r, with one
// hit for each definition: a name declared several times in one file
// (TypeScript's overloads, a C prototype and its body, Python's def in
// both branches of an if) is one definition to the agent, so that its
// copies do not take the places of others. The one kept scores best; of
// equals, a body before a declaration, then the first.
func (s *codeScorer) distinct(r *index.FileRec, hits []codeHit) []codeHit {
	type def struct {
		key  string // its kind, name and qualifiers
		decl bool
	}
	defs := map[int]def{}
	for _, h := range hits {
		defs[h.def] = def{}
	}
	var kb []byte
	d := 0
	err := defrec.Walk(r.Recs.Get(s.ix.DefsKind), s.nstrs, func(name uint32, kind byte, _, _, _ uint64, quals []uint32) {
		if _, ok := defs[d]; ok {
			kb = append(kb[:0], kind&^defrec.DeclBit)
			kb = binary.AppendUvarint(kb, uint64(name))
			for _, q := range quals {
				kb = binary.AppendUvarint(kb, uint64(q))
			}
			defs[d] = def{string(kb), kind&defrec.DeclBit != 0}
		}
		d++
	})
	if err != nil {
		return hits
	}
	better := func(a, b codeHit) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		if da, db := defs[a.def].decl, defs[b.def].decl; da != db {
			return db
		}
		return a.def < b.def
	}
	first := map[string]int{} // a key's place in out
	out := hits[:0]
	for _, h := range hits {
		k := defs[h.def].key
		i, ok := first[k]
		switch {
		case k == "":
			out = append(out, h) // not in the record (never, unless damaged)
		case !ok:
			first[k] = len(out)
			out = append(out, h)
		case better(h, out[i]):
			out[i] = h
		}
	}
	return out
}

// internalPath reports whether the project path p is of an internal
// part of its project: under a folder named "internal", or a folder or file
// whose name starts with "_" (Python's private modules; not "__init__").
func internalPath(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "internal" || strings.HasPrefix(seg, "_") && !strings.HasPrefix(seg, "__") {
			return true
		}
	}
	return false
}

// defScore is the score of the file's touched definition d (before its
// file's tier factor).
func (s *codeScorer) defScore(d int, lens []byte) float64 {
	nt := len(s.terms)
	var norm [codeFields]float64
	for fl := range codeFields {
		norm[fl] = 1
	}
	norm[fieldDoc] = 1 - s.w.b[fieldDoc] + s.w.b[fieldDoc]*float64(lens[2*d]&0x7f)/s.avg[fieldDoc]
	norm[fieldBody] = 1 - s.w.b[fieldBody] + s.w.b[fieldBody]*float64(lens[2*d+1])/s.avg[fieldBody]
	clear(s.best)
	for q, t := range s.terms {
		x := 0.0
		if s.path[q] && t.fields == 0 {
			x = s.w.path
		}
		m := s.masks[d*nt+q]
		if t.fields != 0 {
			m &= t.fields
		}
		if m != 0 {
			for fl := range codeFields {
				if m&(1<<fl) != 0 {
					x += s.w.field[fl] / norm[fl]
				}
			}
		}
		if x > 0 {
			s.best[t.group] = max(s.best[t.group], t.idf*x/(s.w.k1+x))
		}
	}
	score, matched := 0.0, 0
	for _, b := range s.best {
		if b > 0 {
			score += b
			matched++
		}
	}
	if score > 0 {
		if s.w.coord > 0 && matched < s.groups {
			score *= math.Pow(float64(matched)/float64(s.groups), s.w.coord)
		}
		if lens[2*d]&0x80 != 0 {
			score *= s.w.private
		}
	}
	return score
}
