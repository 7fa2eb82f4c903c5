package index

import (
	"sync"

	"github.com/zumba-dev/zumba/internal/diskcache"
)

// A project often holds the same bytes at several paths: vendored
// copies, generated files, several checkouts or worktrees under one
// folder. Their records differ only in what each kind adds for the path
// (the store keeps them without it, see index_store.go), so a background
// parse parses each content key once and makes the records of its
// copies from the first one's, as the store would give them to a second
// checkout (three copies of the Linux tree under one folder parse one
// tree's files, not three's).

// copySource is the first record parsed of each content key during one
// background parse; it lives as long as the parse.
type copySource struct {
	mu    sync.Mutex
	first map[diskcache.Key]*FileRec
	// made counts the records made as copies.
	made int
}

// add makes r, just parsed, the source of its key's copies if the key
// has none yet.
func (c *copySource) add(r *FileRec) {
	if r.Key == (diskcache.Key{}) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.first == nil {
		c.first = map[diskcache.Key]*FileRec{}
	}
	if _, dup := c.first[r.Key]; !dup {
		c.first[r.Key] = r
	}
}

func (c *copySource) get(k diskcache.Key) *FileRec {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.first[k]
}

// parseCopy gives r the records of the parsed file of the same content
// key in c, through the store's entry form (so that each kind adds back
// what r's path needs). It reports whether it did; false when c has no
// such file, or the round trip failed (then r is parsed as any file).
func (ix *Index) parseCopy(r *FileRec, c *copySource) bool {
	if r.Key == (diskcache.Key{}) {
		return false
	}
	src := c.get(r.Key)
	if src == nil {
		return false
	}
	ix.Mu.RLock()
	ok := src.Parsed && !src.Dead && !r.Dead && !r.Parsed
	recs, generated := src.Recs, src.Generated
	strs := ix.Words.View()
	ix.Mu.RUnlock()
	if !ok {
		return false
	}
	b, err := ix.encodeEntry(strs, nil, generated, recs)
	if err != nil {
		return false
	}
	es := entryScratches.Get().(*entryScratch)
	defer entryScratches.Put(es)
	s, err := ix.decodeEntryWith(b, r.Path, es)
	if err != nil {
		ix.Logf("copy of %s at %s: %v", src.Path, r.Path, err)
		return false
	}
	if !ix.setParsed(r, s.Recs) {
		return false
	}
	c.mu.Lock()
	c.made++
	c.mu.Unlock()
	return true
}

// log says how many records were made as copies, if any.
func (c *copySource) log(ix *Index) {
	if c.made > 0 {
		ix.Logf("%d files were copies of others: parsed once", c.made)
	}
}
