package impact

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search"
	"github.com/zumba-dev/zumba/search/internal/filetier"
)

// MaxCallerDepth is the deepest find_references' depth goes.
const MaxCallerDepth = 3

// CallerMark says why a caller's own users are not listed under it.
type CallerMark uint8

const (
	// Expanded: its users are listed under it (or it is at the depth
	// asked, or has no name to search).
	Expanded CallerMark = iota
	// SeeAbove: its users are listed under an earlier line.
	SeeAbove
	// SeeBelow: it uses the name itself, so its users are listed under
	// its own line at depth 1, further down.
	SeeBelow
	// OwnDefinition: it is a definition of the name searched (recursion
	// through a caller).
	OwnDefinition
)

// CallerNode is one line of a caller tree: a definition that uses its
// parent's name (at level 1, the name searched), or a file's top level.
type CallerNode struct {
	// Level is 1 for the users of the name, 2 for their users, and so on.
	Level int
	// Site is the definition's first use of the name (Site.Def nil: the
	// uses at the top level of Site.Path).
	Site search.Site
	Mark CallerMark
}

// CallerTree is find_references with depth: the definitions that use a
// name, then each one's users under it, in the order they are printed.
type CallerTree struct {
	Nodes []CallerNode
	// First is the depth-1 search, as find_references group=definition
	// code=true answers it: with no sites, its counts say why.
	First *search.Sites
	// Unshown counts the lines found but left out at the line limit;
	// Partial is set when a search stopped at its limit or the time ran
	// out, so that more users exist than were found.
	Unshown int
	Partial bool
}

// CallerFunc finds the code uses of name grouped by definition (the
// find_references group=definition code=true search, with its path
// filter), parsing for at most limit (search.RefOptions.TimeLimit; 0:
// the default).
type CallerFunc func(ctx context.Context, name string, limit time.Duration) (*search.Sites, error)

// DefCallerFunc finds the code uses of the definition d resolved (see
// [search.ResolveQuery]), grouped by definition, parsing for at most
// limit; ok is false when d's uses are not resolved (not Go), and its
// name is searched instead.
type DefCallerFunc func(ctx context.Context, d *outline.Definition, limit time.Duration) (res *search.Sites, ok bool, err error)

// CallerTimeLimit is the usual bound of a Callers call's searches, depth
// 1's included (see Callers).
const CallerTimeLimit = 500 * time.Millisecond

// Callers finds the definitions that use name through find, then under
// each the definitions that use its name, to depth (1..MaxCallerDepth),
// keeping at most maxLines nodes. The searches take at most limit in all,
// counted from the call's start (so the whole answer is bounded, whatever
// depth 1 cost): each below depth 1 may take what is left (and answers
// with what it found), and past it the definitions not yet searched are
// left unexpanded and the tree is Partial. Each definition's users are listed
// once: a definition met again is marked SeeAbove when its users are
// listed above or it is at the depth asked; a depth-1 user met deeper is
// marked SeeBelow and expanded at its own line; one met first at the
// depth asked and again higher up is expanded there. Below depth 1,
// only uses in files of the user's language family count. Each level is
// ranked as find_symbol ranks (filetier.Compare): the project's own
// files, its test files, then vendored and generated code, then by path
// and line.
func Callers(ctx context.Context, find CallerFunc, name string, depth, maxLines int, limit time.Duration) (*CallerTree, error) {
	return ResolvedCallers(ctx, find, nil, name, depth, maxLines, limit)
}

// ResolvedCallers is Callers where the users of each definition found
// are those byDef resolves to it, for the definitions it resolves (Go):
// the callers of this definition, not of every one of its name.
func ResolvedCallers(ctx context.Context, find CallerFunc, byDef DefCallerFunc, name string, depth, maxLines int, limit time.Duration) (*CallerTree, error) {
	deadline := search.StopBy(ctx, limit)
	first, err := find(ctx, name, 0)
	if err != nil {
		return nil, err
	}
	t := &CallerTree{First: first, Partial: first.More}
	own := map[string]bool{}
	for _, s := range first.Sites {
		if s.Own && s.Def != nil {
			own[defID(s.Def)] = true
		}
	}
	top := callerSites(first.Sites, "", "")
	w := &callerWalk{
		ctx: ctx, find: find, byDef: byDef, tree: t, depth: depth, maxLines: maxLines,
		own: own, level1: map[string]bool{}, shown: map[string]bool{}, expanded: map[string]bool{},
		searched: map[string]*search.Sites{}, deadline: deadline,
	}
	for _, s := range top {
		if s.Def != nil {
			w.level1[defID(s.Def)] = true
		}
	}
	w.walk(top, 1)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return t, nil
}

// callerWalk is one Callers call's state while it walks the tree in the
// order it is printed.
type callerWalk struct {
	ctx             context.Context
	find            CallerFunc
	byDef           DefCallerFunc
	tree            *CallerTree
	depth, maxLines int
	deadline        time.Time
	// own: the definitions of the name searched; level1: its users;
	// shown: those listed; expanded: those whose users are listed. By
	// defID.
	own, level1, shown, expanded map[string]bool
	// searched: each name's search, done once.
	searched map[string]*search.Sites
}

// walk adds the nodes of sites at level, each followed by its users.
func (w *callerWalk) walk(sites []search.Site, level int) {
	for i, s := range sites {
		if len(w.tree.Nodes) >= w.maxLines {
			w.tree.Unshown += len(sites) - i
			if level < w.depth {
				// Their users were not searched.
				w.tree.Partial = true
			}
			return
		}
		n := CallerNode{Level: level, Site: s}
		var id string
		if s.Def != nil {
			id = defID(s.Def)
		}
		switch {
		case s.Def == nil:
		case w.own[id]:
			n.Mark = OwnDefinition
		case w.expanded[id], w.shown[id] && level >= w.depth:
			n.Mark = SeeAbove
		case level > 1 && w.level1[id]:
			n.Mark = SeeBelow
		}
		w.tree.Nodes = append(w.tree.Nodes, n)
		if id != "" {
			w.shown[id] = true
		}
		if n.Mark != Expanded || s.Def == nil || level >= w.depth {
			continue
		}
		w.expanded[id] = true
		if users, ok := w.users(s.Def); ok {
			w.walk(users, level+1)
		}
	}
}

// users finds the definitions that use d's name in files of d's
// language family, one site each, ranked; ok is false when d's name
// cannot be searched or the time ran out.
func (w *callerWalk) users(d *outline.Definition) ([]search.Site, bool) {
	name := d.LastSegment()
	if !plainName(name) {
		return nil, false
	}
	left := time.Until(w.deadline)
	if w.ctx.Err() != nil || left <= 0 {
		w.tree.Partial = true
		return nil, false
	}
	found, ok := knownUses(w.ctx, w.searched, w.byDef, d, left)
	if !ok {
		var err error
		if found, err = w.find(w.ctx, name, left); err != nil {
			found = nil
		}
		w.searched[name] = found
	}
	if found == nil || found.Building {
		w.tree.Partial = true
		return nil, false
	}
	if found.More {
		w.tree.Partial = true
	}
	return callerSites(found.Sites, languageFamily(d.Path), defID(d)), true
}

// knownUses returns what a walk has found of d's uses, keyed in searched:
// those byDef decides for d (asked once per definition, while ctx and
// the time left allow), else those of d's name when it has been
// searched; ok is false when neither is known yet.
func knownUses(ctx context.Context, searched map[string]*search.Sites, byDef DefCallerFunc, d *outline.Definition, left time.Duration) (*search.Sites, bool) {
	if found, ok := searched[defID(d)]; ok {
		return found, true
	}
	if byDef != nil && ctx.Err() == nil && left > 0 {
		if found, ok := resolvedSites(ctx, byDef, d, left); ok {
			searched[defID(d)] = found
			return found, true
		}
	}
	found, ok := searched[d.LastSegment()]
	return found, ok
}

// resolvedSites asks byDef for the uses of d; ok is false when it does not
// decide d (its name is then searched as text). A search that failed
// found nothing.
func resolvedSites(ctx context.Context, byDef DefCallerFunc, d *outline.Definition, left time.Duration) (*search.Sites, bool) {
	res, ok, err := byDef(ctx, d, left)
	if err != nil {
		res = nil
	}
	return res, ok
}

// callerSites keeps one site per definition (the first) and per file's
// top level, leaving out the hits on a definition's name line and, when
// family is set, the files of other language families. With parent ""
// (depth 1), the definitions of the name (those with a hit on their name
// line) are left out whole; else only parent is (its recursion): another
// definition of the same name that uses it (a wrapper) is its user.
// Ranked own files first, then by path and line.
func callerSites(sites []search.Site, family, parent string) []search.Site {
	named := map[string]bool{}
	for _, s := range sites {
		if s.Own && s.Def != nil && parent == "" {
			named[defID(s.Def)] = true
		}
	}
	if parent != "" {
		named[parent] = true
	}
	seen := map[string]bool{}
	var out []search.Site
	for _, s := range sites {
		id := s.Path
		if s.Def != nil {
			id = defID(s.Def)
		}
		if s.Own || seen[id] || named[id] || (family != "" && languageFamily(s.Path) != family) {
			continue
		}
		seen[id] = true
		out = append(out, s)
	}
	slices.SortStableFunc(out, func(a, b search.Site) int {
		return cmp.Or(
			filetier.Compare(a.Path, b.Path),
			cmp.Compare(defLine(a), defLine(b)),
		)
	})
	return out
}

// defID identifies a definition across searches.
func defID(d *outline.Definition) string {
	return fmt.Sprintf("%s:%d:%s", d.Path, d.Line, d.Name)
}

// defLine is the line of the name of a site's definition, 0 at top level.
func defLine(s search.Site) int {
	if s.Def == nil {
		return 0
	}
	return s.Def.Line
}
