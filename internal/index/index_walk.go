package index

import (
	"encoding/binary"
	"sync"
	"sync/atomic"

	"github.com/zumba-dev/zumba/internal/project"
)

// The build's walk and its word pass as it goes, for the calls answered
// before the word index (index_cold.go).

// buildWalk is the list of files the build's walk made, for the calls
// answered before the word index.
type buildWalk struct {
	once  sync.Once
	done  chan struct{}
	Files []project.Entry
	OK    bool
}

// wait is closed once the walk has ended (see Set).
func (b *buildWalk) wait() chan struct{} {
	b.once.Do(func() { b.done = make(chan struct{}) })
	return b.done
}

// Set is called once, when the walk ends (ok: it was not stopped).
func (b *buildWalk) Set(files []project.Entry, ok bool) {
	b.Files, b.OK = files, ok
	close(b.wait())
}

// WordPass is the build's word pass as it goes: for each file of the
// build's walk, once done is set, its record and its words (packed
// ids, packIDs). The worker that reads a file fills both before it sets
// done; a call reads them only after.
type WordPass struct {
	files []project.Entry
	recs  []*FileRec
	words [][]byte
	done  []atomic.Bool
}

// Covered returns the word pass's record of the walk's file i and its
// words, when the pass has read it (and could).
func (p *WordPass) Covered(i int32) (r *FileRec, words []byte, ok bool) {
	if p == nil || i < 0 || int(i) >= len(p.done) || !p.done[i].Load() {
		return nil, nil, false
	}
	r = p.recs[i]
	if r == nil || r.Failed {
		return nil, nil, false
	}
	return r, p.words[i], true
}

// CoveredCount counts the files the word pass has read.
func (p *WordPass) CoveredCount() int {
	if p == nil {
		return 0
	}
	n := 0
	for i := range p.done {
		if p.done[i].Load() {
			n++
		}
	}
	return n
}

// dropWalk forgets the build's walk and the word pass's lists once the
// word index answers (on the Linux kernel the walk's entries hold 10 MB).
func (ix *Index) dropWalk() {
	ix.syncMu.Lock()
	ix.Walk.Files = nil
	ix.Pass.Store(nil)
	ix.syncMu.Unlock()
	ix.WordsDone()
}

// PackedHolds reports whether the packed ids (packIDs: sorted uvarint
// deltas) hold every one of ids (sorted, without repeats).
func PackedHolds(packed []byte, ids []uint32) bool {
	if len(ids) == 0 {
		return true
	}
	var id uint64
	for len(packed) > 0 {
		d, n := binary.Uvarint(packed)
		if n <= 0 {
			return false
		}
		packed = packed[n:]
		id += d
		switch {
		case uint32(id) < ids[0]:
		case uint32(id) == ids[0]:
			ids = ids[1:]
			if len(ids) == 0 {
				return true
			}
		default:
			return false
		}
	}
	return false
}

// PackedHoldsAny reports whether the packed ids hold one of ids (sorted).
func PackedHoldsAny(packed []byte, ids []uint32) bool {
	var id uint64
	for len(packed) > 0 && len(ids) > 0 {
		d, n := binary.Uvarint(packed)
		if n <= 0 {
			return false
		}
		packed = packed[n:]
		id += d
		for len(ids) > 0 && ids[0] < uint32(id) {
			ids = ids[1:]
		}
		if len(ids) > 0 && ids[0] == uint32(id) {
			return true
		}
	}
	return false
}
