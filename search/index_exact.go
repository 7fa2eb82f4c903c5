package search

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search/internal/defrec"
)

// defFile is one file's definitions, taken from the index for a query.
type defFile struct {
	path string
	e    project.Entry
	raw  []byte
	tier uint8
}

// exact lists the definitions q names, from the files the index knows
// define its last segment or its whole name, in path and line order (own
// files first), up to one past limit. As Symbols does, a file where the
// name is never a whole word where a definition could name it is passed
// over.
func (ix *Index) exact(ctx context.Context, q SymbolQuery, limit int, sc *project.Scratch) ([]Def, error) {
	last := q.Parts[len(q.Parts)-1]
	ix.Mu.RLock()
	var ids, keys []uint32
	for _, k := range [2]string{last, q.Name} {
		if id, ok := ix.Words.LookupString(k); ok {
			ids = ix.defines.List(id, ids)
			keys = append(keys, id)
		}
	}
	slices.Sort(keys)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	files := ix.defFilesLocked(ids)
	strs := ix.Words.View()
	ix.Mu.RUnlock()
	// As filetier.Compare orders them, by the tier each record gives.
	slices.SortFunc(files, func(a, b defFile) int {
		return cmp.Or(cmp.Compare(a.tier, b.tier), strings.Compare(a.path, b.path))
	})
	word := NewWordScanner(string(q.needle))
	var defs []Def
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var found []Def
		tier := f.tier
		// Only a definition found by one of the keys can be one q names.
		for _, d := range decodeDefsOf(strs, f.raw, keys, true) {
			d.Path = f.path
			if q.exact(&d) {
				found = append(found, Def{Definition: d, rank: q.foldText(&d), exact: true, tier: tier})
			}
		}
		if len(found) == 0 {
			continue
		}
		data, err := ix.root.Contents(f.e, sc)
		if err != nil {
			continue
		}
		// The file has definitions, so a grammar.
		if !definitionWord(word, data, func() *grammar.Language {
			return grammar.ForPath(f.path, data[:min(len(data), project.BinaryPrefix)])
		}) {
			continue
		}
		fillText(found, data)
		defs = append(defs, found...)
		if limit >= 0 && len(defs) > limit {
			break
		}
	}
	return defs, nil
}

// defFilesLocked takes the definitions of the live, parsed files of ids.
func (ix *Index) defFilesLocked(ids []uint32) []defFile {
	var out []defFile
	for _, f := range ids {
		if int(f) >= len(ix.Files) {
			continue
		}
		if r := ix.Files[f]; r != nil && r.Parsed {
			if raw := r.Recs.Get(kindDefs); len(raw) > 0 {
				out = append(out, defFile{path: r.Path, e: r.Entry(), raw: raw, tier: r.Tier})
			}
		}
	}
	return out
}

// decodeDefsOf decodes the definitions of raw whose last segment is one
// of keys (sorted), or with byName, whose name is.
func decodeDefsOf(strs *index.StrTable, raw []byte, keys []uint32, byName bool) []outline.Definition {
	var defs []outline.Definition
	defrec.Walk(raw, uint64(strs.Len()), func(name uint32, k byte, line, before, after uint64, qs []uint32) {
		last := name
		if len(qs) > 0 {
			last = qs[len(qs)-1]
		}
		_, ok := slices.BinarySearch(keys, last)
		if !ok && byName {
			_, ok = slices.BinarySearch(keys, name)
		}
		if !ok {
			return
		}
		var quals []string
		if len(qs) > 0 {
			quals = make([]string, len(qs))
			for i, q := range qs {
				quals[i] = strs.Str(q)
			}
		}
		defs = append(defs, outline.Definition{
			Name: strs.Str(name), Kind: grammar.Kind(k &^ defrec.DeclBit), Decl: k&defrec.DeclBit != 0,
			Line: int(line), Start: int(line - before), End: int(line + after),
			Qualified: quals,
		})
	})
	return defs
}
