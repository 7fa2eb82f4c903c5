package outline

import (
	"cmp"
	"slices"
	"strings"

	"github.com/zumba-dev/zumba/grammar"
)

// Definition is one definition of a file: the record every part of zumba
// passes around, from the outline to the index, its disk cache and the
// tools.
type Definition struct {
	// Path is the file's project path; "" when the file was outlined
	// without one (see [Outline.Definitions]).
	Path string
	Kind grammar.Kind
	// Name is the name as the outline shows it: "spawn", "Server.Serve"
	// (a Go method), "Display for Rpc" (a Rust impl).
	Name string
	// Qualified is the qualified name's parts: the segments naming the
	// enclosing definitions ("impl<T> Display for Rpc<T>" is "Rpc"; the
	// innermost maxContainers of them), then the name's own (Go's
	// "Server.Serve" is two). See [Definition.Container].
	Qualified []string
	// Line is the 1-based line of the name.
	Line int
	// Start and End are the first and last lines of the whole definition.
	// Start includes the doc comments, decorators and attributes right
	// above it (no blank line between); a heading's extent is its section.
	Start, End int
	// Decl marks a function or method declared without its body: a
	// TypeScript overload signature, a C or C++ prototype. find_symbol
	// lists the implementation before them.
	Decl bool
}

// QualifiedName is the qualified name as find_symbol shows and takes it:
// the parts joined by ".", "Rpc.spawn".
func (d *Definition) QualifiedName() string { return strings.Join(d.Qualified, ".") }

// Container is the leading part of Qualified that names the enclosing
// definitions; empty at top level.
func (d *Definition) Container() []string {
	n := len(d.Qualified) - len(nameSegments(d.Name, d.Kind))
	return d.Qualified[:max(n, 0):max(n, 0)]
}

// LastSegment is the last part of the qualified name: a Go method
// "Server.Serve" is "Serve".
func (d *Definition) LastSegment() string {
	if len(d.Qualified) == 0 {
		return d.Name
	}
	return d.Qualified[len(d.Qualified)-1]
}

// Definitions flattens the outline into records, in outline order (each
// definition before those it contains), with path as their Path.
func (o *Outline) Definitions(path string) []Definition {
	var out []Definition
	var walk func(es []*Entry)
	walk = func(es []*Entry) {
		for _, e := range es {
			d := e.Definition
			d.Path = path
			out = append(out, d)
			walk(e.Children)
		}
	}
	walk(o.Entries)
	return out
}

// maxContainers bounds the container segments of a qualified name: the
// innermost are kept. Each entry holds its own copy of its containers'
// segments, so without a bound thousands of nested definitions (generated
// or hostile code) would cost the square of their depth in time and
// memory; real code nests far less, and a query names the innermost
// containers.
const maxContainers = 64

// qualify fills in the qualified names of es and the entries they hold;
// up is the segments of their container.
func qualify(es []*Entry, up []string) {
	for _, e := range es {
		own := nameSegments(e.Name, e.Kind)
		if len(up) == 0 {
			e.Qualified = own // a slice of its own
		} else {
			e.Qualified = append(up[:len(up):len(up)], own...)
		}
		if len(e.Children) == 0 {
			continue
		}
		inner := append(up[:len(up):len(up)], containerSegments(e.Name, e.Kind)...)
		if len(inner) > maxContainers {
			inner = inner[len(inner)-maxContainers:]
		}
		qualify(e.Children, inner)
	}
}

// SplitQualified splits a qualified name at "." and "::" into its
// segments, dropping empty ones: "Rpc::spawn" is "Rpc", "spawn". A name
// without segments is one part, itself.
func SplitQualified(s string) []string {
	if strings.IndexByte(s, '.') < 0 && strings.IndexByte(s, ':') < 0 {
		// One part, without splitting.
		if t := strings.TrimSpace(s); t != "" {
			return []string{t}
		}
		return []string{s}
	}
	var parts []string
	for _, p := range strings.Split(strings.ReplaceAll(s, "::", "."), ".") {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return []string{s}
	}
	return parts
}

// nameSegments is the part a definition adds to its qualified name: a
// heading's text whole, other names split (Go's "Server.Serve").
func nameSegments(name string, kind grammar.Kind) []string {
	if kind == grammar.Heading {
		return []string{name}
	}
	return SplitQualified(name)
}

// containerSegments is how members name their container: "impl<T> Display
// for Rpc<T>" and "Rpc<T>" are both "Rpc"; "a::b::C" is three segments.
func containerSegments(name string, kind grammar.Kind) []string {
	if kind == grammar.Heading {
		return []string{name}
	}
	n := name
	if i := strings.LastIndex(n, " for "); i >= 0 {
		n = n[i+len(" for "):]
	}
	if i := strings.IndexAny(n, "<[("); i > 0 {
		n = n[:i]
	}
	n = strings.TrimLeft(n, "*&( ")
	return SplitQualified(strings.TrimSpace(n))
}

// Enclosing finds, among defs, the innermost definition whose extent
// holds line: the one with the shortest extent, the later one of equal
// extents. When none holds it, it returns the nearest one (the following
// one on a tie) and inside false. It returns -1 when defs is empty.
func Enclosing(defs []Definition, line int) (i int, inside bool) {
	best, bestSpan, bestDist := -1, 0, 0
	for k := range defs {
		d := &defs[k]
		if d.Start <= line && line <= d.End {
			span := d.End - d.Start
			if !inside || span < bestSpan || span == bestSpan && d.Start >= defs[best].Start {
				best, bestSpan, inside = k, span, true
			}
			continue
		}
		if inside {
			continue
		}
		dist := d.Start - line
		if line > d.End {
			dist = line - d.End
		}
		if best < 0 || dist < bestDist || dist == bestDist && d.Start > defs[best].Start {
			best, bestDist = k, dist
		}
	}
	return best, inside
}

// extentStarts finds the first line (1-based) of each definition node of
// nodes (whole nodes of the tree under root): the first line of the doc
// comments, decorators and attributes right above it, or else its own.
// What counts is read from the tree, for every language alike:
//   - a node that only wraps the definition (Python's decorated_definition,
//     an export_statement, a declaration whose other children are keywords
//     or on the definition's first line) stands for it, unless it is
//     another definition's node;
//   - comment, decorator and attribute siblings directly before it, with no
//     blank line between them and it, belong to it; a comment that ends a
//     line of code (x = 1 // note) does not.
//
// Finding a node's parent or siblings through the tree costs a walk from
// the root each time, so the tree is walked once with a cursor instead,
// into the nodes that hold definitions only.
func extentStarts(p *plan, root tsNode, nodes []capRec, src []byte) []int {
	starts := make([]int, len(nodes))
	if len(nodes) == 0 {
		return starts
	}
	type target struct {
		start, end uint32
		id         uintptr
		i          int
	}
	targets := make([]target, len(nodes))
	for i := range nodes {
		n := &nodes[i]
		targets[i] = target{n.n.startByte(), n.endByte, n.n.id, i}
		starts[i] = int(firstRow(n.n.startRow(), n.n.startByte(), n.endByte, src)) + 1
	}
	slices.SortFunc(targets, func(a, b target) int { return cmp.Compare(a.start, b.start) })
	type key struct {
		id         uintptr
		start, end uint32
	}
	defs := make(map[key]bool, len(targets))
	for _, t := range targets {
		defs[key{t.id, t.start, t.end}] = true
	}
	isDef := func(s *sibling) bool { return defs[key{s.id, s.start, s.end}] }
	tl := root.language()
	var buf []sib
	// frames are the children of the nodes on the path being walked;
	// at[k] is the index in frames[k] of the node frames[k+1] lists.
	var frames [][]sibling
	var at []int
	// spare[k] is the memory frames[k] last used: a level's frame is done
	// with when the walk leaves it.
	var spare [][]sibling
	var walk func(n *tsNode)
	walk = func(n *tsNode) {
		buf = children(n, buf)
		if len(buf) == 0 {
			return
		}
		level := len(frames)
		if level == len(spare) {
			spare = append(spare, nil)
		}
		if cap(spare[level]) < len(buf) {
			spare[level] = make([]sibling, len(buf))
		}
		kids := spare[level][:len(buf)]
		for j := range buf {
			deco, keyword := p.tokenKinds(buf[j].symbol, tl)
			kids[j] = newSibling(&buf[j], deco, keyword, src)
		}
		frames = append(frames, kids)
		at = append(at, 0)
		for j := range kids {
			k := &kids[j]
			lo, _ := slices.BinarySearchFunc(targets, k.start, func(t target, b uint32) int { return cmp.Compare(t.start, b) })
			inner := false
			for _, t := range targets[lo:] {
				if t.start > k.end || t.start == k.end && k.end > k.start {
					break
				}
				if t.id == k.id && t.end == k.end && t.start == k.start {
					starts[t.i] = leadStart(frames, at, level, j, isDef)
				} else if t.end <= k.end {
					inner = true
				}
			}
			if inner {
				at[level] = j
				walk(&k.node)
			}
		}
		frames, at = frames[:level], at[:level]
	}
	walk(&root)
	return starts
}

// sibling is what extentStarts needs of a node among its parent's children.
type sibling struct {
	node                 tsNode
	id                   uintptr
	start, end           uint32 // bytes
	row, last            uint32 // first and last rows
	named, deco, keyword bool
}

// newSibling describes n, whose type is a decoration and a keyword as
// isDecoration and isKeyword tell. A named extra is a comment: the tree cursor
// reports the type of an extra node inside some aliased nodes
// (tree-sitter-typescript's interface_body) as its parent's.
func newSibling(n *sib, deco, keyword bool, src []byte) sibling {
	named := n.named != 0
	return sibling{
		node: n.n, id: n.n.id, start: n.n.startByte(), end: n.endByte,
		row: firstRow(n.n.startRow(), n.n.startByte(), n.endByte, src), last: lastRow(n.n.startRow(), n.endRow, n.endCol),
		named: named, deco: deco || n.extra != 0 && named, keyword: keyword,
	}
}

// maxWrappers bounds how many nodes around a definition leadStart looks
// through: wrappers are few (an export around a decorated class).
const maxWrappers = 3

// leadStart is the first line of the definition frames[level][j]. isDef
// tells the nodes of definitions, which wrap none but their own: the
// methods of a one-line interface are not documented by its comment.
func leadStart(frames [][]sibling, at []int, level, j int, isDef func(*sibling) bool) int {
	// frames[0] are the root's children: the root wraps nothing.
	for range maxWrappers {
		if level == 0 || !wraps(frames[level], j) || isDef(&frames[level-1][at[level-1]]) {
			break
		}
		level--
		j = at[level]
	}
	kids := frames[level]
	start := kids[j].row
	// A definition first in a block that starts on its row (Python's
	// "class X:\n    # note\n    def f") has the comments above it before
	// the block, among the container's children.
	if j == 0 && level > 0 && !isDef(&frames[level-1][at[level-1]]) && frames[level-1][at[level-1]].row == start {
		level--
		kids, j = frames[level], at[level]
	}
	for k := j - 1; k >= 0 && kids[k].deco; k-- {
		if kids[k].last+1 < start {
			break
		}
		if k > 0 && !kids[k-1].deco && kids[k-1].last == kids[k].row {
			break
		}
		start = kids[k].row
	}
	return int(start) + 1
}

// wraps reports whether the parent of kids adds nothing to its child
// kids[j] but decorations and tokens: everything before it is a
// decoration, a keyword (export, type; not a branch's else, then or do) or
// starts on its first row, and
// everything after it is a token on its last row (a ";"). A container is
// not a wrapper: its members are named, and its brackets are punctuation
// on other rows.
func wraps(kids []sibling, j int) bool {
	n := &kids[j]
	for _, c := range kids[:j] {
		if c.row < n.row && !c.deco && (c.named || !c.keyword) {
			return false
		}
	}
	for _, c := range kids[j+1:] {
		if c.named || c.row > n.last {
			return false
		}
	}
	return true
}

// firstRow is the row of the first byte that is not white space of the
// node starting at byte start on row, and ending at byte end: some
// grammars (tree-sitter-lua's function_start) put the line breaks before
// a definition into its first token.
func firstRow(row, start, end uint32, src []byte) uint32 {
	first := row
	for i := start; i < end && int(i) < len(src); i++ {
		switch src[i] {
		case '\n':
			row++
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return row
		}
	}
	return first
}

// lastRow is the last row of a node starting on row start and ending at
// (row, col); a node that ends with its line break ends on the row before.
func lastRow(start, row, col uint32) uint32 {
	if col == 0 && row > start {
		return row - 1
	}
	return row
}

// isDecoration reports whether a node of type t is a comment, decorator or attribute,
// which belongs to the definition right after it.
func isDecoration(t string) bool {
	switch t {
	case "decorator", "attribute_item", "attribute_list", "attribute_declaration",
		"annotation", "marker_annotation":
		return true
	}
	return strings.Contains(t, "comment")
}

// isKeyword reports whether a token's type is a word that declares (export,
// type, pub), not punctuation nor a branch of control flow: a function
// defined under an "else" line is not documented by what is above it.
func isKeyword(t string) bool {
	switch t {
	case "else", "elif", "elsif", "then", "do", "try", "finally", "ensure":
		return false
	}
	for _, c := range t {
		if !('a' <= c && c <= 'z' || c == '_') {
			return false
		}
	}
	return t != ""
}
