package findcode

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/internal/diskcache"
	"github.com/zumba-dev/zumba/search/internal/defrec"
)

// TestCodeDump writes, for the failure analysis of find_code's ranking,
// every benchmark query of ZUMBA_CODE_TUNE (see TestCodeTune) with its
// target's rank, the best five and the fields of each holding each query
// word, to the file ZUMBA_CODE_DUMP names.
func TestCodeDump(t *testing.T) {
	spec, out := os.Getenv("ZUMBA_CODE_TUNE"), os.Getenv("ZUMBA_CODE_DUMP")
	if spec == "" || out == "" {
		t.Skip("ZUMBA_CODE_TUNE or ZUMBA_CODE_DUMP is not set")
	}
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	qs := tuneQueries(t, strings.TrimSpace(string(b)))
	var sb strings.Builder
	w := defaultCodeWeights
	// shares[k]: the queries whose target holds k of the query's
	// distinctive words (3: three or more), and found[k] those of them in
	// the best five.
	var shares, found [4]int
	for i, q := range qs {
		hits, err := q.ix.codeSearch(context.Background(), q.terms, nil, w, &Result{})
		if err != nil {
			t.Fatal(err)
		}
		q.ix.Mu.RLock()
		strs := q.ix.Words.View()
		rank := -1
		var words []string
		for _, tm := range q.terms {
			words = append(words, tm.stem)
		}
		var top []string
		for r, h := range hits {
			rec := q.ix.Files[h.file]
			defs := defrec.Decode(strs, rec.Recs.Get(q.ix.DefsKind))
			qn := defs[h.def].QualifiedName()
			if rank < 0 && q.targets[rec.Path] && (qn == q.name || strings.HasSuffix(qn, "."+q.name)) {
				rank = r
			}
			if r < 5 {
				top = append(top, fmt.Sprintf("    %d %.2f %s %s %s %s", r+1, h.score, defs[h.def].Kind, qn, rec.Path, dumpFields(q.ix, q.terms, h.file, h.def)))
			}
		}
		// The target's own words and score.
		tgt := "    target: not found"
		best := -1.0
		share := 0
		for f, rec := range q.ix.Files {
			if rec == nil || !q.targets[rec.Path] {
				continue
			}
			defs := defrec.Decode(strs, rec.Recs.Get(q.ix.DefsKind))
			for d := range defs {
				qn := defs[d].QualifiedName()
				if qn != q.name && !strings.HasSuffix(qn, "."+q.name) {
					continue
				}
				sc := q.ix.codeScorer(context.Background(), q.terms, nil, w, &Result{})
				score := 0.0
				fields := "no word"
				if sc != nil {
					sc.file(uint32(f))
					if sc.mark != nil && d < len(sc.mark) && sc.mark[d] == sc.gen {
						code, err := q.ix.AppendRecord(nil, q.ix.CodeKind, rec.Recs.Get(q.ix.CodeKind))
						if err != nil {
							q.ix.Mu.RUnlock()
							t.Fatal(err)
						}
						r := codeLens(code)
						score = sc.defScore(d, r) * sc.w.tier[rec.Tier]
						fields = dumpFields(q.ix, q.terms, uint32(f), d)
					}
				}
				if score > best {
					best = score
					tgt = fmt.Sprintf("    target: %.2f %s %s %s %s", score, defs[d].Kind, qn, rec.Path, fields)
					if sc != nil {
						share = distinctShared(sc, d)
					}
				}
			}
		}
		q.ix.Mu.RUnlock()
		k := min(share, 3)
		shares[k]++
		if rank >= 0 && rank < 5 {
			found[k]++
		}
		fmt.Fprintf(&sb, "Q%d half=%d rank=%d name=%s\n    query: %s\n    text: %s\n", i, q.half, rank+1, q.name, strings.Join(words, " "), q.text)
		sb.WriteString(tgt + "\n")
		for _, l := range top {
			sb.WriteString(l + "\n")
		}
	}
	for k := range shares {
		more := ""
		if k == len(shares)-1 {
			more = " or more"
		}
		t.Logf("targets holding %d%s of the query's distinctive words: %d queries, %d in the best five",
			k, more, shares[k], found[k])
	}
	if err := os.WriteFile(out, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// distinctIDF is the idf above which TestCodeDump calls a query word
// distinctive: a word in fewer than about a fifth of the project's files
// (idf = ln(1 + (n-df+0.5)/(df+0.5)) = 1.5 at df = 0.22n).
const distinctIDF = 1.5

// distinctShared returns how many of the query's words (a word and its
// abbreviations counted once) definition d of the scorer's file holds in
// some field or its path, counting only distinctive words: a query whose
// target holds none can be ranked first only by chance, whatever the
// weights, as every word it shares with the target is one a fifth of the
// project's files hold too. sc has been moved to the file (sc.file).
func distinctShared(sc *codeScorer, d int) int {
	seen := map[int]bool{}
	for q, t := range sc.terms {
		if t.idf < distinctIDF || t.weight != 1 {
			continue
		}
		if fields, path := termHeld(sc, d, q); fields != 0 || path {
			seen[t.group] = true
		}
	}
	return len(seen)
}

// codeLens returns the definitions' lengths of a find_code record (read
// back if it is spilled, see Index.AppendRecord).
func codeLens(rec []byte) []byte {
	r := diskcache.NewReader(rec)
	h := readCodeHead(r)
	at := r.Offset()
	return rec[at : at+2*h.defs]
}

// dumpFields says which fields of definition d of file f hold each query
// word: "word:ncdbs" (name, container, doc, body, summary; p: the path).
// The caller holds ix.mu.
func dumpFields(ix *Index, terms []codeTerm, f uint32, d int) string {
	sc := ix.codeScorer(context.Background(), terms, nil, defaultCodeWeights, &Result{})
	if sc == nil {
		return ""
	}
	sc.file(f)
	var parts []string
	for q, t := range sc.terms {
		m, path := termHeld(sc, d, q)
		s := ""
		if path {
			s += "p"
		}
		for fl, c := range "ncdbs" {
			if m&(1<<fl) != 0 {
				s += string(c)
			}
		}
		if s != "" {
			parts = append(parts, fmt.Sprintf("%s:%s(%.1f)", t.stem, s, t.idf))
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// termHeld returns which fields of definition d of the scorer's file hold
// query word q (a mask of 1<<field; none when d matched no word) and
// whether the file's path holds it. sc has been moved to the file
// (sc.file).
func termHeld(sc *codeScorer, d, q int) (fields uint8, path bool) {
	if d < len(sc.mark) && sc.mark[d] == sc.gen {
		fields = sc.masks[d*len(sc.terms)+q]
	}
	return fields, sc.path[q]
}

// TestCodeVariants logs find_code's hit@5 and MRR on both halves of the
// benchmark's queries (see TestCodeTune) for a few variants of the
// weights, indexing the projects once.
func TestCodeVariants(t *testing.T) {
	spec := os.Getenv("ZUMBA_CODE_TUNE")
	if spec == "" || os.Getenv("ZUMBA_CODE_VARIANTS") == "" {
		t.Skip("ZUMBA_CODE_TUNE or ZUMBA_CODE_VARIANTS is not set")
	}
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	qs := tuneQueries(t, strings.TrimSpace(string(b)))
	d := defaultCodeWeights
	variants := []struct {
		name string
		w    codeWeights
	}{{"defaults", d}}
	add := func(name string, f func(w *codeWeights)) {
		w := d
		f(&w)
		variants = append(variants, struct {
			name string
			w    codeWeights
		}{name, w})
	}
	add("no abbreviations", func(w *codeWeights) { w.abbrev = 0 })
	add("no internal factor", func(w *codeWeights) { w.internal = 1 })
	add("neither", func(w *codeWeights) { w.abbrev, w.internal = 0, 1 })
	// Session 11: the same hit@5, MRR +0.02 on both halves.
	add("summary first", func(w *codeWeights) {
		w.field[fieldDoc], w.field[fieldSummary], w.field[fieldBody] = 2, 3, 0.3
	})
	for _, v := range variants {
		t.Logf("%-22s %s", v.name, tuneSets(t, qs, v.w))
	}
}
