package search

import (
	"sync"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/resolve"
	"github.com/zumba-dev/zumba/search/resolve/tsjs"
)

// TypeScript's and JavaScript's row of resolvedLangs: the resolver of
// package search/resolve/tsjs over the index's records of kindTSFacts,
// or over files read afresh.

// tsOfIndex is the TypeScript/JavaScript resolver over the index.
func tsOfIndex(ix *Index) resolve.Lang {
	return tsjs.NewResolver(&indexTSFacts{ix: ix, parsed: map[string]*tsjs.File{}})
}

// tsOfFiles is the TypeScript/JavaScript resolver over files read
// afresh.
func tsOfFiles(paths []string, read func(p string) ([]byte, error)) (resolve.Lang, func(p string)) {
	src := tsjs.NewFiles(paths, read)
	return tsjs.NewResolver(src), func(p string) { src.Facts(p) }
}

// indexTSFacts is the TypeScript/JavaScript resolver's source over the
// index's records. A file the index keeps no record of (one without
// definitions: an index.ts of re-exports; one not parsed yet) is
// parsed here once, for the resolver's generation.
type indexTSFacts struct {
	ix     *Index
	mu     sync.Mutex
	parsed map[string]*tsjs.File
}

// Facts decodes the file's record of kindTSFacts, or parses the file.
func (s *indexTSFacts) Facts(p string) *tsjs.File {
	s.ix.Mu.RLock()
	var rec []byte
	live := false
	if r := s.ix.ByPath[p]; r != nil && !r.Dead {
		live = true
		if r.Parsed {
			rec = r.Recs.Get(kindTSFacts)
		}
	}
	s.ix.Mu.RUnlock()
	if rec != nil {
		// The view taken after the record: it covers the record's ids.
		if f, err := tsjs.DecodeIn(rec, s.ix.Words.View()); err == nil {
			return f
		}
	}
	if !live || !tsjs.Reads(p) {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.parsed[p]; ok {
		return f
	}
	var f *tsjs.File
	if data, _, err := s.ix.root.ReadFile(p, project.MaxFileSize); err == nil {
		f = tsjs.Parse(p, data)
	}
	s.parsed[p] = f
	return f
}

// Exists reports whether the index holds a live file at p.
func (s *indexTSFacts) Exists(p string) bool {
	s.ix.Mu.RLock()
	defer s.ix.Mu.RUnlock()
	r := s.ix.ByPath[p]
	return r != nil && !r.Dead
}
