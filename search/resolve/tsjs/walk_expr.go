package tsjs

import (
	"bytes"

	sitter "github.com/smacker/go-tree-sitter"
)

// Expressions and types: each returns the symbolic expression of what
// it is, recording the sites inside it on the way.

// statementKinds are the nodes statement walks itself.
var statementKinds = map[string]bool{
	"import_statement": true, "export_statement": true, "class_declaration": true, "abstract_class_declaration": true,
	"function_declaration": true, "generator_function_declaration": true, "function_signature": true,
	"interface_declaration": true, "type_alias_declaration": true, "enum_declaration": true,
	"lexical_declaration": true, "variable_declaration": true, "ambient_declaration": true, "statement_block": true,
}

// walk walks the children of a node that is neither a declaration nor an
// expression zumba follows (if, for, return, …).
func (b *builder) walk(n *sitter.Node) {
	if n == nil {
		return
	}
	switch b.t(n) {
	case "for_in_statement":
		b.push()
		defer b.pop()
		x := b.expr(field(n, "right"))
		if l := field(n, "left"); l != nil {
			elem := b.unknown()
			if b.text(field(n, "operator")) == "of" {
				elem = b.add(Expr{Op: OpElem, A: x})
			}
			b.bindPattern(l, elem, false)
		}
		b.statement(field(n, "body"))
		return
	case "catch_clause":
		b.push()
		defer b.pop()
		if p := field(n, "parameter"); p != nil {
			b.bindPattern(p, b.unknown(), false)
		}
		b.statement(field(n, "body"))
		return
	case "return_statement":
		if c := n.NamedChild(0); c != nil {
			b.exprWith(c, b.ret())
		}
		return
	case "comment":
		b.docLinks(n)
		return
	case "string", "template_string", "regex", "number":
		return
	}
	for i := range int(n.NamedChildCount()) {
		b.any(n.NamedChild(i))
	}
}

// any walks a statement or an expression.
func (b *builder) any(n *sitter.Node) {
	if statementKinds[b.t(n)] {
		b.statement(n)
		return
	}
	switch b.t(n) {
	case "expression_statement", "if_statement", "for_statement", "for_in_statement", "while_statement", "do_statement",
		"try_statement", "catch_clause", "finally_clause", "switch_statement", "switch_body", "switch_case", "switch_default",
		"return_statement", "throw_statement", "labeled_statement", "else_clause", "parenthesized_expression_statement", "program":
		b.walk(n)
	case "internal_module", "module":
		if body := field(n, "body"); body != nil {
			b.block(body)
		}
	default:
		b.expr(n)
	}
}

// rets are the declared result types of the functions being walked.
func (b *builder) ret() int32 {
	if len(b.rets) == 0 {
		return -1
	}
	return b.rets[len(b.rets)-1]
}

// expr walks the expression n and returns what it is.
func (b *builder) expr(n *sitter.Node) int32 {
	if n == nil {
		return b.unknown()
	}
	switch b.t(n) {
	case "identifier", "type_identifier":
		name := b.text(n)
		if name == "undefined" {
			return b.basic()
		}
		x, ok := b.lookup(name)
		if !ok {
			return b.basic()
		}
		if op := b.f.Exprs[x].Op; op == OpName || op == OpDecl || b.required(x) {
			b.site(n, SiteName, x, name)
		}
		return x
	case "this":
		if b.this < 0 {
			return b.unknown()
		}
		return b.this
	case "super":
		if b.class < 0 {
			return b.unknown()
		}
		return b.add(Expr{Op: OpSuper, A: b.class})
	case "member_expression":
		return b.memberExpr(n)
	case "subscript_expression":
		x := b.expr(field(n, "object"))
		b.expr(field(n, "index"))
		return b.add(Expr{Op: OpElem, A: x})
	case "call_expression":
		return b.call(n, false)
	case "new_expression":
		return b.call(n, true)
	case "parenthesized_expression", "non_null_expression", "spread_element":
		if c := n.NamedChild(0); c != nil {
			return b.expr(c)
		}
	case "as_expression", "satisfies_expression", "type_assertion":
		return b.assertion(n)
	case "await_expression":
		b.expr(n.NamedChild(0))
		return b.unknown()
	case "ternary_expression":
		b.expr(field(n, "condition"))
		return b.union(b.expr(field(n, "consequence")), b.expr(field(n, "alternative")))
	case "binary_expression":
		l, r := b.expr(field(n, "left")), b.expr(field(n, "right"))
		switch b.text(field(n, "operator")) {
		case "||", "??":
			return b.union(l, r)
		case "&&":
			return r
		}
		return b.basic()
	case "assignment_expression", "augmented_assignment_expression":
		b.cjsExport(field(n, "left"), field(n, "right"))
		l := b.expr(field(n, "left"))
		return b.exprWith(field(n, "right"), l)
	case "arrow_function", "function_expression", "function", "generator_function":
		return b.functionCtx(n, -1, -1)
	case "class", "class_expression":
		return b.add(Expr{Op: OpStatic, A: b.classDecl(n, -1)})
	case "object":
		return b.exprWith(n, -1)
	case "array":
		return b.arrayLit(n)
	case "string", "number", "true", "false", "null", "regex", "template_string", "unary_expression", "update_expression":
		for i := range int(n.NamedChildCount()) {
			b.any(n.NamedChild(i))
		}
		return b.basic()
	case "jsx_element", "jsx_self_closing_element", "jsx_opening_element", "jsx_closing_element":
		b.jsx(n)
		return b.unknown()
	}
	b.walk(n)
	return b.unknown()
}

// union is A | B.
func (b *builder) union(x, y int32) int32 {
	if x == y {
		return x
	}
	return b.add(Expr{Op: OpUnion, A: x, B: y})
}

// call walks a call or new expression: its arguments' callbacks and
// object literals are typed by the parameters the callee declares.
func (b *builder) call(n *sitter.Node, isNew bool) int32 {
	// The callee is the first named child, then type arguments, the
	// arguments (or a tagged template): read in one pass, as looking
	// fields up by name costs a C string each.
	var fn, ta, args *sitter.Node
	for i := range int(n.NamedChildCount()) {
		c := n.NamedChild(i)
		switch t := b.t(c); {
		case i == 0:
			fn = c
		case t == "type_arguments":
			ta = c
		case t == "arguments" || t == "template_string":
			args = c
		}
	}
	if x, ok := b.require(fn, args); ok && !isNew {
		return x
	}
	callee := b.expr(fn)
	if ta != nil {
		b.walk(ta)
	}
	of := callee
	if isNew {
		of = b.add(Expr{Op: OpMember, A: callee, Name: "constructor"})
	}
	if b.t(args) == "template_string" {
		b.walk(args)
	} else {
		for i := range int(childCount(args)) {
			b.exprWith(args.NamedChild(i), b.add(Expr{Op: OpArg, A: of, B: int32(i)}))
		}
	}
	if isNew {
		return b.add(Expr{Op: OpNew, A: callee})
	}
	return b.add(Expr{Op: OpCall, A: callee})
}

// exprWith walks the expression n whose contextual type is t (-1: none):
// an object literal's keys are members of t, a callback's parameters
// t's.
func (b *builder) exprWith(n *sitter.Node, t int32) int32 {
	if n == nil {
		return b.unknown()
	}
	switch b.t(n) {
	case "arrow_function", "function_expression", "function":
		return b.functionCtx(n, -1, t)
	case "parenthesized_expression":
		if c := n.NamedChild(0); c != nil {
			return b.exprWith(c, t)
		}
	case "ternary_expression":
		b.expr(field(n, "condition"))
		return b.union(b.exprWith(field(n, "consequence"), t), b.exprWith(field(n, "alternative"), t))
	case "object":
		b.object(n, t)
		if t < 0 {
			return b.unknown()
		}
		return t
	}
	return b.expr(n)
}

// object walks an object literal of the contextual type t.
func (b *builder) object(n *sitter.Node, t int32) {
	for i := range int(n.NamedChildCount()) {
		c := n.NamedChild(i)
		switch b.t(c) {
		case "pair":
			key := field(c, "key")
			var mt int32 = -1
			if b.t(key) == "property_identifier" {
				if t >= 0 {
					b.site(key, SiteKey, t, b.text(key))
					mt = b.add(Expr{Op: OpMember, A: t, Name: b.text(key)})
				}
			} else {
				b.expr(key)
			}
			b.exprWith(field(c, "value"), mt)
		case "shorthand_property_identifier":
			if t >= 0 {
				b.site(c, SiteKey, t, b.text(c))
			}
			if x, ok := b.lookup(b.text(c)); ok {
				if op := b.f.Exprs[x].Op; op == OpName || op == OpDecl {
					b.site(c, SiteName, x, b.text(c))
				}
			}
		case "method_definition":
			key := field(c, "name")
			var mt int32 = -1
			if b.t(key) == "property_identifier" && t >= 0 {
				b.site(key, SiteKey, t, b.text(key))
				mt = b.add(Expr{Op: OpMember, A: t, Name: b.text(key)})
			}
			saveThis := b.this
			b.this = -1
			b.functionCtx(c, -1, mt)
			b.this = saveThis
		default:
			b.any(c)
		}
	}
}

// jsx walks a JSX element: a capitalized tag names a component.
func (b *builder) jsx(n *sitter.Node) {
	for i := range int(n.NamedChildCount()) {
		c := n.NamedChild(i)
		switch b.t(c) {
		case "identifier":
			if nm := b.text(c); nm != "" && nm[0] >= 'A' && nm[0] <= 'Z' {
				b.expr(c)
			}
		case "member_expression", "nested_identifier":
			b.expr(c)
		case "jsx_attribute":
			for k := range int(c.NamedChildCount()) {
				if a := c.NamedChild(k); b.t(a) != "property_identifier" {
					b.any(a)
				}
			}
		case "jsx_expression":
			b.walk(c)
		case "jsx_text":
		default:
			b.any(c)
		}
	}
}

// passThrough are the standard library's type functions whose members
// are their argument's.
var passThrough = map[string]bool{"Partial": true, "Readonly": true, "Required": true, "NonNullable": true}

// arrays are the standard library's array types.
var arrays = map[string]bool{"Array": true, "ReadonlyArray": true}

// typ walks the type n and returns its expression.
func (b *builder) typ(n *sitter.Node) int32 {
	if n == nil {
		return b.unknown()
	}
	switch b.t(n) {
	case "type_annotation", "parenthesized_type", "opting_type_annotation", "omitting_type_annotation", "asserts_annotation":
		if c := n.NamedChild(0); c != nil {
			return b.typ(c)
		}
	case "type_identifier", "identifier":
		name := b.text(n)
		if b.isTypeParam(name) {
			return b.unknown()
		}
		x, ok := b.lookup(name)
		if !ok {
			return b.basic()
		}
		if op := b.f.Exprs[x].Op; op == OpName || op == OpDecl {
			b.site(n, SiteName, x, name)
			return b.asType(x)
		}
		return b.unknown()
	case "generic_type":
		nm := field(n, "name")
		args := field(n, "type_arguments")
		if passThrough[b.text(nm)] && !b.module[b.text(nm)] && childCount(args) > 0 {
			return b.typ(args.NamedChild(0))
		}
		if arrays[b.text(nm)] && !b.module[b.text(nm)] && childCount(args) > 0 {
			return b.add(Expr{Op: OpArrayOf, A: b.typ(args.NamedChild(0))})
		}
		for i := range int(childCount(args)) {
			b.typ(args.NamedChild(i))
		}
		if _, ok := b.lookup(b.text(nm)); !ok && b.t(nm) == "type_identifier" {
			// Array<T>, Map<K, V>, Promise<T>: their members' types
			// depend on T, which is not followed.
			return b.unknown()
		}
		return b.typ(nm)
	case "nested_type_identifier":
		mod, nm := field(n, "module"), field(n, "name")
		x := b.expr(mod)
		b.site(nm, SiteMember, x, b.text(nm))
		return b.add(Expr{Op: OpMember, A: x, B: 1, Name: b.text(nm)})
	case "predefined_type":
		switch b.text(n) {
		case "any", "unknown", "object":
			return b.unknown()
		}
		return b.basic()
	case "union_type", "intersection_type":
		x := int32(-1)
		for i := range int(n.NamedChildCount()) {
			y := b.typ(n.NamedChild(i))
			if x < 0 {
				x = y
			} else {
				x = b.union(x, y)
			}
		}
		if x >= 0 {
			return x
		}
	case "function_type", "constructor_type":
		return b.functionCtx(n, -1, -1)
	case "object_type":
		i := b.decl(Decl{Kind: DeclInterface, Parent: -1, Type: -1, Local: true})
		b.objectType(n, i)
		return b.add(Expr{Op: OpDecl, A: i, B: 1})
	case "type_query":
		if c := n.NamedChild(0); c != nil {
			return b.expr(c)
		}
	case "this_type":
		if b.class >= 0 {
			return b.add(Expr{Op: OpThis, A: b.class})
		}
	case "array_type":
		return b.add(Expr{Op: OpArrayOf, A: b.typ(n.NamedChild(0))})
	case "readonly_type":
		return b.typ(n.NamedChild(0))
	case "literal_type", "template_literal_type", "index_type_query":
		b.walkTypes(n)
		return b.basic()
	default:
		b.walkTypes(n)
	}
	return b.unknown()
}

// walkTypes walks the types inside n for their sites.
func (b *builder) walkTypes(n *sitter.Node) {
	for i := range int(n.NamedChildCount()) {
		b.typ(n.NamedChild(i))
	}
}

// docLinks records the names a doc comment links to ({@link Name},
// {@link Name.member}): tsserver counts them as references.
func (b *builder) docLinks(n *sitter.Node) {
	text := b.src[n.StartByte():n.EndByte()]
	if !bytes.Contains(text, []byte("{@link")) {
		return
	}
	p := n.StartPoint()
	ln, col := int32(p.Row)+1, int32(p.Column)+1
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			ln, col = ln+1, 1
			continue
		}
		if !bytes.HasPrefix(text[i:], []byte("{@link")) {
			col++
			continue
		}
		j := i + len("{@link")
		for j < len(text) && text[j] >= 'a' && text[j] <= 'z' {
			j++
		}
		for j < len(text) && text[j] == ' ' {
			j++
		}
		c := col + int32(j-i)
		k := j
		for k < len(text) && wordByte(text[k]) {
			k++
		}
		if k > j {
			b.docLink(string(text[j:k]), ln, c, text[k:])
		}
		col += int32(k - i)
		i = k - 1
	}
}

// docLink records the link to name at line and col, and to a member
// rest names (".member").
func (b *builder) docLink(name string, ln, col int32, rest []byte) {
	x, ok := b.lookup(name)
	if !ok {
		return
	}
	if op := b.f.Exprs[x].Op; op != OpName && op != OpDecl {
		return
	}
	b.f.Sites = append(b.f.Sites, Site{Line: ln, Col: col, Kind: SiteName, X: x, Name: name})
	if len(rest) > 1 && (rest[0] == '.' || rest[0] == '#') && wordByte(rest[1]) {
		k := 1
		for k < len(rest) && wordByte(rest[k]) {
			k++
		}
		b.f.Sites = append(b.f.Sites, Site{Line: ln, Col: col + int32(len(name)) + 1, Kind: SiteMember, X: b.asType(x), Name: string(rest[1:k])})
	}
}

// assertion walks x as T, x satisfies T and <T>x: the value is T (x
// for satisfies), x's contextual type T.
func (b *builder) assertion(n *sitter.Node) int32 {
	if b.t(n) == "type_assertion" {
		t := b.unknown()
		var v *sitter.Node
		for i := range int(n.NamedChildCount()) {
			if c := n.NamedChild(i); b.t(c) == "type_arguments" {
				t = b.typ(c.NamedChild(0))
			} else {
				v = c
			}
		}
		b.exprWith(v, t)
		return t
	}
	t := b.typ(n.NamedChild(1))
	vx := b.exprWith(n.NamedChild(0), t)
	if b.t(n) == "satisfies_expression" {
		return vx
	}
	return t
}

// memberExpr walks x.name (object, optional_chain?, property).
func (b *builder) memberExpr(n *sitter.Node) int32 {
	k := int(n.NamedChildCount())
	if k < 2 {
		b.walk(n)
		return b.unknown()
	}
	x := b.expr(n.NamedChild(0))
	p := n.NamedChild(k - 1)
	switch b.t(p) {
	case "property_identifier", "private_property_identifier":
		b.site(p, SiteMember, x, b.text(p))
		return b.add(Expr{Op: OpMember, A: x, Name: b.text(p)})
	}
	return b.unknown()
}

// arrayLit walks [a, b]: an array of what its elements are; [] and
// spreads say nothing of its elements.
func (b *builder) arrayLit(n *sitter.Node) int32 {
	elem := int32(-1)
	for i := range int(n.NamedChildCount()) {
		c := n.NamedChild(i)
		x := b.expr(c)
		switch {
		case b.t(c) == "spread_element" || b.t(c) == "comment":
		case elem < 0:
			elem = x
		default:
			elem = b.union(elem, x)
		}
	}
	if elem < 0 {
		return b.unknown()
	}
	return b.add(Expr{Op: OpArrayOf, A: elem})
}
