package outline

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
)

// ParseTimeout bounds one parse when the caller's context has no deadline.
const ParseTimeout = 5 * time.Second

// Entry is one definition in a file's outline, with the definitions it
// contains.
type Entry struct {
	Definition
	// StartByte and EndByte delimit the definition's node, without the
	// comments and decorators above it; nesting compares them.
	StartByte, EndByte uint32
	Children           []*Entry
	// Sig is the declaration up to its body ("func (c *Command)
	// Find(args []string) (*Command, []string, error)"), its whitespace
	// collapsed and cut at MaxSignature characters; Exported reports that
	// the language marks it visible outside its file or package (and its
	// container too). Only OutlineDecls sets them.
	Sig      string
	Exported bool

	nameStart uint32 // where the name starts, for ordering
	head      string // the declaration's text before the name (OutlineDecls)
}

// Outline is a parsed file's definitions, nested.
type Outline struct {
	Entries []*Entry
	// Partial is set when the parse stopped early or the tree has syntax
	// errors; the entries are what could be found.
	Partial bool
	// CutLine, when not 0, is the first line ParseHead left out: the
	// outline holds the definitions of the lines before it.
	CutLine int
	// StopLine, when not 0, is the line where ParseHead's queries ran
	// out of time: the outline holds the definitions before it.
	StopLine int
	// DeepLine, when not 0, is the line where the file is first nested
	// deeper than MaxDepth levels: definitions nested deeper are not
	// listed (no real code nests so deep; searching a deeper tree costs
	// time in proportion to its depth).
	DeepLine int
}

// MaxDepth is the nesting depth, in syntax tree levels, past which a
// file's definitions are not searched.
const MaxDepth = maxDepth

var parsers sync.Pool

func getParser() *sitter.Parser {
	if p, ok := parsers.Get().(*sitter.Parser); ok {
		return p
	}
	return sitter.NewParser()
}

// Parse outlines src as a file of language lang.
func Parse(ctx context.Context, lang *grammar.Language, src []byte) (*Outline, error) {
	o, _, err := parse(ctx, lang, src, parseOpts{})
	return o, err
}

// ParseTree is Parse that also hands f the outline and the root of the
// syntax tree it was read from, before the tree is freed: for a caller
// that reads more of a file than its definitions (a resolver's facts)
// without parsing it a second time. root and every node under it are
// valid only during the call. The tree is of lang.Prepare(src) where
// lang has a Prepare, which moves no byte: nodes' offsets are src's. f is
// not called when ParseTree returns an error.
func ParseTree(ctx context.Context, lang *grammar.Language, src []byte, f func(o *Outline, root *sitter.Node)) (*Outline, error) {
	o, _, err := parse(ctx, lang, src, parseOpts{tree: f})
	return o, err
}

// ParseHead is Parse of the first max bytes of src at most: a file too
// large to outline whole within a client's timeout (tree-sitter parses a
// few MB a second; 15 MB would take several seconds) is outlined from its
// start, and CutLine says where the outline stops. The cut is made before
// a line that starts a top-level declaration where one is near (see
// headCut), so the last definitions before it are whole. When the
// deadline stops its queries (where they run in file order), the outline
// holds the definitions before StopLine rather than being an error.
func ParseHead(ctx context.Context, lang *grammar.Language, src []byte, max int) (*Outline, error) {
	return parseHead(ctx, lang, src, max, false)
}

// parseHead is ParseHead, with each entry's signature and visibility
// when decls is set.
func parseHead(ctx context.Context, lang *grammar.Language, src []byte, max int, decls bool) (*Outline, error) {
	opts := parseOpts{partial: true, decls: decls}
	if len(src) <= max {
		o, _, err := parse(ctx, lang, src, opts)
		return o, err
	}
	cut := headCut(src, max)
	o, _, err := parse(ctx, lang, src[:cut], opts)
	if err != nil {
		return nil, err
	}
	o.CutLine = bytes.Count(src[:cut], []byte{'\n'}) + 1
	return o, nil
}

// headCut is where ParseHead cuts src, at most max bytes in: the start of
// the last line in the final 64 KB before max that starts at its first
// column with something other than a closing bracket (a top-level
// declaration in most languages), else the start of the last line before
// max, else max itself, moved back to the start of a UTF-8 character.
func headCut(src []byte, max int) int {
	const window = 64 << 10
	lo := max - window
	for i := max - 1; i > 0 && i >= lo; i-- {
		if src[i-1] != '\n' {
			continue
		}
		switch src[i] {
		case ' ', '\t', '\r', '\n', '}', ')', ']':
			continue
		}
		return i
	}
	if i := bytes.LastIndexByte(src[:max], '\n'); i >= 0 {
		return i + 1
	}
	cut := max
	for cut > 0 && src[cut]&0xC0 == 0x80 {
		cut--
	}
	return cut
}

// ParseCode is Parse that also returns the parts of src that are not code,
// from the same parse.
func ParseCode(ctx context.Context, lang *grammar.Language, src []byte) (*Outline, NonCode, error) {
	return parse(ctx, lang, src, parseOpts{code: true})
}

// parseOpts are what parse does beyond outlining (see parse).
type parseOpts struct {
	code, partial, decls bool
	// tree, when set, is handed the outline and the tree's root before
	// the tree is freed (ParseTree).
	tree func(*Outline, *sitter.Node)
}

// parse is Parse, and ParseCode when code is set; with partial, queries
// stopped by the deadline give the definitions before the line where
// they stopped (Outline.StopLine) where they run in file order; with
// decls, each entry has its signature and visibility.
func parse(ctx context.Context, lang *grammar.Language, src []byte, opts parseOpts) (*Outline, NonCode, error) {
	code, partial := opts.code, opts.partial
	q, err := lang.Query()
	if err != nil {
		return nil, nil, err
	}
	// The deadline bounds every step, the parse and the queries alike:
	// ParseTimeout when the caller set none, without a timer (see
	// deadlineCtx).
	if _, ok := ctx.Deadline(); !ok {
		ctx = &deadlineCtx{ctx, time.Now().Add(ParseTimeout)}
	}
	deadline, _ := ctx.Deadline()
	timeout := time.Until(deadline)
	if err := ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("parse stopped: %w", err)
	}
	if timeout <= 0 {
		return nil, nil, fmt.Errorf("parse stopped: %w", context.DeadlineExceeded)
	}
	done, err := admit(ctx, len(src), deadline)
	if err != nil {
		return nil, nil, fmt.Errorf("parse stopped: %w", err)
	}
	defer done()
	timeout = time.Until(deadline)
	// Prepare rewrites what the parser sees without moving a byte, so
	// names are still read from the file as it is.
	orig := src
	if lang.Prepare != nil {
		src = lang.Prepare(src)
		// Nothing reads the prepared text once parse returns.
		defer grammar.Release(src, orig)
	}
	if len(src) >= releaseSize {
		// Deferred before the tree's Close, so it runs after it, whether
		// the parse or the queries finished or not.
		defer release()
	}
	tree, err := parseTree(ctx, lang, src, timeout)
	if err != nil {
		return nil, nil, err
	}
	defer tree.Close()
	root := tree.RootNode()
	var deep deepCut
	pl := planFor(lang, q, nodeOf(root))
	defs := collectPlan(ctx, pl, q, root, orig, src, &deep)
	stopped := ctx.Err()
	if stopped == nil && deep.Stop > 0 {
		// The native run stops at the deadline by its own clock, which may
		// be ahead of the context's.
		stopped = context.DeadlineExceeded
	}
	if stopped != nil && !(partial && deep.Stop > 0 && errors.Is(stopped, context.DeadlineExceeded)) {
		// The queries did not finish: an outline missing an unknown part
		// is not an answer.
		return nil, nil, fmt.Errorf("parse stopped in the queries: %w", stopped)
	}
	defs = extendSections(defs, lang.HeadingLevels, uint32(len(src)), endLine(root))
	cutSections(defs)
	if opts.decls {
		describe(pl, defs, orig)
	}
	o := &Outline{Entries: nest(defs, lang.Clauses), Partial: root.HasError() || deep.Line > 0, DeepLine: deep.Line}
	if deep.Stop > 0 && stopped != nil {
		o.StopLine, o.Partial = deep.Stop, true
	}
	qualify(o.Entries, nil)
	if opts.decls {
		markExported(lang, o.Entries, nil, true)
	}
	if opts.tree != nil {
		opts.tree(o, root)
	}
	if !code {
		return o, nil, nil
	}
	nc, err := nonCode(ctx, lang, root, orig)
	if err != nil {
		return nil, nil, err
	}
	return o, nc, nil
}

// parseTree parses src with lang's grammar within timeout, stopped
// early when ctx ends.
func parseTree(ctx context.Context, lang *grammar.Language, src []byte, timeout time.Duration) (*sitter.Tree, error) {
	p := getParser()
	p.SetLanguage(lang.Sitter())
	// Time is bounded by tree-sitter's own clock. Cancellation comes from
	// the caller's context, but the binding would watch a context it is
	// given from a goroutine of its own per parse (which costs as much as
	// a good part of a small file's parse), and that goroutine can outlive
	// the parse and set the parser's cancellation flag late, which would
	// stop the next parse of a pooled parser at once. So the parser gets no
	// context: the caller's sets the parser's flag itself if it ends first
	// (cancelFlag), and a parser whose flag may have been set is not
	// reused: it would resume that parse, or stop the next one.
	p.SetOperationLimit(int(max(timeout.Microseconds(), 1)))
	flag := cancelFlag(p)
	stop := noStop
	if ctx.Done() != nil {
		stop = context.AfterFunc(ctx, func() { atomic.StoreUintptr(flag, 1) })
	}
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if stop() && err == nil {
		parsers.Put(p)
	} else {
		p.Close()
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("parse stopped: %w", ctx.Err())
		}
		if errors.Is(err, sitter.ErrOperationLimit) {
			return nil, fmt.Errorf("parse stopped after %v: %w", timeout.Round(time.Millisecond), context.DeadlineExceeded)
		}
		return nil, fmt.Errorf("parse: %w", err)
	}
	return tree, nil
}

// noStop is the stop function of a context that never ends.
func noStop() bool { return true }

// deadlineCtx is ctx with a deadline and no timer: Err reports
// context.DeadlineExceeded once the deadline has passed, when it is
// asked, while Done is ctx's (nil when ctx never ends). A timer, and the
// callbacks that watch its Done, cost a good part of a small file's
// outline. It is for this package only, whose steps poll Err or bound
// their time themselves: the parser by its operation limit, the native
// run by its own clock (see plan.run).
type deadlineCtx struct {
	context.Context
	deadline time.Time
}

func (c *deadlineCtx) Deadline() (time.Time, bool) { return c.deadline, true }

func (c *deadlineCtx) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	if !time.Now().Before(c.deadline) {
		return context.DeadlineExceeded
	}
	return nil
}

// endLine is the last line of n; a node that ends with its line break
// (a Markdown block) ends on the line before.
func endLine(n *sitter.Node) int {
	end := n.EndPoint()
	if end.Column == 0 && end.Row > n.StartPoint().Row {
		return int(end.Row)
	}
	return int(end.Row) + 1
}

// headingLevel reads the level of a Markdown heading from its text: the
// number of #s of an ATX heading, 1 or 2 for a setext heading underlined
// with = or -.
func headingLevel(s string) int {
	t := strings.TrimLeft(s, " ")
	if n := len(t) - len(strings.TrimLeft(t, "#")); n > 0 {
		return min(n, 6)
	}
	lines := strings.Split(strings.TrimRight(s, "\r\n"), "\n")
	if u := strings.TrimSpace(lines[len(lines)-1]); strings.HasPrefix(u, "=") {
		return 1
	}
	return 2
}

// extendSections makes each heading span its section: up to the next
// heading of the same or a shallower level, or the end of the file. Nesting
// by containment then follows the levels, and a skipped level (# then ###)
// nests under the nearest shallower heading. Only languages whose headings
// have levels are extended; others (YAML keys, TOML tables) nest by their
// nodes. It returns the definitions without the hidden ones.
func extendSections(defs []def, leveled bool, size uint32, lines int) []def {
	slices.SortStableFunc(defs, func(a, b def) int { return cmp.Compare(a.entry.StartByte, b.entry.StartByte) })
	for i, d := range defs {
		if d.level == 0 || !leveled {
			continue
		}
		d.entry.EndByte, d.entry.End = size, lines
		for _, next := range defs[i+1:] {
			if next.level != 0 && next.level <= d.level {
				d.entry.EndByte = next.entry.StartByte
				d.entry.End = max(next.entry.Line-1, d.entry.Line)
				break
			}
		}
	}
	out := defs[:0]
	for _, d := range defs {
		if !d.hidden {
			out = append(out, d)
		}
	}
	return out
}

// cutSections ends each section that spans what follows it (Perl's
// "package Foo;", up to the end of its block) where the next section of
// the same block starts. defs are in the order of their start.
func cutSections(defs []def) {
	for i, d := range defs {
		if !d.spans {
			continue
		}
		for _, next := range defs[i+1:] {
			if next.entry.StartByte >= d.entry.EndByte {
				break
			}
			if next.section && next.scope == d.scope {
				d.entry.EndByte = next.entry.StartByte
				d.entry.End = max(next.entry.Start-1, d.entry.Line)
				break
			}
		}
	}
}

// cleanName folds whitespace; Markdown's heading names (markdown) also
// lose closing #s and their inline markup, and C++ operators their inner space ("operator =="
// is "operator==", while "operator new" keeps it) and conversion operators
// their parameters.
func cleanName(s string, kind grammar.Kind, markdown bool) string {
	if kind != grammar.Heading && plainName(s) {
		return s
	}
	s = strings.Join(strings.Fields(s), " ")
	if rest, ok := strings.CutPrefix(s, "operator "); ok && rest != "" && !isWordByte(rest[0]) {
		s = "operator" + strings.ReplaceAll(rest, " ", "")
	}
	// A C++ conversion operator's node holds its parameters and
	// qualifiers: "operator bool() const" is named "operator bool".
	if strings.HasPrefix(s, "operator ") {
		if i := strings.Index(s, "("); i > 0 {
			s = strings.TrimSpace(s[:i])
		}
	}
	if kind == grammar.Heading && markdown {
		t := strings.TrimRight(s, "#")
		if t == "" {
			return ""
		}
		if len(t) < len(s) && strings.HasSuffix(t, " ") {
			s = strings.TrimSpace(t)
		}
		s = headingText(s)
	}
	return s
}

// plainName reports whether s is not empty and holds only ASCII bytes
// that are not white space, which cleanName leaves as they are.
func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80, c == ' ', c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		}
	}
	return s != ""
}

// lastSegment drops a path before a name: fmt::Display is Display, and
// convert::From<io::Error> is From<io::Error>.
func lastSegment(s string) string {
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(', '[':
			depth++
		case '>', ')', ']':
			if i > 0 && s[i-1] == '-' {
				if depth == 0 {
					return s[start:] // Fn(A) -> B: B is not the path
				}
				continue
			}
			depth--
		case ':':
			if depth == 0 && i+1 < len(s) && s[i+1] == ':' {
				start = i + 2
				i++
			}
		}
	}
	return s[start:]
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

// nest orders definitions by position and nests each in the innermost
// definition containing it. Definitions sharing one node (Go's
// `const A, B = 1, 2`, JavaScript's `const a = 1, b = 2`) have equal
// ranges and stay siblings: neither contains the other. With clauses, a
// function that follows a sibling function of its name extends it (see
// joinClause).
func nest(defs []def, clauses bool) []*Entry {
	slices.SortStableFunc(defs, func(x, y def) int {
		a, b := x.entry, y.entry
		if a.StartByte != b.StartByte {
			return cmp.Compare(a.StartByte, b.StartByte)
		}
		if a.EndByte != b.EndByte {
			return cmp.Compare(b.EndByte, a.EndByte)
		}
		return cmp.Compare(a.Line, b.Line)
	})
	var roots []*Entry
	var stack []def
	for _, d := range defs {
		e := d.entry
		for len(stack) > 0 {
			top := stack[len(stack)-1].entry
			if top.StartByte <= e.StartByte && e.EndByte <= top.EndByte &&
				(top.StartByte != e.StartByte || top.EndByte != e.EndByte) {
				break
			}
			stack = stack[:len(stack)-1]
		}
		// The parent is the innermost container whose name comes before
		// the entry. A definition in front of its container's name is not
		// its member: C's `struct A {…} f(void);` declares f with the
		// struct as its return type, and A is f's sibling.
		var parent *Entry
		for i := len(stack) - 1; i >= 0; i-- {
			if stack[i].nameKey[0] <= e.StartByte {
				parent = stack[i].entry
				break
			}
		}
		siblings := &roots
		if parent != nil {
			if e.Kind == grammar.Function && parent.Kind.MakesMethods() {
				e.Kind = grammar.Method
			}
			siblings = &parent.Children
		}
		if clauses {
			if first := joinClause(*siblings, e); first != nil {
				stack = append(stack, def{entry: first, node: d.node, nameKey: [2]uint32{first.nameStart, first.nameStart}})
				continue
			}
		}
		*siblings = append(*siblings, e)
		stack = append(stack, d)
	}
	// Entries are listed in the order of their names, which is their
	// order in the file except where a definition starts before a
	// sibling's name (the struct A above).
	var byLine func(es []*Entry)
	byLine = func(es []*Entry) {
		slices.SortStableFunc(es, func(a, b *Entry) int { return cmp.Compare(a.nameStart, b.nameStart) })
		for _, e := range es {
			byLine(e.Children)
		}
	}
	byLine(roots)
	return roots
}

// joinClause extends the first clause of e's function, when e's siblings
// end with it, over e, and returns it; nil when e starts a function. The
// clause is the last sibling, or one of the last siblings sharing its
// node (Haskell's `x, y :: Int` names two functions, whose equations
// follow).
func joinClause(siblings []*Entry, e *Entry) *Entry {
	if e.Kind != grammar.Function && e.Kind != grammar.Method || len(siblings) == 0 {
		return nil
	}
	last := siblings[len(siblings)-1]
	for i := len(siblings) - 1; i >= 0 && siblings[i].StartByte == last.StartByte; i-- {
		first := siblings[i]
		if first.Name == e.Name && first.Kind == e.Kind && first.EndByte <= e.StartByte {
			first.EndByte = max(first.EndByte, e.EndByte)
			first.End = max(first.End, e.End)
			first.Decl = first.Decl && e.Decl
			first.Children = append(first.Children, e.Children...)
			return first
		}
	}
	return nil
}
