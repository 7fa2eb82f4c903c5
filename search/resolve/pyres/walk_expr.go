package pyres

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// exprStmt walks an expression statement: an assignment binds.
func (b *builder) exprStmt(n *sitter.Node) {
	switch n.Type() {
	case "assignment":
		b.assignment(n)
	case "augmented_assignment":
		b.expr(n.ChildByFieldName("right"))
		b.expr(n.ChildByFieldName("left"))
	default:
		b.expr(n)
	}
}

// assignment binds `a = b = v`, `a: T = v` and `a: T`.
func (b *builder) assignment(n *sitter.Node) {
	right := n.ChildByFieldName("right")
	var v int32
	switch {
	case right == nil:
		v = -1
	case right.Type() == "assignment":
		v = b.assignValue(right)
	default:
		v = b.expr(right)
	}
	if t := n.ChildByFieldName("type"); t != nil {
		v = b.op(OpInst, b.annotation(t), "")
	}
	if v < 0 {
		v = b.unknown()
	}
	left := n.ChildByFieldName("left")
	if left != nil && left.Type() == "identifier" && b.text(left) == "__all__" && len(b.scopes) == 0 && right != nil {
		b.allNames(right)
	}
	b.bind(left, v)
}

// assignValue walks the chained assignment n (b = v in a = b = v) and
// returns the value.
func (b *builder) assignValue(n *sitter.Node) int32 {
	b.assignment(n)
	right := n.ChildByFieldName("right")
	for right != nil && right.Type() == "assignment" {
		right = right.ChildByFieldName("right")
	}
	if right == nil {
		return b.unknown()
	}
	return b.exprOf(right)
}

// exprOf is the value of n without walking it again (no sites).
func (b *builder) exprOf(n *sitter.Node) int32 {
	sites := len(b.f.Sites)
	v := b.expr(n)
	b.f.Sites = b.f.Sites[:sites]
	return v
}

// allNames records the names listed in __all__ as uses of them.
func (b *builder) allNames(n *sitter.Node) {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if c.Type() != "string" {
			continue
		}
		for j := 0; j < int(c.NamedChildCount()); j++ {
			if sc := c.NamedChild(j); sc.Type() == "string_content" {
				b.site(sc, SiteName, -1, b.text(sc))
			}
		}
	}
}

// annotation is the expression of the type an annotation names: a
// name, a dotted name, one in a string, Optional[T] and T | None; the
// rest is walked and not decided.
func (b *builder) annotation(n *sitter.Node) int32 {
	if n == nil {
		return b.unknown()
	}
	if n.Type() == "type" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	switch n.Type() {
	case "identifier", "attribute":
		return b.expr(n)
	case "string":
		return b.stringAnnotation(n)
	case "none":
		return b.other()
	case "binary_operator":
		l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right")
		if l != nil && r != nil {
			switch {
			case r.Type() == "none":
				return b.annotation(l)
			case l.Type() == "none":
				return b.annotation(r)
			}
		}
	case "generic_type", "subscript":
		var base *sitter.Node
		if n.Type() == "subscript" {
			base = n.ChildByFieldName("value")
		} else {
			base = n.NamedChild(0)
		}
		if base != nil && (b.text(base) == "Optional" || strings.HasSuffix(b.text(base), ".Optional")) {
			b.expr(base)
			arg := n.NamedChild(1)
			if arg != nil && arg.Type() == "type_parameter" {
				arg = arg.NamedChild(0)
			} else if n.Type() == "subscript" {
				arg = n.ChildByFieldName("subscript")
			}
			return b.annotation(arg)
		}
	}
	b.expr(n)
	return b.unknown()
}

// stringAnnotation is the type named in a string annotation ("Foo",
// "mod.Foo"), its names recorded as uses.
func (b *builder) stringAnnotation(n *sitter.Node) int32 {
	var sc *sitter.Node
	for j := 0; j < int(n.NamedChildCount()); j++ {
		if c := n.NamedChild(j); c.Type() == "string_content" {
			if sc != nil {
				return b.unknown()
			}
			sc = c
		}
	}
	if sc == nil {
		return b.unknown()
	}
	s := b.text(sc)
	parts := strings.Split(s, ".")
	for _, p := range parts {
		if !isIdent(p) {
			return b.unknown()
		}
	}
	ln, c := line(sc), col(sc)
	b.site(sc, SiteName, -1, parts[0])
	v := b.nameValue(parts[0])
	off := int32(len(parts[0]) + 1)
	for _, p := range parts[1:] {
		b.f.Sites = append(b.f.Sites, Site{Line: ln, Col: c + off, Kind: SiteAttr, X: v, Name: p})
		v = b.op(OpAttr, v, p)
		off += int32(len(p) + 1)
	}
	return v
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// nameValue is the value of the bare name s where it is used: a
// function's local, else the module's name.
func (b *builder) nameValue(s string) int32 {
	for i := len(b.scopes) - 1; i >= 0; i-- {
		sc := b.scopes[i]
		if sc.kind != scopeFunc {
			continue
		}
		if sc.globals[s] {
			break
		}
		if v, ok := sc.names[s]; ok {
			return v
		}
	}
	return b.op(OpName, -1, s)
}

// expr walks an expression, recording its attribute uses, and returns
// its value.
func (b *builder) expr(n *sitter.Node) int32 {
	if n == nil {
		return b.unknown()
	}
	b.depth++
	defer func() { b.depth-- }()
	if b.depth > maxDepth {
		return b.unknown()
	}
	switch n.Type() {
	case "identifier":
		return b.nameValue(b.text(n))
	case "attribute":
		x := b.expr(n.ChildByFieldName("object"))
		a := n.ChildByFieldName("attribute")
		if a == nil {
			return b.unknown()
		}
		name := b.text(a)
		b.site(a, SiteAttr, x, name)
		return b.op(OpAttr, x, name)
	case "call":
		return b.call(n)
	case "parenthesized_expression", "await":
		var v int32 = -1
		for i := 0; i < int(n.NamedChildCount()); i++ {
			v = b.expr(n.NamedChild(i))
		}
		if n.NamedChildCount() != 1 {
			return b.unknown()
		}
		return v
	case "string", "concatenated_string", "integer", "float", "true", "false", "none", "list", "dictionary", "set", "tuple", "list_comprehension", "dictionary_comprehension", "set_comprehension", "comparison_operator", "not_operator", "binary_operator", "unary_operator":
		if isComprehension(n.Type()) {
			b.comprehension(n)
		} else {
			b.walkAll(n)
		}
		return b.other()
	case "generator_expression":
		b.comprehension(n)
		return b.unknown()
	case "lambda":
		b.lambda(n)
		return b.unknown()
	case "named_expression":
		v := b.expr(n.ChildByFieldName("value"))
		b.bind(n.ChildByFieldName("name"), v)
		return v
	case "keyword_argument":
		return b.expr(n.ChildByFieldName("value"))
	}
	b.walkAll(n)
	return b.unknown()
}

func isComprehension(t string) bool {
	return t == "list_comprehension" || t == "dictionary_comprehension" || t == "set_comprehension"
}

// walkAll walks n's named children as expressions.
func (b *builder) walkAll(n *sitter.Node) {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "block", "expression_statement":
			b.stmt(c)
		default:
			b.expr(c)
		}
	}
}

// call walks a call; super() in a method is the method's class's
// super.
func (b *builder) call(n *sitter.Node) int32 {
	fn := n.ChildByFieldName("function")
	args := n.ChildByFieldName("arguments")
	if fn != nil && fn.Type() == "identifier" && b.text(fn) == "super" {
		if args != nil {
			b.walkAll(args)
		}
		for i := len(b.scopes) - 1; i >= 0; i-- {
			if s := b.scopes[i]; s.kind == scopeFunc && s.cls >= 0 {
				return b.op(OpSuper, s.cls, "")
			}
		}
		return b.unknown()
	}
	f := b.expr(fn)
	if args != nil {
		if args.Type() == "generator_expression" {
			b.comprehension(args)
		} else {
			b.walkAll(args)
		}
	}
	if fn != nil && fn.Type() == "identifier" && b.text(fn) == "getattr" {
		return b.unknown()
	}
	return b.op(OpCall, f, "")
}

// comprehension walks a comprehension in a scope of its own: its for
// clauses bind names there.
func (b *builder) comprehension(n *sitter.Node) {
	s := &scope{kind: scopeFunc, cls: b.methodClass(), from: line(n), to: endLine(n), names: map[string]int32{}, aliases: map[string]bool{}}
	b.scopes = append(b.scopes, s)
	// The clauses first: they bind what the body uses.
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if c.Type() == "for_in_clause" {
			b.expr(c.ChildByFieldName("right"))
			b.targets(c.ChildByFieldName("left"), s)
			b.bind(c.ChildByFieldName("left"), b.unknown())
		} else if c.Type() == "if_clause" {
			b.walkAll(c)
		}
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if c.Type() != "for_in_clause" && c.Type() != "if_clause" {
			b.expr(c)
		}
	}
	b.scopes = b.scopes[:len(b.scopes)-1]
	b.endFunc(s)
}

// methodClass is the class of the innermost method; -1 outside.
func (b *builder) methodClass() int32 {
	for i := len(b.scopes) - 1; i >= 0; i-- {
		if s := b.scopes[i]; s.kind == scopeFunc {
			return s.cls
		}
	}
	return -1
}

// lambda walks a lambda in a scope of its own.
func (b *builder) lambda(n *sitter.Node) {
	s := &scope{kind: scopeFunc, cls: -1, from: line(n), to: endLine(n), names: map[string]int32{}, aliases: map[string]bool{}}
	if ps := n.ChildByFieldName("parameters"); ps != nil {
		for i := 0; i < int(ps.NamedChildCount()); i++ {
			if id, v := b.param(ps.NamedChild(i)); id != nil {
				s.names[b.text(id)] = v
			}
		}
	}
	b.scopes = append(b.scopes, s)
	b.expr(n.ChildByFieldName("body"))
	b.scopes = b.scopes[:len(b.scopes)-1]
	b.endFunc(s)
}
