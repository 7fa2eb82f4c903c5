package gitread

import "bytes"

// The line diff below gives the hunks `git diff --unified=0` gives for two
// versions of a file, computed in process. git's own diff (its xdiff
// library, Myers' algorithm) makes choices that a minimal diff leaves
// open: which of several equal lines are matched, and where a run of
// added or deleted lines that could slide up or down is put. Those
// choices decide which definition a changed line is counted in, so they
// are made here as git makes them, in the same order:
//
//  1. lines common to both ends are set aside;
//  2. lines with no equal line in the other version are changed for
//     certain and left out of the search, as are lines with very many
//     equals that sit among such lines;
//  3. the rest is compared by Myers' divide and conquer (the middle
//     snake), which gives up on minimality past an edit cost of about the
//     square root of the lines, as git does, so that a large rewrite
//     takes linear time;
//  4. each run of changed lines is slid as far up, then down, as equal
//     lines allow, merging with its neighbours, then put where it lines
//     up with a change on the other side or, failing that, where the
//     indentation around it reads best (git's indent heuristic, on by
//     default since git 2.14).
//
// TestLineDiffGit compares the result with git's on real file histories.

// Hunk is one run of changed lines: OldCount lines from OldStart in the
// old version replaced by NewCount lines from NewStart in the new one. A
// count of 0 is an insertion (or a deletion) after line Start, as git
// numbers hunks.
type Hunk struct {
	OldStart, OldCount, NewStart, NewCount int
}

// lineFile is one version of a file split into lines, each line with the
// class of equal lines it belongs to.
type lineFile struct {
	lines [][]byte // each with its "\n", the last one maybe without
	class []int32
	// changed marks changed lines; changed[0] and changed[n+1] are
	// sentinels, line i is changed[i+1].
	changed []bool
}

func (f *lineFile) chg(i int) bool    { return f.changed[i+1] }
func (f *lineFile) set(i int, v bool) { f.changed[i+1] = v }
func (f *lineFile) n() int            { return len(f.lines) }

// splitLines cuts data after each "\n".
func splitLines(data []byte) [][]byte {
	var lines [][]byte
	for len(data) > 0 {
		i := 0
		for i < len(data) && data[i] != '\n' {
			i++
		}
		if i < len(data) {
			i++
		}
		lines = append(lines, data[:i:i])
		data = data[i:]
	}
	return lines
}

// LineDiff returns the hunks that turn old into new, as git diff
// --unified=0 gives them, and the lines added and deleted, as git diff
// --numstat counts them. The two can differ: without context lines git
// first trims the common tail (trimCommonTail), which can change its
// choices, and --numstat diffs with context lines.
func LineDiff(old, new []byte) (hunks []Hunk, added, deleted int) {
	o, n := trimCommonTail(old, new)
	hunks, added, deleted = lineDiff(o, n)
	if len(o) != len(old) {
		_, added, deleted = lineDiff(old, new)
	}
	return hunks, added, deleted
}

// lineDiff is the diff of two whole versions.
func lineDiff(old, new []byte) (hunks []Hunk, added, deleted int) {
	a := &lineFile{lines: splitLines(old)}
	b := &lineFile{lines: splitLines(new)}
	// 1. The common head and tail.
	na, nb := a.n(), b.n()
	head := 0
	for head < min(na, nb) && bytes.Equal(a.lines[head], b.lines[head]) {
		head++
	}
	tail := 0
	for tail < min(na, nb)-head && bytes.Equal(a.lines[na-1-tail], b.lines[nb-1-tail]) {
		tail++
	}
	// Each distinct text between the common ends is a class. A line of
	// the ends takes the class of its text there, else one of its own: it
	// is only ever compared with a changed line (a run of changed lines
	// slides over lines equal to its own), so no two of them need to
	// meet. Most lines of a small change are in the ends and cost a
	// lookup, not an entry.
	classes := map[string]int32{}
	for _, m := range [][][]byte{a.lines[head : na-tail], b.lines[head : nb-tail]} {
		for _, l := range m {
			if _, ok := classes[string(l)]; !ok {
				classes[string(l)] = int32(len(classes))
			}
		}
	}
	var count [2][]int32 // count[f][class]: lines of that class in file f
	for fi, f := range []*lineFile{a, b} {
		count[fi] = make([]int32, len(classes))
		f.class = make([]int32, len(f.lines))
		f.changed = make([]bool, len(f.lines)+2)
		for i, l := range f.lines {
			c, ok := classes[string(l)]
			if !ok {
				c = -1 - int32(i)
			} else {
				count[fi][c]++
			}
			f.class[i] = c
		}
	}
	diffClasses(a, b, head, tail, count)
	compact(a, b)
	compact(b, a)
	return buildHunks(a, b)
}

// trimCommonTail drops the bytes both ends share, in blocks of 1 KiB,
// then gives back the part of the last block up to its first line end:
// git does so before a diff without context lines (-U0, --numstat), which
// decides how far down a run of changed lines near the end can slide.
func trimCommonTail(a, b []byte) ([]byte, []byte) {
	const blk = 1024
	trimmed := 0
	for blk+trimmed <= min(len(a), len(b)) && bytes.Equal(a[len(a)-trimmed-blk:len(a)-trimmed], b[len(b)-trimmed-blk:len(b)-trimmed]) {
		trimmed += blk
	}
	recovered := 0
	for at := len(a) - trimmed; recovered < trimmed; {
		c := a[at+recovered]
		recovered++
		if c == '\n' {
			break
		}
	}
	return a[:len(a)-(trimmed-recovered)], b[:len(b)-(trimmed-recovered)]
}

// diffClasses marks the changed lines of a and b, which share head lines
// at the start and tail lines at the end.
func diffClasses(a, b *lineFile, head, tail int, count [2][]int32) {
	na, nb := a.n(), b.n()
	// 2. Lines certainly changed are marked; the others go to the search.
	ra := reduce(a, head, na-1-tail, count[1])
	rb := reduce(b, head, nb-1-tail, count[0])
	// 3. The search.
	m := &myers{a: ra, b: rb, fa: a, fb: b}
	ndiags := len(ra.class) + len(rb.class) + 3
	m.off = len(rb.class) + 1
	m.fwd = make([]int, 2*ndiags+2)
	m.bwd = make([]int, 2*ndiags+2)
	m.maxCost = max(bogoSqrt(ndiags), 256)
	m.compare(0, len(ra.class), 0, len(rb.class), false)
}

// bogoSqrt is git's rough square root: a power of two near it.
func bogoSqrt(n int) int {
	i := 1
	for ; n > 0; n >>= 2 {
		i <<= 1
	}
	return i
}

// reduced is the lines of one file that the search compares: their
// classes and their index in the file.
type reduced struct {
	class []int32
	index []int
}

// Lines whose class has at least this many lines in the other file (or
// the square root of this file's lines, if fewer) count as "very many
// equals".
const maxEqualLimit = 1024

// reduce marks the lines of f in [start, end] that have no equal line in
// the other file (other[class] counts them there), and those with very
// many equals that are mostly surrounded by such lines, as changed, and
// returns the others.
func reduce(f *lineFile, start, end int, other []int32) reduced {
	limit := min(bogoSqrt(f.n()), maxEqualLimit)
	// kind: 0 no equal in the other file, 1 some, 2 very many.
	kind := make([]uint8, f.n())
	for i := start; i <= end; i++ {
		switch nm := int(other[f.class[i]]); {
		case nm == 0:
			kind[i] = 0
		case nm >= limit:
			kind[i] = 2
		default:
			kind[i] = 1
		}
	}
	var r reduced
	for i := start; i <= end; i++ {
		if kind[i] == 1 || (kind[i] == 2 && !discardMany(kind, i, start, end)) {
			r.class = append(r.class, f.class[i])
			r.index = append(r.index, i)
		} else {
			f.set(i, true)
		}
	}
	return r
}

// discardMany reports whether the line i, which has very many equals, is
// left out of the search: when the runs of lines around it (within 100
// lines, up to the first line with a few equals) hold lines without
// equals on both sides, and those are more than a quarter of the run.
func discardMany(kind []uint8, i, start, end int) bool {
	const window = 100
	start = max(start, i-window)
	end = min(end, i+window)
	none, many := 0, 1
	for r := 1; i-r >= start; r++ {
		if kind[i-r] == 0 {
			none++
		} else if kind[i-r] == 2 {
			many++
		} else {
			break
		}
	}
	if none == 0 {
		return false
	}
	noneAfter, manyAfter := 0, 1
	for r := 1; i+r <= end; r++ {
		if kind[i+r] == 0 {
			noneAfter++
		} else if kind[i+r] == 2 {
			manyAfter++
		} else {
			break
		}
	}
	if noneAfter == 0 {
		return false
	}
	none += noneAfter
	many += manyAfter
	return many*4 < many+none
}

// myers is the search state: the reduced lines of both files, and the
// furthest points reached on each diagonal, forward and backward (the
// diagonal d at fwd[off+d]).
type myers struct {
	a, b     reduced
	fa, fb   *lineFile
	fwd, bwd []int
	off      int
	maxCost  int
}

const (
	snakeLen = 20  // a run of equal lines this long is a "good snake"
	heurMin  = 256 // the cost past which good snakes are taken early
	heurK    = 4
)

// compare marks the changed lines between a's [lo1, hi1) and b's [lo2,
// hi2), dividing at the middle of a shortest (or, past maxCost, a good
// enough) edit path.
func (m *myers) compare(lo1, hi1, lo2, hi2 int, needMin bool) {
	ca, cb := m.a.class, m.b.class
	for lo1 < hi1 && lo2 < hi2 && ca[lo1] == cb[lo2] {
		lo1++
		lo2++
	}
	for lo1 < hi1 && lo2 < hi2 && ca[hi1-1] == cb[hi2-1] {
		hi1--
		hi2--
	}
	switch {
	case lo1 == hi1:
		for ; lo2 < hi2; lo2++ {
			m.fb.set(m.b.index[lo2], true)
		}
	case lo2 == hi2:
		for ; lo1 < hi1; lo1++ {
			m.fa.set(m.a.index[lo1], true)
		}
	default:
		s := m.split(lo1, hi1, lo2, hi2, needMin)
		m.compare(lo1, s.i1, lo2, s.i2, s.minLo)
		m.compare(s.i1, hi1, s.i2, hi2, s.minHi)
	}
}

type splitPoint struct {
	i1, i2       int
	minLo, minHi bool
}

const lineMax = int(^uint(0) >> 1)

// group is a run of changed lines [start, end) of a file; an empty group
// lies between two unchanged lines. Groups of the two files pair up, one
// for one, between the same unchanged lines.
type group struct{ start, end int }

func firstGroup(f *lineFile) group {
	g := group{}
	for f.chg(g.end) {
		g.end++
	}
	return g
}

// next moves g to the next group; false at the end of the file.
func (g *group) next(f *lineFile) bool {
	if g.end == f.n() {
		return false
	}
	g.start = g.end + 1
	g.end = g.start
	for f.chg(g.end) {
		g.end++
	}
	return true
}

// previous moves g to the previous group; false at the start.
func (g *group) previous(f *lineFile) bool {
	if g.start == 0 {
		return false
	}
	g.end = g.start - 1
	g.start = g.end
	for f.chg(g.start - 1) {
		g.start--
	}
	return true
}

// slideDown moves g one line down if the line after it equals its first,
// joining the group after it; false if it cannot.
func (g *group) slideDown(f *lineFile) bool {
	if g.end < f.n() && f.class[g.start] == f.class[g.end] {
		f.set(g.start, false)
		f.set(g.end, true)
		g.start++
		g.end++
		for f.chg(g.end) {
			g.end++
		}
		return true
	}
	return false
}

// slideUp moves g one line up if the line before it equals its last.
func (g *group) slideUp(f *lineFile) bool {
	if g.start > 0 && f.class[g.start-1] == f.class[g.end-1] {
		g.start--
		g.end--
		f.set(g.start, true)
		f.set(g.end, false)
		for f.chg(g.start - 1) {
			g.start--
		}
		return true
	}
	return false
}

// maxSliding bounds how far the indent heuristic looks.
const maxSliding = 100

// compact slides each group of changed lines of f (whose other version is
// o) to where git puts it.
func compact(f, o *lineFile) {
	g, og := firstGroup(f), firstGroup(o)
	for {
		if g.end != g.start {
			var size, earliestEnd int
			endMatchingOther := -1
			for {
				size = g.end - g.start
				endMatchingOther = -1
				for g.slideUp(f) {
					og.previous(o)
				}
				earliestEnd = g.end
				if og.end > og.start {
					endMatchingOther = g.end
				}
				for g.slideDown(f) {
					og.next(o)
					if og.end > og.start {
						endMatchingOther = g.end
					}
				}
				if size == g.end-g.start {
					break
				}
			}
			switch {
			case g.end == earliestEnd:
			case endMatchingOther != -1:
				for og.end == og.start {
					g.slideUp(f)
					og.previous(o)
				}
			default:
				shift := max(earliestEnd, g.end-size-1, g.end-maxSliding)
				bestShift := -1
				var best splitScore
				for ; shift <= g.end; shift++ {
					var s splitScore
					s.add(measureSplit(f, shift))
					s.add(measureSplit(f, shift-size))
					if bestShift == -1 || s.cmp(best) <= 0 {
						best, bestShift = s, shift
					}
				}
				for g.end > bestShift {
					g.slideUp(f)
					og.previous(o)
				}
			}
		}
		if !g.next(f) {
			break
		}
		og.next(o)
	}
}

// The indent heuristic's weights, git's.
const (
	maxIndent                  = 200
	maxBlanks                  = 20
	startOfFilePenalty         = 1
	endOfFilePenalty           = 21
	totalBlankWeight           = -30
	postBlankWeight            = 6
	relativeIndentPenalty      = -4
	relativeIndentBlankPenalty = 10
	relativeOutdentPenalty     = 24
	relativeOutdentBlank       = 17
	relativeDedentPenalty      = 23
	relativeDedentBlank        = 17
	indentWeight               = 60
)

// indentOf is a line's indentation (tabs to multiples of 8), or -1 for a
// line of white space only.
func indentOf(line []byte) int {
	n := 0
	for _, c := range line {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 8 - n%8
		case '\n', '\r', '\v', '\f':
		default:
			return n
		}
		if n >= maxIndent {
			return maxIndent
		}
	}
	return -1
}

// splitMeasure describes the lines around a split before line i.
type splitMeasure struct {
	endOfFile             bool
	indent                int
	preBlank, preIndent   int
	postBlank, postIndent int
}

func measureSplit(f *lineFile, split int) splitMeasure {
	var m splitMeasure
	if split >= f.n() {
		m.endOfFile, m.indent = true, -1
	} else {
		m.indent = indentOf(f.lines[split])
	}
	m.preIndent = -1
	for i := split - 1; i >= 0; i-- {
		if m.preIndent = indentOf(f.lines[i]); m.preIndent != -1 {
			break
		}
		m.preBlank++
		if m.preBlank == maxBlanks {
			m.preIndent = 0
			break
		}
	}
	m.postIndent = -1
	for i := split + 1; i < f.n(); i++ {
		if m.postIndent = indentOf(f.lines[i]); m.postIndent != -1 {
			break
		}
		m.postBlank++
		if m.postBlank == maxBlanks {
			m.postIndent = 0
			break
		}
	}
	return m
}

type splitScore struct{ effectiveIndent, penalty int }

func (s *splitScore) add(m splitMeasure) {
	if m.preIndent == -1 && m.preBlank == 0 {
		s.penalty += startOfFilePenalty
	}
	if m.endOfFile {
		s.penalty += endOfFilePenalty
	}
	postBlank := 0
	if m.indent == -1 {
		postBlank = 1 + m.postBlank
	}
	totalBlank := m.preBlank + postBlank
	s.penalty += totalBlankWeight*totalBlank + postBlankWeight*postBlank
	indent := m.indent
	if indent == -1 {
		indent = m.postIndent
	}
	blanks := totalBlank != 0
	s.effectiveIndent += indent
	switch {
	case indent == -1, m.preIndent == -1:
	case indent > m.preIndent:
		s.penalty += pick(blanks, relativeIndentBlankPenalty, relativeIndentPenalty)
	case indent == m.preIndent:
	case m.postIndent != -1 && m.postIndent > indent:
		s.penalty += pick(blanks, relativeOutdentBlank, relativeOutdentPenalty)
	default:
		s.penalty += pick(blanks, relativeDedentBlank, relativeDedentPenalty)
	}
}

func pick(c bool, a, b int) int {
	if c {
		return a
	}
	return b
}

func (s splitScore) cmp(o splitScore) int {
	c := 0
	if s.effectiveIndent > o.effectiveIndent {
		c = 1
	} else if s.effectiveIndent < o.effectiveIndent {
		c = -1
	}
	return indentWeight*c + (s.penalty - o.penalty)
}

// buildHunks lists the runs of changed lines, numbered as git numbers
// them: a run of n > 0 lines from line s (1-based) is s,n; an empty run
// after line s is s,0.
func buildHunks(a, b *lineFile) (hunks []Hunk, added, deleted int) {
	i1, i2 := 0, 0
	for i1 < a.n() || i2 < b.n() {
		if !a.chg(i1) && !b.chg(i2) {
			i1++
			i2++
			continue
		}
		s1, s2 := i1, i2
		for a.chg(i1) {
			i1++
		}
		for b.chg(i2) {
			i2++
		}
		h := Hunk{OldStart: s1, OldCount: i1 - s1, NewStart: s2, NewCount: i2 - s2}
		if h.OldCount > 0 {
			h.OldStart++
		}
		if h.NewCount > 0 {
			h.NewStart++
		}
		hunks = append(hunks, h)
		added += h.NewCount
		deleted += h.OldCount
	}
	return hunks, added, deleted
}
