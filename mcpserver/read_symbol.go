package mcpserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search"
)

var readSymbolTool = &Tool{
	Name:        "read_symbol",
	Title:       "Read a definition",
	Description: "The source of a function, method, type, constant or heading section, by name, Type.method or path:line. One call instead of find_symbol, outline and a read.",
	Params: []Param{
		{Name: "name", Description: "A name (parse), a qualified name (Server.Serve, Type::method) or path:line (src/x.rs:120).", Required: true},
	},
	Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
		return s.readSymbol(ctx, args["name"])
	},
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
	if lines <= budget {
		return nil, lines
	}
	cands := slices.Clone(nested)
	slices.SortStableFunc(cands, func(a, b fold) int {
		return cmp.Or(cmp.Compare(b.size(), a.size()), cmp.Compare(a.keep, b.keep))
	})
	var chosen []fold
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

// writeBody writes lines start..end of the file (1-based, inclusive) with
// the nested definitions chosen by chooseFolds collapsed, each into a
// marker line "⋮ FROM-TO KIND NAME" indented as the body it replaces. If
// the lines still do not fit in budget, it writes the first budget source
// lines and a last line saying what is left and how to read it. It
// returns the source lines written.
func writeBody(sb *strings.Builder, lines fileLines, path string, start, end int, nested []fold, budget int) int {
	end = min(end, len(lines))
	folds, _ := chooseFolds(start, end, nested, budget)
	written := 0
	for l := start; l <= end; l++ {
		if len(folds) > 0 && l == folds[0].keep+1 {
			f := folds[0]
			folds = folds[1:]
			indent := indentOf(lines[f.keep-1])
			for k := f.keep + 1; k <= f.end; k++ {
				if strings.TrimSpace(lines[k-1]) != "" {
					indent = indentOf(lines[k-1])
					break
				}
			}
			fmt.Fprintf(sb, "%s⋮ %d-%d %s\n", indent, f.keep+1, f.end, f.label)
			l = f.end
			continue
		}
		if written == budget {
			writeRest(sb, path, l, end, nested)
			return written
		}
		sb.WriteString(show(lines[l-1]))
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
		if f.end >= from && f.keep <= end {
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
func (s *Server) readSymbol(ctx context.Context, name string) (string, bool) {
	q := strings.TrimSpace(name)
	if q == "" {
		return "read_symbol: name is empty; give a name, Type.method or path:line", true
	}
	if path, line, ok := parseLocation(s.cfg.Root, q); ok {
		return readAt(ctx, s.cfg.Root, path, line)
	}
	return s.readByName(ctx, q)
}

// ReadSymbol answers the read_symbol tool for name in the project root,
// searching the files directly.
func ReadSymbol(ctx context.Context, root *search.Root, name string) (string, bool) {
	return New(Config{Root: root}).readSymbol(ctx, name)
}

// readFile reads a project file for read_symbol. msg is the one-line
// error when it cannot.
func readFile(root *search.Root, path string) (rel string, src []byte, lang *grammar.Language, msg string) {
	src, rel, err := root.ReadFile(path, maxOutlineSize)
	if err != nil {
		return rel, nil, nil, toolError(err)
	}
	lang = grammar.ForPath(rel, src)
	if lang == nil {
		return rel, nil, nil, fmt.Sprintf("no grammar for %s, so it has no definitions to read; read the file itself", rel)
	}
	if search.IsBinary(src) {
		return rel, nil, nil, fmt.Sprintf("%s is a binary file", rel)
	}
	return rel, src, lang, ""
}

// definitions parses a file read by readFile.
func definitions(ctx context.Context, rel string, lang *grammar.Language, src []byte) ([]outline.Definition, string) {
	o, err := outline.Parse(ctx, lang, src)
	if err != nil {
		return nil, fmt.Sprintf("cannot read the definitions of %s: %v", rel, err)
	}
	return o.Definitions(rel), ""
}

// readAt answers read_symbol PATH:LINE: the innermost definition of the
// file whose extent holds the line.
func readAt(ctx context.Context, root *search.Root, path string, line int) (string, bool) {
	rel, src, lang, msg := readFile(root, path)
	if msg != "" {
		return msg, true
	}
	lines := splitFileLines(src)
	if line < 1 {
		return fmt.Sprintf("%s:%d: lines start at 1", rel, line), true
	}
	if line > len(lines) {
		return fmt.Sprintf("%s has %d lines; line %d is past its end", rel, len(lines), line), true
	}
	defs, msg := definitions(ctx, rel, lang, src)
	if msg != "" {
		return msg, true
	}
	return answerAt(rel, lines, defs, line)
}

// answerAt is readAt's answer for the file rel, of lines and definitions
// defs, once line is known to be in it.
func answerAt(rel string, lines fileLines, defs []outline.Definition, line int) (string, bool) {
	i, inside := outline.Enclosing(defs, line)
	if i < 0 {
		return fmt.Sprintf("%s:%d is in no definition: %s has none", rel, line, rel), true
	}
	if !inside {
		d := &defs[i]
		return fmt.Sprintf("%s:%d is in no definition; the nearest is %s %s at %s:%d-%d", rel, line, d.Kind, d.QualifiedName(), rel, d.Start, d.End), true
	}
	var sb strings.Builder
	writeDefinition(&sb, lines, &defs[i], defs, readBudget)
	return strings.TrimSuffix(sb.String(), "\n"), false
}

// writeDefinition writes d: its header, then its lines within budget,
// with the bodies of the definitions of defs nested in it collapsed as
// needed. It returns the source lines written.
func writeDefinition(sb *strings.Builder, lines fileLines, d *outline.Definition, defs []outline.Definition, budget int) int {
	writeReadHeader(sb, d.Path, d.Start, d.End, d.Kind.String(), d.QualifiedName())
	var nested []fold
	for k := range defs {
		n := &defs[k]
		if n.Start < d.Start || n.End > d.End || n.Start == d.Start && n.End == d.End {
			continue
		}
		nested = append(nested, fold{keep: n.Line, end: n.End, label: n.Kind.String() + " " + n.Name, read: fmt.Sprintf("%s:%d", d.Path, n.Line)})
	}
	return writeBody(sb, lines, d.Path, d.Start, d.End, nested, budget)
}

// readByName answers read_symbol for a name or qualified name: the
// bodies of the exact matches that fit, in find_symbol's order, then the
// places of the others.
func (s *Server) readByName(ctx context.Context, name string) (string, bool) {
	q := search.ParseSymbolQuery(name)
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
		return fmt.Sprintf("No definition of %s in the first %d of %d files (in path order): the search stopped at its time limit; a qualified name (Type.method) is faster.", q.Name, res.Searched, res.Files), false
	case len(res.Defs) == 0:
		return fmt.Sprintf("No definition of %s and no names containing it.", q.Name), false
	case res.Fuzzy:
		sb.WriteString(symbolFallback + "\n")
		for _, d := range res.Defs[:min(len(res.Defs), readMaxList)] {
			writePlace(&sb, &d.Definition)
		}
		if res.More || len(res.Defs) > readMaxList {
			sb.WriteString(symbolMore + "\n")
		}
	default:
		s.writeMatches(ctx, &sb, res.Defs, res.More, q.Name)
	}
	if res.Searched < res.Files {
		fmt.Fprintf(&sb, symbolStopped+"\n", res.Searched, res.Files)
	}
	if res.Building && res.Indexed < res.Files {
		fmt.Fprintf(&sb, indexPartial+"\n", res.Indexed, res.Files)
	}
	return strings.TrimSuffix(sb.String(), "\n"), false
}

// writePlace writes "PATH:LINE KIND NAME".
func writePlace(sb *strings.Builder, d *outline.Definition) {
	fmt.Fprintf(sb, "%s:%d %s %s\n", d.Path, d.Line, d.Kind, d.QualifiedName())
}

// writeMatches writes the exact matches: the first in full (within the
// budget), the next ones while they fit whole in what is left of it, at
// most readMaxBodies; then the places of the rest and how to narrow.
// Each file is read at the time of the call; it is parsed only when a
// definition is too long to show whole, for its nested definitions.
func (s *Server) writeMatches(ctx context.Context, sb *strings.Builder, defs []search.Def, more bool, name string) {
	type file struct {
		lines fileLines
		msg   string
	}
	files := map[string]*file{}
	left, shown := readBudget, 0
	i := 0
	for ; i < len(defs) && shown < readMaxBodies; i++ {
		d := &defs[i].Definition
		if shown > 0 && d.End-d.Start+1 > left {
			break
		}
		f := files[d.Path]
		var src []byte
		var lang *grammar.Language
		if f == nil {
			f = &file{}
			_, src, lang, f.msg = readFile(s.cfg.Root, d.Path)
			f.lines = splitFileLines(src)
			files[d.Path] = f
		}
		if f.msg != "" || d.End > len(f.lines) {
			break
		}
		var all []outline.Definition
		if d.End-d.Start+1 > left {
			if src == nil {
				_, src, lang, f.msg = readFile(s.cfg.Root, d.Path)
			}
			if f.msg == "" {
				all, _ = definitions(ctx, d.Path, lang, src)
			}
		}
		if shown > 0 {
			sb.WriteByte('\n')
		}
		left -= writeDefinition(sb, f.lines, d, all, left)
		shown++
	}
	if i == len(defs) && !more {
		return
	}
	sb.WriteByte('\n')
	rest := defs[i:]
	for _, d := range rest[:min(len(rest), readMaxList)] {
		writePlace(sb, &d.Definition)
	}
	total := strconv.Itoa(len(defs))
	if more || len(rest) > readMaxList {
		total = "more than " + total
	}
	fmt.Fprintf(sb, "%d of %s definitions of %s shown; narrow it with a qualified name (Type.method) or path:line\n", shown, total, name)
}
