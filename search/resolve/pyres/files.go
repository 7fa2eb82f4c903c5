package pyres

import (
	"sort"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/search/resolve/factrec"
	// Python's grammar is linked where the resolver is.
	_ "github.com/zumba-dev/zumba/grammar/langs"
)

var pyLang = sync.OnceValue(func() *sitter.Language {
	if l := grammar.ForPath("x.py", nil); l != nil {
		return l.Sitter()
	}
	return nil
})

// Parse returns the facts of the Python source src; nil when it cannot
// be parsed in time.
func Parse(src []byte) *File {
	return factrec.Parse(pyLang(), src, func(root *sitter.Node) *File { return Facts(root, src) })
}

// Files is a Source over a list of project files read by a function,
// each Python file parsed when first needed; for a search without an
// index.
type Files struct {
	read  func(p string) ([]byte, error)
	files []string
	mu    sync.Mutex
	facts map[string]*File
}

// NewFiles returns the Source of the files paths (the project's, any
// kind: the Python files are kept), read by read.
func NewFiles(paths []string, read func(p string) ([]byte, error)) *Files {
	s := &Files{read: read, facts: map[string]*File{}}
	for _, p := range paths {
		if IsPython(p) {
			s.files = append(s.files, p)
		}
	}
	sort.Strings(s.files)
	return s
}

// Files lists the Python files.
func (s *Files) Files() []string { return s.files }

// Facts parses the Python file p once.
func (s *Files) Facts(p string) *File {
	if !IsPython(p) {
		return nil
	}
	s.mu.Lock()
	f, ok := s.facts[p]
	s.mu.Unlock()
	if ok {
		return f
	}
	data, err := s.read(p)
	if err == nil {
		// Kept as the index keeps it: decoded from its record.
		if parsed := Parse(data); parsed != nil {
			f, _ = Decode(Encode(parsed))
		}
	}
	s.mu.Lock()
	s.facts[p] = f
	s.mu.Unlock()
	return f
}
