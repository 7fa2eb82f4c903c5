package tsjs

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// Declarations: classes and interfaces with their heritage and members,
// functions with their parameters, type parameters.

// classDecl declares a class (into the hoisted declaration at, when
// not -1) and walks its body with `this` its instance.
func (b *builder) classDecl(n *sitter.Node, at int32) int32 {
	nm := field(n, "name")
	name := ""
	if nm != nil {
		name = b.text(nm)
	}
	d := Decl{Name: name, Kind: DeclClass, Parent: -1, Type: -1, Local: len(b.scopes) > 0 || nm == nil}
	if nm != nil {
		d.Line = line(nm)
	}
	i := at
	if i < 0 {
		i = b.decl(d)
	} else {
		b.f.Decls[i] = d
	}
	if nm != nil {
		b.site(nm, SiteDecl, i, name)
	}
	b.pushTypeParams(field(n, "type_parameters"))
	defer b.popTypeParams(field(n, "type_parameters"))
	for k := range int(n.NamedChildCount()) {
		c := n.NamedChild(k)
		if b.t(c) != "class_heritage" {
			continue
		}
		for h := range int(c.NamedChildCount()) {
			b.heritage(c.NamedChild(h), i)
		}
	}
	saveThis, saveClass := b.this, b.class
	b.class = i
	defer func() { b.this, b.class = saveThis, saveClass }()
	body := field(n, "body")
	if body == nil {
		return i
	}
	for k := range int(body.NamedChildCount()) {
		b.classMember(body.NamedChild(k), i)
	}
	return i
}

// heritage declares an extends or implements clause of the class or
// interface i.
func (b *builder) heritage(c *sitter.Node, i int32) {
	switch b.t(c) {
	case "extends_clause":
		v := field(c, "value")
		if v == nil {
			return
		}
		b.walk(v)
		var t int32
		switch b.t(v) {
		case "identifier", "member_expression":
			t = b.asType(b.expr(v))
		default:
			t = b.unknown()
		}
		b.decl(Decl{Name: "extends", Kind: DeclHeritage, Parent: i, Type: t})
	case "implements_clause", "extends_type_clause":
		for k := range int(c.NamedChildCount()) {
			t := b.typ(c.NamedChild(k))
			b.decl(Decl{Name: "implements", Kind: DeclHeritage, Parent: i, Type: t})
		}
	}
}

// asType is the type a class's value x names (its instances).
func (b *builder) asType(x int32) int32 {
	e := b.f.Exprs[x]
	switch e.Op {
	case OpName, OpDecl:
		e.B = 1
		return b.add(e)
	case OpMember:
		return b.add(Expr{Op: OpMember, A: e.A, B: 1, Name: e.Name})
	case OpStatic:
		return b.add(Expr{Op: OpThis, A: e.A})
	}
	return b.unknown()
}

// classMember declares one member of the class ci and walks its body.
func (b *builder) classMember(m *sitter.Node, ci int32) {
	static := false
	for k := range int(m.ChildCount()) {
		if b.t(m.Child(k)) == "static" {
			static = true
		}
	}
	b.this = b.add(Expr{Op: OpThis, A: ci})
	if static {
		b.this = b.add(Expr{Op: OpStatic, A: ci})
	}
	nm := field(m, "name")
	switch b.t(m) {
	case "method_definition", "method_signature", "abstract_method_signature":
		if nm == nil {
			return
		}
		if b.t(nm) == "computed_property_name" {
			b.walk(nm)
			b.function(m, -1)
			return
		}
		i := b.member(nm, ci, static, -1)
		b.f.Decls[i].Type = b.function(m, i)
		if isAccessor(b, m) {
			b.f.Decls[i].Type = b.f.Exprs[b.f.Decls[i].Type].A
		}
	case "public_field_definition", "property_signature", "abstract_class_field":
		if nm == nil {
			return
		}
		var t int32 = -1
		if ty := field(m, "type"); ty != nil {
			t = b.typ(ty)
			if v := field(m, "value"); v != nil {
				b.exprWith(v, t)
			}
		} else if v := field(m, "value"); v != nil {
			t = b.expr(v)
		}
		if b.t(nm) == "computed_property_name" {
			b.walk(nm)
			return
		}
		b.member(nm, ci, static, t)
	default:
		b.walk(m)
	}
}

// isAccessor reports whether the method m is a get or set accessor.
func isAccessor(b *builder, m *sitter.Node) bool {
	for k := range int(m.ChildCount()) {
		switch b.t(m.Child(k)) {
		case "get", "set":
			return true
		}
	}
	return false
}

// member declares the member nm of the class or interface ci.
func (b *builder) member(nm *sitter.Node, ci int32, static bool, t int32) int32 {
	name := b.text(nm)
	i := b.decl(Decl{Name: name, Kind: DeclMember, Line: line(nm), Parent: ci, Type: t, Static: static})
	b.site(nm, SiteDecl, i, name)
	return i
}

// interfaceDecl declares an interface and its members.
func (b *builder) interfaceDecl(n *sitter.Node) int32 {
	nm := field(n, "name")
	if nm == nil {
		return -1
	}
	i := b.decl(Decl{Name: b.text(nm), Kind: DeclInterface, Line: line(nm), Parent: -1, Type: -1, Local: len(b.scopes) > 0})
	b.site(nm, SiteDecl, i, b.text(nm))
	b.pushTypeParams(field(n, "type_parameters"))
	defer b.popTypeParams(field(n, "type_parameters"))
	for k := range int(n.NamedChildCount()) {
		if c := n.NamedChild(k); b.t(c) == "extends_type_clause" {
			b.heritage(c, i)
		}
	}
	b.objectType(field(n, "body"), i)
	return i
}

// objectType declares the members of an interface's or object type's
// body as members of i.
func (b *builder) objectType(body *sitter.Node, i int32) {
	if body == nil {
		return
	}
	saveThis := b.this
	b.this = b.add(Expr{Op: OpThis, A: i})
	defer func() { b.this = saveThis }()
	for k := range int(body.NamedChildCount()) {
		m := body.NamedChild(k)
		nm := field(m, "name")
		switch b.t(m) {
		case "property_signature":
			if nm == nil || b.t(nm) == "computed_property_name" {
				continue
			}
			t := int32(-1)
			if ty := field(m, "type"); ty != nil {
				t = b.typ(ty)
			}
			b.member(nm, i, false, t)
		case "method_signature":
			if nm == nil || b.t(nm) == "computed_property_name" {
				continue
			}
			j := b.member(nm, i, false, -1)
			b.f.Decls[j].Type = b.function(m, j)
		case "call_signature":
			j := b.decl(Decl{Name: "()", Kind: DeclMember, Line: line(m), Parent: i, Type: -1})
			b.f.Decls[j].Type = b.function(m, j)
		}
	}
}

// funcDecl declares a function (into the hoisted declaration at, when
// not -1) and walks it.
func (b *builder) funcDecl(n *sitter.Node, at int32) {
	nm := field(n, "name")
	if nm == nil {
		b.function(n, -1)
		return
	}
	d := Decl{Name: b.text(nm), Kind: DeclFunction, Line: line(nm), Parent: -1, Type: -1, Local: len(b.scopes) > 0}
	i := at
	if i < 0 {
		i = b.decl(d)
	} else {
		b.f.Decls[i] = d
	}
	b.site(nm, SiteDecl, i, d.Name)
	saveThis := b.this
	b.this = -1
	b.f.Decls[i].Type = b.function(n, i)
	b.this = saveThis
}

// function walks a function, method, arrow function or signature n in a
// scope of its own (its parameters bound to their declared types, or
// to ctx's parameters when it is a callback), and returns its OpFunc.
// di is the declaration of the function (-1: none): a constructor's
// parameter properties are members of its class.
func (b *builder) function(n *sitter.Node, di int32) int32 {
	return b.functionCtx(n, di, -1)
}

// functionCtx is function for a callback whose parameters' types are
// those of the function type ctx (-1: none known).
func (b *builder) functionCtx(n *sitter.Node, di, ctx int32) int32 {
	b.pushTypeParams(field(n, "type_parameters"))
	defer b.popTypeParams(field(n, "type_parameters"))
	b.push()
	defer b.pop()
	saveThis := b.this
	defer func() { b.this = saveThis }()
	var params []int32
	ps := field(n, "parameters")
	if ps == nil {
		if p := field(n, "parameter"); p != nil {
			// x => …
			t := b.unknown()
			if ctx >= 0 {
				t = b.add(Expr{Op: OpArgParam, A: ctx, B: 0})
			}
			b.bind(b.text(p), t)
			params = append(params, t)
		}
	}
	k := int32(0)
	for i := range int(childCount(ps)) {
		p := ps.NamedChild(i)
		switch b.t(p) {
		case "required_parameter", "optional_parameter":
		default:
			continue
		}
		pat := field(p, "pattern")
		t := int32(-1)
		if ty := field(p, "type"); ty != nil {
			t = b.typ(ty)
		} else if ctx >= 0 {
			t = b.add(Expr{Op: OpArgParam, A: ctx, B: k})
		} else if v := field(p, "value"); v != nil {
			t = b.expr(v)
		} else {
			t = b.unknown()
		}
		if v := field(p, "value"); v != nil && field(p, "type") != nil {
			b.exprWith(v, t)
		}
		if b.t(pat) == "this" {
			b.this = t
			continue
		}
		if di >= 0 && b.f.Decls[di].Kind == DeclMember && b.f.Decls[di].Name == "constructor" && hasAccessibility(b, p) && b.t(pat) == "identifier" {
			// constructor(private x: T): a property of the class.
			b.member(pat, b.f.Decls[di].Parent, false, t)
		}
		b.bindPattern(pat, t, false)
		params = append(params, t)
		k++
	}
	ret := int32(-1)
	if rt := field(n, "return_type"); rt != nil {
		ret = b.typ(rt)
	}
	if body := field(n, "body"); body != nil {
		b.rets = append(b.rets, ret)
		defer func() { b.rets = b.rets[:len(b.rets)-1] }()
		if b.t(body) == "statement_block" {
			b.block(body)
		} else if ret >= 0 {
			b.exprWith(body, ret)
		} else {
			ret = b.expr(body)
		}
	}
	next := int32(-1)
	for i := len(params) - 1; i >= 0; i-- {
		next = b.add(Expr{Op: OpParam, A: params[i], B: next})
	}
	return b.add(Expr{Op: OpFunc, A: ret, B: next})
}

func childCount(n *sitter.Node) uint32 {
	if n == nil {
		return 0
	}
	return n.NamedChildCount()
}

// hasAccessibility reports whether the parameter p has an accessibility
// or readonly modifier (a parameter property).
func hasAccessibility(b *builder, p *sitter.Node) bool {
	for k := range int(p.ChildCount()) {
		switch b.t(p.Child(k)) {
		case "accessibility_modifier", "readonly", "override_modifier":
			return true
		}
	}
	return false
}

// pushTypeParams puts the type parameters of a declaration in scope;
// popTypeParams takes them out.
func (b *builder) pushTypeParams(tp *sitter.Node) {
	if tp == nil {
		return
	}
	m := map[string]bool{}
	for i := range int(tp.NamedChildCount()) {
		if nm := field(tp.NamedChild(i), "name"); nm != nil {
			m[b.text(nm)] = true
		}
	}
	b.types = append(b.types, m)
}

func (b *builder) popTypeParams(tp *sitter.Node) {
	if tp != nil {
		b.types = b.types[:len(b.types)-1]
	}
}

// isTypeParam reports whether name is a type parameter in scope.
func (b *builder) isTypeParam(name string) bool {
	for _, m := range b.types {
		if m[name] {
			return true
		}
	}
	return false
}
