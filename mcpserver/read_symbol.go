package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/mcpserver/srcview"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search"
)

var readSymbolTool = &Tool{
	Name:        "read_symbol",
	Title:       "Read a definition",
	Description: "The source of a function, method, type, constant or heading section, by name, Type.method or path:line. One call instead of find_symbol, outline and a read.",
	Params: []Param{
		{Name: "name", Description: "A name (parse), a qualified name (Server.Serve, Type::method) or path:line (src/x.rs:120)."},
		{Name: "names", Description: "Several of those, read in order in one call.", List: maxNames},
		{Name: "full", Description: "true: show a doc comment of over 12 lines whole.", Bool: true},
	},
	Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
		o := readOpts{full: args["full"] == "true", budget: readBudget, shown: s.shown}
		names := args.List("names")
		if len(names) == 0 || args["name"] != "" {
			names = append([]string{args["name"]}, names...)
		}
		if len(names) == 1 {
			return s.readSymbol(ctx, names[0], o)
		}
		return s.readNames(ctx, names, o)
	},
}

// maxNames is how many names one read_symbol call reads.
const maxNames = 10

// readNames answers read_symbol for several names, in order, each as one
// name is answered, sharing one budget of source lines; the names left
// when it is used up are named on a last line. It is an error only when
// every name is.
func (s *Server) readNames(ctx context.Context, names []string, o readOpts) (string, bool) {
	var parts []string
	left, failed := o.budget, 0
	for i, name := range names {
		if left <= 0 {
			rest := make([]string, 0, len(names)-i)
			for _, n := range names[i:] {
				rest = append(rest, project.Echo(n))
			}
			parts = append(parts, fmt.Sprintf("… not read, the %d lines are used up: %s; read them in another call", o.budget, strings.Join(rest, ", ")))
			break
		}
		text, isError := s.readSymbol(ctx, name, readOpts{full: o.full, budget: left, shown: o.shown})
		if isError {
			failed++
		}
		left -= strings.Count(text, "\n") + 1
		parts = append(parts, text)
	}
	return strings.Join(parts, "\n\n"), failed == len(names)
}

// readOpts are a read_symbol call's options: full shows long doc
// comments whole; budget is the source lines the answer may show.
type readOpts struct {
	full   bool
	budget int
	// shown shows a path of the root as answers show it (Server.shown).
	shown func(string) string
}

// path is the root's path p as the answer shows it.
func (o readOpts) path(p string) string {
	if o.shown == nil {
		return p
	}
	return o.shown(p)
}

// def is d with its path as the answer shows it.
func (o readOpts) def(d *outline.Definition) *outline.Definition {
	if o.shown == nil {
		return d
	}
	c := *d
	c.Path = o.shown(d.Path)
	return &c
}

// readBudget is the most source lines one read_symbol answer shows;
// markers and headers are not counted. 200 lines of at most 300
// characters stay well under the 25,000 tokens clients accept.
const readBudget = 200

// readMaxBodies is how many definitions of one name show their source;
// readMaxPlaces how many more are listed by place; readMaxList how many
// names containing the name the fallback lists.
const (
	readMaxBodies = 3
	readMaxPlaces = 10
	readMaxList   = 40
)

// locationRE matches "PATH:LINE", and "PATH:LINE:COL" and
// "PATH:START-END" as compilers and read_symbol's headers print them.
var locationRE = regexp.MustCompile(`^(.+?):(\d+)(?:[:-]\d+)?$`)

// parseLocation reads a location. The path must look like one (hold a
// "/", a backslash or ".") or name a file of the project (Dockerfile), so
// a heading named "Step:2" stays a name.
func parseLocation(root *search.Root, q string) (path string, line int, ok bool) {
	m := locationRE.FindStringSubmatch(q)
	if m == nil {
		return "", 0, false
	}
	if !strings.ContainsAny(m[1], "/.\\") {
		f, _, err := root.Open(m[1])
		if err != nil {
			return "", 0, false
		}
		f.Close()
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return "", 0, false
	}
	return m[1], n, true
}

// readSymbol answers read_symbol for a name, a qualified name or a
// location.
func (s *Server) readSymbol(ctx context.Context, name string, o readOpts) (string, bool) {
	q := strings.TrimSpace(name)
	if q == "" {
		return "read_symbol: name is empty; give a name, Type.method or path:line", true
	}
	if loc, ok := frameLocation(q); ok {
		q = loc
	} else if f, ok := javaFrame(q); ok {
		return s.readJavaFrame(ctx, f, o)
	}
	if path, line, ok := parseLocation(s.cfg.Root, q); ok {
		return readAt(ctx, s.cfg.Root, path, line, o)
	}
	return s.readByName(ctx, q, o)
}

// ReadSymbol answers the read_symbol tool for name in the project root,
// searching the files directly.
func ReadSymbol(ctx context.Context, root *search.Root, name string) (string, bool) {
	return New(Config{Root: root}).readSymbol(ctx, name, readOpts{budget: readBudget})
}

// readFile reads a project file for read_symbol, as outline reads it
// (outline.ReadHead): the whole file up to outline.MaxParse bytes, else
// its start, and whole, the size of the whole file. msg is the one-line
// error when it cannot.
func readFile(ctx context.Context, root *search.Root, path string) (rel string, src []byte, whole outline.Size, lang *grammar.Language, msg string) {
	f, rel, err := root.Open(path)
	if err != nil {
		return rel, nil, whole, nil, toolError(err)
	}
	defer f.Close()
	src, whole, err = outline.ReadHead(ctx, f, rel, nil)
	if err != nil {
		return rel, nil, whole, nil, toolError(err)
	}
	lang = grammar.ForPath(rel, src)
	if lang == nil {
		return rel, nil, whole, nil, fmt.Sprintf("no grammar for %s, so it has no definitions to read; read the file itself", project.Echo(rel))
	}
	if project.IsBinary(src) {
		return rel, nil, whole, nil, fmt.Sprintf("%s is a binary file", project.Echo(rel))
	}
	return rel, src, whole, lang, ""
}

// readAt answers read_symbol PATH:LINE: the innermost definition of the
// file whose extent holds the line. A line past the part of a large file
// that outline parses is answered with what to read instead.
func readAt(ctx context.Context, root *search.Root, path string, line int, o readOpts) (string, bool) {
	rel, src, whole, lang, msg := readFile(ctx, root, path)
	if msg != "" {
		return msg, true
	}
	if line < 1 {
		return fmt.Sprintf("%s:%d: lines start at 1", project.Echo(o.path(rel)), line), true
	}
	if line > whole.Lines {
		return fmt.Sprintf("%s has %d lines; line %d is past its end", project.Echo(o.path(rel)), whole.Lines, line), true
	}
	f, defs, msg := srcview.Definitions(ctx, rel, lang, src, whole, func(o *outline.Outline) bool { return line < o.CutLine })
	if msg != "" {
		return msg, true
	}
	if end := parsedEnd(f.Outline); end > 0 && (line > end || line == end && !holds(defs, line)) {
		why := fmt.Sprintf("the file is %.1f MB and its definitions are read from its first %s", float64(whole.Bytes)/1e6, sizeText(f.Parsed))
		if f.StopLine > 0 {
			why = "the parse ran out of time (a busy machine)"
		}
		return fmt.Sprintf("%s:%d is past the part of %s whose definitions are read (to line %d): %s; read those lines directly", project.Echo(o.path(rel)), line, project.Echo(o.path(rel)), end, why), true
	}
	return answerAt(rel, src, defs, line, o)
}

// parsedEnd is the line where o's parse was cut or stopped, the first
// whose definitions o may not hold; 0 when it holds the whole file's. A
// cut inside a line (minified code) leaves that line's first definitions
// in o.
func parsedEnd(o *outline.Outline) int {
	switch {
	case o.StopLine > 0 && (o.CutLine == 0 || o.StopLine < o.CutLine):
		return o.StopLine
	default:
		return o.CutLine
	}
}

// holds reports whether a definition of defs spans line.
func holds(defs []outline.Definition, line int) bool {
	return slices.ContainsFunc(defs, func(d outline.Definition) bool { return d.Start <= line && line <= d.End })
}

// answerAt is readAt's answer for the file rel, whose first bytes are
// src, of definitions defs, once line is known to be in it. Only the
// definition's lines are split, however large the file.
func answerAt(rel string, src []byte, defs []outline.Definition, line int, o readOpts) (string, bool) {
	i, inside := outline.Enclosing(defs, line)
	if i < 0 {
		return fmt.Sprintf("%s:%d is in no definition: %s has none", project.Echo(o.path(rel)), line, project.Echo(o.path(rel))), true
	}
	if !inside {
		d := &defs[i]
		return fmt.Sprintf("%s:%d is in no definition; the nearest is %s %s at %s:%d (lines %d-%d)", project.Echo(o.path(rel)), line, d.Kind, d.QualifiedName(), project.Echo(o.path(rel)), d.Line, d.Start, d.End), true
	}
	var sb strings.Builder
	d := &defs[i]
	srcview.WriteDefinition(&sb, srcview.SplitLines(srcview.LinesOf(src, d.Start, d.End)), o.def(d), defs, o.budget, o.full)
	if uses := srcview.UsesLine(src, d, defs, nil); uses != "" {
		sb.WriteString(uses + "\n")
	}
	return strings.TrimSuffix(sb.String(), "\n"), false
}

// readByName answers read_symbol for a name or qualified name: the
// bodies of the exact matches that fit, in find_symbol's order, then the
// places of the others.
func (s *Server) readByName(ctx context.Context, name string, o readOpts) (string, bool) {
	since := time.Now()
	q := search.ParseSymbolQuery(name)
	// The bodies and the places after them.
	q.Limit = readMaxBodies + readMaxList
	res, err := s.engine().Symbols(ctx, q)
	if errors.Is(err, search.ErrEmptyName) {
		return "read_symbol: name is empty; give a name, Type.method or path:line", true
	}
	if err != nil {
		return toolError(err), true
	}
	var sb strings.Builder
	switch {
	case len(res.Defs) == 0 && listing(res.Building, res.Files):
		return fmt.Sprintf("No definition of %s yet: %s.", project.Echo(q.Name), stillListing), false
	case len(res.Defs) == 0 && res.Searched < res.Files:
		return fmt.Sprintf("No definition of %s in the first %d of %d files (in path order): the search stopped at its time limit; a qualified name (Type.method) is faster.", project.Echo(q.Name), res.Searched, res.Files), false
	case len(res.Defs) == 0:
		sb.WriteString(fmt.Sprintf("No definition of %s and no names containing it.", project.Echo(q.Name)) + "\n")
	case res.Fuzzy:
		sb.WriteString(symbolFallback + "\n")
		for _, d := range res.Defs[:min(len(res.Defs), readMaxList)] {
			srcview.WritePlace(&sb, o.def(&d.Definition), "")
		}
		if res.More || len(res.Defs) > readMaxList {
			sb.WriteString(symbolMore + "\n")
		}
	default:
		s.writeMatches(ctx, &sb, res.Defs, res.More, q.Name, since, o)
	}
	if res.Searched < res.Files {
		fmt.Fprintf(&sb, symbolStopped+"\n", res.Searched, res.Files)
	}
	if res.Building && res.Indexed < res.Files {
		fmt.Fprintf(&sb, indexPartial+"\n", res.Indexed, res.Files)
	}
	return strings.TrimSuffix(sb.String(), "\n"), false
}
