package outline

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
)

// ParseTimeout bounds one parse when the caller's context has no deadline.
const ParseTimeout = 5 * time.Second

// Entry is one definition in a file's outline.
type Entry struct {
	Name string
	Kind grammar.Kind
	// Line is the 1-based line of the definition's name; EndLine the last
	// line of the whole definition.
	Line, EndLine int
	// StartByte and EndByte delimit the whole definition.
	StartByte, EndByte uint32
	Children           []*Entry
}

// Outline is a parsed file's definitions, nested.
type Outline struct {
	Entries []*Entry
	// Partial is set when the parse stopped early or the tree has syntax
	// errors; the entries are what could be found.
	Partial bool
}

// Symbol is a flat record of one definition, for the project index.
type Symbol struct {
	Name string
	// Qualified is the name with its containers: "Rpc.spawn".
	Qualified string
	Kind      grammar.Kind
	Line      int
	EndLine   int
	// Container is the name of the enclosing definition, "" at top level.
	Container string
}

var parsers sync.Pool

func getParser() *sitter.Parser {
	if p, ok := parsers.Get().(*sitter.Parser); ok {
		return p
	}
	return sitter.NewParser()
}

// Parse outlines src as a file of language lang.
func Parse(ctx context.Context, lang *grammar.Language, src []byte) (*Outline, error) {
	q, err := lang.Query()
	if err != nil {
		return nil, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, ParseTimeout)
		defer cancel()
	}
	if lang.Name == "markdown" {
		src = guardMarkdown(src)
	}
	tree, err := parse(ctx, lang, src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	root := tree.RootNode()
	defs := collect(ctx, q, root, src)
	o := &Outline{Entries: nest(defs), Partial: root.HasError() || ctx.Err() != nil}
	return o, nil
}

// parse parses src on a pooled parser. smacker/go-tree-sitter sets a
// parser's cancellation flag from a goroutine that can run after the parse
// it watched has finished, once that parse's context ends (Parse's own
// deferred cancel ends it at once). The next parse on that parser then
// stops before it starts, with ErrOperationLimit and a live context: such
// a parser is dropped and the parse retried once on a new one.
func parse(ctx context.Context, lang *grammar.Language, src []byte) (*sitter.Tree, error) {
	for attempt := 0; ; attempt++ {
		var p *sitter.Parser
		if attempt == 0 {
			p = getParser()
		} else {
			p = sitter.NewParser() // the pool may hold more such parsers
		}
		p.SetLanguage(lang.Sitter())
		tree, err := p.ParseCtx(ctx, nil, src)
		switch {
		case err == nil:
			parsers.Put(p)
			return tree, nil
		case ctx.Err() != nil:
			// ParseCtx cleared the flag; SetLanguage resets the parser's
			// state before its next use.
			parsers.Put(p)
			return nil, fmt.Errorf("parse stopped: %w", ctx.Err())
		}
		p.Close()
		if attempt > 0 || !errors.Is(err, sitter.ErrOperationLimit) {
			return nil, fmt.Errorf("parse: %w", err)
		}
	}
}

// def is one query match before nesting.
type def struct {
	entry   *Entry
	nameKey [2]uint32
	pattern uint16
}

func collect(ctx context.Context, q *sitter.Query, root *sitter.Node, src []byte) []def {
	byName := map[[2]uint32]int{}
	var defs []def
	for m := range matches(ctx, q, root, src) {
		if len(m.Captures) == 0 {
			continue
		}
		var (
			whole              *sitter.Node
			kind               grammar.Kind
			name, scope, trait *sitter.Node
			skip               bool
		)
		for _, c := range m.Captures {
			capName := q.CaptureNameForId(c.Index)
			switch capName {
			case "name":
				if name == nil {
					name = c.Node
				}
			case "scope":
				scope = c.Node
			case "trait":
				trait = c.Node
			case "skip":
				skip = true
			default:
				if k, ok := strings.CutPrefix(capName, "definition."); ok {
					if kk, ok := grammar.ParseKind(k); ok {
						whole, kind = c.Node, kk
					}
				}
			}
		}
		if whole == nil || name == nil {
			continue
		}
		key := [2]uint32{name.StartByte(), name.EndByte()}
		text := cleanName(name.Content(src), kind)
		if text == "" {
			continue
		}
		if scope != nil {
			text = cleanName(scope.Content(src), 0) + "." + text
		}
		if trait != nil {
			text = cleanName(trait.Content(src), 0) + " for " + text
		}
		e := &Entry{
			Name:      text,
			Kind:      kind,
			Line:      int(name.StartPoint().Row) + 1,
			EndLine:   int(whole.EndPoint().Row) + 1,
			StartByte: whole.StartByte(),
			EndByte:   whole.EndByte(),
		}
		if skip {
			e = nil
		}
		d := def{entry: e, nameKey: key, pattern: m.PatternIndex}
		if i, seen := byName[key]; seen {
			if defs[i].pattern > d.pattern {
				defs[i] = d
			}
			continue
		}
		byName[key] = len(defs)
		defs = append(defs, d)
	}
	out := defs[:0]
	for _, d := range defs {
		if d.entry != nil {
			out = append(out, d)
		}
	}
	return out
}

// cleanName folds whitespace; heading names also lose closing #s.
func cleanName(s string, kind grammar.Kind) string {
	s = strings.Join(strings.Fields(s), " ")
	if kind == grammar.Heading {
		t := strings.TrimRight(s, "#")
		if t == "" {
			return ""
		}
		if len(t) < len(s) && strings.HasSuffix(t, " ") {
			s = strings.TrimSpace(t)
		}
	}
	return s
}

// nest orders definitions by position and nests each in the innermost
// definition containing it.
func nest(defs []def) []*Entry {
	sort.SliceStable(defs, func(i, j int) bool {
		a, b := defs[i].entry, defs[j].entry
		if a.StartByte != b.StartByte {
			return a.StartByte < b.StartByte
		}
		if a.EndByte != b.EndByte {
			return a.EndByte > b.EndByte
		}
		return a.Line < b.Line
	})
	var roots []*Entry
	var stack []*Entry
	for _, d := range defs {
		e := d.entry
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			if top.StartByte <= e.StartByte && e.EndByte <= top.EndByte {
				break
			}
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			roots = append(roots, e)
		} else {
			parent := stack[len(stack)-1]
			if e.Kind == grammar.Function && parent.Kind.MakesMethods() {
				e.Kind = grammar.Method
			}
			parent.Children = append(parent.Children, e)
		}
		stack = append(stack, e)
	}
	return roots
}

// Text prints the outline, one "LINE KIND NAME" line per entry, nested
// entries indented by two spaces per level. An empty outline prints "".
func (o *Outline) Text() string {
	var sb strings.Builder
	var walk func(es []*Entry, depth int)
	walk = func(es []*Entry, depth int) {
		for _, e := range es {
			for range depth {
				sb.WriteString("  ")
			}
			sb.WriteString(strconv.Itoa(e.Line))
			sb.WriteByte(' ')
			sb.WriteString(e.Kind.String())
			sb.WriteByte(' ')
			sb.WriteString(e.Name)
			sb.WriteByte('\n')
			walk(e.Children, depth+1)
		}
	}
	walk(o.Entries, 0)
	return sb.String()
}

// Symbols flattens the outline into records, in outline order.
func (o *Outline) Symbols() []Symbol {
	var out []Symbol
	var walk func(es []*Entry, container, qual string)
	walk = func(es []*Entry, container, qual string) {
		for _, e := range es {
			q := e.Name
			if qual != "" {
				q = qual + "." + e.Name
			}
			out = append(out, Symbol{
				Name:      e.Name,
				Qualified: q,
				Kind:      e.Kind,
				Line:      e.Line,
				EndLine:   e.EndLine,
				Container: container,
			})
			walk(e.Children, e.Name, q)
		}
	}
	walk(o.Entries, "", "")
	return out
}
