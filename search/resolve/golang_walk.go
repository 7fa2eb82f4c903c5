package resolve

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// walk records the sites under n and the local bindings in scope as
// they are declared.
func (b *builder) walk(n *sitter.Node) {
	if n == nil {
		return
	}
	switch t := b.t(n); t {
	case "func_literal":
		b.push(n)
		b.funcBody(n)
		b.pop()
	case "block", "if_statement", "for_statement", "expression_switch_statement",
		"select_statement", "expression_case", "default_case", "communication_case":
		b.push(n)
		if t == "default_case" && len(b.switches) > 0 {
			b.caseAlias(nil)
		}
		b.children(n)
		b.pop()
	case "type_switch_statement":
		b.typeSwitch(n)
	case "type_case":
		b.push(n)
		b.caseAlias(n)
		b.children(n)
		b.pop()
	case "short_var_declaration":
		left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
		b.walk(right)
		b.bindList(left, right)
	case "var_declaration", "const_declaration":
		b.valueDecl(n, false)
	case "type_declaration":
		for i := range int(n.NamedChildCount()) {
			b.typeSpec(n.NamedChild(i), true)
		}
	case "range_clause":
		right := n.ChildByFieldName("right")
		b.walk(right)
		left := n.ChildByFieldName("left")
		if left == nil {
			return
		}
		if !b.declares(n) {
			b.walk(left)
			return
		}
		x := b.expr(right)
		ops := []Op{OpRangeKey, OpRangeVal}
		for i := 0; i < int(left.NamedChildCount()) && i < 2; i++ {
			b.bind(left.NamedChild(i), b.op(ops[i], x))
		}
	case "receive_statement":
		left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
		b.walk(right)
		if left != nil && b.declares(n) {
			b.bindList(left, right)
		} else {
			b.walk(left)
		}
	case "selector_expression":
		x, field := n.ChildByFieldName("operand"), n.ChildByFieldName("field")
		if imp, ok := b.pkgOperand(x); ok {
			b.site(field, SitePkg, imp)
			return
		}
		b.site(field, SiteSel, b.expr(x))
		b.walk(x)
	case "qualified_type":
		if imp, ok := b.importOf(b.text(n.ChildByFieldName("package"))); ok {
			b.site(n.ChildByFieldName("name"), SitePkg, imp)
		}
	case "composite_literal":
		tn := n.ChildByFieldName("type")
		b.walk(tn)
		b.literal(n.ChildByFieldName("body"), b.expr(tn))
	case "struct_type", "interface_type":
		// An anonymous type outside a declaration: its sites.
		b.expr(n)
	case "label_name":
		// A label is no package-level name: bound on its line.
		if s := b.text(n); s != "" && s != "_" {
			l := line(n)
			b.addLocal(s, l, l)
		}
	case "identifier", "field_identifier", "type_identifier", "package_identifier",
		"interpreted_string_literal", "raw_string_literal", "int_literal", "comment":
	default:
		b.children(n)
	}
}

func (b *builder) children(n *sitter.Node) {
	for i := range int(n.NamedChildCount()) {
		b.walk(n.NamedChild(i))
	}
}

// declares reports whether a range clause or receive statement declares
// its left side (:=) rather than assigning it.
func (b *builder) declares(n *sitter.Node) bool {
	for i := range int(n.ChildCount()) {
		if c := n.Child(i); !c.IsNamed() && b.t(c) == ":=" {
			return true
		}
	}
	return false
}

// bindList binds the names of an expression list to the values of
// another: one each, or the results of one call (v, ok := m[k], x.(T),
// <-ch: the value, then a boolean).
func (b *builder) bindList(left, right *sitter.Node) {
	if left == nil {
		return
	}
	values := b.items(right)
	nl := int(left.NamedChildCount())
	for i := range nl {
		var e int32
		switch {
		case len(values) == nl:
			e = b.expr(values[i])
		case len(values) == 1 && i == 0:
			e = b.expr(values[0])
		case len(values) == 1 && b.t(values[0]) == "call_expression":
			e = b.callResult(values[0], i)
		case len(values) == 1:
			e = b.basic()
		default:
			e = b.unknown()
		}
		b.bind(left.NamedChild(i), e)
	}
}

// items are the expressions of an expression list, or n alone.
func (b *builder) items(n *sitter.Node) []*sitter.Node {
	if n == nil {
		return nil
	}
	if b.t(n) != "expression_list" {
		return []*sitter.Node{n}
	}
	out := make([]*sitter.Node, 0, n.NamedChildCount())
	for i := range int(n.NamedChildCount()) {
		out = append(out, n.NamedChild(i))
	}
	return out
}

// typeSwitch walks a type switch, binding its alias in each clause to
// the clause's type (one type) or the value switched on.
func (b *builder) typeSwitch(n *sitter.Node) {
	b.push(n)
	defer b.pop()
	if init := n.ChildByFieldName("initializer"); init != nil {
		b.walk(init)
	}
	value := n.ChildByFieldName("value")
	b.walk(value)
	var alias *sitter.Node
	if a := n.ChildByFieldName("alias"); a != nil && a.NamedChildCount() > 0 {
		alias = a.NamedChild(0)
	}
	b.switches = append(b.switches, typeSwitch{alias: alias, value: b.expr(value)})
	defer func() { b.switches = b.switches[:len(b.switches)-1] }()
	for i := range int(n.NamedChildCount()) {
		c := n.NamedChild(i)
		if t := b.t(c); t == "type_case" || t == "default_case" {
			b.walk(c)
		}
	}
}

// caseAlias binds the innermost type switch's alias in the clause n
// (nil: the default clause).
func (b *builder) caseAlias(n *sitter.Node) {
	sw := b.switches[len(b.switches)-1]
	if sw.alias == nil {
		return
	}
	e := sw.value
	if n != nil {
		var types []*sitter.Node
		for j := range int(n.ChildCount()) {
			if n.FieldNameForChild(j) == "type" {
				types = append(types, n.Child(j))
			}
		}
		if len(types) == 1 && b.text(types[0]) != "nil" {
			e = b.add(Expr{Op: OpCall, A: b.expr(types[0]), B: 0})
		}
	}
	b.bind(sw.alias, e)
}

// literal records the keys of a composite literal's body, of type typ,
// and walks its elements; an element that is itself a literal body has
// the element type.
func (b *builder) literal(body *sitter.Node, typ int32) {
	if body == nil {
		return
	}
	elem := b.op(OpElem, typ)
	for i := range int(body.NamedChildCount()) {
		c := body.NamedChild(i)
		switch b.t(c) {
		case "keyed_element":
			if c.NamedChildCount() < 2 {
				b.children(c)
				continue
			}
			key, val := c.NamedChild(0), c.NamedChild(1)
			if b.t(key) == "literal_element" && key.NamedChildCount() == 1 {
				key = key.NamedChild(0)
			}
			if b.t(key) == "identifier" || b.t(key) == "field_identifier" {
				b.site(key, SiteKey, typ)
			} else {
				b.walk(key)
			}
			b.element(val, elem)
		case "literal_element":
			b.element(c, elem)
		default:
			b.walk(c)
		}
	}
}

func (b *builder) element(n *sitter.Node, elem int32) {
	if b.t(n) == "literal_element" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	if b.t(n) == "literal_value" {
		b.literal(n, elem)
		return
	}
	b.walk(n)
}
