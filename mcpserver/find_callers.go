package mcpserver

import (
	"cmp"
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search"
	"github.com/zumba-dev/zumba/search/impact"
)

// callersAnswer is find_references with depth > 1: the definitions that
// use name, each with its own users indented under it, to depth.
func callersAnswer(ctx context.Context, s *Server, name, def, path string, filter *project.PathFilter, depth int) (string, bool) {
	// The tree shows no totals: the hits past each search's limit are
	// not counted.
	opts := search.RefOptions{Group: true, Code: true, Uncounted: true}
	find := func(ctx context.Context, name string, limit time.Duration) (*search.Sites, error) {
		o := opts
		o.TimeLimit = limit
		return s.searcher().Sites(ctx, name, filter, o, &s.parses)
	}
	// Go definitions' users are those whose uses resolve to them; a
	// qualified name (or a definition) picks the first one so too.
	byDef := func(ctx context.Context, d *outline.Definition, _ time.Duration) (*search.Sites, bool, error) {
		return resolvedCallers(ctx, s.searcher(), s, search.ResolveQuery{Definition: d.Path + ":" + strconv.Itoa(d.Line), Filter: filter, Group: true})
	}
	// The first search too, when the name picks one Go definition (or
	// a qualified name or a definition picks it).
	plain := find
	find = func(ctx context.Context, n string, limit time.Duration) (*search.Sites, error) {
		if n == name {
			q := search.ResolveQuery{Name: name, Definition: def, Filter: filter, Group: true, Unique: def == "" && !search.IsQualified(name)}
			if res, ok, err := resolvedCallers(ctx, s.searcher(), s, q); ok {
				return res, err
			}
		}
		return plain(ctx, n, limit)
	}
	// A root that sets its own parse time (the tests' hour) sets this one.
	limit := cmp.Or(s.cfg.Root.SiteTimeLimit, impact.CallerTimeLimit)
	tree, err := impact.ResolvedCallers(ctx, find, byDef, name, depth, search.RefLimit, limit)
	if err != nil {
		return toolError(err), true
	}
	return formatCallers(tree, name, path, opts), false
}

// formatCallers prints a caller tree: one "PATH:LINE KIND QUALIFIED.NAME"
// (or "PATH (top level)") per node, indented two spaces per level, with
// its mark; at most search.RefLimit lines in all, the last saying what was
// left out.
func formatCallers(t *impact.CallerTree, name, path string, opts search.RefOptions) string {
	if len(t.First.Sites) == 0 {
		return formatSites(t.First, name, path, opts)
	}
	if len(t.Nodes) == 0 {
		return "No code references to " + project.Echo(name) + " outside its own definitions."
	}
	nodes, unshown := t.Nodes, t.Unshown
	if (unshown > 0 || t.Partial) && len(nodes) >= search.RefLimit {
		// Room for the last line.
		nodes, unshown = nodes[:search.RefLimit-1], unshown+len(nodes)-(search.RefLimit-1)
	}
	var sb strings.Builder
	for _, n := range nodes {
		sb.WriteString(strings.Repeat("  ", n.Level-1))
		d := n.Site.Def
		if d == nil {
			sb.WriteString(n.Site.Path + " (top level)\n")
			continue
		}
		sb.WriteString(n.Site.Path + ":" + strconv.Itoa(d.Line) + " " + d.Kind.String() + " " + d.QualifiedName())
		switch n.Mark {
		case impact.SeeAbove:
			sb.WriteString(" (see above)")
		case impact.SeeBelow:
			sb.WriteString(" (see below)")
		case impact.OwnDefinition:
			sb.WriteString(" (definition)")
		}
		sb.WriteByte('\n')
	}
	switch {
	case unshown > 0 && t.Partial:
		sb.WriteString("… " + strconv.Itoa(unshown) + " more " + plural(unshown, "line", "lines") + " left out, and uses not searched; narrow it with path or a smaller depth")
	case unshown > 0:
		sb.WriteString("… " + strconv.Itoa(unshown) + " more " + plural(unshown, "line", "lines") + " left out; narrow it with path or a smaller depth")
	case t.Partial:
		sb.WriteString("… more uses not searched (a search stopped at " + strconv.Itoa(search.RefLimit) + " hit lines, or the time ran out); narrow it with path")
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// resolvedCallers is the resolved uses of the definition q picks, asked
// of sr, as callers of callers read them; ok is false when q picks no Go
// definition.
func resolvedCallers(ctx context.Context, sr search.Searcher, s *Server, q search.ResolveQuery) (*search.Sites, bool, error) {
	res, err := sr.Resolved(ctx, q, &s.parses)
	if err != nil {
		return nil, true, err
	}
	if res.Lang == "" || res.Building {
		return nil, false, nil
	}
	return res.CallerSites(), true, nil
}
