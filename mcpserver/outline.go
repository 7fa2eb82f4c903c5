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
	},
	Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
		if dir, ok := isFolder(s.cfg.Root, args["path"]); ok {
			return outlineMap(ctx, s, dir, args)
		}
		if name := strings.TrimSpace(args["name"]); name != "" {
			return outlineName(ctx, s.cfg.Root, args["path"], name)
		}
		return outlineFile(ctx, &s.outlines, s.cfg.Root, args["path"])
	},
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
		_, full := outlineText(o, whole, outline.HeadSize)
		return full
	}
	f, err := outline.OutlineFile(ctx, lang, src, whole, enough)
	if err != nil {
		return fmt.Sprintf("cannot outline %s: %v", project.Echo(rel), err), true, false
	}
	text, _ = outlineText(f.Outline, whole, f.Parsed)
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

// outlineName answers the outline tool for one definition of the file:
// the entries named name (a name or a qualified name) with what they
// contain, and its members declared beside it (Go's methods), within the
// answer's bound, and a last line counting the entries shown.
func outlineName(ctx context.Context, root *search.Root, path, name string) (string, bool) {
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
	file, err := outline.OutlineFile(ctx, lang, src, whole, nil)
	if err != nil {
		return fmt.Sprintf("cannot outline %s: %v", project.Echo(rel), err), true
	}
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
	walk(file.Entries)
	if len(found) == 0 {
		msg := fmt.Sprintf("no definition named %s in %s; outline %s lists its definitions", project.Echo(name), project.Echo(rel), project.Echo(rel))
		if end := parsedEnd(file.Outline); end > 0 {
			msg += fmt.Sprintf(" (up to line %d: the rest is not parsed)", end)
		}
		return msg, true
	}
	text, _ := boundOutline(found, maxOutlineAnswer-200)
	shown := 0
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "…") {
			shown++
		}
	}
	return fmt.Sprintf("%s\n%d %s shown", text, shown, plural(shown, "entry", "entries")), false
}

// outlineText prints the outline o of a file of size whole, of which the
// first read bytes at most were parsed, within maxOutlineAnswer; its last lines say what
// was left out: the lines past the part parsed, the definitions nested
// deeper than outline searches. full reports that the top level was cut
// to fit.
func outlineText(o *outline.Outline, whole outline.Size, read int) (text string, full bool) {
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
	text, full = boundOutline(o.Entries, budget)
	if len(notes) > 0 {
		if text != "" {
			text += "\n"
		}
		text += strings.Join(notes, "\n")
	}
	return text, full
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
// level was cut.
func boundOutline(es []*outline.Entry, budget int) (text string, cut bool) {
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
			lines[d] += 2*d + len(entryLine(e)) + 1
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
		writeOutline(&sb, es, 0, limit, members)
		return strings.TrimSuffix(sb.String(), "\n"), false
	}
	var sb strings.Builder
	shown := 0
	for _, e := range es {
		line := entryLine(e) + membersNote(members[e]) + "\n"
		if sb.Len()+len(line) > budget-200 {
			break
		}
		sb.WriteString(line)
		shown++
	}
	fmt.Fprintf(&sb, "… %d more top-level entries from line %d on; find_symbol NAME shows one definition, or outline a smaller file", len(es)-shown, es[shown].Line)
	return sb.String(), true
}

// entryLine is e's line without its indentation and members.
func entryLine(e *outline.Entry) string {
	name := e.Name
	if utf8.RuneCountInString(name) > maxOutlineName {
		name = string([]rune(name)[:maxOutlineName]) + "…"
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

// writeOutline prints es at depth d; at limit, an entry's members (as
// counted in members) are counted on its line instead.
func writeOutline(sb *strings.Builder, es []*outline.Entry, d, limit int, members map[*outline.Entry]int) {
	for _, e := range es {
		for range d {
			sb.WriteString("  ")
		}
		sb.WriteString(entryLine(e))
		if d >= limit {
			sb.WriteString(membersNote(members[e]))
			sb.WriteByte('\n')
			continue
		}
		sb.WriteByte('\n')
		writeOutline(sb, e.Children, d+1, limit, members)
	}
}
