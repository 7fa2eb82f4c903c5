package mcpserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search"
	"github.com/zumba-dev/zumba/search/impact"
)

var findReferencesTool = &Tool{
	Name:        "find_references",
	Title:       "Find uses of a name",
	Description: "Lines that use a name as a whole word, case-sensitive, across the project's text files. At most 80 lines.",
	Params: []Param{
		{Name: "name", Description: "The name to find. A qualified name (File.Close, os.File.Close, Subscription.unsubscribe) lists only the uses that resolve to that definition, then those not resolved.", Required: true},
		{Name: "path", Description: "Only files matching these comma-separated globs, e.g. src/**, *.rs.", Required: false},
		{Name: "group", Description: "\"definition\": group the lines under the function, method or type that holds them, to see who uses the name.", Enum: []string{"definition"}},
		{Name: "code", Description: "true: leave out lines where the name is only in comments or strings, to see real uses.", Bool: true},
		{Name: "limit", Description: "Stop after this many hits (with group, definitions).", Int: true, Min: 1, Max: search.RefLimit},
		{Name: "definition", Description: "PATH:LINE of one definition, as find_symbol prints it: only the uses that resolve to it (Go, TypeScript, JavaScript, Python)."},
		{Name: "depth", Description: "2 or 3: also who uses each definition found, indented under it (callers of callers); implies group and code.", Int: true, Min: 1, Max: impact.MaxCallerDepth},
	},
	Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
		name, pathArg := strings.TrimSpace(args["name"]), args["path"]
		if name == "" {
			return "find_references: name is empty", true
		}
		filter, err := project.ParsePathFilter(pathArg)
		if err != nil {
			return toolError(err), true
		}
		limit, _ := strconv.Atoi(args["limit"])
		def := strings.TrimSpace(args["definition"])
		if depth, _ := strconv.Atoi(args["depth"]); depth > 1 {
			return callersAnswer(ctx, s, name, def, strings.TrimSpace(pathArg), filter, depth)
		}
		if def != "" || search.IsQualified(name) {
			q := search.ResolveQuery{Name: name, Definition: def, Filter: filter, Limit: limit, Group: args["group"] == "definition"}
			if text, isErr, ok := resolvedAnswer(ctx, s, q, strings.TrimSpace(pathArg)); ok {
				return text, isErr
			}
		}
		var res *search.RefResult
		if opts := (search.RefOptions{Group: args["group"] == "definition", Code: args["code"] == "true", Limit: limit}); opts != (search.RefOptions{}) {
			sites, err := s.searcher().Sites(ctx, name, filter, opts, &s.parses)
			if err != nil {
				return toolError(err), true
			}
			return formatSites(sites, name, strings.TrimSpace(pathArg), opts), false
		}
		res, err = s.searcher().References(ctx, name, filter)
		if errors.Is(err, search.ErrEmptyName) {
			return "find_references: name is empty", true
		}
		if err != nil {
			return toolError(err), true
		}
		return refsText(name, pathArg, filter, res), false
	},
}

// refsMore is find_references' last line when there are more than
// search.RefLimit.
const refsMore = "… more; narrow it with path"

// refsPartial is find_references' last line when the time limit stopped
// it before the index was built; it takes the files searched and the
// files there are.
const refsPartial = "… covered %d of %d files before the time limit; the index is still being built, so a later call will be complete"

// refsText prints the lines found one "PATH:LINE: TEXT" per line, then
// refsMore when more were left out, or refsPartial when the time limit
// stopped a search before the index was built; pathArg is the path
// argument as given, for the answer when nothing is found.
func refsText(name, pathArg string, filter *project.PathFilter, res *search.RefResult) string {
	if len(res.Refs) == 0 {
		if filter == nil {
			pathArg = ""
		}
		if listing(res.Building, res.Files) {
			return fmt.Sprintf("No references to %s yet: %s.", project.Echo(name), stillListing)
		}
		if res.Building {
			return fmt.Sprintf("No references to %s in the first %d of %d files, covered before the time limit; the index is still being built, so a later call will be complete.", project.Echo(name), res.Searched, res.Files)
		}
		return noReferences(name, strings.TrimSpace(pathArg))
	}
	var sb strings.Builder
	for i, r := range res.Refs {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(r.Path)
		sb.WriteByte(':')
		sb.WriteString(strconv.Itoa(r.Line))
		sb.WriteString(": ")
		sb.WriteString(r.Text)
	}
	if res.More {
		sb.WriteString("\n" + refsMore)
	} else if res.Building {
		sb.WriteString("\n" + fmt.Sprintf(refsPartial, res.Searched, res.Files))
	}
	return sb.String()
}

// noReferences is the answer when nothing uses the name; path is the
// path argument, "" when none was given.
func noReferences(name, path string) string {
	if path != "" {
		return fmt.Sprintf("No references to %s in files matching %s.", project.Echo(name), project.Echo(path))
	}
	return fmt.Sprintf("No references to %s.", project.Echo(name))
}

// formatSites prints the hits: a first line with the totals, then
// "PATH:LINE: TEXT" lines, or with Group one "PATH:LINE KIND
// QUALIFIED.NAME" header per definition (or "PATH (top level)") with its
// hits under it as "  LINE: TEXT" (but for the definition's own name
// line); then a last line counting what was left out.
func formatSites(res *search.Sites, name, path string, opts search.RefOptions) string {
	if res.Building {
		return fmt.Sprintf("No references to %s yet: %s.", project.Echo(name), stillListing)
	}
	var sb strings.Builder
	if len(res.Sites) == 0 && !res.More {
		switch {
		case opts.Code && res.InComments+res.InProse > 0:
			sb.WriteString("No code references to " + project.Echo(name))
			if path != "" {
				sb.WriteString(" in files matching " + project.Echo(path))
			}
			sb.WriteString(": " + leftOut(res) + ".")
		default:
			return noReferences(name, path)
		}
		return sb.String()
	}
	sites, imports := res.Sites, 0
	var reexports []search.Site
	if opts.Group {
		sites, reexports = withoutReexports(sites)
		sites, imports = withoutImports(sites)
	}
	sb.WriteString(totalsLine(res, name, opts, sites))
	if imports > 0 {
		sb.WriteString(" (" + strconv.Itoa(imports) + " import " + plural(imports, "line", "lines") + " not listed)")
	}
	sb.WriteByte('\n')
	if opts.Group {
		writeGroups(&sb, sites)
		writeReexports(&sb, reexports)
	} else {
		for _, st := range res.Sites {
			sb.WriteString(st.Path + ":" + strconv.Itoa(st.Line) + ": " + st.Text + "\n")
		}
	}
	if res.More {
		sb.WriteString("… ")
		if res.MoreAtLeast {
			sb.WriteString("at least ")
		}
		sb.WriteString(strconv.Itoa(res.MoreHits) + " more " + hitsWord(res.MoreHits, opts) + " in ")
		if res.MoreAtLeast {
			sb.WriteString("at least ")
		}
		sb.WriteString(strconv.Itoa(res.MoreFiles) + " " + plural(res.MoreFiles, "file", "files"))
		sb.WriteString("; narrow it with path")
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// hitsWord is "hit" or "hits" for n, "code hit(s)" with code: the
// counts are then of code alone.
func hitsWord(n int, opts search.RefOptions) string {
	if opts.Code {
		return plural(n, "code hit", "code hits")
	}
	return plural(n, "hit", "hits")
}

// maxReexports is how many re-export lines the grouped answer names.
const maxReexports = 5

// withoutReexports takes out of grouped hits the lines at a file's top
// level that re-export the name from another module (JavaScript's and
// TypeScript's export … from, Rust's pub use): they pass it on, they do
// not use it.
func withoutReexports(sites []search.Site) (kept, reexports []search.Site) {
	kept = sites[:0:0]
	for _, st := range sites {
		if st.Def == nil && reexportLine(st.Text) {
			reexports = append(reexports, st)
			continue
		}
		kept = append(kept, st)
	}
	return kept, reexports
}

// reexportLine reports whether a hit's (trimmed) line re-exports names.
func reexportLine(l string) bool {
	return strings.HasPrefix(l, "export ") && strings.Contains(l, " from ") ||
		strings.HasPrefix(l, "pub use ")
}

// writeReexports writes the re-export lines as one last group:
// "re-exported by N files: PATH:LINE, …", at most maxReexports places.
func writeReexports(sb *strings.Builder, reexports []search.Site) {
	if len(reexports) == 0 {
		return
	}
	files := 0
	var places []string
	for i, st := range reexports {
		if i == 0 || st.Path != reexports[i-1].Path {
			files++
		}
		if len(places) < maxReexports {
			places = append(places, st.Path+":"+strconv.Itoa(st.Line))
		}
	}
	if len(reexports) > maxReexports {
		places = append(places, "…")
	}
	sb.WriteString("re-exported by " + strconv.Itoa(files) + " " + plural(files, "file", "files") + ": " + strings.Join(places, ", ") + "\n")
}

// totalsLine is the first line of an answer with options: "N hits in M
// files" ("code hits" with code), grouped "… under K definitions"; the
// name line of a definition of the name is not a hit there. When the
// hits are only those lines, it says so. listed are the hits listed in
// groups: "at top level" when some of them are (not the import and
// re-export lines left out of the groups).
func totalsLine(res *search.Sites, name string, opts search.RefOptions, listed []search.Site) string {
	t := res.Totals()
	hits := t.Hits
	if opts.Group {
		hits -= t.Own
		if hits == 0 && !res.More {
			return "No references to " + project.Echo(name) + " outside its own " + plural(t.Own, "definition", "definitions") + ":"
		}
		t.TopLevel = slices.ContainsFunc(listed, func(st search.Site) bool { return st.Def == nil })
	}
	atLeast := ""
	if t.AtLeast {
		atLeast = "at least "
	}
	line := atLeast + strconv.Itoa(hits) + " " + hitsWord(hits, opts) + " in " + atLeast + strconv.Itoa(t.Files) + " " + plural(t.Files, "file", "files")
	if !opts.Group {
		return line
	}
	where := ""
	switch {
	case t.Defs == 0:
		where = "at top level"
	case t.TopLevel:
		where = "under " + strconv.Itoa(t.Defs) + " " + plural(t.Defs, "definition", "definitions") + " and at top level"
	default:
		where = "under " + strconv.Itoa(t.Defs) + " " + plural(t.Defs, "definition", "definitions")
	}
	if res.More {
		return line + "; those shown " + where
	}
	return line + " " + where
}

// withoutImports leaves out of grouped hits the import lines at the top
// level of a file that also uses the name inside its definitions: those
// definitions say that the file uses it, and an import line per file
// would double what a "who uses it" answer costs. It returns the hits
// kept and how many were left out.
func withoutImports(sites []search.Site) ([]search.Site, int) {
	inDefs := map[string]bool{}
	for _, st := range sites {
		if st.Def != nil {
			inDefs[st.Path] = true
		}
	}
	kept := sites[:0:0]
	for _, st := range sites {
		if st.Def == nil && inDefs[st.Path] && importLine(st.Text) {
			continue
		}
		kept = append(kept, st)
	}
	return kept, len(sites) - len(kept)
}

// importLine reports whether a hit's (trimmed) line imports names:
// JavaScript, TypeScript, Python, Java, Kotlin, Scala and Go imports,
// re-exports from another module, Rust's and PHP's use, C's #include and
// CommonJS's require.
func importLine(l string) bool {
	switch {
	case strings.HasPrefix(l, "import ") || strings.HasPrefix(l, "import{") || strings.HasPrefix(l, "#include"):
		return true
	case strings.HasPrefix(l, "from ") && strings.Contains(l, " import "):
		return true
	case strings.HasPrefix(l, "export ") && strings.Contains(l, " from "):
		return true
	case strings.HasPrefix(l, "use ") || strings.HasPrefix(l, "pub use "):
		return true
	case strings.Contains(l, "require(") && (strings.HasPrefix(l, "const ") || strings.HasPrefix(l, "var ") || strings.HasPrefix(l, "let ")):
		return true
	}
	return false
}

// writeGroups writes each file's hits grouped under the innermost
// definition that holds them: the hits at top level first, then the
// definitions in the order of their name lines, each group's hits in line
// order.
func writeGroups(sb *strings.Builder, sites []search.Site) {
	for i := 0; i < len(sites); {
		j := i
		for j < len(sites) && sites[j].Path == sites[i].Path {
			j++
		}
		file := slices.Clone(sites[i:j])
		slices.SortStableFunc(file, func(a, b search.Site) int {
			return cmp.Compare(groupKey(a), groupKey(b))
		})
		for k, st := range file {
			if k == 0 || st.Def != file[k-1].Def {
				writeHeader(sb, st, file[k:])
			}
			if !st.Own {
				sb.WriteString("  " + strconv.Itoa(st.Line) + ": " + st.Text + "\n")
			}
		}
		i = j
	}
}

// groupKey orders a file's groups: top level first, then by the line of
// the definition's name.
func groupKey(s search.Site) int {
	if s.Def == nil {
		return 0
	}
	return s.Def.Line
}

// writeHeader writes the header of the group of first, marking the
// definition of the name itself when one of the group's hits (in rest) is
// on its name line.
func writeHeader(sb *strings.Builder, first search.Site, rest []search.Site) {
	d := first.Def
	if d == nil {
		sb.WriteString(first.Path + " (top level)\n")
		return
	}
	sb.WriteString(first.Path + ":" + strconv.Itoa(d.Line) + " " + d.Kind.String() + " " + d.QualifiedName())
	// The set's signatures, whose hits are under their implementation,
	// are its own name lines but d's.
	own, sigs := false, 0
	for _, s := range rest {
		if s.Def == d && s.Own {
			own = true
			if s.Line != d.Line {
				sigs++
			}
		}
	}
	switch {
	case sigs > 0:
		sb.WriteString(" (definition and " + strconv.Itoa(sigs) + " " + plural(sigs, "signature", "signatures") + ")")
	case own:
		sb.WriteString(" (definition)")
	}
	sb.WriteByte('\n')
}

// leftOut says where the hits left out by code are.
func leftOut(res *search.Sites) string {
	var parts []string
	if n := res.InComments; n > 0 {
		parts = append(parts, strconv.Itoa(n)+" "+plural(n, "hit", "hits")+" in comments or strings")
	}
	if n := res.InProse; n > 0 {
		parts = append(parts, strconv.Itoa(n)+" "+plural(n, "hit", "hits")+" in Markdown or files without a grammar")
	}
	return strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
