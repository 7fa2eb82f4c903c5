package mcpserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search"
	"github.com/zumba-dev/zumba/search/impact"
)

var changesTool = &Tool{
	Name:        "changes",
	Title:       "What changed",
	Description: "The definitions the uncommitted change (or the branch since base) adds, modifies or removes, and who uses them. Use it to review a change or check its reach.",
	Params: []Param{
		{Name: "base", Description: "Compare with the merge base of this commit or branch and HEAD (e.g. main) instead of HEAD.", Required: false},
		{Name: "path", Description: "Only files matching these comma-separated globs, e.g. src/**, *.rs.", Required: false},
		{Name: "depth", Description: "2 or 3: also who uses each user, indented under it.", Int: true, Min: 1, Max: impact.MaxChangesDepth},
	},
	Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
		filter, err := project.ParsePathFilter(args["path"])
		if err != nil {
			return toolError(err), true
		}
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, changesTimeLimit)
			defer cancel()
		}
		base := strings.TrimSpace(args["base"])
		uses := func(ctx context.Context, name string, limit time.Duration) (*search.Sites, error) {
			return s.engine().Sites(ctx, name, nil, search.RefOptions{Group: true, Code: true, Uncounted: true, TimeLimit: limit}, &s.parses)
		}
		// A Go definition's users are the uses that resolve to it.
		byDef := func(ctx context.Context, d *outline.Definition, _ time.Duration) (*search.Sites, bool, error) {
			return resolvedCallers(ctx, s.engine(), s, search.ResolveQuery{Definition: d.Path + ":" + strconv.Itoa(d.Line), Group: true})
		}
		cs, err := impact.ChangesResolved(ctx, s.cfg.Root.Root, base, filter, uses, byDef)
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				// The work tree's comparison with the base (every tracked
				// file's stat) did not end in time: path does not narrow
				// it, and what was read is not an answer.
				return "changes: the work tree was not compared with " + project.Echo(cmp.Or(base, "HEAD")) + " within the time limit (a large repository on a busy machine); try again", true
			}
			return "changes: " + err.Error(), true
		}
		if depth, _ := strconv.Atoi(args["depth"]); depth > 1 {
			// The users' own users, searched in the files path keeps, as
			// find_references depth searches them.
			callers := func(ctx context.Context, name string, limit time.Duration) (*search.Sites, error) {
				return s.engine().Sites(ctx, name, filter, search.RefOptions{Group: true, Code: true, Uncounted: true, TimeLimit: limit}, &s.parses)
			}
			cs.ByDef = func(ctx context.Context, d *outline.Definition, _ time.Duration) (*search.Sites, bool, error) {
				return resolvedCallers(ctx, s.engine(), s, search.ResolveQuery{Definition: d.Path + ":" + strconv.Itoa(d.Line), Filter: filter, Group: true})
			}
			// A root that sets its own parse time (the tests' hour) sets
			// this one, as find_references depth's.
			cs.FindCallers(ctx, callers, depth, s.cfg.Root.SiteTimeLimit)
		}
		s.showChanges(cs)
		return changesText(cs), false
	},
}

// showChanges shows cs's paths as answers show them (Server.shown).
func (s *Server) showChanges(cs *impact.ChangeSet) {
	if s.cfg.name == "" {
		return
	}
	for i := range cs.Defs {
		d := &cs.Defs[i]
		d.Def.Path = s.shown(d.Def.Path)
		d.Uses = slices.Clone(d.Uses)
		for j := range d.Uses {
			d.Uses[j].Path = s.shown(d.Uses[j].Path)
		}
		for j := range d.Below {
			d.Below[j] = slices.Clone(d.Below[j])
			for k := range d.Below[j] {
				d.Below[j][k].Site.Path = s.shown(d.Below[j][k].Site.Path)
			}
		}
	}
	for i := range cs.Files {
		f := &cs.Files[i]
		if f.Path != "" {
			f.Path = s.shown(f.Path)
		}
		if f.OldPath != "" {
			f.OldPath = s.shown(f.OldPath)
		}
	}
}

// changesTimeLimit bounds a changes call when its client set no deadline:
// inside the 5 s clients wait.
const changesTimeLimit = 4 * time.Second

// maxChangesLines bounds a changes answer, as read_symbol's lines are.
const maxChangesLines = 200

// changesText prints a change set: a line of counts, then each changed
// definition with up to impact.MaxUses of its uses, then the changed
// lines outside any definition, file by file; at most maxChangesLines
// lines and maxOutlineAnswer bytes, with a last line saying what was cut.
func changesText(cs *impact.ChangeSet) string {
	var added, modified, removed int
	for _, d := range cs.Defs {
		switch d.Kind {
		case impact.Added:
			added++
		case impact.Removed:
			removed++
		default:
			modified++
		}
	}
	if len(cs.Files) == 0 {
		return "No changes since " + project.Echo(cs.Base) + "."
	}
	var lines []string
	lines = append(lines, fmt.Sprintf("%d %s changed in %d %s (%d added, %d modified, %d removed) since %s",
		len(cs.Defs), plural(len(cs.Defs), "definition", "definitions"), len(cs.Files), plural(len(cs.Files), "file", "files"),
		added, modified, removed, project.Echo(cs.Base)))
	if cs.Unread > 0 {
		lines[0] += fmt.Sprintf("; the definitions of %d %s were not read in time, narrow it with path", cs.Unread, plural(cs.Unread, "file", "files"))
	}
	var rest []string
	for _, d := range cs.Defs {
		rest = append(rest, changedDefLines(&d)...)
	}
	for _, f := range cs.Files {
		if l := changedFileLine(&f); l != "" {
			rest = append(rest, l)
		}
	}
	if cs.DeepPartial {
		rest = append(rest, "… some users' own users were not searched (the time ran out, or a search stopped at "+strconv.Itoa(search.RefLimit)+" hit lines); find_references NAME depth=2 lists them")
	}
	size := len(lines[0])
	for i, l := range rest {
		if len(lines) == maxChangesLines-1 || size+len(l)+1 > maxOutlineAnswer-200 {
			lines = append(lines, fmt.Sprintf("… %d more lines; narrow it with path", len(rest)-i))
			break
		}
		lines = append(lines, l)
		size += len(l) + 1
	}
	return strings.Join(lines, "\n")
}

// changedDefLines is a changed definition's line and its uses' lines.
func changedDefLines(d *impact.ChangedDef) []string {
	n := d.Def.End - d.Def.Start + 1
	head := fmt.Sprintf("%s:%d %s %s (%d %s, +%d -%d)", d.Def.Path, d.Def.Line, d.Def.Kind, d.Def.QualifiedName(), n, plural(n, "line", "lines"), d.Added, d.Deleted)
	switch d.Kind {
	case impact.Added:
		head += " added"
	case impact.Removed:
		head += " removed"
	}
	out := []string{head}
	for k, u := range d.Uses {
		var notes []string
		if k < len(d.UsesAbove) && d.UsesAbove[k] {
			notes = append(notes, "see above")
		}
		out = append(out, "  used by "+useText(&u, notes...))
		if k < len(d.Below) {
			for _, n := range d.Below[k] {
				out = append(out, useNodeLine(&n))
			}
		}
	}
	switch {
	case d.MoreUses > 0:
		out = append(out, fmt.Sprintf("  … %d more %s in %d %s", d.MoreUses, plural(d.MoreUses, "use", "uses"), d.MoreUseDefs, plural(d.MoreUseDefs, "definition", "definitions")))
	case d.MoreUsesUncounted && len(d.Uses) > 0:
		out = append(out, "  … more uses; find_references "+d.Def.LastSegment()+" group=definition code=true lists them")
	case d.MoreUsesUncounted:
		out = append(out, "  … uses not searched in time; find_references "+d.Def.LastSegment()+" group=definition code=true lists them")
	}
	return out
}

// changedFileLine is a file's line: the lines it changed outside any
// definition, a rename, or the counts of a file whose definitions are not
// known; "" when its definitions said it all.
func changedFileLine(f *impact.ChangedFile) string {
	path := cmp.Or(f.Path, f.OldPath)
	var notes []string
	switch {
	case f.Path == "":
		notes = append(notes, "deleted")
	case f.OldPath == "":
		notes = append(notes, "new")
	case f.OldPath != f.Path:
		notes = append(notes, "renamed from "+f.OldPath)
	}
	if f.Submodule {
		return path + noteText(append(notes, "submodule: its checked-out commit changed"))
	}
	if f.Filter != "" {
		notes = append(notes, "filter "+f.Filter+": compared as stored")
	}
	switch {
	case f.Binary:
		notes = append(notes, "binary")
	case f.NoDefinitions:
		notes = append(notes, "+"+strconv.Itoa(f.Added)+" -"+strconv.Itoa(f.Deleted)+", no definitions read")
	case f.TopAdded+f.TopDeleted > 0:
		return fmt.Sprintf("%s (top level) +%d -%d%s", path, f.TopAdded, f.TopDeleted, noteText(notes))
	case f.Filter != "":
	case f.OldPath == f.Path || f.Path == "" || f.OldPath == "":
		return ""
	}
	return path + noteText(notes)
}

func noteText(notes []string) string {
	if len(notes) == 0 {
		return ""
	}
	return " (" + strings.Join(notes, ", ") + ")"
}

// useText names the definition of a use by its name's line, as every
// answer names a definition, then in parentheses where it uses the name
// when that is another line, and the notes: "b.go:5 function H (at line
// 7; see above)".
func useText(u *search.Site, notes ...string) string {
	text := fmt.Sprintf("%s:%d %s %s", u.Path, u.Def.Line, u.Def.Kind, u.Def.QualifiedName())
	if u.Line != u.Def.Line {
		notes = append([]string{fmt.Sprintf("at line %d", u.Line)}, notes...)
	}
	if len(notes) > 0 {
		text += " (" + strings.Join(notes, "; ") + ")"
	}
	return text
}

// useNodeLine is a line below a direct user: "used by" a definition,
// indented two spaces per level as find_references depth indents, marked
// when its users are listed elsewhere; or how many more were left out.
func useNodeLine(n *impact.UseNode) string {
	indent := strings.Repeat("  ", n.Level)
	if n.More > 0 {
		return fmt.Sprintf("%s… %d more %s", indent, n.More, plural(n.More, "user", "users"))
	}
	var notes []string
	switch {
	case n.Changed:
		notes = append(notes, "changed")
	case n.Mark == impact.SeeAbove:
		notes = append(notes, "see above")
	}
	return indent + "used by " + useText(&n.Site, notes...)
}
