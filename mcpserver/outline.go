package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/filestat"
	"github.com/zumba-dev/zumba/internal/parsecache"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search"
)

var outlineTool = &Tool{
	Name:        "outline",
	Title:       "File outline",
	Description: "List a file's functions, types, constants and headings with line numbers, nested. Read only the lines you need after. A folder (. for the project) gives a map: its most used definitions.",
	Params: []Param{
		{Name: "path", Description: "File or folder path relative to the project.", Required: true},
		{Name: "name", Description: "Only this definition and what it contains (a class's members), by name or Type.member."},
		{Name: "budget", Description: "For a folder: the map's size in tokens (default 2000).", Int: true, Min: mapMinBudget, Max: mapMaxBudget},
		{Name: "signatures", Description: "true: each declaration's line up to its body.", Bool: true},
		{Name: "exported", Description: "true: only exported/public definitions.", Bool: true},
	},
	Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
		if dir, ok := isFolder(s.cfg.Root, args["path"]); ok {
			return outlineMap(ctx, s, dir, args)
		}
		o := outlineOpts{name: strings.TrimSpace(args["name"]), sigs: args["signatures"] == "true", exported: args["exported"] == "true"}
		if o != (outlineOpts{}) {
			return outlineSome(ctx, s.cfg.Root, args["path"], o)
		}
		return outlineFile(ctx, &s.outlines, s.cfg.Root, args["path"])
	},
}

// outlineOpts are the outline tool's options for a file: one definition
// (name), signatures, exported definitions only.
type outlineOpts struct {
	name           string
	sigs, exported bool
}

// outlineAnswer is an outline tool answer, kept in the server's outline
// cache (see internal/parsecache) while its file is unchanged.
type outlineAnswer struct {
	text    string
	isError bool
}

// maxOutlineCache bounds the answers kept: at most about 100 KB each.
const maxOutlineCache = 1024

// outlineFile answers the outline tool for path, from cache while the
// file is unchanged.
func outlineFile(ctx context.Context, cache *parsecache.Cache[outlineAnswer], root *search.Root, path string) (string, bool) {
	f, rel, err := root.Open(path)
	if err != nil {
		return toolError(err), true
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return toolError(err), true
	}
	// The stat is taken before the file is read: if the file changes in
	// between, the entry holds newer text under an older stat, which the
	// next call's stat no longer matches.
	at := time.Now().UnixNano()
	a, err := cache.Get(ctx, rel, filestat.Of(fi), at, func() (outlineAnswer, bool) {
		src, whole, err := outline.ReadHead(ctx, f, rel, nil)
		if err != nil {
			return outlineAnswer{toolError(err), true}, false
		}
		text, isError, timed := outlineHead(ctx, rel, src, whole)
		// An answer cut by the time it had is not the file's: the next
		// call outlines it again.
		return outlineAnswer{text, isError}, !isError && !timed
	})
	if err != nil {
		return fmt.Sprintf("cannot outline %s: %v", project.Echo(rel), err), true
	}
	return a.text, a.isError
}

// outlineSource outlines src, the contents of the project file rel.
func outlineSource(ctx context.Context, rel string, src []byte) (string, bool) {
	text, isError, _ := outlineHead(ctx, rel, src, outline.SizeOf(src))
	return text, isError
}

// outlineHead outlines the project file rel, of size whole, from src, as
// outline.ReadHead read it. timed reports an answer cut short by the
// deadline, and so not the file's.
func outlineHead(ctx context.Context, rel string, src []byte, whole outline.Size) (text string, isError, timed bool) {
	lang, msg := outlineLanguage(rel, src)
	if msg != "" {
		return msg, true, false
	}
	// The head's outline is enough when it fills the answer: parsing more
	// would only be cut from it.
	enough := func(o *outline.Outline) bool {
		_, full, _ := outlineText(o, whole, outline.HeadSize, false)
		return full
	}
	f, err := outline.OutlineFile(ctx, lang, src, whole, enough)
	if err != nil {
		return fmt.Sprintf("cannot outline %s: %v", project.Echo(rel), err), true, false
	}
	text, _, _ = outlineText(f.Outline, whole, f.Parsed, false)
	if text == "" {
		return fmt.Sprintf("No functions, types, constants or headings in %s.", project.Echo(rel)), false, f.Timed
	}
	return text, false, f.Timed
}

// outlineLanguage is the grammar of the project file rel, whose first
// bytes are src; msg says why there is none.
func outlineLanguage(rel string, src []byte) (lang *grammar.Language, msg string) {
	lang = grammar.ForPath(rel, src)
	if lang == nil {
		return nil, fmt.Sprintf("no grammar for %s; outline supports %s", project.Echo(rel), strings.Join(grammar.Extensions(), " "))
	}
	if project.IsBinary(src) {
		return nil, fmt.Sprintf("%s is a binary file", project.Echo(rel))
	}
	return lang, ""
}

// outlineSome answers the outline tool for a file with options: the
// entries named o.name (a name or a qualified name) with what they
// contain, and its members declared beside it (Go's methods); with
// o.exported those the language marks exported; with o.sigs each with
// its signature; within the answer's bound, then a last line counting the
// entries shown by kind.
func outlineSome(ctx context.Context, root *search.Root, path string, o outlineOpts) (string, bool) {
	f, rel, err := root.Open(path)
	if err != nil {
		return toolError(err), true
	}
	defer f.Close()
	src, whole, err := outline.ReadHead(ctx, f, rel, nil)
	if err != nil {
		return toolError(err), true
	}
	lang, msg := outlineLanguage(rel, src)
	if msg != "" {
		return msg, true
	}
	parse := outline.OutlineFile
	if o.sigs || o.exported {
		parse = outline.OutlineDecls
	}
	file, err := parse(ctx, lang, src, whole, nil)
	if err != nil {
		return fmt.Sprintf("cannot outline %s: %v", project.Echo(rel), err), true
	}
	es := file.Entries
	if o.name != "" {
		es = namedEntries(es, o.name)
		if len(es) == 0 {
			msg := fmt.Sprintf("no definition named %s in %s; outline %s lists its definitions", project.Echo(o.name), project.Echo(rel), project.Echo(rel))
			if end := parsedEnd(file.Outline); end > 0 {
				msg += fmt.Sprintf(" (up to line %d: the rest is not parsed)", end)
			}
			return msg, true
		}
	}
	var note string
	if o.exported {
		if lang.MarksExported() {
			es = exportedEntries(es)
		} else {
			note = fmt.Sprintf(" (%s marks no definitions exported: all are listed)", lang.Name)
		}
	}
	var text string
	var shown []*outline.Entry
	if o.name != "" {
		text, _, shown = boundOutline(es, maxOutlineAnswer-200, o.sigs)
	} else {
		text, _, shown = outlineText(&outline.Outline{Entries: es, CutLine: file.CutLine, StopLine: file.StopLine, DeepLine: file.DeepLine}, whole, file.Parsed, o.sigs)
	}
	if len(shown) == 0 {
		what := "functions, types, constants or headings"
		if o.exported {
			what = "exported definitions"
		}
		if text != "" {
			text += "\n"
		}
		return text + fmt.Sprintf("No %s in %s.", what, project.Echo(rel)), false
	}
	return text + "\n" + countsLine(shown) + note, false
}

// namedEntries are the entries of es, at any depth, named name (or
// qualified so), with what they contain.
func namedEntries(es []*outline.Entry, name string) []*outline.Entry {
	var found []*outline.Entry
	var walk func(es []*outline.Entry)
	walk = func(es []*outline.Entry) {
		for _, e := range es {
			// Go's methods are declared beside their type, named
			// Recv.Name: they are its members too.
			if q := e.QualifiedName(); e.Name == name || q == name || strings.HasPrefix(q, name+".") {
				found = append(found, e)
				continue
			}
			walk(e.Children)
		}
	}
	walk(es)
	return found
}

// exportedEntries are the entries of es that are exported, each with
// its exported members (copies: the outline is not changed).
func exportedEntries(es []*outline.Entry) []*outline.Entry {
	var out []*outline.Entry
	for _, e := range es {
		if !e.Exported {
			continue
		}
		c := *e
		c.Children = exportedEntries(e.Children)
		out = append(out, &c)
	}
	return out
}

// countsLine counts the entries shown, by kind in the kinds' order:
// "99 entries shown: 1 struct, 98 methods".
func countsLine(shown []*outline.Entry) string {
	byKind := map[grammar.Kind]int{}
	for _, e := range shown {
		byKind[e.Kind]++
	}
	var parts []string
	for _, k := range grammar.Kinds() {
		if n := byKind[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, kindPlural(k, n)))
		}
	}
	return fmt.Sprintf("%d %s shown: %s", len(shown), plural(len(shown), "entry", "entries"), strings.Join(parts, ", "))
}

// kindPlural is kind k's name for n definitions: "method", "methods",
// "classes".
func kindPlural(k grammar.Kind, n int) string {
	s := k.String()
	if n == 1 {
		return s
	}
	if strings.HasSuffix(s, "s") {
		return s + "es"
	}
	return s + "s"
}

// outlineText prints the outline o of a file of size whole, of which the
// first read bytes at most were parsed, within maxOutlineAnswer; its last lines say what
// was left out: the lines past the part parsed, the definitions nested
// deeper than outline searches. full reports that the top level was cut
// to fit; shown are the entries listed. With sigs each entry shows its
// signature.
func outlineText(o *outline.Outline, whole outline.Size, read int, sigs bool) (text string, full bool, shown []*outline.Entry) {
	var notes []string
	if o.DeepLine > 0 {
		notes = append(notes, fmt.Sprintf("… definitions nested over %d syntax levels deep are not outlined (the first such nesting is at line %d); read those lines directly",
			outline.MaxDepth, o.DeepLine))
	}
	switch {
	case o.StopLine > 0:
		notes = append(notes, fmt.Sprintf("… lines %d to %d are not outlined: the outline ran out of time (a busy machine); outline the file again, or read those lines directly",
			o.StopLine, max(whole.Lines, o.StopLine)))
	case o.CutLine > 0:
		notes = append(notes, fmt.Sprintf("… lines %d to %d are not outlined: the file is %.1f MB and outline reads its first %s; read those lines directly",
			o.CutLine, max(whole.Lines, o.CutLine), float64(whole.Bytes)/1e6, sizeText(read)))
	}
	budget := maxOutlineAnswer
	for _, n := range notes {
		budget -= len(n) + 1
	}
	text, full, shown = boundOutline(o.Entries, budget, sigs)
	if len(notes) > 0 {
		if text != "" {
			text += "\n"
		}
		text += strings.Join(notes, "\n")
	}
	return text, full, shown
}

// sizeText is n bytes in MB, or in KB under a MB.
func sizeText(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d KB", n>>10)
}

// toolError is the one line a tool answers with when it cannot.
func toolError(err error) string {
	var pe *project.PathError
	if errors.As(err, &pe) {
		return pe.Msg
	}
	return err.Error()
}

// maxOutlineAnswer bounds an outline answer, in bytes (SPEC: about 100 KB;
// clients reject answers over 25,000 tokens).
const maxOutlineAnswer = 100_000

// maxOutlineName cuts a name, as other lines are cut.
const maxOutlineName = 300

// boundOutline prints the outline within budget bytes: whole when it
// fits; else nested levels collapse first, deepest first, the container
// line saying how many entries it holds; else the top level is cut, and a
// last line says what was left out and how to read it. The size of each
// collapse level is measured in one pass, so an outline thousands of
// levels deep costs no more than a flat one. cut reports that the top
// level was cut; shown are the entries listed. With sigs each entry
// shows its signature.
func boundOutline(es []*outline.Entry, budget int, sigs bool) (text string, cut bool, shown []*outline.Entry) {
	// lines[d] is the size of the lines of the entries at depth d, and
	// collapsed[d] what their "(N members)" add when d is the deepest
	// level shown; printing down to level L takes the sum of lines[0..L]
	// plus collapsed[L].
	var lines, collapsed []int
	members := map[*outline.Entry]int{}
	var measure func(es []*outline.Entry, d int) int
	measure = func(es []*outline.Entry, d int) int {
		if len(lines) <= d {
			lines, collapsed = append(lines, 0), append(collapsed, 0)
		}
		n := 0
		for _, e := range es {
			lines[d] += 2*d + len(entryLine(e, sigs)) + 1
			if k := measure(e.Children, d+1); k > 0 {
				members[e] = k
				collapsed[d] += len(membersNote(k))
				n += k
			}
			n++
		}
		return n
	}
	measure(es, 0)
	size := 0
	limit := -1
	for d := range lines {
		size += lines[d]
		if size+collapsed[d] > budget {
			break
		}
		limit = d
	}
	if limit >= 0 {
		var sb strings.Builder
		writeOutline(&sb, es, 0, limit, members, sigs, &shown)
		return strings.TrimSuffix(sb.String(), "\n"), false, shown
	}
	var sb strings.Builder
	for _, e := range es {
		line := entryLine(e, sigs) + membersNote(members[e]) + "\n"
		if sb.Len()+len(line) > budget-200 {
			break
		}
		sb.WriteString(line)
		shown = append(shown, e)
	}
	fmt.Fprintf(&sb, "… %d more top-level entries from line %d on; find_symbol NAME shows one definition, or outline a smaller file", len(es)-len(shown), es[len(shown)].Line)
	return sb.String(), true, shown
}

// entryLine is e's line without its indentation and members; with sigs,
// " — " and its signature after it, in place of the name when the
// signature holds it ("266 method — func (c *Command) Context()
// context.Context", as find_symbol shows a definition's line).
func entryLine(e *outline.Entry, sigs bool) string {
	if sigs && e.Sig != "" && search.NewWordScanner(e.LastSegment()).Contains([]byte(e.Sig)) {
		return fmt.Sprintf("%d %s — %s", e.Line, e.Kind, e.Sig)
	}
	name := e.Name
	if utf8.RuneCountInString(name) > maxOutlineName {
		name = string([]rune(name)[:maxOutlineName]) + "…"
	}
	if sigs && e.Sig != "" {
		return fmt.Sprintf("%d %s %s — %s", e.Line, e.Kind, name, e.Sig)
	}
	return fmt.Sprintf("%d %s %s", e.Line, e.Kind, name)
}

// membersNote is what a collapsed container's line says of its n
// members; nothing when it has none.
func membersNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d members)", n)
}

// writeOutline prints es at depth d, adding them to shown; at limit, an
// entry's members (as counted in members) are counted on its line
// instead.
func writeOutline(sb *strings.Builder, es []*outline.Entry, d, limit int, members map[*outline.Entry]int, sigs bool, shown *[]*outline.Entry) {
	for _, e := range es {
		for range d {
			sb.WriteString("  ")
		}
		sb.WriteString(entryLine(e, sigs))
		*shown = append(*shown, e)
		if d >= limit {
			sb.WriteString(membersNote(members[e]))
			sb.WriteByte('\n')
			continue
		}
		sb.WriteByte('\n')
		writeOutline(sb, e.Children, d+1, limit, members, sigs, shown)
	}
}
