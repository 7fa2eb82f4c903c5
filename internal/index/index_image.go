package index

import (
	"encoding/binary"
	"fmt"
	"path/filepath"

	"github.com/zumba-dev/zumba/internal/diskcache"
	"github.com/zumba-dev/zumba/internal/filestat"
)

// The project's image is the whole index as the save at its completion
// found it: the vocab, every file's records and the postings, in their
// memory layout, so that a restart reads them in a few large reads
// instead of decoding each file's entry of the store, interning its
// strings and re-encoding its records one file at a time (on the Linux
// kernel 86,000 entries, most of a restart's 8 s). Its container is
// diskcache's (image.go); its sections, all numbers uvarints unless
// marked:
//
//	meta      the strings, the chunks and each chunk's length, the long
//	          strings and each one's length, the file ids, the postings
//	          (the words', then each kind's) and per postings its keys,
//	          its blocks and each block's length
//	lengths   per string, in id order: its length shifted left by one,
//	          the low bit set when it is not in the chunk of the string
//	          before, then the index of its chunk (a string of its own
//	          chunk, or the first in a chunk); a long string (of
//	          refLong bytes or more) is in no chunk. A chunk's strings
//	          lie in it end to end in id order, as the vocab adds them.
//	strings   each chunk's bytes as far as its strings go, then the long
//	          strings
//	files     per file id: a flags byte (0: no file; else 1, | 2 when
//	          generated), then the path (the bytes it shares with the
//	          path before, then the rest as a string), size, mtime
//	          (varint, less the file before's), inode, ctime (varint,
//	          less the file before's), key (16 bytes), tier, and the
//	          length of its records
//	records   each file's records (index_kind.go), end to end
//	postings  one section per postings: its blocks, end to end
//
// The ids are the index's own at the save: the postings name them. A
// restart takes the image's record of each file whose stat is unchanged
// since the image was written (the rule of the snapshot, see
// index_cache.go), reads the others as the snapshot and the store allow,
// and drops the image's records of files gone. It is written only when
// the index is complete with its postings merged, and only at the
// index's completion and at its close: between the two, the snapshot
// (cheap to write) names the files changed since, whose records a
// restart takes from the store.
const (
	imgMeta = iota
	imgLengths
	imgStrings
	imgFiles
	imgRecords
	imgPostings
)

// imageFile is what the image keeps of a file; path "" for none.
type imageFile struct {
	path      string
	stat      filestat.Stat
	key       diskcache.Key
	generated bool
	tier      uint8
	// recs are the file's records as the index keeps them, size their
	// length as the image keeps them (the spilled records in them, see
	// index_spill.go).
	recs records
	size int
}

// imageState is what a save takes under the index's lock to write the
// image: the strings, the files by id, the postings' bases.
type imageState struct {
	strs  *StrTable
	files []imageFile
	posts []Postings
}

// imageStateLocked takes the image's state, or nil when the index is
// not as an image needs it: every file parsed, every postings merged.
// The caller holds ix.Mu.
func (ix *Index) imageStateLocked() *imageState {
	if ix.wordBase != uint32(len(ix.Files)) || ix.WordPost.Overlay() > 0 || !ix.AllParsedLocked() {
		return nil
	}
	st := &imageState{strs: ix.Words.View(), files: make([]imageFile, len(ix.Files)), posts: []Postings{ix.WordPost.base()}}
	for k := range ix.KindPost {
		if ix.KindPost[k].Overlay() > 0 {
			return nil
		}
		st.posts = append(st.posts, ix.KindPost[k].base())
	}
	for i, r := range ix.Files {
		// A racy file's stat does not vouch for its record (see
		// saveRec.racy): the next start reads it again.
		if r == nil || r.Dead || r.Failed || !r.Parsed || r.Ref != 0 && r.Stat.RacyAt(r.Ref) {
			continue
		}
		st.files[i] = imageFile{path: r.Path, stat: r.Stat, key: r.Key, generated: r.Generated, tier: r.Tier, recs: r.Recs}
	}
	return st
}

// imageFile is the image's file beside the snapshot file.
func (ix *Index) imageFile() string {
	return filepath.Join(filepath.Dir(ix.cacheFile), diskcache.ImageName)
}

// writeImage writes the image of st, taken at written (Unix ns).
func (ix *Index) writeImage(st *imageState, written int64) error {
	for i := range st.files {
		n, err := ix.unspilledLen(st.files[i].recs)
		if err != nil {
			return fmt.Errorf("save image: %s: %w", st.files[i].path, err)
		}
		st.files[i].size = n
	}
	w, err := diskcache.NewImage(ix.imageFile(), ix.proj.Real, CacheProducer(), written)
	if err != nil {
		return err
	}
	used, long := st.strs.extents()
	meta := binary.AppendUvarint(nil, uint64(st.strs.N))
	meta = appendUvarints(meta, used)
	meta = appendUvarints(meta, long)
	meta = binary.AppendUvarint(meta, uint64(len(st.files)))
	meta = binary.AppendUvarint(meta, uint64(len(st.posts)))
	for _, p := range st.posts {
		meta = binary.AppendUvarint(meta, uint64(p.NKeys))
		meta = binary.AppendUvarint(meta, uint64(len(p.Blocks)))
		for _, b := range p.Blocks {
			meta = binary.AppendUvarint(meta, uint64(len(b)))
		}
	}
	w.Write(meta)
	w.End()
	var buf []byte
	chunk := ^uint64(0)
	for id := range st.strs.N {
		r := st.strs.ref(uint32(id))
		n, c := r&refMask, r>>(2*refBits)
		switch {
		case n == refLong:
			buf = binary.AppendUvarint(buf, uint64(len(st.strs.long[c]))<<1)
		case n == 0 || c == chunk:
			buf = binary.AppendUvarint(buf, n<<1)
		default:
			buf = binary.AppendUvarint(binary.AppendUvarint(buf, n<<1|1), c)
			chunk = c
		}
		if len(buf) >= 1<<16 {
			w.Write(buf)
			buf = buf[:0]
		}
	}
	w.Write(buf)
	w.End()
	for c, n := range used {
		w.Write(st.strs.Chunks[c][:n])
	}
	for _, s := range st.strs.long {
		w.Write([]byte(s))
	}
	w.End()
	w.Write(encodeImageFiles(st.files))
	w.End()
	for _, f := range st.files {
		out := []byte(f.recs)
		if ix.hasSpilled(f.recs) {
			if buf, err = ix.unspill(buf[:0], f.recs); err == nil && len(buf) != f.size {
				err = errBadSlot
			}
			if err != nil {
				w.Abort()
				return fmt.Errorf("save image: %s: %w", f.path, err)
			}
			out = buf
		}
		w.Write(out)
	}
	w.End()
	for _, p := range st.posts {
		for _, b := range p.Blocks {
			w.Write(b)
		}
		w.End()
	}
	return w.Commit()
}

func appendUvarints(b []byte, ns []int) []byte {
	b = binary.AppendUvarint(b, uint64(len(ns)))
	for _, n := range ns {
		b = binary.AppendUvarint(b, uint64(n))
	}
	return b
}

// extents returns how far each chunk's strings go, and each long
// string's length.
func (t *StrTable) extents() (used, long []int) {
	used = make([]int, len(t.Chunks))
	for id := range t.N {
		r := t.ref(uint32(id))
		n := int(r & refMask)
		if n == refLong || n == 0 {
			continue
		}
		c, end := r>>(2*refBits), int(r>>refBits)&refMask+n
		used[c] = max(used[c], end)
	}
	for _, s := range t.long {
		long = append(long, len(s))
	}
	return used, long
}

// encodeImageFiles lays out the files section.
func encodeImageFiles(files []imageFile) []byte {
	out := make([]byte, 0, 64*len(files))
	prev := ""
	var prevM, prevC int64
	for _, f := range files {
		if f.path == "" {
			out = append(out, 0)
			continue
		}
		flags := byte(1)
		if f.generated {
			flags |= 2
		}
		out = append(out, flags)
		n := 0
		for n < len(prev) && n < len(f.path) && prev[n] == f.path[n] {
			n++
		}
		out = binary.AppendUvarint(out, uint64(n))
		out = binary.AppendUvarint(out, uint64(len(f.path)-n))
		out = append(out, f.path[n:]...)
		prev = f.path
		out = binary.AppendUvarint(out, uint64(f.stat.Size))
		out = binary.AppendVarint(out, f.stat.MTime-prevM)
		out = binary.AppendUvarint(out, f.stat.Inode)
		out = binary.AppendVarint(out, f.stat.CTime-prevC)
		prevM, prevC = f.stat.MTime, f.stat.CTime
		out = append(out, f.key[:]...)
		out = append(out, f.tier)
		out = binary.AppendUvarint(out, uint64(f.size))
	}
	return out
}
