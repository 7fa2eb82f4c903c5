package pyres

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// builder makes a file's facts from its tree.
type builder struct {
	src    []byte
	f      *File
	exprs  map[Expr]int32
	scopes []*scope
	// depth bounds the recursion into deeply nested code.
	depth int
}

// scopeKind is what a scope is.
type scopeKind uint8

const (
	scopeFunc scopeKind = iota
	scopeClass
)

// scope is a function's or a class body's names, a comprehension's or
// a lambda's (a function without returns).
type scope struct {
	kind     scopeKind
	cls      int32 // the class (scopeClass), or the method's class (-1)
	from, to int32
	// names are the names bound in a function and their present value
	// (-1 before the first binding met); aliases those bound by imports.
	names   map[string]int32
	aliases map[string]bool
	globals map[string]bool
	self    string // the name of a method's first parameter
	rets    []int32
	record  bool // a function recorded in Funcs: rets kept
}

// maxDepth bounds the recursion of the walk.
const maxDepth = 400

// Facts returns the facts of the Python source src whose tree is root.
func Facts(root *sitter.Node, src []byte) *File {
	b := &builder{src: src, f: &File{}, exprs: map[Expr]int32{}}
	b.block(root)
	compact(b.f)
	return b.f
}

func (b *builder) text(n *sitter.Node) string { return string(b.src[n.StartByte():n.EndByte()]) }

func line(n *sitter.Node) int32 { return int32(n.StartPoint().Row) + 1 }
func col(n *sitter.Node) int32  { return int32(n.StartPoint().Column) + 1 }
func endLine(n *sitter.Node) int32 {
	return int32(n.EndPoint().Row) + 1
}

// add interns e in the expression table.
func (b *builder) add(e Expr) int32 {
	if i, ok := b.exprs[e]; ok {
		return i
	}
	i := int32(len(b.f.Exprs))
	b.f.Exprs = append(b.f.Exprs, e)
	b.exprs[e] = i
	return i
}

func (b *builder) op(op Op, a int32, name string) int32 {
	switch op {
	case OpAttr, OpCall, OpInst:
		// An attribute, a call or an instance of what is not decided
		// is not decided; of what holds no project definition, holds
		// none.
		if x := b.f.Exprs[a].Op; x == OpUnknown || x == OpOther {
			return b.op(x, -1, "")
		}
	}
	return b.add(Expr{Op: op, A: a, B: -1, Name: name})
}

func (b *builder) unknown() int32 { return b.op(OpUnknown, -1, "") }
func (b *builder) other() int32   { return b.op(OpOther, -1, "") }

// fn is the innermost function scope; nil at module level or in a class
// body.
func (b *builder) fn() *scope {
	if len(b.scopes) == 0 {
		return nil
	}
	if s := b.scopes[len(b.scopes)-1]; s.kind == scopeFunc {
		return s
	}
	return nil
}

// cls is the class whose body is being walked directly; -1 for none.
func (b *builder) cls() int32 {
	if len(b.scopes) == 0 {
		return -1
	}
	if s := b.scopes[len(b.scopes)-1]; s.kind == scopeClass {
		return s.cls
	}
	return -1
}

// recordable reports whether definitions met now are kept: at module
// level or directly in a kept class's body.
func (b *builder) recordable() bool {
	for _, s := range b.scopes {
		if s.kind == scopeFunc {
			return false
		}
	}
	return true
}

// block walks the statements of a module or a block.
func (b *builder) block(n *sitter.Node) {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		b.stmt(n.NamedChild(i))
	}
}

// stmt walks one statement.
func (b *builder) stmt(n *sitter.Node) {
	if n == nil {
		return
	}
	b.depth++
	defer func() { b.depth-- }()
	if b.depth > maxDepth {
		return
	}
	switch n.Type() {
	case "import_statement":
		b.importStmt(n)
	case "import_from_statement":
		b.fromImport(n)
	case "future_import_statement":
	case "class_definition":
		b.classDef(n, nil)
	case "function_definition":
		b.funcDef(n, nil)
	case "decorated_definition":
		b.decorated(n)
	case "expression_statement":
		for i := 0; i < int(n.NamedChildCount()); i++ {
			b.exprStmt(n.NamedChild(i))
		}
	case "return_statement":
		if c := n.NamedChild(0); c != nil {
			v := b.expr(c)
			if s := b.fn(); s != nil && s.record && len(s.rets) < maxVals && b.f.Exprs[v].Op != OpOther {
				s.rets = append(s.rets, v)
			}
		}
	case "global_statement", "nonlocal_statement":
		if s := b.fn(); s != nil {
			for i := 0; i < int(n.NamedChildCount()); i++ {
				name := b.text(n.NamedChild(i))
				delete(s.names, name)
				if s.globals == nil {
					s.globals = map[string]bool{}
				}
				s.globals[name] = true
			}
		}
	case "if_statement", "while_statement", "try_statement", "for_statement":
		if s := b.fn(); s != nil {
			b.branching(n, s)
			return
		}
		if n.Type() == "for_statement" {
			b.expr(n.ChildByFieldName("right"))
			b.bind(n.ChildByFieldName("left"), b.unknown())
			b.children(n, "left", "right")
			return
		}
		b.children(n)
	case "with_statement":
		b.with(n)
	case "except_clause":
		b.except(n)
	case "block", "elif_clause", "else_clause", "finally_clause", "match_statement", "case_clause", "except_group_clause":
		b.children(n)
	default:
		b.expr(n)
	}
}

// children walks n's named children (statements and expressions), but
// those in the fields skip.
func (b *builder) children(n *sitter.Node, skip ...string) {
	var skipped []*sitter.Node
	for _, f := range skip {
		if c := n.ChildByFieldName(f); c != nil {
			skipped = append(skipped, c)
		}
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if isOneOf(c, skipped) {
			continue
		}
		switch c.Type() {
		case "block", "if_statement", "elif_clause", "else_clause", "except_clause", "finally_clause", "case_clause", "for_statement", "while_statement", "try_statement", "with_statement", "expression_statement", "return_statement", "function_definition", "class_definition", "decorated_definition", "import_statement", "import_from_statement", "global_statement", "nonlocal_statement", "match_statement":
			b.stmt(c)
		default:
			b.expr(c)
		}
	}
}

// isOneOf reports whether n is one of the nodes list.
func isOneOf(n *sitter.Node, list []*sitter.Node) bool {
	for _, x := range list {
		if same(n, x) {
			return true
		}
	}
	return false
}

// same reports whether a and b are the same node.
func same(a, b *sitter.Node) bool {
	return a != nil && b != nil && a.StartByte() == b.StartByte() && a.EndByte() == b.EndByte() && a.Type() == b.Type()
}

// with walks a with statement: `with X as y` binds y to what X's
// __enter__ returns (not decided).
func (b *builder) with(n *sitter.Node) {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if c.Type() != "with_clause" {
			b.stmt(c)
			continue
		}
		for j := 0; j < int(c.NamedChildCount()); j++ {
			item := c.NamedChild(j).ChildByFieldName("value")
			if item == nil {
				continue
			}
			if item.Type() == "as_pattern" {
				b.expr(item.NamedChild(0))
				if t := item.ChildByFieldName("alias"); t != nil {
					b.bind(t.NamedChild(0), b.unknown())
				}
				continue
			}
			b.expr(item)
		}
	}
}

// except walks an except clause: `except E as e` binds e to an
// instance of E.
func (b *builder) except(n *sitter.Node) {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if c.Type() == "as_pattern" {
			v := b.expr(c.NamedChild(0))
			if t := c.ChildByFieldName("alias"); t != nil {
				b.bind(t.NamedChild(0), b.op(OpInst, v, ""))
			}
			continue
		}
		if c.Type() == "block" {
			b.stmt(c)
			continue
		}
		b.expr(c)
	}
}
