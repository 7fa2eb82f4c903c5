package findcode

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/search/internal/defrec"
	"github.com/zumba-dev/zumba/search/internal/filetier"
)

// TestCodeTune chooses find_code's weights by measurement (issue 28): with
// ZUMBA_CODE_TUNE naming a file of "DIR<tab>QUERIES" lines (the projects
// and query files scripts/code_bench.sh prepares, see there), it indexes
// each project, then moves one weight at a time through a few values,
// keeping a change when it raises hit@5 + MRR on the tuning half of the
// queries (every other one of each set: the first, third, …, as
// scripts/codebench holds out the others), and logs both halves' figures for the
// defaults and the best weights found. The held-out half says whether the
// choice generalises. With ZUMBA_CODE_TUNE_EVAL set, it only logs the
// defaults' figures.
func TestCodeTune(t *testing.T) {
	spec := os.Getenv("ZUMBA_CODE_TUNE")
	if spec == "" {
		t.Skip("ZUMBA_CODE_TUNE is not set")
	}
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	qs := tuneQueries(t, strings.TrimSpace(string(b)))
	eval := func(w codeWeights, half int) (h5, mrr float64) { return tuneEval(t, qs, w, half) }
	show := func(label string, w codeWeights) {
		a5, am := eval(w, 0)
		b5, bm := eval(w, 1)
		t.Logf("%s: tune hit@5 %.3f MRR %.3f; held out hit@5 %.3f MRR %.3f; %+v", label, a5, am, b5, bm, w)
	}
	show("defaults", defaultCodeWeights)
	if table := os.Getenv("ZUMBA_VOCAB_TABLE"); table != "" {
		tuneVocab(t, qs, table)
		return
	}
	if os.Getenv("ZUMBA_CODE_TUNE_EVAL") != "" {
		t.Logf("per set, held-out half (hit@1 hit@5 MRR) and all:\n%s", tuneTable(t, qs, defaultCodeWeights))
		w := defaultCodeWeights
		w.prose = 1
		t.Logf("the same without the prose factor:\n%s", tuneTable(t, qs, w))
		for _, f := range []float64{0, 0.3, 0.7, 1} {
			w := defaultCodeWeights
			w.forms = f
			t.Logf("the same with forms %v:\n%s", f, tuneTable(t, qs, w))
		}
		return // the defaults' figures only
	}
	best := defaultCodeWeights
	score := func(w codeWeights) float64 { h, m := eval(w, 0); return h + m }
	bestScore := score(best)
	type knob struct {
		name string
		ptr  func(*codeWeights) *float64
		vals []float64
	}
	knobs := []knob{
		// Not the name's weight: the benchmark's queries leave the
		// target's name words out, so measuring it would only learn that
		// (session 11: 0.5 won a query or two a half, all from that).
		{"container", func(w *codeWeights) *float64 { return &w.field[fieldContainer] }, []float64{0, 0.5, 1, 2}},
		{"doc", func(w *codeWeights) *float64 { return &w.field[fieldDoc] }, []float64{1.5, 2, 2.5, 3, 4, 6}},
		{"body", func(w *codeWeights) *float64 { return &w.field[fieldBody] }, []float64{0.3, 0.5, 0.8, 1.2, 1.8}},
		{"path", func(w *codeWeights) *float64 { return &w.path }, []float64{0, 0.25, 0.5, 1, 2}},
		{"b.doc", func(w *codeWeights) *float64 { return &w.b[fieldDoc] }, []float64{0, 0.3, 0.6, 0.9}},
		{"b.body", func(w *codeWeights) *float64 { return &w.b[fieldBody] }, []float64{0, 0.3, 0.6, 0.9}},
		{"k1", func(w *codeWeights) *float64 { return &w.k1 }, []float64{0.5, 0.8, 1.2, 1.8, 2.5, 4}},
		{"summary", func(w *codeWeights) *float64 { return &w.field[fieldSummary] }, []float64{0, 0.5, 1, 2, 3}},
		{"coord", func(w *codeWeights) *float64 { return &w.coord }, []float64{0, 0.5, 1, 2}},
		{"private", func(w *codeWeights) *float64 { return &w.private }, []float64{0.5, 0.65, 0.8, 0.9, 1}},
		{"tier.vendored", func(w *codeWeights) *float64 { return &w.tier[filetier.Vendored] }, []float64{0.3, 0.5, 0.8}},
		{"abbrev", func(w *codeWeights) *float64 { return &w.abbrev }, []float64{0, 0.2, 0.3, 0.5}},
		{"internal", func(w *codeWeights) *float64 { return &w.internal }, []float64{0.5, 0.7, 0.8, 1}},
		{"prose", func(w *codeWeights) *float64 { return &w.prose }, []float64{0.3, 0.5, 0.7, 1}},
		{"forms", func(w *codeWeights) *float64 { return &w.forms }, []float64{0, 0.3, 0.5, 0.7, 0.85, 1}},
		{"tier.test", func(w *codeWeights) *float64 { return &w.tier[filetier.Test] }, []float64{0.2, 0.35, 0.5, 0.7}},
	}
	for round := range 2 {
		for _, k := range knobs {
			for _, v := range k.vals {
				w := best
				*k.ptr(&w) = v
				if s := score(w); s > bestScore+1e-9 {
					best, bestScore = w, s
					t.Logf("round %d: %s = %v: %.3f", round, k.name, v, s)
				}
			}
		}
	}
	show("best", best)
	fmt.Fprintf(os.Stderr, "best weights: %+v\n", best)
}

func tuneUnder(p, folder string) bool {
	switch {
	case strings.HasSuffix(folder, "/"):
		return strings.HasPrefix(p, folder)
	case path.Ext(folder) != "":
		return p == folder
	}
	return path.Dir(p) == folder
}

func tuneInTest(p string) bool {
	base := path.Base(p)
	return strings.HasSuffix(base, "_test.go") || strings.Contains(base, ".spec.") || strings.Contains(base, ".test.") ||
		strings.HasPrefix(base, "test_") || strings.Contains("/"+p, "/test/") || strings.Contains("/"+p, "/tests/") ||
		strings.Contains("/"+p, "/testdata/") || strings.Contains("/"+p, "/spec/")
}

// A tuneQuery is a benchmark query with its targets, on its project's
// index.
type tuneQuery struct {
	// set is the query's file (its base name), for figures per set.
	set     string
	ix      *Index
	terms   []codeTerm
	name    string
	targets map[string]bool
	text    string
	// half is 0 for the first, third, … query of its set, 1 for the
	// others (held out).
	half int
}

// tuneQueries indexes the projects of spec ("DIR<tab>QUERIES" lines) and
// reads their queries, keeping those whose name has a definition in the
// query's folder outside test files.
func tuneQueries(t *testing.T, spec string) []tuneQuery {
	var qs []tuneQuery
	indexes := map[string]*Index{} // a project is indexed once
	for _, line := range strings.Split(spec, "\n") {
		dir, file, _ := strings.Cut(line, "\t")
		ix := indexes[dir]
		if ix == nil {
			ix = newIndex(t, dir, index.Options{NoWatch: true})
			ix.Start(context.Background())
			t.Cleanup(ix.Close)
			<-ix.Ready()
			indexes[dir] = ix
		}
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		n, kept := 0, 0
		for sc.Scan() {
			fs := strings.Split(sc.Text(), "\t")
			if len(fs) < 3 {
				continue
			}
			n++
			targets := tuneTargets(ix, fs[2], fs[1])
			if len(targets) > 0 {
				qs = append(qs, tuneQuery{path.Base(file), ix, parseCodeQuery(fs[0]), fs[2], targets, fs[0], kept % 2})
				kept++
			}
		}
		f.Close()
		t.Logf("%s: %d of %d queries with targets", dir, kept, n)
	}
	return qs
}

// tuneTargets lists the files under folder, outside test files, that
// define name: a definition whose qualified name is name or ends with
// "."+name, as tuneRank counts a hit (before the move out of package
// search, the files its find_symbol answered with).
func tuneTargets(ix *Index, name, folder string) map[string]bool {
	ix.Mu.RLock()
	defer ix.Mu.RUnlock()
	strs := ix.Words.View()
	targets := map[string]bool{}
	for _, r := range ix.Files {
		if r == nil || r.Dead || !r.Parsed || !tuneUnder(r.Path, folder) || tuneInTest(r.Path) {
			continue
		}
		for _, d := range defrec.Decode(strs, r.Recs.Get(ix.DefsKind)) {
			if qn := d.QualifiedName(); qn == name || strings.HasSuffix(qn, "."+name) {
				targets[r.Path] = true
				break
			}
		}
	}
	return targets
}

// tuneEval returns hit@5 and MRR of find_code with weights w over half
// of the queries (0 or 1: every other one of each set; -1: all).
func tuneEval(t *testing.T, qs []tuneQuery, w codeWeights, half int) (h5, mrr float64) {
	n := 0
	for _, q := range qs {
		if half >= 0 && q.half != half {
			continue
		}
		n++
		if r := tuneRank(t, q, w); r >= 0 {
			if r < 5 {
				h5++
			}
			mrr += 1 / float64(r+1)
		}
	}
	return h5 / float64(n), mrr / float64(n)
}

// tuneRank is the rank (from 0) of q's target in find_code's answer with
// weights w; -1 when it is not there.
func tuneRank(t *testing.T, q tuneQuery, w codeWeights) int {
	hits, err := q.ix.codeSearch(context.Background(), q.terms, nil, w, &Result{})
	if err != nil {
		t.Fatal(err)
	}
	q.ix.Mu.RLock()
	defer q.ix.Mu.RUnlock()
	strs := q.ix.Words.View()
	for r, h := range hits {
		rec := q.ix.Files[h.file]
		if rec == nil || !q.targets[rec.Path] {
			continue
		}
		defs := defrec.Decode(strs, rec.Recs.Get(q.ix.DefsKind))
		if h.def < len(defs) {
			qn := defs[h.def].QualifiedName()
			if qn == q.name || strings.HasSuffix(qn, "."+q.name) {
				return r
			}
		}
	}
	return -1
}

// tuneSets returns find_code's hit@5 with weights w per query set and
// half (every other query of all) as "set tune/held" columns, after all
// sets' hit@5 and MRR.
func tuneSets(t *testing.T, qs []tuneQuery, w codeWeights) string {
	type acc struct{ h5, mrr, n [2]float64 }
	var sets []string
	m := map[string]*acc{}
	for _, q := range qs {
		a := m[q.set]
		if a == nil {
			a = &acc{}
			m[q.set] = a
			sets = append(sets, q.set)
		}
		a.n[q.half]++
		if r := tuneRank(t, q, w); r >= 0 {
			if r < 5 {
				a.h5[q.half]++
			}
			a.mrr[q.half] += 1 / float64(r+1)
		}
	}
	var sb strings.Builder
	var all acc
	for _, s := range sets {
		for h := range 2 {
			all.h5[h] += m[s].h5[h]
			all.mrr[h] += m[s].mrr[h]
			all.n[h] += m[s].n[h]
		}
	}
	fmt.Fprintf(&sb, "all %.3f/%.3f (MRR %.3f/%.3f) |", all.h5[0]/all.n[0], all.h5[1]/all.n[1], all.mrr[0]/all.n[0], all.mrr[1]/all.n[1])
	for _, s := range sets {
		a := m[s]
		fmt.Fprintf(&sb, " %s %.3f/%.3f", strings.TrimSuffix(s, ".tsv"), a.h5[0]/a.n[0], a.h5[1]/a.n[1])
	}
	return sb.String()
}

// TestCodeCut measures where find_code's default answer is cut (see
// codeCut), on the benchmark's queries of ZUMBA_CODE_TUNE (see
// TestCodeTune): for a few cuts, how many definitions the answers show
// on average, and how many of the targets among the first
// DefaultLimit they leave out.
func TestCodeCut(t *testing.T) {
	spec := os.Getenv("ZUMBA_CODE_TUNE")
	if spec == "" {
		t.Skip("ZUMBA_CODE_TUNE is not set")
	}
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	qs := tuneQueries(t, strings.TrimSpace(string(b)))
	type ranked struct {
		scores []float64
		rank   int
	}
	var rs []ranked
	for _, q := range qs {
		hits, err := q.ix.codeSearch(context.Background(), q.terms, nil, defaultCodeWeights, &Result{})
		if err != nil {
			t.Fatal(err)
		}
		var r ranked
		for _, h := range hits {
			r.scores = append(r.scores, h.score)
		}
		r.rank = tuneRank(t, q, defaultCodeWeights)
		rs = append(rs, r)
	}
	for _, c := range []codeCut{{min: DefaultLimit}, defaultCodeCut, {3, 0.7, 0}, {3, 0, 0.45}, {3, 0.6, 0.4}, {3, 0.8, 0.5}, {5, 0.7, 0.45}, {2, 0.7, 0.45}} {
		shown, in, cut := 0, 0, 0
		for _, r := range rs {
			n := c.shown(r.scores)
			shown += n
			if r.rank >= 0 && r.rank < DefaultLimit {
				in++
				if r.rank >= n {
					cut++
				}
			}
		}
		t.Logf("cut %+v: %.1f shown a query; of %d targets in the first %d, %d cut", c, float64(shown)/float64(len(rs)), in, DefaultLimit, cut)
	}
}

// tuneTable is find_code's hit@1, hit@5 and MRR with weights w per query
// set, on the held-out half and on all of its queries, one line a set
// and a last one for all sets.
func tuneTable(t *testing.T, qs []tuneQuery, w codeWeights) string {
	type acc struct{ n, h1, h5, mrr [2]float64 } // [0] held out, [1] all
	var sets []string
	m := map[string]*acc{}
	var all acc
	for _, q := range qs {
		a := m[q.set]
		if a == nil {
			a = &acc{}
			m[q.set] = a
			sets = append(sets, q.set)
		}
		r := tuneRank(t, q, w)
		for _, x := range []*acc{a, &all} {
			for k := range 2 {
				if k == 0 && q.half != 1 {
					continue
				}
				x.n[k]++
				if r == 0 {
					x.h1[k]++
				}
				if r >= 0 && r < 5 {
					x.h5[k]++
				}
				if r >= 0 {
					x.mrr[k] += 1 / float64(r+1)
				}
			}
		}
	}
	var sb strings.Builder
	line := func(name string, a *acc) {
		fmt.Fprintf(&sb, "%-14s held %3.0f: %.3f %.3f %.3f   all %3.0f: %.3f %.3f %.3f\n", name,
			a.n[0], a.h1[0]/a.n[0], a.h5[0]/a.n[0], a.mrr[0]/a.n[0], a.n[1], a.h1[1]/a.n[1], a.h5[1]/a.n[1], a.mrr[1]/a.n[1])
	}
	for _, s := range sets {
		line(strings.TrimSuffix(s, ".tsv"), m[s])
	}
	line("all", &all)
	return sb.String()
}

// tuneVocab measures the learned vocabulary (scripts/vocab) in the table
// file: the defaults' figures per set without it, then with it at a few
// weights, similarity floors and counts of nearest words.
func tuneVocab(t *testing.T, qs []tuneQuery, table string) {
	b, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	v, err := decodeVocab(b)
	if err != nil {
		t.Fatal(err)
	}
	vocabOnce.Do(func() {})
	saved := vocab
	vocab = v
	t.Cleanup(func() { vocab = saved })
	w := defaultCodeWeights
	w.near = 0
	t.Logf("without the vocabulary:\n%s", tuneTable(t, qs, w))
	// Fields 0: a near word counts wherever the query's word would (the
	// word vectors, session 3); 1<<fieldName: only in names (the doc
	// comments' association with names, scripts/vocab assoc). Floors 0.6
	// and 0.7 suit cosine similarities, 0.2 NPMI.
	for _, fields := range []uint8{0, 1 << fieldName} {
		for _, near := range []float64{0.2, 0.35, 0.5, 0.8, 1.5, 3} {
			for _, floor := range []float64{0.2, 0.6, 0.7} {
				for _, k := range []int{2, 5} {
					for _, missing := range []bool{false, true} {
						w.near, w.nearMin, w.nearK, w.nearMissing, w.nearFields = near, floor, k, missing, fields
						a5, am := tuneEval(t, qs, w, 0)
						b5, bm := tuneEval(t, qs, w, 1)
						t.Logf("fields %d near %.2f min %.2f k %d missing %v: tune hit@5 %.3f MRR %.3f; held out hit@5 %.3f MRR %.3f",
							fields, near, floor, k, missing, a5, am, b5, bm)
					}
				}
			}
		}
	}
}
