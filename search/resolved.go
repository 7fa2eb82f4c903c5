package search

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/filestat"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search/internal/lines"
	"github.com/zumba-dev/zumba/search/resolve"
)

// find_references of one definition: a qualified name or a PATH:LINE
// picks it, and only the uses that resolve to it are listed (a
// language's resolver decides: resolved_langs.go), then those through an
// interface it implements, then those that may mean it but could not be
// resolved.

// ResolveQuery asks for the uses of one definition.
type ResolveQuery struct {
	// Name is a qualified name ("File.Close", "os.File.Close",
	// "(*os.File).Close"); Definition, when set, a definition's
	// "PATH:LINE" instead.
	Name, Definition string
	Filter           *project.PathFilter
	// Limit is how many lines to list at most; 0 is RefLimit.
	Limit int
	// Group finds the definition holding each line.
	Group bool
	// Unique resolves only a name that picks one definition (a bare
	// name for callers of callers): with several, Resolved.Lang is "".
	Unique bool
}

// Resolved is the answer: the uses of the definition chosen.
type Resolved struct {
	// Lang is the language of the definition listed (resolvedLangs'
	// name); "" when the name picks no definition a resolver reads: it
	// has nothing to say, and the name is searched as text.
	Lang string
	// Targets are the declarations of the definition whose uses are
	// listed (one, or one per build variant of its package); Others the
	// other definitions the name picks, not listed.
	Targets, Others []Def
	// Sites are the lines listed: the uses, those through interfaces
	// (Via), then those not resolved, at most the limit.
	Sites []ResolvedSite
	// Package is the targets' package (Go: the package clause's name)
	// or module (Python: its dotted name).
	Package string
	// Uses, Through and Unresolved count every line of each class, and
	// Files the files holding them.
	Uses, Through, Unresolved, Files int
	// More: lines past the limit were left out.
	More bool
	// Building: the index is still being built, and nothing was
	// resolved (a later call will be).
	Building bool
}

// ResolvedSite is one line listed.
type ResolvedSite struct {
	Site
	Class resolve.Class
	// Via is the interface a Through line calls through ("io.Closer").
	Via string
}

// IsQualified reports whether name picks a definition by its container
// ("File.Close", "(*os.File).Close") rather than naming a word.
func IsQualified(name string) bool {
	name = strings.TrimSpace(name)
	if _, ok := goFrameName(name); ok {
		return true
	}
	if _, ok := goMethodExprName(name); ok {
		return true
	}
	i := strings.LastIndexByte(name, '.')
	return i > 0 && i < len(name)-1 && IsWordRune(rune(name[i+1])) && IsWordRune(rune(name[i-1]))
}

// resolveEnv is what a resolved search reads: the definitions the query
// picks, the resolver of each language (by its index in resolvedLangs),
// the files that may hold the name, their bytes.
type resolveEnv struct {
	defs  func(ctx context.Context) ([]Def, error)
	lang  func(i int) resolve.Lang
	files func(word string) ([]project.Entry, error)
	src   project.Source
	cache *ParseCache
}

// langTarget is a target and the language (index in resolvedLangs)
// whose resolver declared it.
type langTarget struct {
	lang int
	t    resolve.Target
}

// resolveRefs answers q over env.
func resolveRefs(ctx context.Context, q ResolveQuery, env resolveEnv) (*Resolved, error) {
	defs, err := env.defs(ctx)
	if err != nil {
		return nil, err
	}
	var targets []langTarget
	var byTarget [][]Def
	for _, d := range defs {
		li := langOf(d.Path)
		if li < 0 {
			continue
		}
		t, ok := env.lang(li).TargetAt(d.Path, int32(d.Line), d.LastSegment())
		if !ok {
			continue
		}
		lt := langTarget{li, t}
		i := slices.Index(targets, lt)
		if i < 0 {
			i = len(targets)
			targets = append(targets, lt)
			byTarget = append(byTarget, nil)
		}
		byTarget[i] = append(byTarget[i], d)
	}
	if len(targets) == 0 || q.Unique && len(targets) > 1 {
		return &Resolved{}, nil
	}
	word := targets[0].t.Name
	files, err := env.files(word)
	if err != nil {
		return nil, err
	}
	if files, err = FilterEntries(ctx, files, q.Filter); err != nil {
		return nil, err
	}
	// The definition most uses mean is the one listed; the uses are
	// then classified for it alone (a call through an interface is one
	// of every definition implementing it).
	best := 0
	if len(targets) > 1 {
		counts := make([]int, len(targets))
		for li := range resolvedLangs {
			var ts []resolve.Target
			var at []int
			for i, lt := range targets {
				if lt.lang == li {
					ts, at = append(ts, lt.t), append(at, i)
				}
			}
			if len(ts) == 0 {
				continue
			}
			_, c, err := classifyFiles(ctx, env, files, word, li, ts)
			if err != nil {
				return nil, err
			}
			for k, i := range at {
				counts[i] = c[k]
			}
		}
		for i := range targets {
			if counts[i] > counts[best] {
				best = i
			}
		}
	}
	bt := targets[best]
	uses, _, err := classifyFiles(ctx, env, files, word, bt.lang, []resolve.Target{bt.t})
	if err != nil {
		return nil, err
	}
	res := &Resolved{Lang: resolvedLangs[bt.lang].name, Targets: byTarget[best], Package: bt.t.Pkg}
	for i, ds := range byTarget {
		if i != best {
			res.Others = append(res.Others, ds...)
		}
	}
	return res, res.fill(ctx, env, uses, word, q)
}

// useLine is a line's use: its best class (a use, through an interface,
// not resolved) among those of the line.
type useLine struct {
	file int // index in the files searched
	e    project.Entry
	line int32
	col  int32
	resolve.Use
}

// classifyFiles classifies the uses of word in the files of the
// language li; counts are the lines that use each target.
func classifyFiles(ctx context.Context, env resolveEnv, files []project.Entry, word string, li int, targets []resolve.Target) ([]useLine, []int, error) {
	var out []useLine
	counts := make([]int, len(targets))
	sc := &project.Scratch{}
	defer sc.Close()
	for i, e := range files {
		if i%64 == 63 && ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		if langOf(e.Path) != li {
			continue
		}
		text := func() []byte {
			data, err := env.src.Contents(e, sc)
			if err != nil {
				return nil
			}
			return data
		}
		uses, ok := env.lang(li).FileUses(e.Path, word, targets, text)
		if !ok {
			// Not parsed: every use of the word there is unresolved.
			if data := text(); data != nil {
				resolvedLangs[li].uses(data, word, func(line, col int32) {
					uses = append(uses, resolve.FileUse{Line: line, Col: col, Use: resolve.Use{Class: resolve.Unresolved}})
				})
			}
		}
		slices.SortFunc(uses, func(a, b resolve.FileUse) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(rankClass(a.Class), rankClass(b.Class)), cmp.Compare(a.Col, b.Col))
		})
		seen := map[[2]int32]bool{} // (line, target)
		for _, u := range uses {
			k := [2]int32{u.Line, int32(u.Target)}
			if u.Class == resolve.Unresolved {
				k[1] = -1
			}
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, useLine{file: i, e: e, line: u.Line, col: u.Col, Use: u.Use})
			if u.Class == resolve.Match {
				counts[u.Target]++
			}
		}
	}
	return out, counts, nil
}

// rankClass orders a line's classes: a use first.
func rankClass(c resolve.Class) int {
	switch c {
	case resolve.Match:
		return 0
	case resolve.Through:
		return 1
	}
	return 2
}

// fill lists lines in res: one per line (its best class), the uses,
// then those through each interface, then those not resolved, at most
// the limit, each with its text (and its definition with Group).
func (res *Resolved) fill(ctx context.Context, env resolveEnv, ul []useLine, word string, q ResolveQuery) error {
	slices.SortStableFunc(ul, func(a, b useLine) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(rankClass(a.Class), rankClass(b.Class)))
	})
	// One line, its best class.
	ul = slices.CompactFunc(ul, func(a, b useLine) bool { return a.file == b.file && a.line == b.line })
	files := map[int]bool{}
	for _, l := range ul {
		files[l.file] = true
		switch l.Class {
		case resolve.Match:
			res.Uses++
		case resolve.Through:
			res.Through++
		default:
			res.Unresolved++
		}
	}
	res.Files = len(files)
	slices.SortStableFunc(ul, func(a, b useLine) int {
		if c := cmp.Compare(rankClass(a.Class), rankClass(b.Class)); c != 0 {
			return c
		}
		return strings.Compare(a.Via, b.Via)
	})
	limit := cmp.Or(q.Limit, RefLimit)
	if len(ul) > limit {
		ul, res.More = ul[:limit], true
	}
	return res.texts(ctx, env, ul, word, q.Group)
}

// texts gives the ul listed their text, and with group the
// definition holding each.
func (res *Resolved) texts(ctx context.Context, env resolveEnv, ul []useLine, word string, group bool) error {
	sc := &project.Scratch{}
	defer sc.Close()
	byFile := map[int][]int{}
	var order []int
	for i, l := range ul {
		if byFile[l.file] == nil {
			order = append(order, l.file)
		}
		byFile[l.file] = append(byFile[l.file], i)
	}
	res.Sites = make([]ResolvedSite, len(ul))
	for _, f := range order {
		if err := ctx.Err(); err != nil {
			return err
		}
		e := ul[byFile[f][0]].e
		p := e.Path
		data, err := env.src.Contents(e, sc)
		var defs []outline.Definition
		if err == nil && group {
			defs, _, _ = env.cache.Code(ctx, p, e.Stat(), data)
		}
		starts := textLineStarts(data)
		for _, i := range byFile[f] {
			l := ul[i]
			s := ResolvedSite{Class: l.Class, Via: l.Via, Site: Site{Ref: Ref{Path: p, Line: int(l.line)}}}
			if int(l.line) <= len(starts) && data != nil {
				start := starts[l.line-1]
				end := bytes.IndexByte(data[start:], '\n')
				if end < 0 {
					end = len(data) - start
				}
				at := int(l.col) - 1
				s.Text = lines.Show(data[start:start+end], at, at+len(word))
			}
			if group {
				if k, inside := outline.Enclosing(defs, int(l.line)); inside {
					d := &defs[k]
					s.Def = implementation(defs, d)
					s.Own = d.Line == int(l.line) && d.LastSegment() == word && l.Class != resolve.Unresolved
				}
			}
			res.Sites[i] = s
		}
	}
	return nil
}

// textLineStarts are the offsets where data's lines start.
func textLineStarts(data []byte) []int {
	out := []int{0}
	for i, c := range data {
		if c == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// definitionAt parses "PATH:LINE" and returns the definition of the
// file whose name is on the line (the innermost), the file parsed
// through cache (depth and changes ask for many definitions of a few
// files).
func definitionAt(ctx context.Context, root *Root, cache *ParseCache, def string) ([]Def, error) {
	i := strings.LastIndexByte(def, ':')
	line, err := strconv.Atoi(strings.TrimSpace(def[i+1:]))
	if i <= 0 || err != nil || line < 1 {
		return nil, fmt.Errorf("definition %s: want PATH:LINE, as find_symbol prints it", project.Echo(def))
	}
	p := strings.TrimSpace(def[:i])
	rel, err := root.Rel(p)
	if err != nil {
		return nil, err
	}
	// The stat before the read: the cache's rule.
	fi, err := root.Stat(rel)
	if err != nil {
		return nil, err
	}
	data, _, err := root.ReadFile(rel, project.MaxFileSize)
	if err != nil {
		return nil, err
	}
	if grammar.ForPath(rel, data) == nil {
		return nil, fmt.Errorf("no definition at %s:%d: no grammar reads the file", rel, line)
	}
	defs, _, ok := cache.Code(ctx, rel, filestat.Of(fi), data)
	if !ok {
		return nil, fmt.Errorf("definition %s: the file could not be parsed in time", rel)
	}
	var out []Def
	for k := len(defs) - 1; k >= 0; k-- {
		if defs[k].Line == line {
			d := Def{Definition: defs[k]}
			d.Path = rel
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no definition at %s:%d; find_symbol and outline print the lines of definitions", rel, line)
	}
	return out[:1], nil
}

// CallerSites are the lines of res as find_references with group and
// code gives them, for callers of callers: its uses and the calls
// through interfaces it implements (gopls' call hierarchy counts them
// too), with the definitions holding them.
func (res *Resolved) CallerSites() *Sites {
	out := &Sites{More: res.More}
	for _, s := range res.Sites {
		if s.Class != resolve.Unresolved {
			out.Sites = append(out.Sites, s.Site)
		}
	}
	return out
}
