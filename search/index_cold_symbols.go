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
	c := &coldSymbolCall{ix: ix, q: q, v: v, order: order, pctx: ctx, keys: ix.nameKeys(q.needle), word: NewWordScanner(string(q.needle))}
	c.call = ix.cold.begin(ctx, q.Name, v.walkLen(), start)
	defer c.call.end()
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		c.pctx, cancel = context.WithDeadline(ctx, deadline.Add(coldParseGrace))
		defer cancel()
	}
	per := make([][]Def, len(order))
	emitted, timedOut := scan.Ordered(ctx, len(order), q.limit(), deadline, func(n int, sc *project.Scratch) int {
		return c.file(n, sc, &per[n])
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
		defs, err = c.fuzzy(ctx, deadline, found, res)
		if err != nil {
			return nil, err
		}
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

// coldSymbolCall is one coldSymbols call: its query, the view and order
// of its files, its memo's call, the context its parses stop by, and the
// positions (in order) of the files that hold the needle only in another
// case or inside other words (foldOnly), or whose words say they do not
// hold it as a word (notWord).
type coldSymbolCall struct {
	ix    *Index
	q     SymbolQuery
	v     *coldView
	order []int32
	call  *memoCall[[]Def]
	pctx  context.Context
	keys  nameKeys
	word  *WordScanner

	mu                sync.Mutex
	foldOnly, notWord []int
}

func (c *coldSymbolCall) note(list *[]int, n int) {
	c.mu.Lock()
	*list = append(*list, n)
	c.mu.Unlock()
}

// file is the first pass's work on the file at position n of the order:
// its definitions the query names or contains into out, from the memo or
// by parsing it, and the number of exact ones (-1: the deadline stopped
// its parse).
func (c *coldSymbolCall) file(n int, sc *project.Scratch, out *[]Def) int {
	v, q := c.v, c.q
	k := int(c.order[n])
	e := v.files[k]
	// Files without a grammar are passed over unread, as Symbols passes
	// them.
	if grammar.ForPath(e.Path, nil) == nil && strings.Contains(project.Base(e.Path), ".") {
		return 0
	}
	i := v.walkIndex(k)
	if i >= 0 {
		if st, got, at := c.call.get(i); st != memoUnknown && v.trusted(k, at) {
			switch st {
			case memoGot:
				*out = got
				return countExact(got)
			case memoFold:
				c.note(&c.foldOnly, n)
			case memoNotWord:
				c.note(&c.notWord, n)
			}
			return 0
		}
		if r, words, ok := v.pass.Covered(i); ok && v.trusted(k, r.Ref) && !c.ix.heldBy(&c.keys, words) {
			c.call.set(i, memoNotWord, nil)
			c.note(&c.notWord, n)
			return 0
		}
	}
	data, err := c.ix.src.Contents(e, sc)
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
	if c.word.Contains(data) && langOf() != nil && definitionWord(c.word, data, langOf) {
		return c.parse(k, i, data, lang, out)
	}
	if containsFold(data, q.foldNeedle) && langOf() != nil {
		c.call.set(i, memoFold, nil)
		c.note(&c.foldOnly, n)
		return 0
	}
	c.call.set(i, memoNone, nil)
	return 0
}

func countExact(defs []Def) int {
	n := 0
	for _, d := range defs {
		if d.exact {
			n++
		}
	}
	return n
}

// parse parses the file at files[k] for the call and remembers its
// definitions; it returns -1 when the deadline stopped the parse.
func (c *coldSymbolCall) parse(k int, i int32, data []byte, lang *grammar.Language, out *[]Def) int {
	q := c.q
	e := c.v.files[k]
	all, ok := c.ix.ParseAhead(c.pctx, e.Path, data, lang)
	if !ok {
		if c.pctx.Err() != nil {
			return -1
		}
		// The parser's own time limit: no definitions, as the direct
		// search has it, and nothing remembered.
		return 0
	}
	var defs []Def
	var text *lines.Index
	tier := filetier.Head(c.v.tiers[k], grammar.IsGeneratedHead(data))
	exact := 0
	for _, d := range all {
		d.Path = e.Path
		ex := q.exact(&d)
		if !ex && !strings.Contains(strings.ToLower(q.foldText(&d)), q.fold) {
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
		c.call.set(i, memoNone, nil)
	} else {
		c.call.set(i, memoGot, defs)
	}
	return exact
}

// fuzzy is the fallback's answer: found (every definition containing the
// query in the files read), with those of the files that hold the
// needle in another case or inside other words, in path order: those
// read, and those whose words hold it; res.Searched says how far it got.
func (c *coldSymbolCall) fuzzy(ctx context.Context, deadline time.Time, found []Def, res *SymbolResult) ([]Def, error) {
	v, order, q := c.v, c.order, c.q
	defs := found
	slices.Sort(c.notWord)
	fold := c.ix.foldHolders(q, v, order, c.notWord)
	for _, n := range c.foldOnly {
		fold = append(fold, foldFile{n: n})
	}
	slices.SortFunc(fold, func(a, b foldFile) int {
		return strings.Compare(v.files[order[a.n]].Path, v.files[order[b.n]].Path)
	})
	per := make([][]Def, len(fold))
	done, timedOut := scan.Ordered(ctx, len(fold), -1, deadline, func(j int, sc *project.Scratch) int {
		n := fold[j].n
		k := int(order[n])
		data, err := c.ix.src.Contents(v.files[k], sc)
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
		if c.parse(k, v.walkIndex(k), data, lang, &per[j]) < 0 {
			return -1
		}
		return 0
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if timedOut {
		res.Searched = len(order) - (len(fold) - done)
	}
	for _, d := range per[:done] {
		defs = append(defs, d...)
	}
	sortFuzzy(defs, q)
	return defs, nil
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
		if _, words, ok := v.pass.Covered(v.walkIndex(k)); !ok || index.PackedHoldsAny(words, ids) {
			out = append(out, foldFile{n: n, check: true})
		}
	}
	return out
}
