package resolve

import (
	"path"
	"sort"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/search/resolve/factrec"
)

var goLang = sync.OnceValue(func() *sitter.Language {
	if l := grammar.ForPath("x.go", nil); l != nil {
		return l.Sitter()
	}
	return nil
})

// Parse returns the facts of the Go source src; nil when it cannot be
// parsed in time.
func Parse(src []byte) *File {
	lang := goLang()
	return factrec.Parse(lang, src, func(root *sitter.Node) *File { return GoFacts(lang, root, src) })
}

// IsGo reports whether the resolver reads the file at p: a .go file.
func IsGo(p string) bool { return strings.HasSuffix(p, ".go") }

// Files is a Source over a list of project files read by a function,
// each Go file parsed when first needed; for a search without an index.
type Files struct {
	read  func(p string) ([]byte, error)
	dirs  map[string][]string
	mu    sync.Mutex
	facts map[string]*File
}

// NewFiles returns the Source of the files paths (the project's, any
// kind: the Go files and go.mod files are kept), read by read.
func NewFiles(paths []string, read func(p string) ([]byte, error)) *Files {
	s := &Files{read: read, dirs: map[string][]string{}, facts: map[string]*File{}}
	for _, p := range paths {
		if IsGo(p) || path.Base(p) == "go.mod" {
			d := dirOf(p)
			s.dirs[d] = append(s.dirs[d], p)
		}
	}
	for _, fs := range s.dirs {
		sort.Strings(fs)
	}
	return s
}

// Facts parses the Go file p once.
func (s *Files) Facts(p string) *File {
	if !IsGo(p) {
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

// GoDirs lists the Go files (and go.mod files) by folder.
func (s *Files) GoDirs() map[string][]string { return s.dirs }

// ReadFile reads p.
func (s *Files) ReadFile(p string) ([]byte, error) { return s.read(p) }
