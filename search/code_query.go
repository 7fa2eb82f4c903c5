package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/zumba-dev/zumba/internal/diskcache"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
)

// find_code: the definitions whose words match a description, scored by
// BM25F over their fields (code_record.go) and ranked best first.

// CodeLimit is how many definitions find_code returns at most.
const CodeLimit = 20

// MaxCodeQuery bounds a find_code query's length in bytes, and
// maxCodeTerms the words of it that are searched for.
const (
	MaxCodeQuery = 1000
	maxCodeTerms = 16
)

// ErrEmptyQuery is returned for a query that is empty or only spaces.
var ErrEmptyQuery = errors.New("query is empty")

// CodeDef is one definition find_code found.
type CodeDef struct {
	outline.Definition
	// Doc is the first line of its doc comment, without the comment's
	// marks; "" when it has none.
	Doc string
	// Signature is the line of its name, trimmed.
	Signature string
	// Score is how well it matches; higher is better.
	Score float64
	tier  uint8
}

// InTest reports whether d is outside the project's own code (see
// [Def.InTest]).
func (d *CodeDef) InTest() bool { return d.tier != ownTier }

// CodeResult is find_code's answer.
type CodeResult struct {
	// Defs are the definitions found, best first: at most CodeLimit.
	Defs []CodeDef
	// Words are the query's words searched for (stop words and numbers
	// left out), as given; Matched are those some definition has.
	Words, Matched []string
	// Building: the index did not know every file's definitions yet;
	// the answer covers Indexed of the project's Files.
	Building       bool
	Indexed, Files int
}

// codeWeights are the BM25F parameters find_code scores with: a weight
// per field (and for the file's path), the length normalisation of the
// fields, BM25's saturation, and a factor per tier of files. They were
// chosen with scripts/code_bench.sh (see its notes).
type codeWeights struct {
	field [codeFields]float64
	path  float64
	b     [codeFields]float64
	k1    float64
	tier  [fileTiers]float64
}

var defaultCodeWeights = codeWeights{
	field: [codeFields]float64{fieldName: 3, fieldContainer: 1, fieldDoc: 1, fieldBody: 0.3},
	path:  0.5,
	b:     [codeFields]float64{fieldName: 0.3, fieldContainer: 0.3, fieldDoc: 0.6, fieldBody: 0.75},
	k1:    1.2,
	tier:  [fileTiers]float64{ownTier: 1, testTier: 0.85, vendoredTier: 0.8, generatedTier: 0.8},
}

// codeStats sums up the index's find_code records.
type codeStats struct {
	files, defs int
	sums        [codeFields]int64
}

// add counts rec in (sign 1) or out (-1).
func (c *codeStats) add(rec []byte, sign int) {
	if len(rec) == 0 {
		return
	}
	h, err := readCodeHead(rec)
	if err != nil {
		return
	}
	c.files += sign
	c.defs += sign * h.defs
	for f, s := range h.sums {
		c.sums[f] += int64(sign) * int64(s)
	}
}

// codeTerm is a word of the query.
type codeTerm struct {
	word string // as given
	stem string
	id   uint32
	idf  float64
	// files holds it, kept by the filter, in id order.
	files []uint32
}

// parseCodeQuery returns the query's words to search for: distinct
// stems, at most maxCodeTerms.
func parseCodeQuery(q string) []codeTerm {
	var terms []codeTerm
	seen := map[string]bool{}
	var buf []byte
	forWords([]byte(q), func(w []byte) {
		if '0' <= w[0] && w[0] <= '9' {
			return
		}
		word := string(w)
		buf = splitIdent(w, buf, func(s []byte) {
			if len(terms) < maxCodeTerms && !seen[string(s)] {
				seen[string(s)] = true
				terms = append(terms, codeTerm{word: word, stem: string(s)})
			}
		})
	})
	return terms
}

// checkCodeQuery returns the query trimmed, or why it is refused.
func checkCodeQuery(query string) (string, error) {
	query = strings.TrimSpace(query)
	if query == "" {
		return "", ErrEmptyQuery
	}
	if len(query) > MaxCodeQuery {
		return "", &project.PathError{Msg: fmt.Sprintf("query too long (%d bytes; the limit is %d): %s", len(query), MaxCodeQuery, project.Echo(query))}
	}
	return query, nil
}

// Code finds the definitions whose words match the description query, in
// the files filter keeps (nil: all): at most CodeLimit, best first.
// Before every file's definitions are known it parses the files not
// parsed yet until the find_symbol time limit, and says how far it got.
func (ix *Index) Code(ctx context.Context, query string, filter *project.PathFilter) (*CodeResult, error) {
	deadline := time.Now().Add(ix.symbolTimeLimit())
	query, err := checkCodeQuery(query)
	if err != nil {
		return nil, err
	}
	terms := parseCodeQuery(query)
	res := &CodeResult{}
	for _, t := range terms {
		res.Words = append(res.Words, t.word)
	}
	if len(terms) == 0 {
		return res, nil
	}
	defer ix.call()()
	if !ix.wordsReady.Load() {
		files, err := ix.coldFiles(ctx)
		if err != nil {
			return nil, err
		}
		res.Building, res.Files = true, len(files)
		return res, nil
	}
	if err := ix.sync(ctx); err != nil {
		return nil, err
	}
	complete := true
	if !ix.allParsed() {
		ix.mu.RLock()
		ids := ix.liveIDsLocked()
		ix.mu.RUnlock()
		complete = ix.ensureParsed(ctx, ids, deadline)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	hits, err := ix.codeSearch(ctx, terms, filter, defaultCodeWeights, res)
	if err != nil {
		return nil, err
	}
	res.Defs = ix.codeDefs(hits)
	ix.mu.RLock()
	res.Files = ix.live
	ix.mu.RUnlock()
	res.Indexed = res.Files
	if !complete {
		res.Building, res.Indexed = true, ix.parsedFiles()
	}
	return res, ctx.Err()
}

// A codeHit is a scored definition: its file, its place in the file's
// definitions, its score and its file's tier and path.
type codeHit struct {
	file  uint32
	def   int
	score float64
	tier  uint8
	path  string
}

func compareHits(a, b codeHit) int {
	return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.tier, b.tier), strings.Compare(a.path, b.path), cmp.Compare(a.def, b.def))
}

// codeSearch scores the definitions of the files holding the query's
// words and returns the best CodeLimit. It is exact and quick at once
// (MaxScore): the files of the rarest word are scored first, which sets
// the score to beat; then only the files holding a word that could still
// lift a definition past it are scored.
func (ix *Index) codeSearch(ctx context.Context, terms []codeTerm, filter *project.PathFilter, w codeWeights, res *CodeResult) ([]codeHit, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	n := float64(max(ix.code.files, 1))
	var avg [codeFields]float64
	for f, s := range ix.code.sums {
		avg[f] = max(float64(s)/float64(max(ix.code.defs, 1)), 0.5)
	}
	var live []codeTerm
	var buf []uint32
	for _, t := range terms {
		id, ok := ix.words.lookupString(t.stem)
		if !ok {
			continue
		}
		buf = ix.codePost.list(id, buf[:0])
		df := 0
		var files []uint32
		for _, f := range buf {
			r := ix.files[f]
			if r == nil || len(r.code) == 0 {
				continue
			}
			df++
			if filter.Match(r.path) {
				files = append(files, f)
			}
		}
		if df == 0 {
			continue
		}
		res.Matched = append(res.Matched, t.word)
		t.id, t.files = id, files
		t.idf = math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
		live = append(live, t)
	}
	if len(live) == 0 {
		return nil, nil
	}
	// By id, for the merge with a record's words.
	slices.SortFunc(live, func(a, b codeTerm) int { return cmp.Compare(a.id, b.id) })
	sc := &codeScorer{ix: ix, terms: live, w: w, avg: avg, nstrs: uint64(ix.words.len())}
	scored := map[uint32]bool{}
	score := func(files []uint32) error {
		for i, f := range files {
			if scored[f] {
				continue
			}
			scored[f] = true
			if i%256 == 255 && ctx.Err() != nil {
				return ctx.Err()
			}
			sc.file(f)
		}
		return nil
	}
	// The rarest word's files first.
	rarest := slices.MaxFunc(live, func(a, b codeTerm) int { return cmp.Compare(a.idf, b.idf) })
	if err := score(rarest.files); err != nil {
		return nil, err
	}
	// The words that cannot lift a definition past the score to beat
	// together need not have their files scored.
	byIDF := slices.Clone(live)
	slices.SortFunc(byIDF, func(a, b codeTerm) int { return cmp.Compare(a.idf, b.idf) })
	bound, floor := 0.0, sc.floor()
	for _, t := range byIDF {
		bound += t.idf
		if bound >= floor {
			if err := score(t.files); err != nil {
				return nil, err
			}
		}
	}
	slices.SortFunc(sc.top, compareHits)
	return sc.top, nil
}

// codeScorer scores the definitions of one file at a time, keeping the
// best CodeLimit.
type codeScorer struct {
	ix    *Index
	terms []codeTerm // by id
	w     codeWeights
	avg   [codeFields]float64
	nstrs uint64
	top   []codeHit
	// per file: local is each term's local index (-1: absent; terms
	// absent from a file are never in its lists, so the merge with a
	// list skips them), path whether the path holds it; mask the fields
	// holding it in the definition being read.
	local []int
	path  []bool
	mask  []uint8
}

// floor is the score a definition must pass to enter the best; 0 while
// there are fewer.
func (s *codeScorer) floor() float64 {
	if len(s.top) < CodeLimit {
		return 0
	}
	return s.top[len(s.top)-1].score
}

func (s *codeScorer) keep(h codeHit) {
	if len(s.top) == CodeLimit && compareHits(h, s.top[len(s.top)-1]) >= 0 {
		return
	}
	i, _ := slices.BinarySearchFunc(s.top, h, compareHits)
	s.top = slices.Insert(s.top, i, h)
	if len(s.top) > CodeLimit {
		s.top = s.top[:CodeLimit]
	}
}

// file scores the definitions of file f. A record that does not decode
// is skipped.
func (s *codeScorer) file(f uint32) {
	r := s.ix.files[f]
	if r == nil || len(r.code) == 0 {
		return
	}
	if len(s.local) != len(s.terms) {
		s.local = make([]int, len(s.terms))
		s.path = make([]bool, len(s.terms))
		s.mask = make([]uint8, len(s.terms))
	}
	for q := range s.local {
		s.local[q] = -1
	}
	rd := diskcache.NewReader(r.code)
	ndefs := rd.Count()
	for range codeFields {
		rd.Uvarint()
	}
	nterms := rd.Count()
	var id uint64
	q := 0
	for i := range nterms {
		id += rd.Uvarint()
		for q < len(s.terms) && uint64(s.terms[q].id) < id {
			q++
		}
		if q < len(s.terms) && uint64(s.terms[q].id) == id {
			s.local[q] = i
		}
	}
	if rd.Err() != nil || id >= s.nstrs {
		return
	}
	// list reads a list's entries: the fields holding each query term
	// into s.mask, the fields' lengths into lens.
	var lens [codeFields]int
	list := func() {
		clear(s.mask)
		clear(lens[:])
		n := rd.Count()
		local, q := 0, 0
		for range n {
			e := rd.Uvarint()
			local += int(e >> 1)
			mask := uint8(1 << fieldBody)
			if e&1 != 0 {
				mask = rd.Byte()
			}
			for f := range codeFields {
				if mask&(1<<f) != 0 {
					lens[f]++
				}
			}
			for q < len(s.terms) && s.local[q] < local {
				q++
			}
			if q < len(s.terms) && s.local[q] == local {
				s.mask[q] = mask
			}
		}
	}
	list() // the path
	for q := range s.terms {
		s.path[q] = s.mask[q] != 0
	}
	tier := recTier(r)
	for d := range ndefs {
		list()
		if rd.Err() != nil {
			return
		}
		score := 0.0
		for q, t := range s.terms {
			x := 0.0
			if s.path[q] {
				x = s.w.path
			}
			if m := s.mask[q]; m != 0 {
				for f := range codeFields {
					if m&(1<<f) != 0 {
						norm := 1 - s.w.b[f] + s.w.b[f]*float64(lens[f])/s.avg[f]
						x += s.w.field[f] / norm
					}
				}
			}
			if x > 0 {
				score += t.idf * x / (s.w.k1 + x)
			}
		}
		if score > 0 {
			score *= s.w.tier[tier]
			s.keep(codeHit{file: f, def: d, score: score, tier: tier, path: r.path})
		}
	}
}

// codeDefs turns hits into definitions, with their doc comment's first
// line and their name line read from their files.
func (ix *Index) codeDefs(hits []codeHit) []CodeDef {
	if len(hits) == 0 {
		return nil
	}
	ix.mu.RLock()
	strs := ix.words.view()
	recs := make([]*fileRec, len(hits))
	for i, h := range hits {
		recs[i] = ix.files[h.file]
	}
	ix.mu.RUnlock()
	sc := getScratch()
	defer putScratch(sc)
	var out []CodeDef
	decoded := map[uint32][]outline.Definition{}
	texts := map[uint32]*lineIndex{}
	for i, h := range hits {
		r := recs[i]
		if r == nil {
			continue
		}
		defs, ok := decoded[h.file]
		if !ok {
			defs = decodeDefs(strs, r.defs)
			decoded[h.file] = defs
			if data, err := ix.root.Contents(r.entry(), sc); err == nil {
				texts[h.file] = newLineIndex(slices.Clone(data))
			}
		}
		if h.def >= len(defs) {
			continue
		}
		d := CodeDef{Definition: defs[h.def], Score: h.score, tier: h.tier}
		d.Path = r.path
		if lines := texts[h.file]; lines != nil {
			d.Signature = lines.text(d.Line)
			d.Doc = docLine(lines, d.Start, d.Line, d.End)
		}
		out = append(out, d)
	}
	return out
}

// docLine is the first line of the doc comment between lines start and
// name (or of a docstring right after name), without its comment marks.
func docLine(lines *lineIndex, start, name, end int) string {
	for n := start; n < name; n++ {
		t := lines.text(n)
		if strings.HasPrefix(t, "@") || strings.HasPrefix(t, "#[") || strings.HasPrefix(t, "#!") {
			continue
		}
		if s := stripComment(t); s != "" {
			return s
		}
	}
	for n := name + 1; n <= min(end, name+3); n++ {
		t := strings.TrimLeft(lines.text(n), "rRuUbB")
		for _, q := range []string{`"""`, `'''`} {
			if strings.HasPrefix(t, q) {
				t = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t, q), q))
				if t == "" {
					t = strings.TrimSpace(lines.text(n + 1))
				}
				return strings.TrimSpace(strings.TrimSuffix(t, q))
			}
		}
		if t != "" {
			break
		}
	}
	return ""
}

// stripComment removes a comment line's marks: "//", "///", "/*", "*",
// "*/", "#", "--", "<!--".
func stripComment(t string) string {
	t = strings.TrimSpace(t)
	for _, p := range []string{"/**", "/*!", "/*", "///", "//!", "//", "*", "#", "--", "<!--", ";"} {
		if strings.HasPrefix(t, p) {
			t = strings.TrimPrefix(t, p)
			break
		}
	}
	t = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(t), "*/"), "-->")
	return strings.TrimSpace(t)
}
