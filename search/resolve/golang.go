package resolve

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

// Go's facts from tree-sitter's tree (grammar tree-sitter-go, as
// github.com/smacker/go-tree-sitter ships it): the package clause, the
// imports, the package-level declarations, and one walk over every
// function body that keeps the local names' bindings in scopes and
// records a site for each selector, qualified type, composite literal
// key and member declaration.

// builder makes one file's facts.
type builder struct {
	src  []byte
	f    *File
	memo map[Expr]int32
	// names are the grammar's node type names by symbol.
	names []string
	// imports are the file's import names (the package's own name for an
	// import without one) and their indexes.
	imports map[string]int32
	// scopes are the local bindings, innermost last; ends the last line
	// of each scope.
	scopes []map[string]int32
	ends   []int32
	// switches are the type switches being walked: the alias and the
	// value switched on.
	switches []typeSwitch
	// lastLocal is the index of each name's last local binding.
	lastLocal map[string]int
}

type typeSwitch struct {
	alias *sitter.Node
	value int32
}

var symNames sync.Map // *sitter.Language → []string

func namesOf(lang *sitter.Language) []string {
	if v, ok := symNames.Load(lang); ok {
		return v.([]string)
	}
	n := lang.SymbolCount()
	names := make([]string, n)
	for i := range n {
		names[i] = lang.SymbolName(sitter.Symbol(i))
	}
	symNames.Store(lang, names)
	return names
}

// GoFacts returns the facts of the Go file src, whose tree is root, of
// the language lang.
func GoFacts(lang *sitter.Language, root *sitter.Node, src []byte) *File {
	b := &builder{src: src, f: &File{}, memo: map[Expr]int32{}, names: namesOf(lang), imports: map[string]int32{}, lastLocal: map[string]int{}}
	// The imports first: a use may come before them in no file, but
	// declarations are walked in order.
	for i := range int(root.NamedChildCount()) {
		c := root.NamedChild(i)
		switch b.t(c) {
		case "package_clause":
			b.f.Package = b.text(c.NamedChild(0))
		case "import_declaration":
			b.importDecl(c)
		}
	}
	for i := range int(root.NamedChildCount()) {
		b.topLevel(root.NamedChild(i))
	}
	slices.SortStableFunc(b.f.Sites, func(x, y Site) int {
		return cmp.Or(cmp.Compare(x.Line, y.Line), cmp.Compare(x.Col, y.Col))
	})
	return b.f
}

func (b *builder) t(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	s := int(n.Symbol())
	if s < len(b.names) {
		return b.names[s]
	}
	return ""
}

func (b *builder) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return string(b.src[n.StartByte():n.EndByte()])
}

func line(n *sitter.Node) int32 {
	if n == nil {
		return 0
	}
	return int32(n.StartPoint().Row) + 1
}

func (b *builder) importDecl(n *sitter.Node) {
	var specs []*sitter.Node
	for i := range int(n.NamedChildCount()) {
		c := n.NamedChild(i)
		switch b.t(c) {
		case "import_spec":
			specs = append(specs, c)
		case "import_spec_list":
			for j := range int(c.NamedChildCount()) {
				if s := c.NamedChild(j); b.t(s) == "import_spec" {
					specs = append(specs, s)
				}
			}
		}
	}
	for _, s := range specs {
		path := strings.Trim(b.text(s.ChildByFieldName("path")), "\"`")
		name := b.text(s.ChildByFieldName("name"))
		i := int32(len(b.f.Imports))
		b.f.Imports = append(b.f.Imports, Import{Name: name, Path: path})
		switch name {
		case ".":
			b.f.Dots = append(b.f.Dots, i)
		case "_":
		case "":
			b.imports[importName(path)] = i
		default:
			b.imports[name] = i
		}
	}
}

// importName is the name a package is most likely declared with: its
// path's last element, without a major version ("/v2") or a "go-"
// prefix, dots and dashes. The query checks it against the package's
// clause.
func importName(path string) string {
	parts := strings.Split(path, "/")
	last := parts[len(parts)-1]
	if len(parts) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = parts[len(parts)-2]
	}
	last = strings.TrimPrefix(last, "go-")
	if i := strings.IndexAny(last, ".-"); i > 0 {
		last = last[:i]
	}
	return last
}

// importOf is the import the name s refers to, unless a local binding
// hides it.
func (b *builder) importOf(s string) (int32, bool) {
	if _, local := b.lookup(s); local {
		return 0, false
	}
	i, ok := b.imports[s]
	return i, ok
}

// pkgOperand reports whether x, a selector's operand, names an import.
func (b *builder) pkgOperand(x *sitter.Node) (int32, bool) {
	if b.t(x) != "identifier" {
		return 0, false
	}
	return b.importOf(b.text(x))
}

func (b *builder) lookup(s string) (int32, bool) {
	for i := len(b.scopes) - 1; i >= 0; i-- {
		if e, ok := b.scopes[i][s]; ok {
			return e, true
		}
	}
	return 0, false
}

func (b *builder) push(n *sitter.Node) {
	b.scopes = append(b.scopes, map[string]int32{})
	b.ends = append(b.ends, int32(n.EndPoint().Row)+1)
}

func (b *builder) pop() {
	b.scopes = b.scopes[:len(b.scopes)-1]
	b.ends = b.ends[:len(b.ends)-1]
}

// bind binds the name node n to the expression e in the innermost scope.
func (b *builder) bind(n *sitter.Node, e int32) {
	if n == nil || len(b.scopes) == 0 {
		return
	}
	s := b.text(n)
	if s == "_" || s == "" {
		return
	}
	b.scopes[len(b.scopes)-1][s] = e
	b.addLocal(s, line(n), b.ends[len(b.ends)-1])
}

// addLocal records that name is bound from line from to line to,
// merged with the name's last binding where their lines meet (err,
// bound again and again in one function, is one range).
func (b *builder) addLocal(name string, from, to int32) {
	if i, ok := b.lastLocal[name]; ok {
		l := &b.f.Locals[i]
		if from >= l.From && from <= l.To+1 {
			l.To = max(l.To, to)
			return
		}
	}
	b.lastLocal[name] = len(b.f.Locals)
	b.f.Locals = append(b.f.Locals, Local{Name: name, From: from, To: to})
}

// site records a site of the name node n.
func (b *builder) site(n *sitter.Node, kind SiteKind, x int32) {
	if n == nil {
		return
	}
	p := n.StartPoint()
	b.f.Sites = append(b.f.Sites, Site{Line: int32(p.Row) + 1, Col: int32(p.Column) + 1, Kind: kind, X: x, Name: b.text(n)})
}

// topLevel records a package-level declaration and walks it.
func (b *builder) topLevel(n *sitter.Node) {
	switch b.t(n) {
	case "function_declaration":
		b.push(n)
		b.typeParams(n.ChildByFieldName("type_parameters"))
		name := n.ChildByFieldName("name")
		b.f.Funcs = append(b.f.Funcs, Func{Name: b.text(name), Line: line(name), Type: b.funcType(n)})
		b.funcBody(n)
		b.pop()
	case "method_declaration":
		b.push(n)
		recv := n.ChildByFieldName("receiver")
		recvType := b.receiverType(recv)
		name := n.ChildByFieldName("name")
		b.site(name, SiteMethod, int32(len(b.f.Funcs)))
		b.f.Funcs = append(b.f.Funcs, Func{Name: b.text(name), Recv: recvType, Line: line(name), Type: b.funcType(n)})
		if recv != nil {
			b.params(recv, func(name *sitter.Node, t int32) { b.bind(name, t) }, false)
			b.walk(recv)
		}
		b.funcBody(n)
		b.pop()
	case "type_declaration":
		for i := range int(n.NamedChildCount()) {
			b.typeSpec(n.NamedChild(i), false)
		}
	case "var_declaration", "const_declaration":
		b.valueDecl(n, true)
	}
}

// receiverType is the name of a method's receiver type, binding the
// type parameters its receiver names (func (s *Set[K]) Add).
func (b *builder) receiverType(recv *sitter.Node) string {
	if recv == nil || recv.NamedChildCount() == 0 {
		return ""
	}
	t := recv.NamedChild(0).ChildByFieldName("type")
	for t != nil {
		switch b.t(t) {
		case "pointer_type", "parenthesized_type":
			t = t.NamedChild(0)
		case "generic_type":
			if args := t.ChildByFieldName("type_arguments"); args != nil {
				for i := range int(args.NamedChildCount()) {
					a := args.NamedChild(i)
					if b.t(a) == "type_elem" {
						a = a.NamedChild(0)
					}
					b.bind(a, b.op(OpTypeParam, -1))
				}
			}
			t = t.ChildByFieldName("type")
		case "type_identifier":
			return b.text(t)
		default:
			return ""
		}
	}
	return ""
}

// typeParams binds a declaration's type parameters.
func (b *builder) typeParams(n *sitter.Node) {
	if n == nil {
		return
	}
	for i := range int(n.NamedChildCount()) {
		d := n.NamedChild(i)
		for j := range int(d.ChildCount()) {
			if d.FieldNameForChild(j) == "name" {
				b.bind(d.Child(j), b.op(OpTypeParam, -1))
			}
		}
		b.walk(d.ChildByFieldName("type"))
	}
}

// funcBody binds a function's parameters and results, then walks its
// signature and body; the caller has pushed its scope.
func (b *builder) funcBody(n *sitter.Node) {
	for _, f := range []string{"parameters", "result"} {
		if p := n.ChildByFieldName(f); p != nil {
			if b.t(p) == "parameter_list" {
				b.params(p, func(name *sitter.Node, t int32) { b.bind(name, t) }, false)
			}
			b.walk(p)
		}
	}
	if body := n.ChildByFieldName("body"); body != nil {
		b.walk(body)
	}
}

// walkSignature walks an interface method's parameters and result.
func (b *builder) walkSignature(n *sitter.Node) {
	b.walk(n.ChildByFieldName("parameters"))
	b.walk(n.ChildByFieldName("result"))
}

// typeSpec records a type declaration: package-level, or inside a
// function (local), bound in the scope.
func (b *builder) typeSpec(n *sitter.Node, local bool) {
	if t := b.t(n); t != "type_spec" && t != "type_alias" {
		return
	}
	name := n.ChildByFieldName("name")
	ti := int32(len(b.f.Types))
	b.f.Types = append(b.f.Types, Type{Name: b.text(name), Line: line(name), Local: local, Alias: b.t(n) == "type_alias", Under: -1})
	if local {
		b.bind(name, b.op(OpLocalType, ti))
	}
	b.push(n)
	b.typeParams(n.ChildByFieldName("type_parameters"))
	tn := n.ChildByFieldName("type")
	switch b.t(tn) {
	case "struct_type", "interface_type":
		if b.t(n) == "type_alias" {
			b.f.Types[ti].Under = b.expr(tn)
		} else {
			b.members(ti, tn)
		}
	default:
		b.f.Types[ti].Under = b.expr(tn)
		b.walk(tn)
	}
	b.pop()
}

// valueDecl records var and const declarations: package-level ones as
// Vars, local ones bound in the scope.
func (b *builder) valueDecl(n *sitter.Node, top bool) {
	var specs []*sitter.Node
	for i := range int(n.NamedChildCount()) {
		c := n.NamedChild(i)
		switch b.t(c) {
		case "var_spec", "const_spec":
			specs = append(specs, c)
		case "var_spec_list", "const_spec_list":
			for j := range int(c.NamedChildCount()) {
				specs = append(specs, c.NamedChild(j))
			}
		}
	}
	// A constant without type or values repeats the previous ones.
	var lastType *sitter.Node
	var lastValues *sitter.Node
	for _, s := range specs {
		tn, values := s.ChildByFieldName("type"), s.ChildByFieldName("value")
		if b.t(n) == "const_declaration" && tn == nil && values == nil {
			tn, values = lastType, lastValues
		} else {
			b.walk(tn)
			b.walk(values)
		}
		lastType, lastValues = tn, values
		k := 0
		for j := range int(s.ChildCount()) {
			if s.FieldNameForChild(j) != "name" {
				continue
			}
			name := s.Child(j)
			var e int32
			switch {
			case tn != nil:
				e = b.expr(tn)
			case values != nil && int(values.NamedChildCount()) > k:
				e = b.expr(values.NamedChild(k))
			case values != nil && values.NamedChildCount() == 1:
				e = b.callResult(values.NamedChild(0), k)
			default:
				e = b.unknown()
			}
			if top {
				b.f.Vars = append(b.f.Vars, Var{Name: b.text(name), Type: e})
			} else {
				b.bind(name, e)
			}
			k++
		}
	}
}
