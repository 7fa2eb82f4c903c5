package pyres

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// funcDef walks a def statement; flags are its decorators' (nil: none).
func (b *builder) funcDef(n *sitter.Node, flags *uint8) {
	name := n.ChildByFieldName("name")
	if name == nil {
		return
	}
	var fl uint8
	if flags != nil {
		fl = *flags
	}
	cls := b.cls()
	fi := int32(-1)
	if b.recordable() {
		fi = int32(len(b.f.Funcs))
		b.f.Funcs = append(b.f.Funcs, Func{Name: b.text(name), Line: line(name), Col: col(name), Class: cls, Flags: fl})
	} else {
		b.bindName(name, b.text(name), b.unknown(), false)
	}
	s := &scope{kind: scopeFunc, cls: -1, from: line(n), to: endLine(n), names: map[string]int32{}, aliases: map[string]bool{}, record: fi >= 0}
	if cls >= 0 && fi >= 0 {
		s.cls = cls
	}
	var ret int32 = -1
	if rt := n.ChildByFieldName("return_type"); rt != nil {
		ret = b.op(OpInst, b.annotation(rt), "")
	}
	// Parameters' defaults and annotations are evaluated outside.
	params := n.ChildByFieldName("parameters")
	type param struct {
		name string
		at   *sitter.Node
		v    int32
	}
	var ps []param
	if params != nil {
		for i := 0; i < int(params.NamedChildCount()); i++ {
			p := params.NamedChild(i)
			id, v := b.param(p)
			if id != nil {
				ps = append(ps, param{b.text(id), id, v})
			}
		}
	}
	b.collectBound(n.ChildByFieldName("body"), s)
	b.scopes = append(b.scopes, s)
	for i, p := range ps {
		v := p.v
		if i == 0 && s.cls >= 0 && fl&FuncStatic == 0 && params.NamedChild(0).Type() == "identifier" {
			if fl&FuncClassMethod != 0 || b.text(name) == "__new__" || b.text(name) == "__init_subclass__" || b.text(name) == "__class_getitem__" {
				v = b.op(OpClass, s.cls, "")
			} else {
				v = b.op(OpSelf, s.cls, "")
				s.self = p.name
			}
		}
		s.names[p.name] = v
	}
	if body := n.ChildByFieldName("body"); body != nil {
		b.stmt(body)
	}
	b.scopes = b.scopes[:len(b.scopes)-1]
	if fi >= 0 {
		if ret >= 0 {
			b.f.Funcs[fi].Rets = []int32{ret}
		} else {
			b.f.Funcs[fi].Rets = s.rets
		}
	}
	b.endFunc(s)
}

// param walks a parameter: its name and its value (an annotation's
// instance; else not decided).
func (b *builder) param(p *sitter.Node) (*sitter.Node, int32) {
	switch p.Type() {
	case "identifier":
		return p, b.unknown()
	case "typed_parameter":
		id := p.NamedChild(0)
		v := b.op(OpInst, b.annotation(p.ChildByFieldName("type")), "")
		if id != nil && id.Type() != "identifier" {
			// *args: T, **kw: T
			return id.NamedChild(0), b.other()
		}
		return id, v
	case "default_parameter":
		b.expr(p.ChildByFieldName("value"))
		return p.ChildByFieldName("name"), b.unknown()
	case "typed_default_parameter":
		b.expr(p.ChildByFieldName("value"))
		return p.ChildByFieldName("name"), b.op(OpInst, b.annotation(p.ChildByFieldName("type")), "")
	case "list_splat_pattern", "dictionary_splat_pattern":
		return p.NamedChild(0), b.other()
	}
	return nil, -1
}

// endFunc records the names bound in the function s as locals over its
// lines.
func (b *builder) endFunc(s *scope) {
	for name := range s.names {
		l := Local{Name: name, From: s.from, To: s.to, Kind: LocalPlain, X: -1}
		if s.aliases[name] {
			l.Kind, l.X = LocalAlias, s.names[name]
		}
		b.f.Locals = append(b.f.Locals, l)
	}
}

// collectBound adds to s the names the body binds (Python decides a
// name is local to a function by any binding in it), not yet valued.
func (b *builder) collectBound(n *sitter.Node, s *scope) {
	if n == nil {
		return
	}
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if depth > maxDepth {
			return
		}
		switch n.Type() {
		case "function_definition", "class_definition":
			if id := n.ChildByFieldName("name"); id != nil {
				s.names[b.text(id)] = b.unknown()
			}
			return
		case "lambda", "list_comprehension", "dictionary_comprehension", "set_comprehension", "generator_expression":
			return
		case "global_statement", "nonlocal_statement":
			for i := 0; i < int(n.NamedChildCount()); i++ {
				if s.globals == nil {
					s.globals = map[string]bool{}
				}
				s.globals[b.text(n.NamedChild(i))] = true
			}
			return
		case "assignment", "augmented_assignment", "for_statement", "for_in_clause":
			b.targets(n.ChildByFieldName("left"), s)
		case "as_pattern_target", "named_expression":
			if id := n.NamedChild(0); id != nil && id.Type() == "identifier" {
				s.names[b.text(id)] = b.unknown()
			}
		case "import_statement", "import_from_statement":
			for i := 0; i < int(n.NamedChildCount()); i++ {
				c := n.NamedChild(i)
				if same(c, n.ChildByFieldName("module_name")) {
					continue
				}
				switch c.Type() {
				case "dotted_name":
					if id := c.NamedChild(0); id != nil {
						s.names[b.text(id)] = b.unknown()
					}
				case "aliased_import":
					if a := c.ChildByFieldName("alias"); a != nil {
						s.names[b.text(a)] = b.unknown()
					}
				}
			}
			return
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			walk(n.NamedChild(i), depth+1)
		}
	}
	walk(n, 0)
	for g := range s.globals {
		delete(s.names, g)
	}
}

// targets adds the names an assignment's target binds to s.
func (b *builder) targets(t *sitter.Node, s *scope) {
	if t == nil {
		return
	}
	switch t.Type() {
	case "identifier":
		s.names[b.text(t)] = b.unknown()
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "list_splat_pattern", "parenthesized_expression":
		for i := 0; i < int(t.NamedChildCount()); i++ {
			b.targets(t.NamedChild(i), s)
		}
	}
}
