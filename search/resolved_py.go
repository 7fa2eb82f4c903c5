package search

import (
	"slices"
	"sync"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/resolve"
	"github.com/zumba-dev/zumba/search/resolve/pyres"
)

// pyOfIndex is the Python resolver over the index's records of
// kindPyFacts.
func pyOfIndex(ix *Index) resolve.Lang {
	return pyres.NewResolver(&indexPyFacts{ix: ix, parsed: map[string]*pyres.File{}})
}

// pyOfFiles is the Python resolver over files read afresh.
func pyOfFiles(paths []string, read func(p string) ([]byte, error)) (resolve.Lang, func(p string)) {
	src := pyres.NewFiles(paths, read)
	return pyres.NewResolver(src), func(p string) { src.Facts(p) }
}

// indexPyFacts is the Python resolver's source over the index's records.
// A file the index keeps no record of (one without definitions: an
// __init__.py of imports; one not parsed yet) is parsed here once, for
// the resolver's generation.
type indexPyFacts struct {
	ix     *Index
	mu     sync.Mutex
	parsed map[string]*pyres.File
}

// Facts decodes the file's record of kindPyFacts, or parses the file.
func (s *indexPyFacts) Facts(p string) *pyres.File {
	s.ix.Mu.RLock()
	var rec []byte
	live := false
	if r := s.ix.ByPath[p]; r != nil && !r.Dead {
		live = true
		if r.Parsed {
			rec = r.Recs.Get(kindPyFacts)
		}
	}
	s.ix.Mu.RUnlock()
	if rec != nil {
		if f, err := pyres.DecodeIn(rec, s.ix.Words.View()); err == nil {
			return f
		}
	}
	if !live || !pyres.IsPython(p) {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.parsed[p]; ok {
		return f
	}
	var f *pyres.File
	if data, _, err := s.ix.root.ReadFile(p, project.MaxFileSize); err == nil {
		f = pyres.Parse(data)
	}
	s.parsed[p] = f
	return f
}

// Files lists the live Python files, sorted.
func (s *indexPyFacts) Files() []string {
	var out []string
	for _, fs := range s.ix.liveDirs(pyres.IsPython) {
		out = append(out, fs...)
	}
	slices.Sort(out)
	return out
}
