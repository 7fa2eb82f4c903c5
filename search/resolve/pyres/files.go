package pyres

import (
	"context"
	"sort"
	"sync"
	"time"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
	// Python's grammar is linked where the resolver is.
	_ "github.com/zumba-dev/zumba/grammar/langs"
)

// parseTimeout bounds one file's parse for its facts.
const parseTimeout = 2 * time.Second

var pyLang = sync.OnceValue(func() *sitter.Language {
	if l := grammar.ForPath("x.py", nil); l != nil {
		return l.Sitter()
	}
	return nil
})

var parsers = sync.Pool{New: func() any { return sitter.NewParser() }}

// Parse returns the facts of the Python source src; nil when it cannot
// be parsed in time.
func Parse(src []byte) *File {
	lang := pyLang()
	if lang == nil {
		return nil
	}
	p := parsers.Get().(*sitter.Parser)
	p.SetLanguage(lang)
	p.SetOperationLimit(int(parseTimeout.Microseconds()))
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		p.Close()
		return nil
	}
	parsers.Put(p)
	defer tree.Close()
	return Facts(tree.RootNode(), src)
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
