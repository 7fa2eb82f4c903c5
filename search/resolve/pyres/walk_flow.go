package pyres

import (
	"maps"

	sitter "github.com/smacker/go-tree-sitter"
)

// branching walks an if, while, for or try statement in the function s:
// each branch from the names' values before it, and each name after it
// bound to any of the values the branches leave it (a loop's body and an
// if without else may not run).
func (b *builder) branching(n *sitter.Node, s *scope) {
	pre := maps.Clone(s.names)
	var outs []map[string]int32
	branch := func(walk func()) {
		s.names = maps.Clone(pre)
		walk()
		outs = append(outs, s.names)
	}
	optional := true
	var after []*sitter.Node
	switch n.Type() {
	case "if_statement":
		b.expr(n.ChildByFieldName("condition"))
		branch(func() { b.stmt(n.ChildByFieldName("consequence")) })
		for i := 0; i < int(n.NamedChildCount()); i++ {
			c := n.NamedChild(i)
			switch c.Type() {
			case "elif_clause":
				branch(func() { b.children(c) })
			case "else_clause":
				optional = false
				branch(func() { b.children(c) })
			}
		}
	case "while_statement", "for_statement":
		if n.Type() == "for_statement" {
			b.expr(n.ChildByFieldName("right"))
		} else {
			b.expr(n.ChildByFieldName("condition"))
		}
		branch(func() {
			if n.Type() == "for_statement" {
				b.bind(n.ChildByFieldName("left"), b.unknown())
			}
			b.stmt(n.ChildByFieldName("body"))
		})
		if e := n.ChildByFieldName("alternative"); e != nil {
			after = append(after, e)
		}
	case "try_statement":
		optional = false
		branch(func() { b.stmt(n.ChildByFieldName("body")) })
		for i := 0; i < int(n.NamedChildCount()); i++ {
			c := n.NamedChild(i)
			switch c.Type() {
			case "except_clause", "except_group_clause":
				branch(func() { b.stmt(c) })
			case "else_clause", "finally_clause":
				after = append(after, c)
			}
		}
	}
	if optional {
		outs = append(outs, pre)
	}
	s.names = b.merge(outs)
	for _, c := range after {
		b.children(c)
	}
}

// merge is the names' values after branches that left them outs.
func (b *builder) merge(outs []map[string]int32) map[string]int32 {
	if len(outs) == 1 {
		return outs[0]
	}
	out := map[string]int32{}
	for _, m := range outs {
		for name, v := range m {
			old, ok := out[name]
			switch {
			case !ok:
				out[name] = v
			case old != v:
				out[name] = b.add(Expr{Op: OpUnion, A: old, B: v})
			}
		}
	}
	return out
}
