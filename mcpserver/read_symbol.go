package mcpserver

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/filestat"
	"github.com/zumba-dev/zumba/internal/project"
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
		o := readOpts{full: args["full"] == "true", budget: readBudget}
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
		text, isError := s.readSymbol(ctx, name, readOpts{full: o.full, budget: left})
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
}

// readBudget is the most source lines one read_symbol answer shows;
// markers and headers are not counted. 200 lines of at most 300
// characters stay well under the 25,000 tokens clients accept.
const readBudget = 200

// readMaxBodies is how many definitions of one name show their source;
// readMaxList how many more are listed by place.
const (
	readMaxBodies = 3
	readMaxList   = 40
)

// fold is a nested definition whose body the renderer may collapse into
// one marker line: the lines after keep (its name's line, so that its
// doc comment, decorators and signature stay) through end.
type fold struct {
	keep, end int
	// label names it in the marker: "method spawn".
	label string
	// read is what read_symbol takes to show it: its qualified name when
	// that names it alone, else PATH:LINE.
	read string
	// doc marks a long doc comment's fold, made whatever the budget,
	// whose marker is label alone.
	doc bool
}

func (f fold) size() int { return f.end - f.keep }

// fileLines is a file split into lines, without their "\n" or "\r\n".
type fileLines []string

func splitFileLines(src []byte) fileLines {
	s := string(src)
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return fileLines{}
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// show is a source line as an answer prints it: exact, except that a line
// longer than search.MaxLineRunes characters is cut with "…", and bytes
// that are not UTF-8 become U+FFFD.
func show(l string) string {
	if !utf8.ValidString(l) {
		l = strings.ToValidUTF8(l, "\uFFFD")
	}
	if len(l) <= search.MaxLineRunes || utf8.RuneCountInString(l) <= search.MaxLineRunes {
		return l
	}
	n := 0
	for i := range l {
		if n == search.MaxLineRunes {
			return l[:i] + "…"
		}
		n++
	}
	return l
}

// indentOf is the leading spaces and tabs of l.
func indentOf(l string) string {
	return l[:len(l)-len(strings.TrimLeft(l, " \t"))]
}

// chooseFolds picks the nested definitions to collapse so that lines
// start..end fit in budget source lines: the largest first, until they
// fit. Folds that overlap one already chosen, or would hide fewer than two
// lines, are passed over. It returns the chosen folds in line order and
// the source lines left.
func chooseFolds(start, end int, nested []fold, budget int) ([]fold, int) {
	lines := end - start + 1
	var chosen []fold
	for _, f := range nested {
		if f.doc {
			chosen = append(chosen, f)
			lines -= f.size()
		}
	}
	cands := slices.DeleteFunc(slices.Clone(nested), func(f fold) bool { return f.doc })
	slices.SortStableFunc(cands, func(a, b fold) int {
		return cmp.Or(cmp.Compare(b.size(), a.size()), cmp.Compare(a.keep, b.keep))
	})
	for _, f := range cands {
		if lines <= budget {
			break
		}
		if f.size() < 2 || f.keep < start || f.end > end {
			continue
		}
		overlaps := slices.ContainsFunc(chosen, func(c fold) bool { return f.keep < c.end && c.keep < f.end })
		if overlaps {
			continue
		}
		chosen = append(chosen, f)
		lines -= f.size()
	}
	slices.SortFunc(chosen, func(a, b fold) int { return cmp.Compare(a.keep, b.keep) })
	return chosen, lines
}

// writeBody writes lines start..end of the file (1-based, inclusive),
// given as lines (lines[0] is line start), with the nested definitions
// chosen by chooseFolds collapsed, each into a marker line "⋮ FROM-TO KIND
// NAME" indented as the body it replaces. If the lines still do not fit in
// budget, it writes the first budget source lines and a last line saying
// what is left and how to read it. It returns the source lines written.
func writeBody(sb *strings.Builder, lines fileLines, path string, start, end int, nested []fold, budget int) int {
	end = min(end, start+len(lines)-1)
	at := func(l int) string { return lines[l-start] }
	folds, _ := chooseFolds(start, end, nested, budget)
	written := 0
	for l := start; l <= end; l++ {
		if len(folds) > 0 && l == folds[0].keep+1 {
			f := folds[0]
			folds = folds[1:]
			indent := indentOf(at(f.keep))
			for k := f.keep + 1; k <= f.end; k++ {
				if strings.TrimSpace(at(k)) != "" {
					indent = indentOf(at(k))
					break
				}
			}
			if f.doc {
				fmt.Fprintf(sb, "%s⋮ %s\n", indent, f.label)
			} else {
				fmt.Fprintf(sb, "%s⋮ %d-%d %s\n", indent, f.keep+1, f.end, f.label)
			}
			l = f.end
			continue
		}
		if written == budget {
			writeRest(sb, path, l, end, nested)
			return written
		}
		sb.WriteString(show(at(l)))
		sb.WriteByte('\n')
		written++
	}
	return written
}

// writeRest is the last line of a body cut at the budget: how many lines
// are left from line from, and how to read them: the first nested
// definition that starts there or later by read_symbol, else the lines
// themselves from the file.
func writeRest(sb *strings.Builder, path string, from, end int, nested []fold) {
	n := end - from + 1
	plural := "s"
	if n == 1 {
		plural = ""
	}
	for _, f := range nested {
		if !f.doc && f.end >= from && f.keep <= end {
			fmt.Fprintf(sb, "… %d more line%s (%d-%d); read_symbol %s reads the next nested definition, or read those lines of %s\n", n, plural, from, end, f.read, path)
			return
		}
	}
	fmt.Fprintf(sb, "… %d more line%s (%d-%d); read those lines of %s\n", n, plural, from, end, path)
}

// writeReadHeader writes "PATH:START-END KIND NAME".
func writeReadHeader(sb *strings.Builder, path string, start, end int, kind, name string) {
	sb.WriteString(path)
	sb.WriteByte(':')
	sb.WriteString(strconv.Itoa(start))
	sb.WriteByte('-')
	sb.WriteString(strconv.Itoa(end))
	sb.WriteByte(' ')
	sb.WriteString(kind)
	sb.WriteByte(' ')
	sb.WriteString(name)
	sb.WriteByte('\n')
}

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

// Stack-trace frames, as runtimes print them, read as the PATH:LINE they
// name (the file's innermost definition holding the line).
var (
	// Python: File "pkg/x.py", line 12, in foo
	pythonFrame = regexp.MustCompile(`^File "([^"]+)", line (\d+)(?:, in .*)?$`)
	// Node: at foo (src/x.ts:12:5), at async foo (file:///x.js:1:2)
	nodeFrame = regexp.MustCompile(`^at (?:.* )?\((.+?):(\d+)(?::\d+)?\)$`)
	// Node without a function, Rust: at src/x.js:12:5
	bareFrame = regexp.MustCompile(`^at (\S+?):(\d+)(?::\d+)?$`)
	// Go: /home/u/pkg/x.go:12 +0x1d
	goFrame = regexp.MustCompile(`^(\S+\.go):(\d+)(?: \+0x[0-9a-fA-F]+)?$`)
	// Java, Kotlin, Scala: at com.x.Y.m(Y.java:12)
	jvmFrame = regexp.MustCompile(`^at (?:[\w$]+\.)*?([\w$]+)\.([\w$<>]+)\(([\w$]+\.(?:java|kt|kts|scala|groovy)):(\d+)\)$`)
)

// frameLocation is the PATH:LINE a stack-trace frame of Python, Node,
// Rust or Go names.
func frameLocation(q string) (string, bool) {
	for _, re := range []*regexp.Regexp{pythonFrame, nodeFrame, bareFrame, goFrame} {
		if m := re.FindStringSubmatch(q); m != nil {
			return m[1] + ":" + m[2], true
		}
	}
	return "", false
}

// jvmFrameRef is a JVM frame: the class and method, the source file's
// base name and the line.
type jvmFrameRef struct {
	class, method, file string
	line                int
}

// javaFrame reads a Java, Kotlin or Scala frame.
func javaFrame(q string) (jvmFrameRef, bool) {
	m := jvmFrame.FindStringSubmatch(q)
	if m == nil {
		return jvmFrameRef{}, false
	}
	n, err := strconv.Atoi(m[4])
	if err != nil {
		return jvmFrameRef{}, false
	}
	// An inner class is Outer$Inner in the frame.
	class := m[1][strings.LastIndexByte(m[1], '$')+1:]
	return jvmFrameRef{class: class, method: m[2], file: m[3], line: n}, true
}

// readJavaFrame answers a JVM frame: the line in the file of that name
// that defines Class.method (a frame names no folder), else the method
// by its qualified name.
func (s *Server) readJavaFrame(ctx context.Context, f jvmFrameRef, o readOpts) (string, bool) {
	name := f.class + "." + f.method
	if f.method == "<init>" {
		name = f.class + "." + f.class
	}
	q := search.ParseSymbolQuery(name)
	q.Limit = readMaxBodies + readMaxList
	if res, err := s.searcher().Symbols(ctx, q); err == nil && !res.Fuzzy {
		for _, d := range res.Defs {
			if path.Base(d.Path) == f.file && d.Start <= f.line && f.line <= d.End {
				return readAt(ctx, s.cfg.Root, d.Path, f.line, o)
			}
		}
	}
	return s.readByName(ctx, name, o)
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

// definitions outlines a file read by readFile under outline's large-file
// policy. enough, when not nil, says when the outline of a large file's
// start is all that is needed.
func definitions(ctx context.Context, rel string, lang *grammar.Language, src []byte, whole outline.Size, enough func(*outline.Outline) bool) (*outline.File, []outline.Definition, string) {
	f, err := outline.OutlineFile(ctx, lang, src, whole, enough)
	if err != nil {
		return nil, nil, fmt.Sprintf("cannot read the definitions of %s: %v", project.Echo(rel), err)
	}
	return f, f.Definitions(rel), ""
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
		return fmt.Sprintf("%s:%d: lines start at 1", project.Echo(rel), line), true
	}
	if line > whole.Lines {
		return fmt.Sprintf("%s has %d lines; line %d is past its end", project.Echo(rel), whole.Lines, line), true
	}
	f, defs, msg := definitions(ctx, rel, lang, src, whole, func(o *outline.Outline) bool { return line < o.CutLine })
	if msg != "" {
		return msg, true
	}
	if end := parsedEnd(f.Outline); end > 0 && (line > end || line == end && !holds(defs, line)) {
		why := fmt.Sprintf("the file is %.1f MB and its definitions are read from its first %s", float64(whole.Bytes)/1e6, sizeText(f.Parsed))
		if f.StopLine > 0 {
			why = "the parse ran out of time (a busy machine)"
		}
		return fmt.Sprintf("%s:%d is past the part of %s whose definitions are read (to line %d): %s; read those lines directly", project.Echo(rel), line, project.Echo(rel), end, why), true
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
		return fmt.Sprintf("%s:%d is in no definition: %s has none", project.Echo(rel), line, project.Echo(rel)), true
	}
	if !inside {
		d := &defs[i]
		return fmt.Sprintf("%s:%d is in no definition; the nearest is %s %s at %s:%d-%d", project.Echo(rel), line, d.Kind, d.QualifiedName(), project.Echo(rel), d.Start, d.End), true
	}
	var sb strings.Builder
	d := &defs[i]
	writeDefinition(&sb, splitFileLines(linesOf(src, d.Start, d.End)), d, defs, o.budget, o.full)
	return strings.TrimSuffix(sb.String(), "\n"), false
}

// writeDefinition writes d: its header, then its lines within budget,
// with the bodies of the definitions of defs nested in it collapsed as
// needed. lines are d's lines (lines[0] is line d.Start). It returns the
// source lines written.
func writeDefinition(sb *strings.Builder, lines fileLines, d *outline.Definition, defs []outline.Definition, budget int, full bool) int {
	writeReadHeader(sb, d.Path, d.Start, d.End, d.Kind.String(), d.QualifiedName())
	var nested []fold
	for k := range defs {
		n := &defs[k]
		if n.Start < d.Start || n.End > d.End || n.Start == d.Start && n.End == d.End {
			continue
		}
		nested = append(nested, fold{keep: n.Line, end: n.End, label: n.Kind.String() + " " + n.Name, read: fmt.Sprintf("%s:%d", d.Path, n.Line)})
	}
	if f, ok := docFold(lines, d); ok && !full {
		nested = append(nested, f)
	}
	return writeBody(sb, lines, d.Path, d.Start, d.End, nested, budget)
}

// maxDocLines is the longest doc comment read_symbol shows whole (unless
// asked for it in full); a longer one shows its first docHead lines and a
// marker.
const (
	maxDocLines = 12
	docHead     = 3
)

// docFold is the fold of d's doc comment when it is longer than
// maxDocLines: the comment lines from d.Start, before its name's line.
// lines are d's lines (lines[0] is line d.Start).
func docFold(lines fileLines, d *outline.Definition) (fold, bool) {
	n := 0
	for n < len(lines) && d.Start+n < d.Line && commentLine(lines[n]) {
		n++
	}
	if n <= maxDocLines {
		return fold{}, false
	}
	last := d.Start + n - 1
	return fold{keep: d.Start + docHead - 1, end: last, doc: true,
		label: fmt.Sprintf("%d-%d doc comment (%d lines)", d.Start, last, n)}, true
}

// commentLine reports whether l is a line of a comment in the languages
// zumba reads: "//", "/*", "*" (inside a block comment), "#" followed by
// a space or nothing (not "#[attr]" or "#define"), "--", "(*".
func commentLine(l string) bool {
	t := strings.TrimLeft(l, " \t")
	switch {
	case strings.HasPrefix(t, "//"), strings.HasPrefix(t, "/*"), strings.HasPrefix(t, "*"),
		strings.HasPrefix(t, "--"), strings.HasPrefix(t, "(*"):
		return true
	case strings.HasPrefix(t, "#"):
		return len(t) == 1 || t[1] == ' ' || t[1] == '#' || t[1] == '\t' || t[1] == '!'
	}
	return false
}

// readByName answers read_symbol for a name or qualified name: the
// bodies of the exact matches that fit, in find_symbol's order, then the
// places of the others.
func (s *Server) readByName(ctx context.Context, name string, o readOpts) (string, bool) {
	since := time.Now()
	q := search.ParseSymbolQuery(name)
	// The bodies and the places after them.
	q.Limit = readMaxBodies + readMaxList
	res, err := s.searcher().Symbols(ctx, q)
	if errors.Is(err, search.ErrEmptyName) {
		return "read_symbol: name is empty; give a name, Type.method or path:line", true
	}
	if err != nil {
		return toolError(err), true
	}
	var sb strings.Builder
	switch {
	case len(res.Defs) == 0 && res.Searched < res.Files:
		return fmt.Sprintf("No definition of %s in the first %d of %d files (in path order): the search stopped at its time limit; a qualified name (Type.method) is faster.", project.Echo(q.Name), res.Searched, res.Files), false
	case len(res.Defs) == 0:
		return fmt.Sprintf("No definition of %s and no names containing it.", project.Echo(q.Name)), false
	case res.Fuzzy:
		sb.WriteString(symbolFallback + "\n")
		for _, d := range res.Defs[:min(len(res.Defs), readMaxList)] {
			writePlace(&sb, &d.Definition, "")
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

// writePlace writes "PATH:LINE KIND NAME" and note.
func writePlace(sb *strings.Builder, d *outline.Definition, note string) {
	fmt.Fprintf(sb, "%s:%d %s %s%s\n", d.Path, d.Line, d.Kind, d.QualifiedName(), note)
}

// sameText marks a listed definition whose lines are those of a body
// shown above it, byte for byte (build-tagged variants, vendored copies).
const sameText = " (same text)"

// shownBody is a definition read_symbol shows: its rendered lines, its
// lines as in the file, and the definitions of the same name whose lines
// are the same.
type shownBody struct {
	text   string
	raw    []byte
	lines  int
	copies []*outline.Definition
}

// writeMatches writes the exact matches, in find_symbol's order: the first
// in full (within the budget), the next ones while they fit whole in what
// is left of it, at most readMaxBodies. A definition whose lines are those
// of a body shown, byte for byte, is not shown again: it is listed under
// that body, marked sameText. Then come the places of the rest and how to
// narrow. Each file is read at the time of the call; it is parsed only
// when a definition is too long to show whole, for its nested definitions.
func (s *Server) writeMatches(ctx context.Context, sb *strings.Builder, defs []search.Def, more bool, name string, since time.Time, o readOpts) {
	rd := getReader(s.cfg.Root, &s.parses, since)
	defer rd.release()
	left := o.budget
	var shown []*shownBody
	var rest []*outline.Definition
	copies := 0
	for i := range defs {
		d := &defs[i].Definition
		n := d.End - d.Start + 1
		sameSize := slices.ContainsFunc(shown, func(b *shownBody) bool { return b.lines == n })
		canShow := len(shown) < readMaxBodies && (len(shown) == 0 || n <= left)
		var raw []byte
		ok := false
		if sameSize || canShow {
			// The lines are read from the same bytes the definition is
			// located in, even while the file is being rewritten.
			if loc, found := rd.locate(ctx, d); found {
				if loc != d {
					d, n = loc, loc.End-loc.Start+1
					sameSize = slices.ContainsFunc(shown, func(b *shownBody) bool { return b.lines == n })
					canShow = len(shown) < readMaxBodies && (len(shown) == 0 || n <= left)
				}
				raw, ok = rd.extent(ctx, d.Path, d.Start, d.End)
			}
		}
		if k := slices.IndexFunc(shown, func(b *shownBody) bool { return ok && b.lines == n && bytes.Equal(b.raw, raw) }); k >= 0 {
			shown[k].copies = append(shown[k].copies, d)
			copies++
			continue
		}
		if !ok || !canShow {
			rest = append(rest, d)
			continue
		}
		var all []outline.Definition
		if n > left {
			all = rd.definitions(ctx, d.Path)
		}
		var body strings.Builder
		left -= writeDefinition(&body, splitFileLines(raw), d, all, left, o.full)
		shown = append(shown, &shownBody{text: body.String(), raw: bytes.Clone(raw), lines: n})
	}
	// Places: the copies under their bodies, then the rest, readMaxList
	// in all.
	listed := 0
	for k, b := range shown {
		if k > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(b.text)
		for _, c := range b.copies {
			if listed < readMaxList {
				writePlace(sb, c, sameText)
				listed++
			}
		}
	}
	if len(rest) == 0 && !more && listed == copies {
		return
	}
	if len(shown) > 0 {
		sb.WriteByte('\n')
	}
	for _, d := range rest {
		if listed == readMaxList {
			break
		}
		writePlace(sb, d, "")
		listed++
	}
	total := strconv.Itoa(len(defs))
	if more || listed < copies+len(rest) {
		total = "more than " + total
	}
	same := ""
	if copies > 0 {
		verb := "have"
		if copies == 1 {
			verb = "has"
		}
		same = fmt.Sprintf(" (%d more %s the same text as one shown)", copies, verb)
	}
	fmt.Fprintf(sb, "%d of %s definitions of %s shown%s; narrow it with a qualified name (Type.method) or path:line\n", len(shown), total, name, same)
}

// fileReader reads the files of one read_symbol answer, one at a time,
// into a buffer the answers share, as outline reads them
// (outline.ReadHead); it keeps the last file read, as matches come in path
// order.
type fileReader struct {
	root *search.Root
	// parses is the server's parse cache (nil: none), which a file read
	// whole and unchanged while it was read is parsed through.
	parses *search.ParseCache
	// since is when the answer started: a file changed since shortly
	// before it may no longer be what the index located its definitions
	// in (see read).
	since int64
	buf   []byte
	path  string
	data  []byte
	whole outline.Size
	ok    bool
	// changed: the file was modified within filestat.RacyWindow of since,
	// or later, so the definitions are located in data itself.
	changed bool
	// st is the file's stat before it was read; steady: the same after.
	st     filestat.Stat
	steady bool
	// parsed: defs are the file's definitions.
	parsed bool
	defs   []outline.Definition
}

var fileReaders = sync.Pool{New: func() any { return &fileReader{} }}

func getReader(root *search.Root, parses *search.ParseCache, since time.Time) *fileReader {
	rd := fileReaders.Get().(*fileReader)
	rd.root, rd.parses, rd.since, rd.path, rd.data, rd.ok = root, parses, since.UnixNano(), "", nil, false
	return rd
}

// release gives the reader back; its buffer is kept when it is no larger
// than the files the index covers.
func (rd *fileReader) release() {
	if cap(rd.buf) > project.MaxFileSize+1 {
		rd.buf = nil
	}
	rd.root, rd.parses, rd.data, rd.defs = nil, nil, nil, nil
	fileReaders.Put(rd)
}

// read reads path (as the index names it) unless it holds it already.
// The file's stat is taken after its bytes are read: when it says the
// file was modified within filestat.RacyWindow before the answer started,
// or since, the index may have located its definitions in other bytes
// than those read (the file is being rewritten), and changed is set.
func (rd *fileReader) read(ctx context.Context, path string) bool {
	if rd.path == path {
		return rd.ok
	}
	rd.path, rd.data, rd.ok, rd.changed, rd.parsed, rd.defs = path, nil, false, false, false, nil
	f, _, err := rd.root.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	rd.st = filestat.Of(fi)
	data, whole, err := outline.ReadHead(ctx, f, path, rd.buf)
	if err != nil {
		return false
	}
	if cap(data) > cap(rd.buf) {
		rd.buf = data[:0]
	}
	if project.IsBinary(data) {
		return false
	}
	if fi, err = f.Stat(); err != nil {
		return false
	}
	st := filestat.Of(fi)
	rd.steady = st == rd.st
	rd.changed = st.RacyAt(rd.since) || st.CTime >= rd.since-int64(filestat.RacyWindow)
	rd.data, rd.whole, rd.ok = data, whole, true
	return true
}

// locate is d as found in the bytes read of its file: d itself when the
// file is unchanged since the index located it, else the definition of
// the same qualified name and kind in the bytes read nearest d's line; ok
// is false when there is none.
func (rd *fileReader) locate(ctx context.Context, d *outline.Definition) (*outline.Definition, bool) {
	if !rd.read(ctx, d.Path) {
		return nil, false
	}
	if !rd.changed {
		return d, true
	}
	var best *outline.Definition
	for _, c := range rd.definitions(ctx, d.Path) {
		if c.Kind == d.Kind && c.QualifiedName() == d.QualifiedName() &&
			(best == nil || abs(c.Line-d.Line) < abs(best.Line-d.Line)) {
			best = &c
		}
	}
	return best, best != nil
}

func abs(n int) int { return max(n, -n) }

// extent is lines start..end of path, as in the file, each with its line
// break; ok is false when the file cannot be read or is shorter.
func (rd *fileReader) extent(ctx context.Context, path string, start, end int) ([]byte, bool) {
	if !rd.read(ctx, path) || start < 1 || end < start {
		return nil, false
	}
	from, ok := lineOffset(rd.data, 0, 1, start)
	if !ok {
		return nil, false
	}
	last, ok := lineOffset(rd.data, from, start, end)
	if !ok {
		return nil, false
	}
	to := len(rd.data)
	if i := bytes.IndexByte(rd.data[last:], '\n'); i >= 0 {
		to = last + i + 1
	}
	return rd.data[from:to], true
}

// linesOf is lines start..end of data, as far as data has them, each with
// its line break.
func linesOf(data []byte, start, end int) []byte {
	from, ok := lineOffset(data, 0, 1, start)
	if !ok {
		return nil
	}
	last, _ := lineOffset(data, from, start, end)
	if i := bytes.IndexByte(data[min(last, len(data)):], '\n'); i >= 0 {
		return data[from : last+i+1]
	}
	return data[from:]
}

// lineOffset is the offset of line want in data, counting from offset off,
// where line at starts; ok is false when the file has no such line.
func lineOffset(data []byte, off, at, want int) (int, bool) {
	for ; at < want; at++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return len(data), false
		}
		off += i + 1
	}
	return off, off < len(data)
}

// definitions outlines the file the reader holds, once: through the
// parse cache when it was read whole and did not change while it was
// read, else under outline's large-file policy.
func (rd *fileReader) definitions(ctx context.Context, path string) []outline.Definition {
	if !rd.read(ctx, path) {
		return nil
	}
	if rd.parsed {
		return rd.defs
	}
	rd.parsed = true
	if rd.parses != nil && rd.steady && rd.whole.Bytes == int64(len(rd.data)) {
		if defs, ok := rd.parses.Definitions(ctx, path, rd.st, rd.data); ok {
			rd.defs = defs
			return defs
		}
	}
	if lang := grammar.ForPath(path, rd.data); lang != nil {
		_, rd.defs, _ = definitions(ctx, path, lang, rd.data, rd.whole, nil)
	}
	return rd.defs
}
