package outline

import (
	"context"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
)

// def is one query match before nesting.
type def struct {
	entry   *Entry
	node    capRec // the whole definition
	nameKey [2]uint32
	pattern uint16
	// level is a heading's level, 1 to 6; 0 for other kinds.
	level int
	// hidden marks an empty heading: it bounds sections, it is not listed.
	hidden bool
	// member is the range of the object literal an entry is a member of:
	// it is kept only when another match marked that literal @listed.
	member [2]uint32
	// section marks a @section match: a declaration that, when it ends
	// with ";" or "." (Perl's "package Foo;", Erlang's "-module(m)."), spans what follows it to the end
	// of its parent node, whose end is scope, until cutSections ends it
	// at the next section of the same parent.
	section, spans bool
	scope          uint32
}

// capKind is what collect reads from a capture's name.
type capKind struct {
	role string // name, scope, trait, member, listed, skip, end, section, definition
	kind grammar.Kind
}

// collect runs q over the tree under root, parsed from parsed (src
// prepared), and reads the definitions' names from src; deep records
// where the search stopped descending (see maxDepth).
func collect(ctx context.Context, lang *grammar.Language, q *sitter.Query, root *sitter.Node, src, parsed []byte, deep *deepCut) []def {
	return collectPlan(ctx, planFor(lang, q, nodeOf(root)), q, root, src, parsed, deep)
}

// collectPlan is collect with the plan p of the query.
func collectPlan(ctx context.Context, p *plan, q *sitter.Query, root *sitter.Node, src, parsed []byte, deep *deepCut) []def {
	rn := nodeOf(root)
	c := &collector{p: p, src: src, byName: map[[2]uint32]int{}, listed: map[[2]uint32]bool{}}
	var l listing
	defer func() { l.free() }()
	if p.native {
		l = p.run(ctx, q, rn, src, parsed, deep, c.add)
	} else {
		var caps []capRec
		for m := range matches(ctx, q, root, src, deep) {
			caps = caps[:0]
			for _, c := range m.Captures {
				end := c.Node.EndPoint()
				caps = append(caps, capRec{
					n: nodeOf(c.Node), endByte: c.Node.EndByte(), endRow: end.Row, endCol: end.Column,
					capture: c.Index, pattern: m.PatternIndex, symbol: uint16(c.Node.Symbol()),
				})
			}
			c.add(caps)
		}
	}
	// A run stopped before a node on line deep.Stop has found every
	// definition named before that line, and may have found some named on
	// it or after it (matched from a node above them): they are left out,
	// so that the outline is the definitions before it.
	stop := 0
	if deep != nil {
		stop = deep.Stop
	}
	out := c.defs[:0]
	var nodes []capRec
	for _, d := range c.defs {
		if d.entry != nil && (d.member == [2]uint32{} || c.listed[d.member]) && (stop == 0 || d.entry.Line < stop) {
			out = append(out, d)
			if d.entry.Kind != grammar.Heading {
				nodes = append(nodes, d.node)
			}
		}
	}
	// A heading's extent is its section (see extendSections).
	starts := extentStarts(p, rn, nodes, src, l)
	k := 0
	for _, d := range out {
		if d.entry.Kind != grammar.Heading {
			d.entry.Start = min(starts[k], d.entry.Line)
			k++
		}
	}
	return out
}

// collector gathers the definitions of a query's matches, one match at a
// time (add), reading their names from src.
type collector struct {
	p      *plan
	src    []byte
	byName map[[2]uint32]int // the index in defs of a name's definition
	// listed holds the object literals whose members are entries (those
	// bound to a name or returned by a function); @member entries of other
	// literals are dropped.
	listed map[[2]uint32]bool
	defs   []def
}

// matchCaps are the captures of a match, by role.
type matchCaps struct {
	whole                      *capRec
	kind                       grammar.Kind
	name, scope, trait, member *capRec
	// end is a node after the definition's that its extent reaches
	// (Dart's function_body, a sibling of the signature).
	end  *capRec
	skip bool
	// section marks a declaration that ends with ";" and holds what
	// follows it (Perl's "package Foo;"): see cutSections.
	section bool
}

func (c *collector) content(r *capRec) string { return string(c.src[r.n.startByte():r.endByte]) }

// roles sorts the captures of a match by role; it records the @listed
// ones.
func (c *collector) roles(caps []capRec) matchCaps {
	var m matchCaps
	for k := range caps {
		r := &caps[k]
		switch role := c.p.roles[r.capture]; role.role {
		case "name":
			if m.name == nil {
				m.name = r
			}
		case "scope":
			m.scope = r
		case "trait":
			m.trait = r
		case "member":
			m.member = r
		case "end":
			m.end = r
		case "section":
			m.section = true
		case "listed":
			c.listed[[2]uint32{r.n.startByte(), r.endByte}] = true
		case "skip":
			m.skip = true
		case "definition":
			m.whole, m.kind = r, role.kind
		}
	}
	return m
}

// add adds the definition of one match, unless a match of an earlier
// pattern named the same name.
func (c *collector) add(caps []capRec) {
	if len(caps) == 0 {
		return
	}
	m := c.roles(caps)
	if m.whole == nil || m.name == nil {
		return
	}
	key := [2]uint32{m.name.n.startByte(), m.name.endByte}
	text, hidden, ok := c.nameText(&m)
	if !ok {
		return
	}
	p := c.p
	e := &Entry{
		Definition: Definition{
			Name:  text,
			Kind:  m.kind,
			Line:  int(m.name.n.startRow()) + 1,
			Start: int(m.whole.n.startRow()) + 1,
			End:   p.codeEndLine(m.whole),
			Decl:  (m.kind == grammar.Function || m.kind == grammar.Method) && p.isBodyless(m.whole.symbol),
		},
		StartByte: m.whole.n.startByte(),
		EndByte:   m.whole.endByte,
		nameStart: m.name.n.startByte(),
	}
	if m.end != nil && m.end.endByte > e.EndByte {
		e.EndByte = m.end.endByte
		e.End = max(e.End, p.codeEndLine(m.end))
	}
	var scope uint32
	spans := false
	if m.section {
		if end, line, ok := parentEnd(&m.whole.n); ok {
			scope = end
			if end > e.EndByte && m.whole.endByte > 0 && int(m.whole.endByte) <= len(c.src) && (c.src[m.whole.endByte-1] == ';' || c.src[m.whole.endByte-1] == '.') {
				e.EndByte, e.End, spans = end, max(e.End, line), true
			}
		}
	}
	if m.skip {
		e = nil
	}
	d := def{entry: e, node: *m.whole, nameKey: key, pattern: caps[0].pattern, hidden: hidden, section: m.section, spans: spans, scope: scope}
	if m.member != nil {
		d.member = [2]uint32{m.member.n.startByte(), m.member.endByte}
	}
	if m.kind == grammar.Heading {
		d.level = headingLevel(c.content(m.whole))
	}
	if i, seen := c.byName[key]; seen {
		if c.defs[i].pattern > d.pattern {
			c.defs[i] = d
		}
		return
	}
	c.byName[key] = len(c.defs)
	c.defs = append(c.defs, d)
}

// nameText is the name a match's definition is listed under, and whether
// it is an empty heading, which is not listed; false when the match
// names nothing.
func (c *collector) nameText(m *matchCaps) (text string, hidden, ok bool) {
	text = cleanName(c.content(m.name), m.kind, c.p.markdown)
	if text == "" {
		if m.kind != grammar.Heading {
			return "", false, false
		}
		// An empty heading (a lone #) is not listed, but it still
		// ends the sections above it.
		hidden = true
	}
	if c.p.rename != nil {
		start := m.name.n.startByte()
		end := min(m.whole.endByte, start+grammar.MaxRenameHead, uint32(len(c.src)))
		if start < end {
			if s := c.p.rename(m.kind, c.src[start:end]); s != "" {
				text = s
			}
		}
	}
	if m.scope != nil {
		// Lua's cl[name] = function: a computed key keeps its brackets.
		if c.p.prevType(&m.name.n) == "[" {
			text = cleanName(c.content(m.scope), 0, false) + "[" + text + "]"
		} else {
			text = cleanName(c.content(m.scope), 0, false) + "." + text
		}
	}
	if m.trait != nil {
		t := lastSegment(cleanName(c.content(m.trait), 0, false))
		// impl !Send for Raw: the ! is a token beside the trait.
		if c.p.prevType(&m.trait.n) == "!" {
			t = "!" + t
		}
		text = t + " for " + text
	}
	return text, hidden, true
}
