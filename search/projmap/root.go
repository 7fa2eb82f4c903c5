package projmap

import (
	"context"
	"path"
	"slices"
	"time"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search/internal/filetier"
	"github.com/zumba-dev/zumba/search/internal/scan"
)

// mapRead is what reading one file gave the map.
type mapRead struct {
	lang  bool  // it has a grammar
	tier  uint8 // its tier (package search/internal/filetier)
	defs  []outline.Definition
	words []string // its distinct words, when it is code
	test  bool     // it is a test
}

// FromFiles makes the map of dir from files (in path order) read from
// src until the deadline: the files under dir first, then the others,
// whose words and definitions rank those under dir. Past the deadline,
// the map is ranked from the files read so far (Map.Stopped).
func FromFiles(ctx context.Context, src project.Source, files []project.Entry, dir string, deadline time.Time) (*Map, error) {
	var in, out []project.Entry
	for _, e := range files {
		switch {
		case !mayOutline(e.Path):
		case mapScope(dir, e.Path):
			in = append(in, e)
		default:
			out = append(out, e)
		}
	}
	order := append(in, out...)
	reads := make([]mapRead, len(order))
	done, _ := scan.Ordered(ctx, len(order), -1, deadline, func(i int, sc *project.Scratch) int {
		reads[i] = readForMap(ctx, src, order[i], sc)
		return 0
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m := &Map{Dir: dir, src: src, Total: len(order), Indexed: done, Building: done < len(order), Stopped: done < len(order)}
	v := index.NewVocab()
	c := &readCounter{m: m, v: v}
	for i, rd := range reads[:done] {
		dir := m.dirID(path.Dir(order[i].Path))
		if len(rd.words) > 0 {
			ws := make([]uint32, len(rd.words))
			for j, w := range rd.words {
				ws[j] = v.InternString(w)
			}
			slices.Sort(ws)
			if rd.test {
				c.testFiles = append(c.testFiles, countedFile{dir, ws})
			} else {
				c.userFiles = append(c.userFiles, countedFile{dir, ws})
			}
		}
		raw := make([]rawDef, len(rd.defs))
		var lasts []uint32
		for j := range rd.defs {
			raw[j] = rawOf(&rd.defs[j], v.InternString)
			lasts = append(lasts, raw[j].last)
		}
		if rd.tier != filetier.Test && len(lasts) > 0 {
			slices.Sort(lasts)
			c.definerFiles = append(c.definerFiles, countedFile{dir, slices.Compact(lasts)})
			if isCHeader(order[i].Path) {
				c.headerFiles = append(c.headerFiles, countedFile{dir, c.definerFiles[len(c.definerFiles)-1].ids})
			}
		}
		if i < len(in) && rd.lang {
			m.addFile(order[i], rd.tier, isMapUser(order[i].Path), raw)
		}
	}
	m.strs = v.View()
	m.rank(c)
	return m, nil
}

// readCounter counts from the words and definitions of the files read.
type readCounter struct {
	m                                               *Map
	userFiles, testFiles, definerFiles, headerFiles []countedFile
	v                                               *index.Vocab
	// post lists the files holding each word, made on first use.
	post [4]map[uint32][]int32
}

// countedFile is a file's folder and its words or names, sorted.
type countedFile struct {
	dir int32
	ids []uint32
}

func (c *readCounter) users(w uint32, in mapWhere) int {
	return c.count(0, c.userFiles, w, in)
}

func (c *readCounter) definers(w uint32, in mapWhere) int {
	return c.count(1, c.definerFiles, w, in)
}

func (c *readCounter) testers(w uint32, in mapWhere) int {
	return c.count(2, c.testFiles, w, in)
}

func (c *readCounter) inHeader(w uint32) bool {
	return c.count(3, c.headerFiles, w, everywhere) > 0
}

func (c *readCounter) word(s string) (uint32, bool) {
	return c.v.LookupString(s)
}

func (c *readCounter) count(which int, files []countedFile, w uint32, in mapWhere) int {
	if c.post[which] == nil {
		c.post[which] = map[uint32][]int32{}
		for i, f := range files {
			for _, id := range f.ids {
				c.post[which][id] = append(c.post[which][id], int32(i))
			}
		}
	}
	list := c.post[which][w]
	if in == everywhere {
		return len(list)
	}
	n := 0
	for _, i := range list {
		f := &files[i]
		if in.holds(f.dir, func(pkg uint32) bool {
			_, ok := slices.BinarySearch(f.ids, pkg)
			return ok
		}) {
			n++
		}
	}
	return n
}

// rawOf is d with its strings interned by intern.
func rawOf(d *outline.Definition, intern func(string) uint32) rawDef {
	r := rawDef{name: intern(d.Name), last: intern(d.LastSegment()), cont: noString,
		kind: d.Kind, line: int32(d.Line), start: int32(d.Start), end: int32(d.End)}
	if n := len(d.Qualified); n >= 2 {
		r.cont = intern(d.Qualified[n-2])
	}
	return r
}

// readForMap reads and parses one file for the map.
func readForMap(ctx context.Context, src project.Source, e project.Entry, sc *project.Scratch) mapRead {
	data, err := src.Contents(e, sc)
	if err != nil {
		return mapRead{}
	}
	lang := grammar.ForPath(e.Path, data[:min(len(data), project.BinaryPrefix)])
	if lang == nil {
		return mapRead{}
	}
	rd := mapRead{lang: true, tier: filetier.Data(e.Path, data)}
	if code := grammar.ForPath(e.Path, nil); code != nil && !code.CodeRules().Prose {
		rd.test = filetier.Of(e.Path) == filetier.Test
		seen := map[string]struct{}{}
		index.ForWords(data, func(w []byte) {
			if index.IndexedWord(w) {
				if _, ok := seen[string(w)]; !ok {
					seen[string(w)] = struct{}{}
					rd.words = append(rd.words, string(w))
				}
			}
		})
	}
	if o, err := outline.Parse(ctx, lang, data); err == nil {
		rd.defs = o.Definitions(e.Path)
	}
	return rd
}
