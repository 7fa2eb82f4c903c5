package search

import (
	"cmp"
	"context"
	"slices"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
)

// limitedSites is ReferenceSites with opts.Limit applied: at most that
// many hits, or with Group that many groups, and never more than RefLimit
// hits.
func limitedSites(ctx context.Context, files []project.Entry, src project.Source, name string, opts RefOptions, cache *ParseCache) (*Sites, error) {
	limit := RefLimit
	if opts.Limit > 0 && !opts.Group {
		limit = min(opts.Limit, RefLimit)
	}
	res, err := ReferenceSites(ctx, files, src, name, opts, limit, cache)
	if err != nil {
		return nil, err
	}
	if opts.Group && opts.Limit > 0 {
		res.limitGroups(opts.Limit)
	}
	return res, nil
}

// SortGroups orders each file's sites (sites hold each file's together)
// as group=definition lists them: the hits at top level first, then the
// definitions in the order of their name lines, each group's hits in line
// order.
func SortGroups(sites []Site) {
	for i := 0; i < len(sites); {
		j := i
		for j < len(sites) && sites[j].Path == sites[i].Path {
			j++
		}
		slices.SortStableFunc(sites[i:j], func(a, b Site) int {
			return cmp.Compare(groupLine(a), groupLine(b))
		})
		i = j
	}
}

// groupLine orders a file's groups: top level first, then by the line of
// the definition's name.
func groupLine(s Site) int {
	if s.Def == nil {
		return 0
	}
	return s.Def.Line
}

// limitGroups keeps the sites of the first n groups (a definition's hits,
// or a file's top-level ones), in SortGroups' order, and counts the rest
// as left out. A group of a definition's own name line alone is kept
// without being counted: it shows no use.
func (s *Sites) limitGroups(n int) {
	SortGroups(s.Sites)
	groups, keep := 0, len(s.Sites)
	for i := 0; i < len(s.Sites) && keep == len(s.Sites); {
		j, uses := i, false
		for j < len(s.Sites) && s.Sites[j].Path == s.Sites[i].Path && s.Sites[j].Def == s.Sites[i].Def {
			uses = uses || !s.Sites[j].Own
			j++
		}
		if uses {
			if groups++; groups == n && j < len(s.Sites) {
				keep = j
			}
		}
		i = j
	}
	if keep == len(s.Sites) {
		return
	}
	rest := s.Sites[keep:]
	files := 0
	for i, st := range rest {
		if i == 0 || st.Path != rest[i-1].Path {
			files++
		}
	}
	// The file cut inside before (the last shown) is among rest's and
	// already counted.
	if s.split {
		files--
	}
	s.More = true
	s.MoreHits += len(rest)
	s.MoreFiles += files
	s.split = rest[0].Path == s.Sites[keep-1].Path
	s.Sites = s.Sites[:keep:keep]
}

// Totals is what a find_references search with options found in all.
type Totals struct {
	// Hits and Files count the hit lines, shown and left out, and the
	// files holding them; AtLeast is set when counting those left out
	// stopped at CountTimeLimit.
	Hits, Files int
	AtLeast     bool
	// Own counts the hits shown that are the name line of a definition
	// of the name (Site.Own).
	Own int
	// Defs counts the definitions holding the hits shown, other than
	// their own name lines; TopLevel is set when some hits shown are
	// outside every definition.
	Defs     int
	TopLevel bool
}

// Totals counts what s found.
func (s *Sites) Totals() Totals {
	t := Totals{Hits: len(s.Sites) + s.MoreHits, Files: s.MoreFiles, AtLeast: s.MoreAtLeast}
	if s.split {
		t.Files--
	}
	defs := map[*outline.Definition]bool{}
	for i, st := range s.Sites {
		if i == 0 || st.Path != s.Sites[i-1].Path {
			t.Files++
		}
		switch {
		case st.Own:
			t.Own++
		case st.Def == nil:
			t.TopLevel = true
		default:
			defs[st.Def] = true
		}
	}
	t.Defs = len(defs)
	return t
}
