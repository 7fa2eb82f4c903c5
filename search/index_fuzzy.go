package search

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/internal/defrec"
	"github.com/zumba-dev/zumba/search/internal/filetier"
)

// foldCandidates lists the files that may contain q's needle in any case
// (so may define a name containing q): those holding a word that
// contains the needle's longest run of word characters, ignoring case. A
// needle without one, or with one longer than any indexed word, needs
// every file.
func (ix *Index) foldCandidates(q SymbolQuery) []uint32 {
	var run []byte
	index.ForWords(q.foldNeedle, func(w []byte) {
		if len(w) > len(run) {
			run = w
		}
	})
	ix.Mu.RLock()
	defer ix.Mu.RUnlock()
	if len(run) == 0 || len(run) > index.MaxIndexedWord {
		return ix.LiveIDsLocked()
	}
	in := make([]bool, len(ix.Files))
	var buf []uint32
	strs := ix.Words.View()
	for k := range strs.Len() {
		if ix.WordPost.Empty(uint32(k)) || !containsFoldString(strs.Str(uint32(k)), run) {
			continue
		}
		buf = ix.WordPost.List(uint32(k), buf[:0])
		for _, f := range buf {
			if int(f) < len(in) {
				in[f] = true
			}
		}
	}
	var out []uint32
	for f, ok := range in {
		if ok && ix.Files[f] != nil {
			out = append(out, uint32(f))
		}
	}
	return out
}

// containsFoldString reports whether s contains lower (lower case),
// ignoring case.
func containsFoldString(s string, lower []byte) bool {
	if len(s) < len(lower) {
		return false
	}
	return containsFold(unsafe.Slice(unsafe.StringData(s), len(s)), lower)
}

// fuzzy answers a qualified query's fallback: the definitions whose full
// names contain q, ignoring case, best first, up to one past limit, from
// the files of fids; with a non-zero stopAt (a partial answer), it
// decodes no file after that time. As Symbols does, it passes over files
// that do not contain the query's needle in any case.
func (ix *Index) fuzzy(ctx context.Context, q SymbolQuery, limit int, fids []uint32, sc *project.Scratch, stopAt time.Time) ([]Def, error) {
	ix.Mu.RLock()
	files := ix.defFilesLocked(fids)
	strs := ix.Words.View()
	ix.Mu.RUnlock()
	var defs []Def
	for i, f := range files {
		if !stopAt.IsZero() && i%64 == 0 && time.Now().After(stopAt) {
			break
		}
		for _, d := range defrec.Decode(strs, f.raw) {
			d.Path = f.path
			if rank := q.foldText(&d); strings.Contains(strings.ToLower(rank), q.fold) {
				defs = append(defs, Def{Definition: d, rank: rank, tier: f.tier})
			}
		}
	}
	sortFuzzy(defs, q)
	// Before the cut, as Symbols does.
	defs = implFirst(defs)
	lines := newDefLines(ix.root, sc, q.foldNeedle)
	for i := range files {
		lines.ents[files[i].path] = files[i].e
	}
	return lines.fill(ctx, nil, defs, limit)
}

// fuzzyLast answers an unqualified query's fallback: the definitions
// whose last segment contains q, ignoring case, in sortFuzzy's order, up
// to one past limit; with a non-zero stopAt (a partial answer), it
// decodes no file after that time. The index keeps every last segment as
// a key, so the keys are visited in rank order instead of the
// definitions: tier by tier (own files, tests, vendored), and within each, the keys
// starting with q first, then shorter ones. Only the files defining the
// keys of one rank are decoded at a time, and the answer ends once it is
// full: a common piece ("ret", "get") decodes the files of a few short
// names, not of every name containing it.
func (ix *Index) fuzzyLast(ctx context.Context, q SymbolQuery, limit int, sc *project.Scratch, stopAt time.Time) ([]Def, error) {
	// The names starting with q first: they are found quickly, and with
	// a common q they fill the answer.
	ix.Mu.RLock()
	groups := ix.fuzzyKeysLocked(q.fold, true, stopAt)
	ix.Mu.RUnlock()
	prefixOnly := true
	lines := newDefLines(ix.root, sc, q.foldNeedle)
	var out []Def
	files := make([][]defFile, len(groups))
	for tier := range uint8(filetier.Count) {
		for gi := 0; ; gi++ {
			if gi == len(groups) && prefixOnly {
				prefixOnly = false
				ix.Mu.RLock()
				groups = append(groups, ix.fuzzyKeysLocked(q.fold, false, stopAt)...)
				ix.Mu.RUnlock()
				files = append(files, make([][]defFile, len(groups)-len(files))...)
			}
			if gi == len(groups) {
				break
			}
			g := groups[gi]
			if files[gi] == nil {
				ix.Mu.RLock()
				var ids []uint32
				for _, k := range g.keys {
					ids = ix.defines.List(k, ids)
				}
				slices.Sort(ids)
				files[gi] = ix.defFilesLocked(slices.Compact(ids))
				ix.Mu.RUnlock()
			}
			ix.Mu.RLock()
			strs := ix.Words.View()
			ix.Mu.RUnlock()
			var defs []Def
			for i, f := range files[gi] {
				if !stopAt.IsZero() && i%64 == 0 && time.Now().After(stopAt) {
					return out, nil
				}
				if f.tier != tier {
					continue
				}
				lines.ents[f.path] = f.e
				for _, d := range decodeDefsOf(strs, f.raw, g.keys, false) {
					d.Path = f.path
					defs = append(defs, Def{Definition: d, rank: d.LastSegment(), tier: tier})
				}
			}
			sortFuzzy(defs, q)
			// Before the cut, as Symbols does. An overload set shares its
			// last segment, so it lies within one rank.
			defs = implFirst(defs)
			var err error
			if out, err = lines.fill(ctx, out, defs, limit); err != nil {
				return nil, err
			}
			if limit >= 0 && len(out) > limit {
				return out, nil
			}
		}
	}
	return out, nil
}

// keyRank is a group of keys sortFuzzy ranks alike as last segments.
type keyRank struct {
	prefix bool // the key starts with the query
	runes  int
	keys   []uint32 // sorted
}

// fuzzyKeysLocked lists the keys naming a definition that start with
// fold (in lower case), or (!prefix) that contain it elsewhere only,
// grouped by rank, best first; past a non-zero stopAt, it may leave out
// some (see defNames.find).
func (ix *Index) fuzzyKeysLocked(fold string, prefix bool, stopAt time.Time) []keyRank {
	type key struct {
		id     uint32
		prefix bool
		runes  int
	}
	var keys []key
	ix.names.find(ix, fold, prefix, stopAt, func(id uint32, lower []byte, at int) {
		if (at == 0) == prefix {
			keys = append(keys, key{id, at == 0, utf8.RuneCount(lower)})
		}
	})
	slices.SortFunc(keys, func(a, b key) int {
		if a.prefix != b.prefix {
			if a.prefix {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(a.runes, b.runes), cmp.Compare(a.id, b.id))
	})
	keys = slices.CompactFunc(keys, func(a, b key) bool { return a.id == b.id })
	var out []keyRank
	for _, k := range keys {
		if n := len(out); n == 0 || out[n-1].prefix != k.prefix || out[n-1].runes != k.runes {
			out = append(out, keyRank{prefix: k.prefix, runes: k.runes})
		}
		out[len(out)-1].keys = append(out[len(out)-1].keys, k.id)
	}
	return out
}
