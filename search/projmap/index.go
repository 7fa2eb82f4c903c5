package projmap

import (
	"context"
	"encoding/binary"
	"math"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/diskcache"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/internal/defrec"
	"github.com/zumba-dev/zumba/search/internal/filetier"
)

// Index is what the map reads of a project's index: the engine (package
// internal/index), whose word postings count the uses of a name, with
// the definitions' kind of record (package search/internal/defrec) among
// its kinds, and the files, for the lines the map shows.
type Index struct {
	*index.Index
	// Src reads the files of the definitions shown.
	Src project.Source
	// DefsKind is the number of the definitions' kind of record, and
	// Defines its postings: the files defining each name.
	DefsKind int
	Defines  *index.Postings
}

// Answer makes the map of dir from the index, which has its word index
// and is in sync: the word index counts the uses, the definitions it
// keeps are ranked. The files not parsed yet are parsed first, those
// under dir before the others, until deadline, as find_symbol parses the
// files it needs; past it, the map is ranked from the files parsed and
// says so (Map.Building).
func (ix *Index) Answer(ctx context.Context, dir string, deadline time.Time) (*Map, error) {
	// The files under dir first, for their definitions; then the
	// others, for who defines each name.
	if !ix.AllParsed() {
		ix.Mu.RLock()
		var in, out []uint32
		for f, r := range ix.Files {
			switch {
			case r == nil || r.Parsed:
			case mapScope(dir, r.Path):
				in = append(in, uint32(f))
			default:
				out = append(out, uint32(f))
			}
		}
		ix.Mu.RUnlock()
		if ix.EnsureParsed(ctx, in, deadline) {
			ix.EnsureParsed(ctx, out, deadline)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	ix.Mu.RLock()
	defer ix.Mu.RUnlock()
	return ix.mapLocked(dir, mapStreamAbove, mapKeep), nil
}

// mapLocked makes the map of dir from the records; the caller holds
// ix.mu. A map of more than streamAbove definitions keeps only those that
// may rank among its keep best (keep.go).
func (ix *Index) mapLocked(dir string, streamAbove, keep int) *Map {
	m := &Map{Dir: dir, src: ix.Src, strs: ix.Words.View(), Total: ix.Live}
	c := &indexCounter{ix: ix, user: make([]bool, len(ix.Files)), tester: make([]bool, len(ix.Files)),
		header: make([]bool, len(ix.Files)), definer: make([]bool, len(ix.Files)), dirs: make([]int32, len(ix.Files))}
	type scoped struct {
		r    *index.FileRec
		tier uint8
		user bool
	}
	var scope []scoped
	langs := langMemo{}
	for f, r := range ix.Files {
		c.dirs[f] = -1
		if r == nil || r.Dead || r.Failed {
			continue
		}
		// Tests are told by the path, as isMapUser tells them.
		pathTier := filetier.Of(r.Path)
		tier := filetier.Head(pathTier, r.Generated)
		lang, code := langs.of(r.Path)
		c.user[f], c.tester[f] = code && pathTier != filetier.Test, code && pathTier == filetier.Test
		if r.Parsed {
			m.Indexed++
			c.definer[f] = tier != filetier.Test
			c.header[f] = c.definer[f] && isCHeader(r.Path)
		}
		if mapScope(dir, r.Path) && (lang || mayOutline(r.Path)) {
			scope = append(scope, scoped{r, tier, c.user[f]})
		}
	}
	m.Building = m.Indexed < m.Total
	slices.SortFunc(scope, func(a, b scoped) int { return strings.Compare(a.r.Path, b.r.Path) })
	total := 0
	for _, sf := range scope {
		if defs := sf.r.Recs.Get(ix.DefsKind); sf.r.Parsed && len(defs) > 0 {
			n, _ := binary.Uvarint(defs)
			total += int(n)
		}
	}
	// The folders, numbered in path order of the files under dir first,
	// as m.rank would number them.
	for _, sf := range scope {
		m.dirID(path.Dir(sf.r.Path))
	}
	for f, r := range ix.Files {
		if r != nil && (c.user[f] || c.tester[f] || c.definer[f]) {
			c.dirs[f] = m.dirID(path.Dir(r.Path))
		}
	}
	m.files = make([]mapFile, 0, len(scope))
	var keeper *mapKeeper
	var rk *ranker
	if total > streamAbove {
		keeper = &mapKeeper{floor: scoreFloor{n: keep}, users: func(w uint32) int {
			// A file id takes at least a byte of the list.
			p := &ix.WordPost
			if p.InOverlay(w) || int(w) >= p.NKeys {
				return math.MaxInt32
			}
			return len(p.BaseList(w))
		}}
		rk = newRanker(m, c)
	} else {
		// Every definition's room at once: a large project's are millions.
		m.defs = make([]mapDef, 0, total)
	}
	var raw []rawDef
	for _, sf := range scope {
		r := sf.r
		defs := r.Recs.Get(ix.DefsKind)
		if !r.Parsed || len(defs) == 0 {
			// A file without a grammar has no definitions; one with is
			// counted.
			if r.Parsed && grammar.ForPath(r.Path, nil) == nil {
				continue
			}
			m.addFile(r.Entry(), sf.tier, sf.user, nil)
			continue
		}
		raw = appendRawDefs(raw[:0], defs, m.strs.Len())
		if keeper == nil {
			m.addFile(r.Entry(), sf.tier, sf.user, raw)
			continue
		}
		m.files = append(m.files, m.newFile(r.Path, sf.tier, sf.user, len(raw)))
		if keeper.add(m, rk, int32(len(m.files)-1), raw) {
			m.addEntry(r.Entry())
		}
	}
	if keeper == nil {
		m.rank(c)
	} else {
		keeper.done(m)
	}
	return m
}

// appendRawDefs appends the definitions of a file's record rec (the
// format defrec.Walk reads, read here where its numbers lie: the map of a
// large project reads millions) to raw, up to the first that does not
// decode.
func appendRawDefs(raw []rawDef, rec []byte, nstrs int) []rawDef {
	maxKind := uint64(len(grammar.Kinds()))
	n, at, ok := diskcache.UvarintAt(rec, 0)
	if !ok || n > uint64(len(rec)-at) {
		return raw
	}
	for range n {
		var name, line, before, after, nq uint64
		var ok1, ok2, ok3, ok4, ok5 bool
		name, at, ok1 = diskcache.UvarintAt(rec, at)
		if !ok1 || at >= len(rec) {
			return raw
		}
		k := rec[at]
		line, at, ok2 = diskcache.UvarintAt(rec, at+1)
		before, at, ok3 = diskcache.UvarintAt(rec, at)
		after, at, ok4 = diskcache.UvarintAt(rec, at)
		nq, at, ok5 = diskcache.UvarintAt(rec, at)
		kk := uint64(k &^ defrec.DeclBit)
		if !ok2 || !ok3 || !ok4 || !ok5 || nq > uint64(len(rec)-at) || name >= uint64(nstrs) || kk == 0 || kk > maxKind ||
			line > math.MaxInt32 || before > line || after > math.MaxInt32-line {
			return raw
		}
		d := rawDef{name: uint32(name), last: uint32(name), cont: noString, kind: grammar.Kind(kk),
			line: int32(line), start: int32(line - before), end: int32(line + after)}
		for i := range nq {
			var q uint64
			if q, at, ok1 = diskcache.UvarintAt(rec, at); !ok1 || q >= uint64(nstrs) {
				return raw
			}
			if i == nq-1 {
				d.last = uint32(q)
			} else if i == nq-2 {
				d.cont = uint32(q)
			}
		}
		raw = append(raw, d)
	}
	return raw
}

// indexCounter counts from the word index (the files holding each word)
// and the definitions' (the files defining each name); the caller holds
// ix.mu.
type indexCounter struct {
	ix                            *Index
	user, tester, definer, header []bool  // by file id
	dirs                          []int32 // each counted file's folder
	buf, pkg                      []uint32
}

func (c *indexCounter) users(w uint32, in mapWhere) int {
	return c.count(&c.ix.WordPost, c.user, w, in)
}

func (c *indexCounter) testers(w uint32, in mapWhere) int {
	return c.count(&c.ix.WordPost, c.tester, w, in)
}

func (c *indexCounter) definers(w uint32, in mapWhere) int {
	return c.count(c.ix.Defines, c.definer, w, in)
}

func (c *indexCounter) inHeader(w uint32) bool {
	return c.count(c.ix.Defines, c.header, w, everywhere) > 0
}

func (c *indexCounter) word(s string) (uint32, bool) {
	return c.ix.Words.LookupString(s)
}

func (c *indexCounter) count(p *index.Postings, files []bool, w uint32, in mapWhere) int {
	if in.pkg == noString && !p.InOverlay(w) {
		return c.countBase(p, files, w, in.dir)
	}
	c.buf = p.List(w, c.buf[:0])
	if in.pkg != noString {
		c.pkg = c.ix.WordPost.List(in.pkg, c.pkg[:0])
	}
	n := 0
	for _, f := range c.buf {
		if int(f) >= len(files) || !files[f] {
			continue
		}
		if in.dir < 0 || c.dirs[f] == in.dir {
			n++
			continue
		}
		if in.pkg != noString {
			if _, ok := slices.BinarySearch(c.pkg, f); ok {
				n++
			}
		}
	}
	return n
}

// countBase counts the files of key w's list that files holds and that
// are in the folder dir (any if dir < 0), for a key whose files are all
// in the postings' base: read where they lie (postings.list's format),
// as most of a large map's names are counted.
func (c *indexCounter) countBase(p *index.Postings, files []bool, w uint32, dir int32) int {
	b := p.BaseList(w)
	n := 0
	var f uint32
	for i := 0; i < len(b); {
		if d := b[i]; d < 0x80 {
			f += uint32(d)
			i++
		} else {
			d, k := binary.Uvarint(b[i:])
			f += uint32(d)
			i += k
		}
		if id := f - 1; int(id) < len(files) && files[id] && (dir < 0 || c.dirs[id] == dir) {
			n++
		}
	}
	return n
}

// langMemo tells, by the part of a file's name that chooses its grammar,
// whether the file has a grammar and whether it is code (not prose), for
// the hundreds of thousands of paths of a large project.
type langMemo map[string][2]bool

func (u langMemo) of(p string) (lang, code bool) {
	base := project.Base(p)
	key := base
	if i := strings.IndexByte(base[min(1, len(base)):], '.'); i >= 0 {
		key = base[i+1:]
	}
	v, ok := u[key]
	if !ok {
		l := grammar.ForPath(p, nil)
		v = [2]bool{l != nil, l != nil && !l.CodeRules().Prose}
		u[key] = v
	}
	return v[0], v[1]
}
