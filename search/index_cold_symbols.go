package search

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search/internal/filetier"
	"github.com/zumba-dev/zumba/search/internal/lines"
	"github.com/zumba-dev/zumba/search/internal/scan"
)

// coldParseGrace is how long past a call's deadline a parse it started
// may run before it is stopped (and its file left for the next call).
const coldParseGrace = 150 * time.Millisecond

// coldSymbols answers find_symbol before the word index is in, as the
// direct search (Symbols) does, within the time limit: the files the word
// pass has read are judged by their words, and only those that may
// define the name are read and parsed; what each file gave is
// remembered for the next call of the same query, and the definitions
// parsed go to the index (see index_cold.go). The answer says how many
// files it covered when the deadline stopped it (SymbolResult.Building).
func (ix *Index) coldSymbols(ctx context.Context, q SymbolQuery, deadline time.Time) (*SymbolResult, error) {
	start := time.Now().UnixNano()
	v, order, err := ix.coldRanked(ctx, deadline, nil)
	if errors.Is(err, errStillListing) {
		return &SymbolResult{Building: true}, nil
	}
	if err != nil {
		return nil, err
	}
	call := ix.cold.begin(ctx, q.Name, v.walkLen(), start)
	defer call.end()
	pctx := ctx
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		pctx, cancel = context.WithDeadline(ctx, deadline.Add(coldParseGrace))
		defer cancel()
	}
	keys := ix.nameKeys(q.needle)
	word := NewWordScanner(string(q.needle))
	classify := func(d *outline.Definition) (exact, fuzzy bool) {
		if q.exact(d) {
			return true, false
		}
		return false, strings.Contains(strings.ToLower(q.foldText(d)), q.fold)
	}
	// parse parses the file at files[k] for the call and remembers its
	// definitions; it returns -1 when the deadline stopped the parse.
	parse := func(k int, i int32, data []byte, lang *grammar.Language, out *[]Def) int {
		e := v.files[k]
		o, err := outline.Parse(pctx, lang, data)
		if err != nil {
			if pctx.Err() != nil {
				return -1
			}
			// The parser's own time limit: no definitions, as the direct
			// search has it, and nothing remembered.
			return 0
		}
		all := o.Definitions("")
		ix.ParsedAhead(e.Path, data, all)
		var defs []Def
		var text *lines.Index
		tier := filetier.Head(v.tiers[k], grammar.IsGeneratedHead(data))
		exact := 0
		for _, d := range all {
			d.Path = e.Path
			ex, fz := classify(&d)
			if !ex && !fz {
				continue
			}
			if text == nil {
				text = lines.New(data)
			}
			if ex {
				exact++
			}
			defs = append(defs, Def{Definition: d, Text: text.Text(d.Line), rank: q.foldText(&d), exact: ex, tier: tier})
		}
		*out = defs
		if len(defs) == 0 {
			call.set(i, memoNone, nil)
		} else {
			call.set(i, memoGot, defs)
		}
		return exact
	}
	countExact := func(defs []Def) int {
		n := 0
		for _, d := range defs {
			if d.exact {
				n++
			}
		}
		return n
	}
	// noGrammar: files passed over unread, as Symbols passes them.
	noGrammar := func(path string) bool {
		return grammar.ForPath(path, nil) == nil && strings.Contains(pathBase(path), ".")
	}

	var mu sync.Mutex
	var foldOnly, notWord []int // positions in order
	note := func(list *[]int, n int) {
		mu.Lock()
		*list = append(*list, n)
		mu.Unlock()
	}
	per := make([][]Def, len(order))
	emitted, timedOut := scan.Ordered(ctx, len(order), q.limit(), deadline, func(n int, sc *project.Scratch) int {
		k := int(order[n])
		e := v.files[k]
		if noGrammar(e.Path) {
			return 0
		}
		i := v.walkIndex(k)
		if i >= 0 {
			if st, got, at := call.get(i); st != memoUnknown && v.trusted(k, at) {
				switch st {
				case memoGot:
					per[n] = got
					return countExact(got)
				case memoFold:
					note(&foldOnly, n)
				case memoNotWord:
					note(&notWord, n)
				}
				return 0
			}
			if r, words, ok := v.pass.Covered(i); ok && v.trusted(k, r.Ref) && !ix.heldBy(&keys, words) {
				call.set(i, memoNotWord, nil)
				note(&notWord, n)
				return 0
			}
		}
		data, err := ix.src.Contents(e, sc)
		if err != nil {
			return 0
		}
		var lang *grammar.Language
		known := false
		langOf := func() *grammar.Language {
			if !known {
				lang, known = grammar.ForPath(e.Path, data[:min(len(data), project.BinaryPrefix)]), true
			}
			return lang
		}
		// A definition's name is a whole word of its file; in some
		// languages never one right after a ".".
		if word.Contains(data) && langOf() != nil && definitionWord(word, data, langOf) {
			return parse(k, i, data, lang, &per[n])
		}
		if containsFold(data, q.foldNeedle) && langOf() != nil {
			call.set(i, memoFold, nil)
			note(&foldOnly, n)
			return 0
		}
		call.set(i, memoNone, nil)
		return 0
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &SymbolResult{Files: len(order), Searched: len(order)}
	if timedOut {
		res.Searched = emitted
	}
	var found, defs []Def
	for _, d := range per[:emitted] {
		found = append(found, d...)
	}
	for _, d := range found {
		if d.exact {
			defs = append(defs, d)
		}
	}
	slices.SortStableFunc(defs, func(a, b Def) int { return cmp.Compare(a.tier, b.tier) })
	if (len(defs) == 0 || q.Containing) && !timedOut {
		res.Fuzzy = true
		defs = found
		// The files that hold the needle in another case or inside other
		// words, in path order: those read, and those whose words hold it.
		slices.Sort(notWord)
		fold := ix.foldHolders(q, v, order, notWord)
		for _, n := range foldOnly {
			fold = append(fold, foldFile{n: n})
		}
		slices.SortFunc(fold, func(a, b foldFile) int {
			return strings.Compare(v.files[order[a.n]].Path, v.files[order[b.n]].Path)
		})
		per2 := make([][]Def, len(fold))
		done2, timedOut2 := scan.Ordered(ctx, len(fold), -1, deadline, func(j int, sc *project.Scratch) int {
			n := fold[j].n
			k := int(order[n])
			data, err := ix.src.Contents(v.files[k], sc)
			if err != nil {
				return 0
			}
			if fold[j].check && !containsFold(data, q.foldNeedle) {
				return 0
			}
			lang := grammar.ForPath(v.files[k].Path, data[:min(len(data), project.BinaryPrefix)])
			if lang == nil {
				return 0
			}
			if parse(k, v.walkIndex(k), data, lang, &per2[j]) < 0 {
				return -1
			}
			return 0
		})
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if timedOut2 {
			res.Searched = len(order) - (len(fold) - done2)
		}
		for _, d := range per2[:done2] {
			defs = append(defs, d...)
		}
		sortFuzzy(defs, q)
	}
	if len(defs) == 0 {
		res.Fuzzy = false
	}
	defs = implFirst(defs)
	if limit := q.limit(); len(defs) > limit {
		defs, res.More = defs[:limit], true
	}
	res.Defs = defs
	if res.Searched < res.Files {
		res.Building, res.Indexed = true, res.Searched
	}
	return res, nil
}

// foldFile is a file find_symbol's fallback parses: its position in the
// call's order, and whether its bytes must be checked for the needle
// first (its words only say it may hold it).
type foldFile struct {
	n     int
	check bool
}

// foldHolders returns, of the files at the positions notWord of order
// (judged by the word pass's words to hold no whole word of q's needle),
// those whose words may hold the needle in any case: a word that contains
// the needle's longest run of word characters, ignoring case. The vocab
// is read after the files were judged, so it holds their words.
func (ix *Index) foldHolders(q SymbolQuery, v *coldView, order []int32, notWord []int) []foldFile {
	if len(notWord) == 0 {
		return nil
	}
	var run []byte
	index.ForWords(q.foldNeedle, func(w []byte) {
		if len(w) > len(run) {
			run = w
		}
	})
	var out []foldFile
	if len(run) == 0 || len(run) > index.MaxIndexedWord {
		for _, n := range notWord {
			out = append(out, foldFile{n: n, check: true})
		}
		return out
	}
	var ids []uint32
	strs := ix.Words.View()
	for id := range strs.Len() {
		if containsFoldString(strs.Str(uint32(id)), run) {
			ids = append(ids, uint32(id))
		}
	}
	for _, n := range notWord {
		k := int(order[n])
		if _, words, ok := v.pass.Covered(v.walkIndex(k)); !ok || packedHoldsAny(words, ids) {
			out = append(out, foldFile{n: n, check: true})
		}
	}
	return out
}
