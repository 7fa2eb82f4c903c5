package pyres

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// bind binds the assignment target t to the value v: a name in the
// scope it is bound in, an attribute of self to the method's class; the
// parts of other targets are walked for their uses.
func (b *builder) bind(t *sitter.Node, v int32) {
	if t == nil {
		return
	}
	switch t.Type() {
	case "identifier":
		b.bindName(t, b.text(t), v, false)
	case "attribute":
		obj := t.ChildByFieldName("object")
		b.expr(t)
		if s := b.fn(); s != nil && obj != nil && obj.Type() == "identifier" && s.self != "" && b.text(obj) == s.self && s.cls >= 0 {
			if a := t.ChildByFieldName("attribute"); a != nil {
				b.addVar(b.text(a), s.cls, line(a), v)
			}
		}
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "list_splat_pattern", "parenthesized_expression":
		for i := 0; i < int(t.NamedChildCount()); i++ {
			b.bind(t.NamedChild(i), b.unknown())
		}
	default:
		b.expr(t)
	}
}

// bindName binds name (at n) to v in the innermost scope; alias: by an
// import.
func (b *builder) bindName(n *sitter.Node, name string, v int32, alias bool) {
	if len(b.scopes) > 0 {
		s := b.scopes[len(b.scopes)-1]
		if s.kind == scopeFunc && s.globals[name] {
			// global x: the module's x.
			b.addVar(name, -1, line(n), v)
			return
		}
		if s.kind == scopeFunc {
			s.names[name] = v
			if alias {
				s.aliases[name] = true
			}
			return
		}
		if s.kind == scopeClass {
			b.addVar(name, s.cls, line(n), v)
			return
		}
		if !b.recordable() {
			return
		}
	}
	b.addVar(name, -1, line(n), v)
}

// addVar adds the value v to the module-level name or class attribute
// name.
func (b *builder) addVar(name string, cls, ln int32, v int32) {
	for i := range b.f.Vars {
		x := &b.f.Vars[i]
		if x.Name == name && x.Class == cls {
			if len(x.Vals) < maxVals && !containsI(x.Vals, v) {
				x.Vals = append(x.Vals, v)
			}
			return
		}
	}
	b.f.Vars = append(b.f.Vars, Var{Name: name, Class: cls, Line: ln, Vals: []int32{v}})
}

func containsI(list []int32, v int32) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// importStmt: `import a.b.c` binds a to the module a; `import a.b as x`
// binds x to the module a.b.
func (b *builder) importStmt(n *sitter.Node) {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "dotted_name":
			first := c.NamedChild(0)
			if first != nil {
				b.bindName(first, b.text(first), b.op(OpModule, -1, b.text(first)), true)
			}
		case "aliased_import":
			name, alias := c.ChildByFieldName("name"), c.ChildByFieldName("alias")
			if name != nil && alias != nil {
				b.bindName(alias, b.text(alias), b.op(OpModule, -1, dotted(b.text(name))), true)
			}
		}
	}
}

// dotted is a dotted name without the spaces Python allows in it.
func dotted(s string) string {
	if strings.ContainsAny(s, " \t\n\\") {
		return strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\n' || r == '\\' || r == '\r' {
				return -1
			}
			return r
		}, s)
	}
	return s
}

// fromImport: `from m import n as x` binds x (or n) to m.n, and the
// name n is a use of m's n; `from m import *` binds m's public names.
func (b *builder) fromImport(n *sitter.Node) {
	mod := n.ChildByFieldName("module_name")
	if mod == nil {
		return
	}
	m := b.op(OpModule, -1, dotted(b.text(mod)))
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if same(c, n.ChildByFieldName("module_name")) {
			continue
		}
		switch c.Type() {
		case "wildcard_import":
			if b.recordable() && len(b.scopes) == 0 && !containsI(b.f.Stars, m) {
				b.f.Stars = append(b.f.Stars, m)
			}
		case "dotted_name":
			b.importName(c, c, m)
		case "aliased_import":
			if name, alias := c.ChildByFieldName("name"), c.ChildByFieldName("alias"); name != nil && alias != nil {
				b.importName(name, alias, m)
			}
		}
	}
}

// importName is the name imported from the module m, bound as the
// identifier as.
func (b *builder) importName(name, as *sitter.Node, m int32) {
	id := name.NamedChild(0)
	if id == nil {
		return
	}
	s := b.text(id)
	kind := SiteAttr
	if as == name && len(b.scopes) == 0 {
		kind = SiteImport
	}
	b.site(id, kind, m, s)
	v := b.op(OpAttr, m, s)
	bound := as
	if bound == name {
		bound = id
	}
	b.bindName(bound, b.text(bound), v, true)
}

// site records a use of name at n.
func (b *builder) site(n *sitter.Node, kind uint8, x int32, name string) {
	b.f.Sites = append(b.f.Sites, Site{Line: line(n), Col: col(n), Kind: kind, X: x, Name: name})
}

// decorated walks a decorated definition: the decorators are walked for
// their uses and passed through (a decorated function is the function),
// but for property, staticmethod and classmethod, which say how it is
// bound.
func (b *builder) decorated(n *sitter.Node) {
	var flags uint8
	var decos []*sitter.Node
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if c.Type() != "decorator" {
			continue
		}
		decos = append(decos, c)
		d := c.NamedChild(0)
		if d == nil {
			continue
		}
		t := b.text(d)
		switch {
		case t == "property" || strings.HasSuffix(t, "cached_property") || strings.HasSuffix(t, ".setter") || strings.HasSuffix(t, ".getter") || strings.HasSuffix(t, ".deleter"):
			flags |= FuncProperty
		case t == "staticmethod":
			flags |= FuncStatic
		case t == "classmethod":
			flags |= FuncClassMethod
		}
	}
	def := n.ChildByFieldName("definition")
	for _, d := range decos {
		b.expr(d.NamedChild(0))
	}
	switch {
	case def == nil:
	case def.Type() == "function_definition":
		b.funcDef(def, &flags)
	case def.Type() == "class_definition":
		b.classDef(def, nil)
	}
}

// classDef walks a class statement.
func (b *builder) classDef(n *sitter.Node, _ *uint8) {
	name := n.ChildByFieldName("name")
	if name == nil {
		return
	}
	var bases []int32
	if sup := n.ChildByFieldName("superclasses"); sup != nil {
		for i := 0; i < int(sup.NamedChildCount()); i++ {
			c := sup.NamedChild(i)
			if c.Type() == "keyword_argument" {
				b.expr(c.ChildByFieldName("value"))
				continue
			}
			bases = append(bases, b.expr(c))
		}
	}
	ci := int32(-1)
	if b.recordable() {
		ci = int32(len(b.f.Classes))
		b.f.Classes = append(b.f.Classes, Class{Name: b.text(name), Line: line(name), Col: col(name), Parent: b.cls(), Bases: bases})
		if b.cls() < 0 {
			// A module-level class is found by name in Classes.
		} else {
			b.addVar(b.text(name), b.cls(), line(name), b.op(OpClass, ci, ""))
		}
	} else {
		b.bindName(name, b.text(name), b.unknown(), false)
	}
	body := n.ChildByFieldName("body")
	if body == nil {
		return
	}
	s := &scope{kind: scopeClass, cls: ci, from: line(n), to: endLine(n)}
	if ci < 0 {
		// A class inside a function: its body's names are not kept.
		s = &scope{kind: scopeFunc, cls: -1, from: line(n), to: endLine(n), names: map[string]int32{}, aliases: map[string]bool{}}
	}
	b.scopes = append(b.scopes, s)
	for i := 0; i < int(body.NamedChildCount()); i++ {
		st := body.NamedChild(i)
		b.stmt(st)
		switch {
		case ci < 0:
		case st.Type() == "decorated_definition":
			for j := 0; j < int(st.NamedChildCount()); j++ {
				if d := st.NamedChild(j); d.Type() == "decorator" {
					b.classSpan(ci, d)
				}
			}
		case st.Type() != "function_definition" && st.Type() != "class_definition":
			b.classSpan(ci, st)
		}
	}
	b.scopes = b.scopes[:len(b.scopes)-1]
	if ci < 0 {
		b.endFunc(s)
	}
}

// classSpan records the lines of a statement of class ci's body other
// than a definition: a bare name there may be one of the class's names.
func (b *builder) classSpan(ci int32, st *sitter.Node) {
	from, to := line(st), endLine(st)
	if k := len(b.f.Locals) - 1; k >= 0 {
		l := &b.f.Locals[k]
		if l.Name == "" && l.X == ci && l.To+1 >= from {
			l.To = to
			return
		}
	}
	b.f.Locals = append(b.f.Locals, Local{From: from, To: to, Kind: LocalMember, X: ci})
}
