package search

import (
	"context"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/zumba-dev/zumba/grammar"
)

// Map answers like [Root.Map], from the index: the word index counts the
// uses, the definitions it keeps are ranked. Before the word index is
// built it reads the files, as Root.Map does. The files not parsed yet
// are parsed first, those under dir before the others, until the time
// limit, as find_symbol parses the files it needs; past it, the map is
// ranked from the files parsed and says so (ProjectMap.Building).
func (ix *Index) Map(ctx context.Context, dir string) (*ProjectMap, error) {
	deadline := time.Now().Add(ix.symbolTimeLimit())
	defer ix.call()()
	if !ix.wordsReady.Load() {
		files, err := ix.coldFiles(ctx)
		if err != nil {
			return nil, err
		}
		return mapFiles(ctx, ix.root, files, dir, deadline)
	}
	if err := ix.sync(ctx); err != nil {
		return nil, err
	}
	// The files under dir first, for their definitions; then the
	// others, for who defines each name.
	if !ix.allParsed() {
		ix.mu.RLock()
		var in, out []uint32
		for f, r := range ix.files {
			switch {
			case r == nil || r.parsed:
			case mapScope(dir, r.path):
				in = append(in, uint32(f))
			default:
				out = append(out, uint32(f))
			}
		}
		ix.mu.RUnlock()
		if ix.ensureParsed(ctx, in, deadline) {
			ix.ensureParsed(ctx, out, deadline)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.mapLocked(dir), nil
}

// mapLocked makes the map of dir from the records; the caller holds
// ix.mu.
func (ix *Index) mapLocked(dir string) *ProjectMap {
	m := &ProjectMap{Dir: dir, src: ix.root, strs: ix.words.view(), Total: ix.live}
	user := make([]bool, len(ix.files))
	tester := make([]bool, len(ix.files))
	definer := make([]bool, len(ix.files))
	var scope []*fileRec
	users := userFiles{}
	for f, r := range ix.files {
		if r == nil || r.dead || r.failed {
			continue
		}
		user[f], tester[f] = users.is(r.path)
		if r.parsed {
			m.Indexed++
			definer[f] = recTier(r) != testTier
		}
		if mapScope(dir, r.path) && mayOutline(r.path) {
			scope = append(scope, r)
		}
	}
	m.Building = m.Indexed < m.Total
	scope = sortRecs(scope)
	var raw []rawDef
	for _, r := range scope {
		if !r.parsed || len(r.defs) == 0 {
			// A file without a grammar has no definitions; one with is
			// counted.
			if r.parsed && grammar.ForPath(r.path, nil) == nil {
				continue
			}
			m.addFile(r.entry(), recTier(r), nil)
			continue
		}
		raw = raw[:0]
		walkDefs(r.defs, uint64(m.strs.len()), func(name uint32, k byte, line, before, after uint64, quals []uint32) {
			d := rawDef{name: name, last: name, cont: noString, kind: grammar.Kind(k &^ declBit),
				line: int32(line), start: int32(line - before), end: int32(line + after)}
			if n := len(quals); n > 0 {
				d.last = quals[n-1]
				if n >= 2 {
					d.cont = quals[n-2]
				}
			}
			raw = append(raw, d)
		})
		m.addFile(r.entry(), recTier(r), raw)
	}
	c := &indexCounter{ix: ix, user: user, tester: tester, definer: definer, dirs: make([]int32, len(ix.files))}
	for f, r := range ix.files {
		c.dirs[f] = -1
		if r != nil && (user[f] || tester[f] || definer[f]) {
			c.dirs[f] = m.dirID(path.Dir(r.path))
		}
	}
	m.rank(c)
	return m
}

// indexCounter counts from the word index (the files holding each word)
// and the definitions' (the files defining each name); the caller holds
// ix.mu.
type indexCounter struct {
	ix                    *Index
	user, tester, definer []bool  // by file id
	dirs                  []int32 // each counted file's folder
	buf, pkg              []uint32
}

func (c *indexCounter) users(w uint32, in mapWhere) int {
	return c.count(&c.ix.wordPost, c.user, w, in)
}

func (c *indexCounter) testers(w uint32, in mapWhere) int {
	return c.count(&c.ix.wordPost, c.tester, w, in)
}

func (c *indexCounter) definers(w uint32, in mapWhere) int {
	return c.count(&c.ix.defines, c.definer, w, in)
}

func (c *indexCounter) word(s string) (uint32, bool) {
	return c.ix.words.lookupString(s)
}

func (c *indexCounter) count(p *postings, files []bool, w uint32, in mapWhere) int {
	c.buf = p.list(w, c.buf[:0])
	if in.pkg != noString {
		c.pkg = c.ix.wordPost.list(in.pkg, c.pkg[:0])
	}
	n := 0
	for _, f := range c.buf {
		if int(f) < len(files) && files[f] && in.holds(c.dirs[f], func(uint32) bool {
			_, ok := slices.BinarySearch(c.pkg, f)
			return ok
		}) {
			n++
		}
	}
	return n
}

// sortRecs sorts records by path.
func sortRecs(rs []*fileRec) []*fileRec {
	for i := 1; i < len(rs); i++ {
		if rs[i-1].path > rs[i].path {
			slicesSortRecs(rs)
			break
		}
	}
	return rs
}

// userFiles is isMapUser (and whether a code file is a test), remembered by the part of a file's name that
// chooses its grammar, for the hundreds of thousands of paths of a large
// project.
type userFiles map[string]bool

func (u userFiles) is(p string) (user, test bool) {
	base := pathBase(p)
	key := base
	if i := strings.IndexByte(base[min(1, len(base)):], '.'); i >= 0 {
		key = base[i+1:]
	}
	code, ok := u[key]
	if !ok {
		lang := grammar.ForPath(p, nil)
		code = lang != nil && !lang.CodeRules().Prose
		u[key] = code
	}
	if !code {
		return false, false
	}
	test = fileTier(p) == testTier
	return !test, test
}

func slicesSortRecs(rs []*fileRec) {
	slices.SortFunc(rs, func(a, b *fileRec) int { return strings.Compare(a.path, b.path) })
}
