package tsjs

import "sync"

// Files is a Source over a list of project files read by a function,
// each file parsed when first needed; for a search without an index.
type Files struct {
	read  func(p string) ([]byte, error)
	paths map[string]bool
	mu    sync.Mutex
	facts map[string]*File
}

// NewFiles returns the Source of the project's files paths, read by
// read.
func NewFiles(paths []string, read func(p string) ([]byte, error)) *Files {
	s := &Files{read: read, paths: map[string]bool{}, facts: map[string]*File{}}
	for _, p := range paths {
		if Reads(p) {
			s.paths[p] = true
		}
	}
	return s
}

// Exists reports whether p is one of the files.
func (s *Files) Exists(p string) bool { return s.paths[p] }

// Facts parses the file p once.
func (s *Files) Facts(p string) *File {
	if !s.paths[p] {
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
		f = Parse(p, data)
	}
	s.mu.Lock()
	s.facts[p] = f
	s.mu.Unlock()
	return f
}
