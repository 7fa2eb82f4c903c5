package index

import (
	"time"

	"github.com/zumba-dev/zumba/internal/diskcache"
)

// The index's disk cache (package internal/diskcache) is in two parts:
// the store, shared by every project and process, holds each file's
// records by its content (index_store.go); the project's snapshot lists
// its files with their stat and their records' key in the store. A
// record is only ever taken by its stat for a file whose size,
// modification time, inode and status change time still match, and never
// for a file modified so close to the time it was read that a later write
// could hide behind the same time stamp (see [filestat.RacyWindow]); else
// it is taken by the hash of the file's bytes. Files that could not be
// read, whose parse failed or is not done yet are not saved; the postings
// are made again from the records at a restart.

// CacheProducer names the build of zumba whose disk cache the index reads
// and writes (diskcache.Producer). TestIndexTree may name another, so that
// test binaries of the same formats share a large project's cache.
var CacheProducer = diskcache.Producer

// saveRec is what a save takes of a record under the index's lock.
type saveRec struct {
	id        uint32
	file      diskcache.File
	generated bool
	recs      records
	// store: the store has no entry for its key yet.
	store bool
	// racy: the file was modified too close to when it was read for its
	// stat to vouch for its bytes: stored, but left out of the snapshot.
	racy bool
}

// saveLocked writes the disk cache if the index changed since it was
// last saved or loaded: the entries the store lacks, in a new pack, then
// the project's snapshot, and with image the project's image
// (index_image.go) when it changed since the last. The caller holds
// saveMu. The postings are merged first, so that the files' words can
// be read from their base outside the lock.
func (ix *Index) saveLocked(image bool) {
	if ix.cacheFile == "" {
		return
	}
	ix.Mu.Lock()
	image = image && !ix.noImage
	if ix.gen == ix.savedGen && (!image || ix.gen == ix.imageGen) {
		ix.Mu.Unlock()
		return
	}
	ix.MergeLocked(true)
	gen := ix.gen
	var st *imageState
	if image && ix.gen != ix.imageGen {
		st = ix.imageStateLocked()
	}
	strs := ix.Words.View()
	words := ix.WordPost.base()
	// The files read since the base was made, when a root sharing its
	// blocks kept them in the overlay (postings.keep).
	var fresh map[uint32][]uint32
	if ix.wordBase < uint32(len(ix.Files)) {
		fresh = ix.WordPost.overlayKeys()
	}
	recs := ix.saveRecsLocked(uint32(len(ix.Files)))
	wordBase := ix.wordBase
	ix.Mu.Unlock()
	written := time.Now().UnixNano()
	if err := ix.storeEntries(recs, strs, &words, wordBase, fresh); err != nil {
		ix.Logf("save cache: %v", err)
	}
	s := &diskcache.Snapshot{Written: written, Files: make([]diskcache.File, 0, len(recs))}
	for i := range recs {
		if !recs[i].store && !recs[i].racy {
			s.Files = append(s.Files, recs[i].file)
		}
	}
	b, err := diskcache.Encode(ix.proj.Real, CacheProducer(), s)
	if err == nil {
		err = diskcache.WriteAtomic(ix.cacheFile, b)
	}
	if err != nil {
		ix.Logf("save cache %s: %v", ix.cacheFile, err)
		return
	}
	ix.Mu.Lock()
	ix.savedGen = max(ix.savedGen, gen)
	ix.Mu.Unlock()
	if st == nil {
		return
	}
	if err := ix.writeImage(st, written); err != nil {
		ix.Logf("%v", err)
		return
	}
	diskcache.PruneImages(ix.imageFile(), diskcache.MaxImages)
	ix.Mu.Lock()
	ix.imageGen = max(ix.imageGen, gen)
	ix.Mu.Unlock()
}

// saveRecsLocked takes the records a save keeps, of the files with an
// id below words (those whose words are in the word postings' base). The
// caller holds the index's lock.
func (ix *Index) saveRecsLocked(words uint32) []saveRec {
	var recs []saveRec
	for _, r := range ix.Files[:words] {
		if r == nil || r.Failed || !r.Parsed {
			continue
		}
		recs = append(recs, saveRec{
			id: r.ID, file: diskcache.File{Path: r.Path, Stat: r.Stat, Key: r.Key}, generated: r.Generated, recs: r.Recs,
			store: r.Key != (diskcache.Key{}) && (ix.store == nil || !ix.store.Has(r.Key)),
			// Saved under the snapshot's later time, a racy record would
			// look verified.
			racy: r.Ref != 0 && r.Stat.RacyAt(r.Ref),
		})
	}
	return recs
}

// storeEvery is how often the background parse of many files puts the
// records it parsed in the store, so that a server stopped before the
// end (or a second checkout indexed meanwhile) loses little of it.
const storeEvery = 30 * time.Second

// storeParsed puts in the store the records it lacks of the files whose
// words are in the word postings' base, unless a save is under way. It
// merges nothing: the base is read as it is.
func (ix *Index) storeParsed() {
	if ix.store == nil || !ix.saveMu.TryLock() {
		return
	}
	defer ix.saveMu.Unlock()
	ix.Mu.RLock()
	strs := ix.Words.View()
	words := ix.WordPost.base()
	recs := ix.saveRecsLocked(ix.wordBase)
	ix.Mu.RUnlock()
	if err := ix.storeEntries(recs, strs, &words, ix.wordBase, nil); err != nil {
		ix.Logf("store: %v", err)
	}
}

// storeChunk is how many files' words a save reads from the postings at
// once: each chunk is one pass over the postings, and its word lists are
// held until its entries are written.
const storeChunk = 16384

// storeEntries writes a pack of the entries of the records marked store,
// clearing the mark of each one written. The words of the files with an
// id below wordBase are read from the postings' base (words), the
// others' from fresh (by id: the word postings' overlay), their strings
// from strs.
func (ix *Index) storeEntries(recs []saveRec, strs *StrTable, words *Postings, wordBase uint32, fresh map[uint32][]uint32) error {
	var todo, later []int
	for i := range recs {
		switch {
		case !recs[i].store:
		case recs[i].id < wordBase:
			todo = append(todo, i)
		default:
			later = append(later, i)
		}
	}
	if len(todo)+len(later) == 0 || ix.store == nil {
		return nil
	}
	w, err := ix.store.NewPack()
	if err != nil {
		return err
	}
	add := func(r *saveRec, wids []uint32) bool {
		b, err := ix.encodeEntry(strs, wids, r.generated, r.recs)
		if err != nil {
			ix.Logf("store %s: %v", r.file.Path, err)
			return true
		}
		if w.Add(r.file.Key, b) != nil {
			return false
		}
		r.store = false
		return true
	}
	for _, i := range later {
		if !add(&recs[i], fresh[recs[i].id]) {
			break
		}
	}
	nkeys := words.NKeys
	var buf []uint32
	for from := 0; from < len(todo); from += storeChunk {
		chunk := todo[from:min(len(todo), from+storeChunk)]
		// The chunk's files by id: recs are in id order.
		lo, hi := recs[chunk[0]].id, recs[chunk[len(chunk)-1]].id
		at := make(map[uint32]int, len(chunk))
		for j, i := range chunk {
			at[recs[i].id] = j
		}
		wids := make([][]uint32, len(chunk))
		for k := range nkeys {
			buf = words.List(uint32(k), buf[:0])
			for _, f := range buf {
				if f < lo || f > hi {
					continue
				}
				if j, ok := at[f]; ok {
					wids[j] = append(wids[j], uint32(k))
				}
			}
		}
		for j, i := range chunk {
			if !add(&recs[i], wids[j]) {
				break
			}
		}
	}
	return w.Commit()
}
