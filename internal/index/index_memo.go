package index

import "sync"

// An AnswerMemo keeps a search's last complete answer while the index is
// being built, for the same question asked again before any file has
// changed (issue 42: an agent retries a question every 50 ms while the
// index is built). A complete answer needed no file parsed that was not
// (the files that may hold it were all parsed), so the parses the build
// adds since change nothing in it; made again, it cost the kernel's
// build 0.7 s of a core each time (find_symbol ret's fallback, a walk of
// the names parsed since the word index), and the background parse
// waited while it was made. Once the index is complete, answers are made
// afresh (they are quick then) and the memo is dropped.
type AnswerMemo[T any] struct {
	mu  sync.Mutex
	key string
	gen uint64
	v   T
	ok  bool
}

// Get returns the answer kept for key, if the index is not complete and
// its files are as they were when the answer was made.
func (m *AnswerMemo[T]) Get(ix *Index, key string) (v T, ok bool) {
	complete, gen := ix.Complete(), ix.FilesGen()
	m.mu.Lock()
	defer m.mu.Unlock()
	if complete {
		m.drop()
	}
	if !m.ok || m.key != key || m.gen != gen {
		return v, false
	}
	return m.v, true
}

// Put keeps v, the complete answer to key made from the files at gen
// (FilesGen before the search began), unless the index is complete.
func (m *AnswerMemo[T]) Put(ix *Index, key string, gen uint64, v T) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if ix.Complete() {
		m.drop()
		return
	}
	m.key, m.gen, m.v, m.ok = key, gen, v, true
}

func (m *AnswerMemo[T]) drop() {
	var zero T
	m.key, m.v, m.ok = "", zero, false
}
