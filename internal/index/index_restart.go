package index

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/zumba-dev/zumba/internal/diskcache"
	"github.com/zumba-dev/zumba/internal/filestat"
	"github.com/zumba-dev/zumba/internal/project"
)

// A restart from the project's image (index_image.go): the image read
// while the project is walked, then taken whole, and the files changed
// since read as the snapshot and the store allow.

// loadedImage is an image read, before the index takes it (installImage).
type loadedImage struct {
	written int64
	// files are the records by id; nil for none.
	files []*FileRec
	posts []loadedPostings
}

// loadedPostings is a postings' base as read: its blocks in all, block b
// at all[bounds[b]:bounds[b+1]].
type loadedPostings struct {
	nkeys  int
	all    []byte
	bounds []int
}

// imageMeta is the meta section, decoded.
type imageMeta struct {
	nstrs      int
	used, long []int
	nfiles     int
	nkeys      []int
	blocks     [][]int
}

var errBadImage = errors.New("bad image")

func readImageMeta(b []byte) (*imageMeta, error) {
	r := diskcache.NewReader(b)
	m := &imageMeta{nstrs: int(r.Uvarint())}
	m.used = readUvarints(r)
	m.long = readUvarints(r)
	m.nfiles = int(r.Uvarint())
	np := r.Count()
	for range np {
		m.nkeys = append(m.nkeys, int(r.Uvarint()))
		m.blocks = append(m.blocks, readUvarints(r))
	}
	if r.Err() != nil || !r.Done() {
		return nil, errBadImage
	}
	return m, nil
}

func readUvarints(r *diskcache.Reader) []int {
	n := r.Count()
	out := make([]int, 0, n)
	for range n {
		out = append(out, int(r.Uvarint()))
	}
	return out
}

// loadImage reads the project's image, when there is one the index can
// take: its strings become the vocab, which must be empty (the first
// index of the process; another's strings would number them otherwise).
// nil when there is none or it cannot be used (logged). It is only
// read beside a snapshot, which says which of its records hold.
func (ix *Index) loadImage() *loadedImage {
	im, err := diskcache.OpenImage(ix.imageFile(), ix.proj.Real, CacheProducer())
	if err != nil {
		ix.Logf("%v", err)
	}
	if im == nil {
		return nil
	}
	defer im.Close()
	img, err := ix.readImage(im)
	if err != nil {
		ix.Logf("image %s not used: %v", ix.imageFile(), err)
		return nil
	}
	return img
}

func (ix *Index) readImage(im *diskcache.Image) (*loadedImage, error) {
	b, err := im.Section(imgMeta)
	if err != nil {
		return nil, err
	}
	m, err := readImageMeta(b)
	if err != nil {
		return nil, err
	}
	if len(m.nkeys) != 1+len(ix.kinds) || im.Sections() != imgPostings+len(m.nkeys) {
		return nil, fmt.Errorf("%w: %d postings for %d kinds", errBadImage, len(m.nkeys), len(ix.kinds))
	}
	for _, n := range m.nkeys {
		if n > m.nstrs {
			return nil, errBadImage
		}
	}
	if m.nstrs > im.Len(imgLengths) || m.nfiles > im.Len(imgFiles) {
		return nil, errBadImage
	}
	var verr error
	adopted := ix.Words.adopt(func() *Vocab {
		v, err := loadVocab(im, m)
		verr = err
		return v
	})
	switch {
	case verr != nil:
		return nil, verr
	case !adopted:
		return nil, errors.New("the process's strings are in use")
	}
	img := &loadedImage{written: im.Written}
	if img.files, err = ix.readImageFiles(im, m.nfiles); err != nil {
		return nil, err
	}
	for p, n := range m.nkeys {
		lp := loadedPostings{nkeys: n, bounds: make([]int, 1, len(m.blocks[p])+1)}
		for _, l := range m.blocks[p] {
			lp.bounds = append(lp.bounds, lp.bounds[len(lp.bounds)-1]+l)
		}
		if len(lp.bounds)-1 != (n+blockKeys-1)/blockKeys {
			return nil, errBadImage
		}
		if lp.all, err = im.Section(imgPostings + p); err != nil {
			return nil, err
		}
		if len(lp.all) != lp.bounds[len(lp.bounds)-1] {
			return nil, errBadImage
		}
		img.posts = append(img.posts, lp)
	}
	return img, nil
}

// loadVocab reads the image's strings into a new vocab.
func loadVocab(im *diskcache.Image, m *imageMeta) (*Vocab, error) {
	v := NewVocab()
	sr := im.Reader(imgStrings)
	for _, n := range m.used {
		c := make([]byte, n)
		sr.ReadFull(c)
		v.Chunks = append(v.Chunks, c)
	}
	for _, n := range m.long {
		s := make([]byte, n)
		sr.ReadFull(s)
		v.long = append(v.long, string(s))
	}
	if err := sr.Check(); err != nil {
		return nil, err
	}
	b, err := im.Section(imgLengths)
	if err != nil {
		return nil, err
	}
	// Each string's reference, from its length and its chunk: every
	// one within its chunk, each chunk's strings filling it, so that no
	// damage the checksums missed can make a string point outside.
	r := diskcache.NewReader(b)
	fill := make([]int, len(v.Chunks))
	chunk, long := -1, 0
	for id := range m.nstrs {
		l := r.Uvarint()
		n := int(l >> 1)
		if l&1 != 0 {
			chunk = int(r.Uvarint())
		}
		var ref uint64
		switch {
		case r.Err() != nil:
			return nil, errBadImage
		case n >= refLong:
			if long >= len(v.long) || len(v.long[long]) != n {
				return nil, errBadImage
			}
			ref = makeRef(long, 0, refLong)
			long++
		case n > 0:
			if chunk < 0 || chunk >= len(fill) || fill[chunk]+n > len(v.Chunks[chunk]) {
				return nil, errBadImage
			}
			ref = makeRef(chunk, fill[chunk], n)
			fill[chunk] += n
		}
		if id>>RefPageBits == len(v.Pages) {
			v.Pages = append(v.Pages, new(refPage))
		}
		v.setRef(uint32(id), ref)
	}
	if !r.Done() || long != len(v.long) {
		return nil, errBadImage
	}
	for c, n := range fill {
		if n != len(v.Chunks[c]) {
			return nil, errBadImage
		}
	}
	v.N = m.nstrs
	size := len(v.table)
	for size < 2*v.N+2 {
		size *= 2
	}
	v.grow(size)
	return v, nil
}

// readImageFiles reads the files and their records: the records section
// a part at a time, each file's records laid in arenas (as
// compactRecords lays them), those of the spilled kinds spilled.
func (ix *Index) readImageFiles(im *diskcache.Image, nfiles int) ([]*FileRec, error) {
	b, err := im.Section(imgFiles)
	if err != nil {
		return nil, err
	}
	rr := &recordsReader{sr: im.Reader(imgRecords), left: im.Len(imgRecords)}
	var arena recArena
	var scratch [][]byte
	files := make([]*FileRec, nfiles)
	recs := make([]FileRec, 0, nfiles)
	r := diskcache.NewReader(b)
	var path []byte
	var prevM, prevC int64
	for i := range files {
		flags := r.Byte()
		if flags == 0 {
			continue
		}
		shared := r.Uvarint()
		rest := r.Bytes()
		if r.Err() != nil || shared > uint64(len(path)) {
			return nil, errBadImage
		}
		path = append(path[:shared], rest...)
		st := filestat.Stat{Size: int64(r.Uvarint()), MTime: prevM + r.Varint(), Inode: r.Uvarint(), CTime: prevC + r.Varint()}
		prevM, prevC = st.MTime, st.CTime
		var key diskcache.Key
		if k := r.Rest(); len(k) >= len(key) {
			copy(key[:], k)
			r.Skip(len(key))
		} else {
			return nil, errBadImage
		}
		tier := r.Byte()
		n := r.Uvarint()
		if r.Err() != nil || n > uint64(rr.left) {
			return nil, errBadImage
		}
		raw, err := rr.next(int(n))
		if err != nil {
			return nil, err
		}
		var fr records
		fr, scratch = ix.spillPacked(raw, scratch)
		recs = append(recs, FileRec{
			Path: string(path), ID: uint32(i), Stat: st, Key: key, Parsed: true, FromStore: true, packed: true,
			Generated: flags&2 != 0, Tier: tier, Recs: arena.put(fr),
		})
		files[i] = &recs[len(recs)-1]
	}
	if r.Err() != nil || !r.Done() || rr.left != 0 || rr.at != len(rr.buf) {
		return nil, errBadImage
	}
	if err := rr.sr.Check(); err != nil {
		return nil, err
	}
	return files, nil
}

// recordsReader hands out the image's records section a file's records
// at a time, reading it in parts of recordsPart bytes.
type recordsReader struct {
	sr *diskcache.SectionReader
	// buf[at:] is read and not handed out yet; left is how much of the
	// section is still to be handed out.
	buf      []byte
	at, left int
}

const recordsPart = 1 << 20

// next returns the next n bytes, valid until the next call.
func (r *recordsReader) next(n int) ([]byte, error) {
	if n > r.left {
		return nil, errBadImage
	}
	if len(r.buf)-r.at < n {
		rest := copy(r.buf, r.buf[r.at:])
		if want := max(n, recordsPart); cap(r.buf) < want {
			r.buf = append(make([]byte, 0, want), r.buf[:rest]...)
		}
		more := min(cap(r.buf), rest+r.sr.Left()) - rest
		r.buf, r.at = r.buf[:rest+more], 0
		if err := r.sr.ReadFull(r.buf[rest:]); err != nil {
			return nil, err
		}
	}
	b := r.buf[r.at : r.at+n : r.at+n]
	r.at += n
	r.left -= n
	return b, nil
}

// recArena lays records end to end in arenas of compactChunk bytes (one
// over an eighth of it in memory of its own).
type recArena struct{ cur []byte }

// put returns b copied into the arena; nil for none.
func (a *recArena) put(b []byte) records {
	switch {
	case len(b) == 0:
		return nil
	case len(b) > compactChunk/8:
		return records(bytes.Clone(b))
	case cap(a.cur)-len(a.cur) < len(b):
		a.cur = make([]byte, 0, compactChunk)
	}
	a.cur = append(a.cur, b...)
	return records(a.cur[len(a.cur)-len(b) : len(a.cur) : len(a.cur)])
}

// readWordsImage is readWords from the image img, checked against the
// snapshot snap: the image's record of a file is taken when the
// snapshot has the file as it is (its stat unchanged, as readWords
// requires) under the key of the image's record, under the id and in
// the postings the image gives it; the other files are taken from the
// store by the snapshot's key or read, as readWords does, and added as
// a sync adds them; the image's records of files gone or changed are
// dropped.
func (ix *Index) readWordsImage(ctx context.Context, files []project.Entry, snap *diskcache.Snapshot, img *loadedImage) {
	known := make(map[string]*diskcache.File, len(snap.Files))
	for i := range snap.Files {
		known[snap.Files[i].Path] = &snap.Files[i]
	}
	ix.Mu.Lock()
	nils := 0
	for _, r := range img.files {
		if r == nil {
			ix.Files = append(ix.Files, nil)
			ix.Tiers = append(ix.Tiers, 0)
			nils++
			continue
		}
		r.ID = uint32(len(ix.Files))
		if ix.opts.Shared != nil {
			r.shared, r.Recs = ShareRecords(r.Recs)
		}
		ix.Files = append(ix.Files, r)
		ix.Tiers = append(ix.Tiers, r.Tier)
		ix.ByPath[r.Path] = r
		ix.Live++
		ix.Cached++
		ix.countLocked(r, 1)
	}
	ix.WordPost.setBlocks(img.posts[0].nkeys, img.posts[0].all, img.posts[0].bounds)
	for k := range ix.KindPost {
		p := img.posts[1+k]
		ix.KindPost[k].setBlocks(p.nkeys, p.all, p.bounds)
		// The ids without a record may be in the postings: dropped at
		// a merge.
		ix.deadKind[k] += nils
	}
	ix.deadWords += nils
	ix.wordBase = uint32(len(ix.Files))
	keep := make([]bool, len(ix.Files))
	var todo []project.Entry
	for _, e := range files {
		r, f := ix.ByPath[e.Path], known[e.Path]
		if r != nil && f != nil && f.Key == r.Key && e.Stat().Unchanged(f.Stat, snap.Written) {
			keep[r.ID] = true
			r.Stat = f.Stat
			continue
		}
		todo = append(todo, e)
	}
	killed := 0
	for id, r := range ix.Files {
		if r != nil && !keep[id] {
			ix.killLocked(r)
			ix.Cached--
			killed++
		}
	}
	ix.gen++
	ix.filesGen++
	ix.Mu.Unlock()
	ix.loadChanged(ctx, todo, known, snap.Written)
	ix.Mu.Lock()
	defer ix.Mu.Unlock()
	ix.MergeLocked(false)
	if len(todo) == 0 && killed == 0 && len(known) == len(files) {
		// Nothing changed: the cache holds this index already.
		ix.savedGen, ix.imageGen = ix.gen, ix.gen
	}
}

// loadChanged reads the files todo, not in the image as they are now:
// from the store by the snapshot's key when the snapshot (known, written
// at written) has the file as it is, else from the file, as readWords
// does.
func (ix *Index) loadChanged(ctx context.Context, todo []project.Entry, known map[string]*diskcache.File, written int64) {
	if len(todo) == 0 {
		return
	}
	ix.parallel(ctx, len(todo), workers(), buildWork, func(i int, sc *project.Scratch) {
		e := todo[i]
		es := entryScratches.Get().(*entryScratch)
		defer entryScratches.Put(es)
		var r *FileRec
		var wids []uint32
		if f := known[e.Path]; f != nil && e.Stat().Unchanged(f.Stat, written) {
			r, wids = ix.fromStore(e, f.Key, 0, es)
		}
		if r == nil {
			r, wids = ix.read(e, sc, es)
		}
		ix.Mu.Lock()
		ix.installLocked(r, wids)
		if r.FromStore {
			ix.Cached++
		}
		ix.Mu.Unlock()
	})
}
