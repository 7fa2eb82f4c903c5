package index

import (
	"sync"

	"github.com/zumba-dev/zumba/internal/diskcache"
	"github.com/zumba-dev/zumba/outline"
)

// aheadRecs are the records (one of each kind) of files
// a call parsed before the index had a record to put them in: a
// find_symbol call answered before the word index parses the files that
// may define its name, which the build would parse again. The build takes
// them instead, by the file's path and the key of its bytes (contentKey),
// so a record is only ever taken for the bytes it was made from; those
// left when the index is complete (their files changed since) are
// dropped.
type aheadRecs struct {
	mu sync.Mutex
	m  map[aheadKey]records
	// Taken counts the records the build took.
	Taken int
}

type aheadKey struct {
	path string
	key  diskcache.Key
}

// put makes the records of the file at path whose bytes are data and
// whose definitions are defs, for the build to take.
func (a *aheadRecs) put(ix *Index, path string, data []byte, defs []outline.Definition) {
	k := aheadKey{path, contentKey(path, data)}
	a.mu.Lock()
	_, have := a.m[k]
	a.mu.Unlock()
	if have {
		return
	}
	rec := ix.makeRecords(path, data, defs, nil)
	a.mu.Lock()
	if a.m == nil {
		a.m = map[aheadKey]records{}
	}
	a.m[k] = rec
	a.mu.Unlock()
}

// take returns and forgets the records of the file at path with the
// bytes of key.
func (a *aheadRecs) take(path string, key diskcache.Key) (records, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	k := aheadKey{path, key}
	r, ok := a.m[k]
	if ok {
		delete(a.m, k)
		a.Taken++
	}
	return r, ok
}

// drop forgets every record left.
func (a *aheadRecs) drop() {
	a.mu.Lock()
	a.m = nil
	a.mu.Unlock()
}

// ParsedAhead hands the index the definitions defs a call parsed of the
// file at path, whose bytes are data, before the index had its records:
// the build takes them instead of parsing the file again.
func (ix *Index) ParsedAhead(path string, data []byte, defs []outline.Definition) {
	ix.Ahead.put(ix, path, data, defs)
}
