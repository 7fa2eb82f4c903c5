package search

import (
	"context"
	"path"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/internal/scan"
	"github.com/zumba-dev/zumba/search/resolve"
)

// resolveTimeLimit bounds the parsing a resolved search does for the
// files the background pass has not parsed yet.
const resolveTimeLimit = 3 * time.Second

// Resolved answers like [Root.Resolved] from the index: the files'
// facts are the records of the resolver's kind (kindFacts), and one
// resolver serves the calls while the index is unchanged.
func (ix *Index) Resolved(ctx context.Context, q ResolveQuery, cache *ParseCache) (*Resolved, error) {
	defer ix.Call()()
	if !ix.WordsReady.Load() {
		// Resolving needs the files' facts: walking and parsing the
		// project now would not end within a client's time (the Go
		// tree: 20 s).
		return &Resolved{Building: true}, nil
	}
	if err := ix.Sync(ctx); err != nil {
		return nil, err
	}
	env := resolveEnv{
		defs: func(ctx context.Context) ([]Def, error) { return pickDefs(ctx, ix, ix.root, cache, q) },
		files: func(word string) ([]project.Entry, error) {
			ix.Mu.RLock()
			ids, all := ix.CandidateIDsLocked(word)
			if all {
				ids = ix.LiveIDsLocked()
			}
			ix.Mu.RUnlock()
			ix.EnsureParsed(ctx, ids, StopBy(ctx, resolveTimeLimit))
			return ix.rankedCandidates(word), nil
		},
		src:   ix.root,
		cache: cache,
	}
	env.lang = ix.resolver
	ix.resolve.trim()
	return resolveRefs(ctx, q, env)
}

// resolverMemo is the resolvers of the index's generation gen, one per
// language (resolvedLangs), each made when first asked for. A resolver
// keeps what it decoded and worked out for as long as it lives (on the
// Go tree, ~110 MiB after a hundred calls of different names): the
// resolvers are dropped, at the start of a call, once they have decoded
// resolverBudget bytes of records since they were made.
type resolverMemo struct {
	mu  sync.Mutex
	gen uint64
	rs  []resolve.Lang
	// decoded counts the bytes of the records (or files parsed) the
	// resolvers decoded.
	decoded atomic.Int64
}

// resolverBudget bounds the records the resolvers decode before they
// are dropped: their decoded facts and memos take about seven times the
// records' bytes of heap, so at most ~110 MiB. One call may need most of
// a large project's facts (File.Close on the Go tree decodes 8 of its
// 12.5 MB): below that, such calls would decode them afresh every time
// (150-230 ms instead of 20).
var resolverBudget int64 = 16 << 20

// trim drops the resolvers once they have decoded their budget.
func (m *resolverMemo) trim() {
	if m.decoded.Load() <= resolverBudget {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rs = nil
	m.decoded.Store(0)
}

// resolver returns the resolver of the language li (index in
// resolvedLangs) of the index as it is.
func (ix *Index) resolver(li int) resolve.Lang {
	gen := ix.Gen()
	m := &ix.resolve
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rs == nil || m.gen != gen {
		m.rs, m.gen = make([]resolve.Lang, len(resolvedLangs)), gen
		m.decoded.Store(0)
	}
	if m.rs[li] == nil {
		m.rs[li] = resolvedLangs[li].ofIndex(ix)
	}
	return m.rs[li]
}

// indexFacts is the resolver's source over the index's records.
type indexFacts struct{ ix *Index }

// Facts decodes the file's record of the resolver's kind, read back
// from the spill file (index.SpillKind); a record that cannot be read
// back or decoded is made again from a parse of the file.
func (s *indexFacts) Facts(p string) *resolve.File {
	s.ix.Mu.RLock()
	var raw []byte
	if r := s.ix.ByPath[p]; r != nil && r.Parsed && !r.Dead {
		raw = r.Recs.Get(kindFacts)
	}
	s.ix.Mu.RUnlock()
	if raw == nil {
		return nil
	}
	rec, err := s.ix.Record(kindFacts, raw)
	s.ix.resolve.decoded.Add(int64(len(rec)))
	if err == nil {
		// Taken after the record: it covers the record's ids.
		if f, err := resolve.DecodeIn(rec, s.ix.Words.View()); err == nil {
			return f
		}
	}
	data, err := s.ReadFile(p)
	if err != nil {
		return nil
	}
	return resolve.Parse(data)
}

// GoDirs lists the live Go and go.mod files by folder.
func (s *indexFacts) GoDirs() map[string][]string {
	return s.ix.liveDirs(func(p string) bool { return resolve.IsGo(p) || path.Base(p) == "go.mod" })
}

// ReadFile reads a project file.
func (s *indexFacts) ReadFile(p string) ([]byte, error) {
	data, _, err := s.ix.root.ReadFile(p, project.MaxFileSize)
	return data, err
}

// pickDefs is the definitions q picks: the one at its Definition, else
// those find_symbol finds for its name exactly.
func pickDefs(ctx context.Context, s Searcher, root *Root, cache *ParseCache, q ResolveQuery) ([]Def, error) {
	if q.Definition != "" {
		return definitionAt(ctx, root, cache, q.Definition)
	}
	res, err := s.Symbols(ctx, ParseSymbolQuery(q.Name))
	if err != nil {
		return nil, err
	}
	if res.Fuzzy {
		return nil, nil
	}
	return res.Defs, nil
}

// Resolved answers q from the files, walked and read afresh: each file
// of a resolved language holding the name is parsed for its facts, and
// the packages or modules they import when needed.
func (r *Root) Resolved(ctx context.Context, q ResolveQuery, cache *ParseCache) (*Resolved, error) {
	entries, err := r.Walk(ctx)
	if err != nil {
		return nil, err
	}
	paths := make([]string, len(entries))
	for i, e := range entries {
		paths[i] = e.Path
	}
	var mu sync.Mutex
	langs := make([]resolve.Lang, len(resolvedLangs))
	warms := make([]func(string), len(resolvedLangs))
	lang := func(li int) (resolve.Lang, func(string)) {
		mu.Lock()
		defer mu.Unlock()
		if langs[li] == nil {
			langs[li], warms[li] = resolvedLangs[li].ofFiles(paths, func(p string) ([]byte, error) {
				data, _, err := r.ReadFile(p, project.MaxFileSize)
				return data, err
			})
		}
		return langs[li], warms[li]
	}
	env := resolveEnv{
		defs: func(ctx context.Context) ([]Def, error) { return pickDefs(ctx, r, r, cache, q) },
		lang: func(li int) resolve.Lang { l, _ := lang(li); return l },
		files: func(word string) ([]project.Entry, error) {
			files := rankFiles(slices.Clone(entries))
			sc := NewWordScanner(word)
			keep := make([]bool, len(files))
			scan.Ordered(ctx, len(files), -1, time.Time{}, func(i int, scr *project.Scratch) int {
				li := langOf(files[i].Path)
				if li < 0 {
					return 0
				}
				data, err := r.Contents(files[i], scr)
				if err == nil && sc.Next(data, 0) >= 0 {
					keep[i] = true
					_, warm := lang(li)
					warm(files[i].Path)
				}
				return 0
			})
			out := files[:0]
			for i, e := range files {
				if keep[i] {
					out = append(out, e)
				}
			}
			return out, ctx.Err()
		},
		src:   r,
		cache: cache,
	}
	return resolveRefs(ctx, q, env)
}
