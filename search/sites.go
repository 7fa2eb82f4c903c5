package search

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/filestat"
	"github.com/zumba-dev/zumba/internal/parsecache"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search/internal/filetier"
	"github.com/zumba-dev/zumba/search/internal/scan"
)

// RefOptions choose what find_references adds to its hits or leaves out.
// The zero value is the plain text search.
type RefOptions struct {
	// Code leaves out hits in comments and string literals, as the file's
	// grammar parses them, and every hit in a file with no grammar or in
	// prose (Markdown).
	Code bool
	// Group finds the innermost definition holding each hit.
	Group bool
	// Limit, from 1 to RefLimit, stops after this many hits, or with
	// Group this many groups (see limitGroups); 0 is RefLimit hits.
	Limit int
	// TimeLimit bounds this search's parsing as the root's SiteTimeLimit
	// does, when the root sets none (0: the default, 3 s): past it, the
	// hits found are answered and the rest counted.
	TimeLimit time.Duration
	// Uncounted leaves the hits past the limit uncounted (MoreAtLeast set,
	// MoreHits and MoreFiles what the search met before stopping), for the
	// searches that show no totals: callers of callers and changes' users.
	// With Code, counting parses every file left holding the word, up to
	// codeCountLimit a search.
	Uncounted bool
	// siteLimit and countLimit are the root's SiteTimeLimit (else
	// TimeLimit) and CountTimeLimit; zero is the default.
	siteLimit, countLimit time.Duration
	// late puts the files whose first lines say they are generated after
	// the others (see rank.go), for a search whose files are ranked by
	// their paths alone.
	late bool
}

// Site is one hit line with where it sits.
type Site struct {
	Ref
	// Def is the innermost definition whose extent holds the line; nil
	// at top level, in a file without a grammar, or without Group.
	Def *outline.Definition
	// Own is set when the line is the name line of Def and Def is a
	// definition of the name searched for.
	Own bool
}

// Sites is find_references' answer with options: the hits shown, in path
// and line order, and what was left out.
type Sites struct {
	Sites []Site
	// More is set when hits beyond the limit were left out. MoreHits and
	// MoreFiles count the text hits left out and the files holding them
	// (with Code, before comments and strings are left out of them);
	// MoreAtLeast is set when counting stopped at CountTimeLimit, so that
	// MoreHits is a lower bound.
	More                bool
	MoreHits, MoreFiles int
	MoreAtLeast         bool
	// split is set when the first file counted in MoreFiles is the last
	// file shown, cut inside.
	split bool
	// With Code, the hits left out of the files searched: in comments or
	// strings, and in files with no code (no grammar, or Markdown).
	InComments, InProse int
	// Building: the time limit came before the index being built had
	// listed the project's files, and nothing was searched.
	Building bool
}

// CountTimeLimit bounds how long the hits left out are counted.
const CountTimeLimit = 2 * time.Millisecond

// siteTimeLimit bounds the parsing a call does: past it, the files not yet
// parsed are left out of the hits shown as if the limit were reached.
const siteTimeLimit = 3 * time.Second

// hitLine is one line with a whole-word use, and the bytes of the line.
type hitLine struct {
	Ref
	start, end int
}

// fileHitLines scans one file's bytes: one hitLine per line with a
// whole-word use, found by fileRefs.
func fileHitLines(path string, data []byte, sc *WordScanner) []hitLine {
	refs := fileRefs(path, data, sc)
	if len(refs) == 0 {
		return nil
	}
	out := make([]hitLine, len(refs))
	line, start := 1, 0
	for i, r := range refs {
		for line < r.Line {
			j := bytes.IndexByte(data[start:], '\n')
			if j < 0 {
				break
			}
			start += j + 1
			line++
		}
		end := bytes.IndexByte(data[start:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += start
		}
		out[i] = hitLine{Ref: r, start: start, end: end}
	}
	return out
}

// anyCode reports whether a use of the word on the line is code: the
// first word character of a use (at off in the name) is.
func anyCode(data []byte, h hitLine, sc *WordScanner, off int, nc outline.NonCode) bool {
	for at := sc.Next(data, h.start); at >= 0 && at < h.end; at = sc.Next(data, at+1) {
		if nc.Code(at + off) {
			return true
		}
	}
	return false
}

// ReferenceSites finds the lines of files (in path order) that use name as
// a whole word, like References, with opts applied; it stops after limit
// lines (limit < 0: no limit). Files are parsed only when opts need it and
// they hold a hit, through cache (nil: no cache).
func ReferenceSites(ctx context.Context, files []project.Entry, src project.Source, name string, opts RefOptions, limit int, cache *ParseCache) (*Sites, error) {
	sc := NewWordScanner(name)
	// A name may start or end with punctuation ("operate("): its word
	// part decides what is code and what is its definition.
	word := strings.TrimFunc(name, func(r rune) bool { return !IsWordRune(r) })
	off := max(0, strings.Index(name, word))
	per := make([]fileSites, len(files))
	deadline := StopBy(ctx, cmp.Or(opts.siteLimit, siteTimeLimit))
	pctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	ss := &siteScan{ctx: pctx, src: src, sc: sc, word: word, off: off, opts: opts, cache: cache}
	emitted, timedOut := scan.Ordered(ctx, len(files), limit, deadline, func(i int, scr *project.Scratch) int {
		return ss.file(files[i], scr, &per[i])
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &Sites{}
	cut := -1 // the file where the limit cut, -1: none
	var late []project.Entry
	for i := range emitted {
		f := per[i]
		if f.generated {
			late = append(late, files[i])
			if !opts.Code {
				res.MoreHits += f.hits // counted only if some are left out
			}
			continue
		}
		res.InComments += f.comments
		res.InProse += f.prose
		if limit >= 0 && len(res.Sites)+len(f.sites) > limit {
			keep := limit - len(res.Sites)
			res.Sites = append(res.Sites, f.sites[:keep]...)
			res.More = true
			cut = i
			if opts.Code {
				res.MoreHits += len(f.sites) - keep
			} else {
				res.MoreHits += f.hits - f.idx[keep]
			}
			res.MoreFiles = 1
			res.split = keep > 0
			break
		}
		res.Sites = append(res.Sites, f.sites...)
	}
	if timedOut && cut < 0 {
		res.More, cut = true, emitted-1
	}
	if !res.More {
		res.MoreHits = 0
		if len(late) > 0 {
			return res.addLate(ctx, late, src, name, opts, limit, cache)
		}
		return res, nil
	}
	if opts.Uncounted {
		res.MoreAtLeast = true
		return res, nil
	}
	if opts.Code {
		// Code hits only: the files left are parsed, within their own
		// time (through the cache, which keeps them for the next call).
		rest := append(slices.Clip(files[cut+1:]), late...)
		n, nFiles, exact := countCodeRest(ctx, rest, src, sc, off, cache, StopBy(ctx, codeCountLimit))
		res.MoreHits += n
		res.MoreFiles += nFiles
		res.MoreAtLeast = !exact
		return res, nil
	}
	res.MoreFiles += len(late)
	n, nFiles, exact := countRest(ctx, files[cut+1:], src, sc, cmp.Or(opts.countLimit, CountTimeLimit))
	res.MoreHits += n
	res.MoreFiles += nFiles
	res.MoreAtLeast = !exact
	return res, nil
}

// fileSites is what ReferenceSites found in one file.
type fileSites struct {
	sites []Site
	// idx is each site's index among the file's hits.
	idx                   []int
	hits, comments, prose int
	// generated: left for later (opts.late).
	generated bool
}

// siteScan is what ReferenceSites reads each file with: the context its
// parses stop by, the source, the name's scanner, its word part and
// where that starts in it, the options and the parse cache.
type siteScan struct {
	ctx   context.Context
	src   project.Source
	sc    *WordScanner
	word  string
	off   int
	opts  RefOptions
	cache *ParseCache
}

// file finds the sites of the file e into f, and returns how many.
func (x *siteScan) file(e project.Entry, scr *project.Scratch, f *fileSites) int {
	data, err := x.src.Contents(e, scr)
	if err != nil {
		return 0
	}
	hits := fileHitLines(e.Path, data, x.sc)
	if len(hits) == 0 {
		return 0
	}
	f.hits = len(hits)
	if x.opts.late && filetier.Of(e.Path) < filetier.Vendored && grammar.IsGeneratedHead(data) {
		f.generated = true
		return 0
	}
	var p *parsed
	if x.opts.Code || x.opts.Group {
		p = x.cache.get(x.ctx, e.Path, e.Stat(), data)
	}
	for k, h := range hits {
		if x.opts.Code {
			switch {
			case p == nil || p.prose:
				f.prose++
				continue
			case p.failed:
				// A file that could not be parsed keeps its hits.
			case !anyCode(data, h, x.sc, x.off, p.nc):
				f.comments++
				continue
			}
		}
		s := Site{Ref: h.Ref}
		if x.opts.Group && p != nil {
			if k, inside := outline.Enclosing(p.defs, h.Line); inside {
				d := &p.defs[k]
				s.Own = d.Line == h.Line && (d.Name == x.word || d.LastSegment() == x.word || d.QualifiedName() == x.word)
				// One group per overload set: a signature's hits
				// go under its implementation.
				s.Def = implementation(p.defs, d)
			}
		}
		f.sites = append(f.sites, s)
		f.idx = append(f.idx, k)
	}
	return len(f.sites)
}

// codeCountLimit bounds how long the code hits left out are counted:
// each file holding the word is parsed (tree-sitter reads a few MB a
// second), so past it the count is a lower bound.
const codeCountLimit = 300 * time.Millisecond

// countCodeRest is countRest of the hits that are code (see anyCode):
// each file with a hit is parsed through cache; a file that could not be
// parsed keeps its hits, and one without code has none.
func countCodeRest(ctx context.Context, files []project.Entry, src project.Source, sc *WordScanner, off int, cache *ParseCache, deadline time.Time) (hits, withHits int, exact bool) {
	var nHits, nFiles atomic.Int64
	pctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	emitted, timedOut := scan.Ordered(pctx, len(files), -1, deadline, func(i int, scr *project.Scratch) int {
		data, err := src.Contents(files[i], scr)
		if err != nil {
			return 0
		}
		lines := fileHitLines(files[i].Path, data, sc)
		if len(lines) == 0 {
			return 0
		}
		p := cache.get(pctx, files[i].Path, files[i].Stat(), data)
		if p.prose {
			return 0
		}
		if p.failed && pctx.Err() != nil {
			// Stopped by the time limit, not a file that cannot be
			// parsed: it is not counted.
			return 0
		}
		n := 0
		for _, h := range lines {
			if p.failed || anyCode(data, h, sc, off, p.nc) {
				n++
			}
		}
		if n > 0 {
			nHits.Add(int64(n))
			nFiles.Add(1)
		}
		return 0
	})
	return int(nHits.Load()), int(nFiles.Load()), emitted == len(files) && !timedOut && pctx.Err() == nil
}

// implementation is what stands for d's overload set among defs, the
// definitions of d's file, when d is a signature without a body
// (TypeScript's overloads, a C prototype): the function or method of d's
// full name and kind with a body, else the set's first signature (a .d.ts
// file's overloads). Any other d stands for itself.
func implementation(defs []outline.Definition, d *outline.Definition) *outline.Definition {
	if !d.Decl || d.Kind != grammar.Function && d.Kind != grammar.Method {
		return d
	}
	q := d.QualifiedName()
	var first *outline.Definition
	for k := range defs {
		c := &defs[k]
		if c.Kind != d.Kind || c.QualifiedName() != q {
			continue
		}
		if !c.Decl {
			return c
		}
		if first == nil || c.Line < first.Line {
			first = c
		}
	}
	return cmp.Or(first, d)
}

// addLate adds to res, a search's answer within its limit, the sites of
// the files it left for later, within what is left of limit.
func (res *Sites) addLate(ctx context.Context, late []project.Entry, src project.Source, name string, opts RefOptions, limit int, cache *ParseCache) (*Sites, error) {
	if limit >= 0 {
		limit -= len(res.Sites)
	}
	opts.late = false
	more, err := ReferenceSites(ctx, late, src, name, opts, limit, cache)
	if err != nil {
		return nil, err
	}
	more.Sites = append(res.Sites, more.Sites...)
	more.InComments += res.InComments
	more.InProse += res.InProse
	return more, nil
}

// countRest counts the hit lines of files and the files holding them,
// within limit; exact is false when the time ran out first, and then the
// counts are of the files read.
func countRest(ctx context.Context, files []project.Entry, src project.Source, sc *WordScanner, limit time.Duration) (hits, withHits int, exact bool) {
	var nHits, nFiles atomic.Int64
	deadline := time.Now().Add(limit)
	emitted, _ := scan.Ordered(ctx, len(files), -1, deadline, func(i int, scr *project.Scratch) int {
		data, err := src.Contents(files[i], scr)
		if err == nil {
			if n := len(fileRefs(files[i].Path, data, sc)); n > 0 {
				nHits.Add(int64(n))
				nFiles.Add(1)
			}
		}
		return 0
	})
	return int(nHits.Load()), int(nFiles.Load()), emitted == len(files)
}

// ParseCache keeps what parsing a file gave find_references and
// read_symbol, under the one rule of every cache of file contents (see
// internal/parsecache). It is safe for concurrent use; a nil cache keeps
// nothing.
type ParseCache struct {
	c parsecache.Cache[*parsed]
}

// parsed is one file's parse: its definitions and the parts that are not
// code. prose: the file has no code (no grammar, or Markdown); failed:
// the parse stopped, so nothing is known of it.
type parsed struct {
	defs          []outline.Definition
	nc            outline.NonCode
	prose, failed bool
}

// get returns the parse of the file path, of stat st (taken before data
// was read) and contents data, from the cache or by parsing data.
func (c *ParseCache) get(ctx context.Context, path string, st filestat.Stat, data []byte) *parsed {
	var pc *parsecache.Cache[*parsed]
	if c != nil {
		pc = &c.c
	}
	p, err := pc.Get(ctx, path, st, time.Now().UnixNano(), func() (*parsed, bool) {
		p := parse(ctx, path, data)
		// A parse that stopped is not cached: the next call may finish it.
		return p, !p.failed
	})
	if err != nil {
		return &parsed{failed: true}
	}
	return p
}

// Code is the definitions of the project file path, whose stat st was
// taken before its contents data were read, and the parts of data that
// are not code (comments and strings; nil for a file without code), from
// the cache or by parsing data; ok is false when the parse failed.
func (c *ParseCache) Code(ctx context.Context, path string, st filestat.Stat, data []byte) ([]outline.Definition, outline.NonCode, bool) {
	p := c.get(ctx, path, st, data)
	return p.defs, p.nc, !p.failed
}

// parse parses data, the contents of the file path, for find_references.
func parse(ctx context.Context, path string, data []byte) *parsed {
	p := &parsed{}
	lang := grammar.ForPath(path, data)
	switch {
	case lang == nil || lang.CodeRules().Prose || project.IsBinary(data):
		p.prose = true
		if lang != nil && lang.CodeRules().Prose {
			// Markdown's headings still group its hits.
			if o, err := outline.Parse(ctx, lang, data); err == nil {
				p.defs = o.Definitions(path)
			}
		}
	default:
		o, nc, err := outline.ParseCode(ctx, lang, data)
		if err != nil {
			p.failed = true
		}
		if o != nil {
			p.defs = o.Definitions(path)
		}
		p.nc = nc
	}
	return p
}

// Sites is find_references with options: the lines of the files filter
// keeps (nil: all) that use name, with the definitions holding them; at
// most RefLimit. The files are walked and read afresh.
func (r *Root) Sites(ctx context.Context, name string, filter *project.PathFilter, opts RefOptions, cache *ParseCache) (*Sites, error) {
	name = strings.TrimSpace(name)
	if err := checkName(name); err != nil {
		return nil, err
	}
	files, err := r.Walk(ctx)
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", r.Dir, err)
	}
	opts.siteLimit, opts.countLimit = cmp.Or(r.SiteTimeLimit, opts.TimeLimit), r.CountTimeLimit
	// Ranked by their paths: the files that say they are generated are
	// found as they are read.
	opts.late = true
	if files, err = FilterEntries(ctx, files, filter); err != nil {
		return nil, err
	}
	return limitedSites(ctx, rankFiles(files), r, name, opts, cache)
}

// Sites is [Root.Sites] reading only the files the word index names, once
// it is built.
func (ix *Index) Sites(ctx context.Context, name string, filter *project.PathFilter, opts RefOptions, cache *ParseCache) (*Sites, error) {
	defer ix.Call()()
	if !ix.WordsReady.Load() {
		if res, err := ix.coldSites(ctx, name, filter, opts, cache); !errors.Is(err, errWordsReady) {
			return res, err
		}
	}
	name = strings.TrimSpace(name)
	if err := checkName(name); err != nil {
		return nil, err
	}
	if err := ix.Sync(ctx); err != nil {
		return nil, err
	}
	opts.siteLimit, opts.countLimit = cmp.Or(ix.root.SiteTimeLimit, opts.TimeLimit), ix.root.CountTimeLimit
	files, err := FilterEntries(ctx, ix.rankedCandidates(name), filter)
	if err != nil {
		return nil, err
	}
	return limitedSites(ctx, files, ix.root, name, opts, cache)
}
