package search

import (
	"time"

	"github.com/zumba-dev/zumba/internal/diskcache"
)

// The index's disk cache (package internal/diskcache) holds a snapshot of
// the whole index: its strings, its file records (stat, encoded
// definitions with their words for find_code, and whether the file says
// it is generated), and its two postings as they are in memory; the
// postings of find_code's words are made again from the records at a
// restart (restoreCode). A record is
// only ever used for a file whose size, modification time, inode and
// status change time still match, and never for a file modified so close
// to the time it was read that a later write could hide behind the same
// time stamp (see [filestat.RacyWindow]); files that could not be read, or
// whose parse failed, are not saved as empty.

// snapshot is the index as the disk cache holds it.
type snapshot struct {
	written int64
	strs    diskcache.Strings
	// files by id; nil for an id without a record.
	files          []*fileRec
	words, defines postings
}

// loadSnapshot reads the cache file, accepting it only if it was written
// for the project at root by producer (see [diskcache.Load]).
func loadSnapshot(file, root, producer string) (*snapshot, error) {
	s, err := diskcache.Load(file, root, producer)
	if s == nil || err != nil {
		return nil, err
	}
	return fromDisk(s), nil
}

// decodeSnapshot checks and decodes a cache file's bytes (see
// [diskcache.Decode]).
func decodeSnapshot(b []byte, root, producer string) (*snapshot, error) {
	s, err := diskcache.Decode(b, root, producer)
	if err != nil {
		return nil, err
	}
	return fromDisk(s), nil
}

// fromDisk makes the index's records of a decoded snapshot.
func fromDisk(s *diskcache.Snapshot) *snapshot {
	out := &snapshot{
		written: s.Written,
		strs:    s.Strings,
		files:   make([]*fileRec, len(s.Files)),
		words:   postings{off: s.Words.Off, data: s.Words.Data},
		defines: postings{off: s.Defines.Off, data: s.Defines.Data},
	}
	for i := range s.Files {
		f := &s.Files[i]
		if f.Path != "" {
			out.files[i] = &fileRec{path: f.Path, id: uint32(i), st: f.Stat, parsed: f.Parsed, defs: f.Defs, code: f.Code, generated: f.Generated}
		}
	}
	return out
}

// saveLocked writes the disk cache if the index changed since it was
// last saved or loaded. The caller holds saveMu. The postings are merged
// first, so the snapshot needs no overlay.
func (ix *Index) saveLocked() {
	if ix.cacheFile == "" {
		return
	}
	ix.mu.Lock()
	if ix.gen == ix.savedGen {
		ix.mu.Unlock()
		return
	}
	ix.mergeLocked(true)
	gen := ix.gen
	s := &diskcache.Snapshot{
		Strings: ix.words.view(),
		Files:   make([]diskcache.File, len(ix.files)),
		Words:   diskcache.Postings{Off: ix.wordPost.off, Data: ix.wordPost.data},
		Defines: diskcache.Postings{Off: ix.defines.off, Data: ix.defines.data},
	}
	for i, r := range ix.files {
		// A racy record would be re-read at the next start anyway, and
		// saved under a later time it would look verified.
		if r == nil || r.failed || r.ref != 0 && r.st.RacyAt(r.ref) {
			continue
		}
		c := &s.Files[i]
		c.Path, c.Stat, c.Generated = r.path, r.st, r.generated
		if r.parsed {
			c.Parsed, c.Defs, c.Code = true, r.defs, r.code
		}
	}
	ix.mu.Unlock()
	s.Written = time.Now().UnixNano()
	b, err := diskcache.Encode(ix.root.Real, diskcache.Producer(), s)
	if err == nil {
		err = diskcache.WriteAtomic(ix.cacheFile, b)
	}
	if err != nil {
		ix.logf("save cache %s: %v", ix.cacheFile, err)
		return
	}
	ix.mu.Lock()
	ix.savedGen = max(ix.savedGen, gen)
	ix.mu.Unlock()
}
