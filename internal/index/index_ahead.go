package index

import (
	"context"
	"sync"

	"github.com/zumba-dev/zumba/grammar"
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
// whose definitions are defs (the tree kinds' made from the parse's
// tree, fromTree), for the build to take.
func (a *aheadRecs) put(ix *Index, path string, data []byte, defs []outline.Definition, fromTree [][]byte) {
	k := aheadKey{path, contentKey(path, data)}
	a.mu.Lock()
	_, have := a.m[k]
	a.mu.Unlock()
	if have {
		return
	}
	rec := ix.makeRecords(path, data, defs, fromTree)
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

// ParseAhead parses the file at path, whose bytes are data, with lang's
// grammar, for a call answered before the index has its records: its
// definitions, and its records made from the same parse as the build
// makes them (the tree kinds' from its tree), which the build takes
// instead of parsing the file again. ok is false when the parse did not
// finish (ctx, or the parser's own time limit). Made from the
// definitions alone, the Go facts of each file a call parsed cost a
// second parse of their own (MakePlain): on the Go tree, polled by a
// find_symbol client during its word pass, 2,900 files parsed twice.
func (ix *Index) ParseAhead(ctx context.Context, path string, data []byte, lang *grammar.Language) (defs []outline.Definition, ok bool) {
	defs, fromTree, ok := ix.parseDefs(ctx, path, lang, data)
	if ok {
		ix.Ahead.put(ix, path, data, defs, fromTree)
	}
	return defs, ok
}
