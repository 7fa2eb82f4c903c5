package mcpserver

import (
	"cmp"
	"context"
	"strconv"
	"strings"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search"
	"github.com/zumba-dev/zumba/search/resolve"
)

// resolvedAnswer is find_references of one definition, picked by a
// qualified name or a definition argument: its uses resolved. ok is
// false when the name picks no definition a resolver reads (of none of
// search.ResolvedLanguages): the caller answers the name as text, as
// before.
func resolvedAnswer(ctx context.Context, s *Server, q search.ResolveQuery, path string) (text string, isError, ok bool) {
	res, err := s.searcher().Resolved(ctx, q, &s.parses)
	if err != nil {
		return toolError(err), true, true
	}
	if res.Building {
		return "No resolved uses of " + project.Echo(cmp.Or(q.Definition, q.Name)) + " yet: the index is still being built, and resolving needs it; a later call will answer (a bare name is searched as text now)", false, true
	}
	if res.Lang == "" {
		if q.Definition != "" {
			return "find_references: the definition at " + project.Echo(q.Definition) + " is not one whose uses zumba resolves (" + strings.Join(search.ResolvedLanguages(), ", ") + " definitions only); search its name instead", true, true
		}
		return "", false, false
	}
	return formatResolved(res, path, q.Group), false, true
}

// formatResolved prints the uses of a definition: the totals line, the
// uses, those through each interface ("through interface io.Closer:"),
// those not resolved ("may refer to it (not resolved):"), then what was
// left out and the other definitions of the name.
func formatResolved(res *search.Resolved, path string, group bool) string {
	var sb strings.Builder
	t := res.Targets[0]
	name := qualifiedName(res)
	var places []string
	for _, d := range res.Targets {
		places = append(places, d.Path+":"+strconv.Itoa(d.Line))
	}
	sb.WriteString(strconv.Itoa(res.Uses) + " " + plural(res.Uses, "line uses", "lines use") + " " + name + " (" + strings.Join(places, ", ") + ")")
	sb.WriteString(" in " + strconv.Itoa(res.Files) + " " + plural(res.Files, "file", "files"))
	if path != "" {
		sb.WriteString(" matching " + project.Echo(path))
	}
	if res.Through > 0 {
		if res.Lang == "Go" {
			sb.WriteString("; " + strconv.Itoa(res.Through) + " through interfaces")
		} else {
			sb.WriteString("; " + strconv.Itoa(res.Through) + " through base types and overrides")
		}
	}
	if res.Unresolved > 0 {
		sb.WriteString("; " + strconv.Itoa(res.Unresolved) + " not resolved")
	}
	sb.WriteByte('\n')
	_ = t
	for i := 0; i < len(res.Sites); {
		j := i
		for j < len(res.Sites) && res.Sites[j].Class == res.Sites[i].Class && res.Sites[j].Via == res.Sites[i].Via {
			j++
		}
		switch res.Sites[i].Class {
		case resolve.Through:
			sb.WriteString("through " + res.Sites[i].Via + ":\n")
		case resolve.Unresolved:
			sb.WriteString("may refer to it (not resolved):\n")
		}
		sites := make([]search.Site, 0, j-i)
		for _, s := range res.Sites[i:j] {
			sites = append(sites, s.Site)
		}
		if group {
			writeGroups(&sb, sites)
		} else {
			for _, st := range sites {
				sb.WriteString(st.Path + ":" + strconv.Itoa(st.Line) + ": " + st.Text + "\n")
			}
		}
		i = j
	}
	if res.More {
		left := res.Uses + res.Through + res.Unresolved - len(res.Sites)
		sb.WriteString("… " + strconv.Itoa(left) + " more " + plural(left, "line", "lines") + "; narrow it with path\n")
	}
	if len(res.Others) > 0 {
		var others []string
		for k, d := range res.Others {
			if k == maxOthers {
				others = append(others, "…")
				break
			}
			others = append(others, d.Path+":"+strconv.Itoa(d.Line))
		}
		sb.WriteString("other definitions of the name, not listed: " + strings.Join(others, ", ") + "; pass definition PATH:LINE to pick one\n")
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// maxOthers is how many other definitions of the name the answer names.
const maxOthers = 8

// qualifiedName is the listed definition's name with its package or
// module: "os.File.Close", "http.client.HTTPConnection.close".
func qualifiedName(res *search.Resolved) string {
	d := res.Targets[0]
	q := d.QualifiedName()
	if res.Package != "" && !strings.HasPrefix(q, res.Package+".") {
		q = res.Package + "." + q
	}
	return q
}
