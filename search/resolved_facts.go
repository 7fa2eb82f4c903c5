package search

import (
	"slices"
	"sync"

	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
)

// langFacts is a resolver's source of a language's facts over the
// index's records of its kind (TypeScript's and JavaScript's, Python's;
// Go's resolver reads the index its own way). A file the index keeps no
// record of (one without definitions: an index.ts of re-exports, an
// __init__.py of imports; one not parsed yet) is parsed here once, for
// the resolver's generation.
type langFacts[F any] struct {
	ix   *Index
	kind int
	// reads reports whether the language reads the file at a path;
	// decode decodes a record of the index; parse reads a file's facts
	// from its bytes.
	reads  func(p string) bool
	decode func(rec []byte, strs *index.StrTable) (*F, error)
	parse  func(p string, data []byte) *F

	mu     sync.Mutex
	parsed map[string]*F
}

func newLangFacts[F any](ix *Index, kind int, reads func(string) bool, decode func([]byte, *index.StrTable) (*F, error), parse func(string, []byte) *F) *langFacts[F] {
	return &langFacts[F]{ix: ix, kind: kind, reads: reads, decode: decode, parse: parse, parsed: map[string]*F{}}
}

// Facts decodes the file's record of the kind, or parses the file (one
// without a record, or whose record cannot be read back).
func (s *langFacts[F]) Facts(p string) *F {
	s.ix.Mu.RLock()
	var rec []byte
	live := false
	if r := s.ix.ByPath[p]; r != nil && !r.Dead {
		live = true
		if r.Parsed {
			rec = r.Recs.Get(s.kind)
		}
	}
	s.ix.Mu.RUnlock()
	if rec != nil {
		// Read back from the spill file (index.SpillKind); the view
		// taken after the record covers its ids. A record damaged is
		// parsed again below.
		if rec, err := s.ix.Record(s.kind, rec); err == nil {
			s.ix.resolve.decoded.Add(int64(len(rec)))
			if f, err := s.decode(rec, s.ix.Words.View()); err == nil {
				return f
			}
		}
	}
	if !live || !s.reads(p) {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.parsed[p]; ok {
		return f
	}
	var f *F
	if data, _, err := s.ix.root.ReadFile(p, project.MaxFileSize); err == nil {
		f = s.parse(p, data)
	}
	s.parsed[p] = f
	return f
}

// Exists reports whether the index holds a live file at p.
func (s *langFacts[F]) Exists(p string) bool {
	s.ix.Mu.RLock()
	defer s.ix.Mu.RUnlock()
	r := s.ix.ByPath[p]
	return r != nil && !r.Dead
}

// Files lists the live files of the language, sorted.
func (s *langFacts[F]) Files() []string {
	var out []string
	for _, fs := range s.ix.liveDirs(s.reads) {
		out = append(out, fs...)
	}
	slices.Sort(out)
	return out
}
