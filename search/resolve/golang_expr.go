package resolve

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// The expressions of a Go file (see Expr): each syntax node of an
// expression or a type becomes a node of the file's table, with the
// local names replaced by what they were bound to.

// add returns the index of e in the table, adding it once.
func (b *builder) add(e Expr) int32 {
	if i, ok := b.memo[e]; ok {
		return i
	}
	i := int32(len(b.f.Exprs))
	b.f.Exprs = append(b.f.Exprs, e)
	b.memo[e] = i
	return i
}

func (b *builder) op(op Op, a int32) int32 { return b.add(Expr{Op: op, A: a, B: -1}) }

func (b *builder) unknown() int32 { return b.add(Expr{Op: OpUnknown, A: -1, B: -1}) }

func (b *builder) basic() int32 { return b.add(Expr{Op: OpBasic, A: -1, B: -1}) }

// name is the expression of the bare identifier s: what a local binding
// gave it, else the package-level name.
func (b *builder) name(s string) int32 {
	if e, ok := b.lookup(s); ok {
		return e
	}
	return b.add(Expr{Op: OpName, A: -1, B: -1, Name: s})
}

// expr is the expression of the syntax node n, a value or a type.
func (b *builder) expr(n *sitter.Node) int32 {
	if n == nil {
		return b.unknown()
	}
	switch b.t(n) {
	case "identifier", "type_identifier":
		return b.name(b.text(n))
	case "qualified_type":
		if imp, ok := b.importOf(b.text(n.ChildByFieldName("package"))); ok {
			return b.add(Expr{Op: OpName, A: imp, B: -1, Name: b.text(n.ChildByFieldName("name"))})
		}
		return b.unknown()
	case "selector_expression":
		x, field := n.ChildByFieldName("operand"), n.ChildByFieldName("field")
		if imp, ok := b.pkgOperand(x); ok {
			return b.add(Expr{Op: OpName, A: imp, B: -1, Name: b.text(field)})
		}
		return b.add(Expr{Op: OpSel, A: b.expr(x), B: -1, Name: b.text(field)})
	case "call_expression":
		return b.call(n)
	case "composite_literal", "type_conversion_expression", "type_assertion_expression":
		return b.add(Expr{Op: OpCall, A: b.expr(n.ChildByFieldName("type")), B: 0})
	case "unary_expression":
		x := b.expr(n.ChildByFieldName("operand"))
		switch b.text(n.ChildByFieldName("operator")) {
		case "&":
			return b.op(OpAddr, x)
		case "*":
			return b.op(OpStar, x)
		case "<-":
			return b.op(OpRecv, x)
		case "!":
			return b.basic()
		}
		return x
	case "binary_expression":
		switch b.text(n.ChildByFieldName("operator")) {
		case "==", "!=", "<", "<=", ">", ">=", "&&", "||":
			return b.basic()
		}
		return b.expr(n.ChildByFieldName("left"))
	case "parenthesized_expression", "parenthesized_type", "type_elem":
		return b.expr(n.NamedChild(0))
	case "index_expression":
		return b.op(OpIndex, b.expr(n.ChildByFieldName("operand")))
	case "slice_expression":
		return b.expr(n.ChildByFieldName("operand"))
	case "generic_type":
		return b.expr(n.ChildByFieldName("type"))
	case "func_literal", "function_type":
		return b.funcType(n)
	case "pointer_type":
		return b.op(OpStar, b.expr(n.NamedChild(0)))
	case "slice_type", "array_type", "implicit_length_array_type":
		return b.op(OpSlice, b.expr(n.ChildByFieldName("element")))
	case "map_type":
		return b.add(Expr{Op: OpMap, A: b.expr(n.ChildByFieldName("key")), B: b.expr(n.ChildByFieldName("value"))})
	case "channel_type":
		return b.op(OpChan, b.expr(n.ChildByFieldName("value")))
	case "struct_type", "interface_type":
		return b.op(OpLocalType, b.anonType(n))
	case "int_literal", "float_literal", "imaginary_literal", "rune_literal",
		"interpreted_string_literal", "raw_string_literal", "true", "false":
		return b.basic()
	}
	return b.unknown()
}

// call is the expression of a call: the builtins that say their
// result's type, else the first result of what is called (a conversion
// when it is a type).
func (b *builder) call(n *sitter.Node) int32 {
	fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	arg := func(i int) *sitter.Node {
		if args == nil || int(args.NamedChildCount()) <= i {
			return nil
		}
		return args.NamedChild(i)
	}
	if b.t(fn) == "identifier" {
		if _, local := b.lookup(b.text(fn)); !local {
			switch b.text(fn) {
			case "new":
				return b.add(Expr{Op: OpCall, A: b.op(OpStar, b.expr(arg(0))), B: 0})
			case "make":
				return b.add(Expr{Op: OpCall, A: b.expr(arg(0)), B: 0})
			case "append", "min", "max":
				return b.expr(arg(0))
			case "len", "cap", "copy", "real", "imag", "complex":
				return b.basic()
			}
		}
	}
	return b.add(Expr{Op: OpCall, A: b.expr(fn), B: 0})
}

// callResult is result i of the call expression n (a, b := f()).
func (b *builder) callResult(n *sitter.Node, i int) int32 {
	if i == 0 {
		return b.expr(n)
	}
	if b.t(n) != "call_expression" {
		return b.unknown()
	}
	return b.add(Expr{Op: OpCall, A: b.expr(n.ChildByFieldName("function")), B: int32(i)})
}

// funcType is the OpFunc of a function declaration, literal or type:
// its results.
func (b *builder) funcType(n *sitter.Node) int32 {
	var types []int32
	if r := n.ChildByFieldName("result"); r != nil {
		if b.t(r) == "parameter_list" {
			b.params(r, func(_ *sitter.Node, t int32) { types = append(types, t) }, true)
		} else {
			types = append(types, b.expr(r))
		}
	}
	next := int32(-1)
	for i := len(types) - 1; i >= 0; i-- {
		next = b.add(Expr{Op: OpResult, A: types[i], B: next})
	}
	nparams := int32(0)
	if ps := n.ChildByFieldName("parameters"); ps != nil {
		b.params(ps, func(*sitter.Node, int32) { nparams++ }, true)
	}
	return b.add(Expr{Op: OpFunc, A: next, B: nparams})
}

// params calls f with each parameter of the list n, its name node (nil
// when unnamed) and its type; with each, an unnamed parameter counts as
// one.
func (b *builder) params(n *sitter.Node, f func(name *sitter.Node, t int32), each bool) {
	for i := range int(n.NamedChildCount()) {
		p := n.NamedChild(i)
		var t int32
		switch b.t(p) {
		case "parameter_declaration":
			t = b.expr(p.ChildByFieldName("type"))
		case "variadic_parameter_declaration":
			t = b.op(OpSlice, b.expr(p.ChildByFieldName("type")))
		default:
			continue
		}
		named := false
		for j := range int(p.ChildCount()) {
			if p.FieldNameForChild(j) == "name" {
				named = true
				f(p.Child(j), t)
			}
		}
		if !named && each {
			f(nil, t)
		}
	}
}

// anonType adds a struct or interface type declared without a name (or
// inside a function: see localType) and returns its index.
func (b *builder) anonType(n *sitter.Node) int32 {
	i := int32(len(b.f.Types))
	b.f.Types = append(b.f.Types, Type{Local: true, Under: -1})
	b.members(i, n)
	return i
}

// members fills in the members of the struct or interface type n,
// declared as f.Types[ti], and their sites.
func (b *builder) members(ti int32, n *sitter.Node) {
	var ms []Member
	kind := TypeStruct
	if b.t(n) == "interface_type" {
		kind = TypeInterface
		for i := range int(n.NamedChildCount()) {
			c := n.NamedChild(i)
			switch b.t(c) {
			case "method_elem", "method_spec":
				name := c.ChildByFieldName("name")
				ms = append(ms, Member{Name: b.text(name), Type: b.funcType(c), Line: line(name), Method: true})
				b.site(name, SiteMember, ti)
				b.walkSignature(c)
			case "type_elem", "constraint_elem", "qualified_type", "type_identifier":
				if c.NamedChildCount() <= 1 {
					t := c
					if b.t(c) == "type_elem" || b.t(c) == "constraint_elem" {
						t = c.NamedChild(0)
					}
					if t != nil && (b.t(t) == "type_identifier" || b.t(t) == "qualified_type" || b.t(t) == "generic_type") {
						ms = append(ms, Member{Name: typeName(b, t), Type: b.expr(t), Embedded: true})
					}
				}
				b.walk(c)
			}
		}
	} else if list := n.NamedChild(0); list != nil {
		for i := range int(list.NamedChildCount()) {
			c := list.NamedChild(i)
			if b.t(c) != "field_declaration" {
				continue
			}
			tn := c.ChildByFieldName("type")
			t := b.expr(tn)
			named := false
			for j := range int(c.NamedChildCount()) {
				f := c.NamedChild(j)
				if b.t(f) == "field_identifier" {
					named = true
					ms = append(ms, Member{Name: b.text(f), Type: t, Line: line(f)})
					b.site(f, SiteMember, ti)
				}
			}
			if !named {
				ms = append(ms, Member{Name: typeName(b, tn), Type: t, Embedded: true, Line: line(tn)})
			}
			b.walk(tn)
		}
	}
	b.f.Types[ti].Kind, b.f.Types[ti].Members = kind, ms
}

// typeName is the name an embedded type gives its field: the last
// identifier of *pkg.T[A].
func typeName(b *builder, n *sitter.Node) string {
	for n != nil {
		switch b.t(n) {
		case "type_identifier", "identifier":
			return b.text(n)
		case "qualified_type":
			return b.text(n.ChildByFieldName("name"))
		case "generic_type":
			n = n.ChildByFieldName("type")
		case "pointer_type", "parenthesized_type", "type_elem":
			n = n.NamedChild(0)
		default:
			return ""
		}
	}
	return ""
}
