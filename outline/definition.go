package outline

import (
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
	var count func(es []*Entry) int
	count = func(es []*Entry) int {
		n := len(es)
		for _, e := range es {
			n += count(e.Children)
		}
		return n
	}
	n := count(o.Entries)
	if n == 0 {
		return nil
	}
	out := make([]Definition, 0, n)
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
// heading's text whole, other names split (Go's "Server.Serve"), without
// an arity.
func nameSegments(name string, kind grammar.Kind) []string {
	if kind == grammar.Heading {
		return []string{name}
	}
	return SplitQualified(DropArity(name))
}

// DropArity drops the arity of Erlang's "area/2": the function is found
// by its name, and its qualified name is "shapes.area".
func DropArity(s string) string {
	i := strings.LastIndexByte(s, '/')
	if i <= 0 || i == len(s)-1 {
		return s
	}
	for _, c := range s[i+1:] {
		if c < '0' || c > '9' {
			return s
		}
	}
	return s[:i]
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
	// Haskell's instance Show (Maybe a) is Show for (Maybe a): its
	// members are Maybe's.
	n = strings.TrimLeft(n, "*&( ")
	if i := strings.IndexAny(n, "<[( "); i > 0 {
		n = n[:i]
	}
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
