package impact

import (
	"cmp"
	"context"
	"time"

	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search"
)

// Changes with depth: under each direct user of a changed definition,
// the definitions that use the user's name, to the depth asked, as
// find_references' depth finds callers of callers (see Callers).

// UseNode is one line below a changed definition's direct users: a
// definition that uses the name of the definition above it, at Level 2
// or 3 (the direct users, ChangedDef.Uses, are level 1); or, with More
// set, how many more such definitions were left out at that level.
type UseNode struct {
	Level int
	// Site is the definition's first use of the name above it.
	Site search.Site
	// Mark is SeeAbove when its users are listed above (or it is a
	// changed definition, listed on its own line), else Expanded.
	Mark CallerMark
	// Changed: it is one of the changed definitions.
	Changed bool
	More    int
}

// MaxChangesDepth is the deepest a changes call's users go.
const MaxChangesDepth = MaxCallerDepth

// FindCallers fills, for the changed definitions whose direct users were
// found (Changes), each user's own users, to depth (2 or 3; 1 does
// nothing), at most MaxUses per definition, through uses. Each
// definition's users are listed once in the answer; a definition met again
// is marked SeeAbove. The searches take at most limit in all (0:
// CallerTimeLimit) and stop at 7/8 of the time ctx has left; past it the users not yet
// searched are left out and DeepPartial is set. Only uses in files of
// the user's language family count.
func (cs *ChangeSet) FindCallers(ctx context.Context, uses UsesFunc, depth int, limit time.Duration) {
	if depth < 2 || uses == nil {
		return
	}
	end := search.StopBy(ctx, cmp.Or(limit, CallerTimeLimit))
	if d, ok := ctx.Deadline(); ok {
		if soft := time.Now().Add(time.Until(d) * 7 / 8); soft.Before(end) {
			end = soft
		}
	}
	w := &changeWalk{ctx: ctx, uses: uses, depth: depth, end: end, cs: cs,
		changed: map[string]bool{}, expanded: map[string]bool{}, searched: map[string]*search.Sites{}}
	for i := range cs.Defs {
		w.changed[defID(&cs.Defs[i].Def)] = true
	}
	for i := range cs.Defs {
		d := &cs.Defs[i]
		if len(d.Uses) == 0 {
			continue
		}
		d.Below = make([][]UseNode, len(d.Uses))
		for k := range d.Uses {
			u := d.Uses[k].Def
			if u == nil {
				continue
			}
			if w.expanded[defID(u)] {
				if d.UsesAbove == nil {
					d.UsesAbove = make([]bool, len(d.Uses))
				}
				d.UsesAbove[k] = true
				continue
			}
			w.expanded[defID(u)] = true
			d.Below[k] = w.walk(u, 2, nil)
		}
	}
}

// changeWalk is one FindCallers call's state.
type changeWalk struct {
	ctx   context.Context
	uses  UsesFunc
	depth int
	end   time.Time
	cs    *ChangeSet
	// changed: the changed definitions; expanded: the definitions whose
	// users are listed. By defID.
	changed, expanded map[string]bool
	// searched: each name's search, done once.
	searched map[string]*search.Sites
}

// walk appends to out the users of parent at level, each followed by its
// own users, and returns out.
func (w *changeWalk) walk(parent *outline.Definition, level int, out []UseNode) []UseNode {
	if level > w.depth {
		return out
	}
	sites, ok := w.users(parent)
	if !ok {
		return out
	}
	for i, s := range sites {
		if i == MaxUses {
			out = append(out, UseNode{Level: level, More: len(sites) - i})
			break
		}
		id := defID(s.Def)
		n := UseNode{Level: level, Site: s, Changed: w.changed[id]}
		if n.Changed || w.expanded[id] {
			n.Mark = SeeAbove
			out = append(out, n)
			continue
		}
		out = append(out, n)
		if level < w.depth {
			w.expanded[id] = true
			out = w.walk(s.Def, level+1, out)
		}
	}
	return out
}

// users is the definitions that use d's name in code in files of d's
// language family, one site each, ranked, without d itself and uses at
// top level; ok is false when d's name cannot be searched or the time ran
// out.
func (w *changeWalk) users(d *outline.Definition) ([]search.Site, bool) {
	name := d.LastSegment()
	if !plainName(name) {
		return nil, false
	}
	left := time.Until(w.end)
	found, ok := knownUses(w.ctx, w.searched, w.cs.ByDef, d, left)
	if !ok {
		if w.ctx.Err() != nil || left <= 0 {
			w.cs.DeepPartial = true
			return nil, false
		}
		var err error
		if found, err = w.uses(w.ctx, name, left); err != nil {
			found = nil
		}
		w.searched[name] = found
	}
	if found == nil {
		w.cs.DeepPartial = true
		return nil, false
	}
	if found.More {
		w.cs.DeepPartial = true
	}
	var out []search.Site
	for _, s := range callerSites(found.Sites, languageFamily(d.Path), defID(d)) {
		if s.Def != nil {
			out = append(out, s)
		}
	}
	return out, true
}
