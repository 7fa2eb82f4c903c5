package tsjs

import (
	"cmp"
	"slices"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

// TypeScript's and JavaScript's facts from tree-sitter's trees (grammars
// tree-sitter-typescript, tsx and javascript, as
// github.com/smacker/go-tree-sitter ships them): the module-level names
// first (imports, declarations), then one walk over the whole tree that
// keeps the local bindings in scopes, declares classes, interfaces,
// functions and their members, and records a site at each member
// access, declaration, object literal key, import and export specifier
// and use of a module-level name.

// builder makes one file's facts.
type builder struct {
	src   []byte
	f     *File
	memo  map[Expr]int32
	names []string
	// module are the module-level names (declared or imported).
	module map[string]bool
	// scopes are the local bindings, innermost last: a name's
	// expression (its value or declared type).
	scopes []map[string]int32
	// types are the type parameters in scope, innermost last.
	types []map[string]bool
	// this is the expression `this` means where the walk is (-1:
	// unknown); class the class declaration being walked (-1: none).
	this, class int32
	// rets are the declared result types of the functions being walked
	// (-1: none), innermost last.
	rets []int32
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

// Facts returns the facts of the TypeScript or JavaScript file src,
// whose tree is root, of the language lang.
func Facts(lang *sitter.Language, root *sitter.Node, src []byte) *File {
	b := &builder{src: src, f: &File{}, memo: map[Expr]int32{}, names: namesOf(lang), module: map[string]bool{}, this: -1, class: -1}
	b.moduleNames(root)
	b.block(root)
	slices.SortStableFunc(b.f.Sites, func(x, y Site) int {
		return cmp.Or(cmp.Compare(x.Line, y.Line), cmp.Compare(x.Col, y.Col))
	})
	b.f.Sites = slices.CompactFunc(b.f.Sites, func(x, y Site) bool { return x == y })
	// A member of a value from outside the project (Math.max, a
	// string's length) is none of the project's: no site.
	b.f.Sites = slices.DeleteFunc(b.f.Sites, func(s Site) bool {
		return (s.Kind == SiteMember || s.Kind == SiteKey) && s.X >= 0 && b.f.Exprs[s.X].Op == OpBasic
	})
	b.f.prune()
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

func line(n *sitter.Node) int32 { return int32(n.StartPoint().Row) + 1 }

func (b *builder) site(n *sitter.Node, kind SiteKind, x int32, name string) {
	if n == nil || name == "" {
		return
	}
	p := n.StartPoint()
	b.f.Sites = append(b.f.Sites, Site{Line: int32(p.Row) + 1, Col: int32(p.Column) + 1, Kind: kind, X: x, Name: name})
}

func (b *builder) add(e Expr) int32 {
	if i, ok := b.memo[e]; ok {
		return i
	}
	i := int32(len(b.f.Exprs))
	b.f.Exprs = append(b.f.Exprs, e)
	b.memo[e] = i
	return i
}

func (b *builder) unknown() int32 { return b.add(Expr{Op: OpUnknown, A: -1, B: -1}) }
func (b *builder) basic() int32   { return b.add(Expr{Op: OpBasic, A: -1, B: -1}) }

func (b *builder) decl(d Decl) int32 {
	b.f.Decls = append(b.f.Decls, d)
	return int32(len(b.f.Decls) - 1)
}

// field is the child of n for field name.
func field(n *sitter.Node, name string) *sitter.Node {
	if n == nil {
		return nil
	}
	return n.ChildByFieldName(name)
}

// unquote is a string literal's text without its quotes.
func (b *builder) unquote(n *sitter.Node) string {
	s := b.text(n)
	if len(s) >= 2 {
		return s[1 : len(s)-1]
	}
	return s
}

// moduleNames records the imports and the names the module's top level
// declares, so that a use anywhere in the file tells them from globals.
func (b *builder) moduleNames(root *sitter.Node) {
	for i := range int(root.NamedChildCount()) {
		c := root.NamedChild(i)
		switch b.t(c) {
		case "import_statement":
			b.importStmt(c)
		case "export_statement":
			if d := field(c, "declaration"); d != nil {
				b.declNames(d)
			}
		default:
			b.declNames(c)
		}
	}
}

// declNames adds the names the declaration n binds to the module's.
func (b *builder) declNames(n *sitter.Node) {
	switch b.t(n) {
	case "class_declaration", "abstract_class_declaration", "function_declaration", "generator_function_declaration",
		"function_signature", "interface_declaration", "type_alias_declaration", "enum_declaration", "internal_module", "module":
		if nm := field(n, "name"); nm != nil {
			b.module[b.text(nm)] = true
		}
	case "lexical_declaration", "variable_declaration":
		for i := range int(n.NamedChildCount()) {
			if d := n.NamedChild(i); b.t(d) == "variable_declarator" {
				b.patternNames(field(d, "name"), func(nm *sitter.Node) { b.module[b.text(nm)] = true })
			}
		}
	case "expression_statement":
		if c := n.NamedChild(0); b.t(c) == "internal_module" {
			b.declNames(c)
		}
	case "ambient_declaration":
		for i := range int(n.NamedChildCount()) {
			b.declNames(n.NamedChild(i))
		}
	}
}

// patternNames calls f with each identifier a binding pattern binds.
func (b *builder) patternNames(n *sitter.Node, f func(*sitter.Node)) {
	if n == nil {
		return
	}
	switch b.t(n) {
	case "identifier", "shorthand_property_identifier_pattern":
		f(n)
	case "pair_pattern":
		b.patternNames(field(n, "value"), f)
	case "assignment_pattern", "object_assignment_pattern":
		b.patternNames(field(n, "left"), f)
	default:
		for i := range int(n.NamedChildCount()) {
			b.patternNames(n.NamedChild(i), f)
		}
	}
}

// importStmt records an import's bindings and the sites of the names
// it imports.
func (b *builder) importStmt(n *sitter.Node) {
	var spec string
	if s := field(n, "source"); s != nil {
		spec = b.unquote(s)
	}
	var clause *sitter.Node
	for i := range int(n.NamedChildCount()) {
		if c := n.NamedChild(i); b.t(c) == "import_clause" {
			clause = c
		}
	}
	if clause == nil {
		return
	}
	for i := range int(clause.NamedChildCount()) {
		c := clause.NamedChild(i)
		switch b.t(c) {
		case "identifier":
			b.f.Imports = append(b.f.Imports, Import{Local: b.text(c), Spec: spec, Name: "default"})
			b.module[b.text(c)] = true
			b.site(c, SiteName, b.add(Expr{Op: OpName, A: -1, Name: b.text(c)}), b.text(c))
		case "namespace_import":
			if id := c.NamedChild(0); id != nil {
				b.f.Imports = append(b.f.Imports, Import{Local: b.text(id), Spec: spec, Name: "*"})
				b.module[b.text(id)] = true
			}
		case "named_imports":
			for k := range int(c.NamedChildCount()) {
				s := c.NamedChild(k)
				if b.t(s) != "import_specifier" {
					continue
				}
				name, alias := field(s, "name"), field(s, "alias")
				local := alias
				if local == nil {
					local = name
				}
				b.f.Imports = append(b.f.Imports, Import{Local: b.text(local), Spec: spec, Name: b.text(name)})
				b.module[b.text(local)] = true
				b.site(name, SiteImport, int32(len(b.f.Imports)-1), b.text(name))
				if alias != nil {
					b.site(alias, SiteName, b.add(Expr{Op: OpName, A: -1, B: 0, Name: b.text(alias)}), b.text(alias))
				}
			}
		}
	}
}

// exportStmt records what an export statement exports, and walks what
// it declares.
func (b *builder) exportStmt(n *sitter.Node) {
	isDefault := false
	for i := range int(n.ChildCount()) {
		if b.t(n.Child(i)) == "default" {
			isDefault = true
		}
	}
	if d := field(n, "declaration"); d != nil {
		b.statement(d)
		b.exportDecl(d)
		if nm := field(d, "name"); nm != nil && isDefault {
			b.f.Exports = append(b.f.Exports, Export{Name: "default", Local: b.text(nm)})
		}
		return
	}
	var spec string
	if s := field(n, "source"); s != nil {
		spec = b.unquote(s)
	}
	if v := field(n, "value"); v != nil {
		// export default EXPR
		if b.t(v) == "identifier" && isDefault {
			b.f.Exports = append(b.f.Exports, Export{Name: "default", Local: b.text(v)})
		}
		b.expr(v)
		return
	}
	found := false
	for i := range int(n.NamedChildCount()) {
		c := n.NamedChild(i)
		switch b.t(c) {
		case "export_clause":
			found = true
			for k := range int(c.NamedChildCount()) {
				s := c.NamedChild(k)
				if b.t(s) != "export_specifier" {
					continue
				}
				name, alias := field(s, "name"), field(s, "alias")
				as := name
				if alias != nil {
					as = alias
				}
				b.f.Exports = append(b.f.Exports, Export{Name: b.text(as), Local: b.text(name), Spec: spec})
				b.site(name, SiteExport, int32(len(b.f.Exports)-1), b.text(name))
			}
		case "namespace_export":
			found = true
			if id := c.NamedChild(0); id != nil {
				b.f.Exports = append(b.f.Exports, Export{Name: b.text(id), Local: "*", Spec: spec})
			}
		}
	}
	if !found && spec != "" {
		b.f.Exports = append(b.f.Exports, Export{Name: "*", Local: "*", Spec: spec})
	}
	if isDefault {
		// export default class/function without a name is walked as an
		// expression.
		for i := range int(n.NamedChildCount()) {
			b.walk(n.NamedChild(i))
		}
	}
}

// exportDecl records the names an exported declaration exports.
func (b *builder) exportDecl(d *sitter.Node) {
	switch b.t(d) {
	case "lexical_declaration", "variable_declaration":
		for i := range int(d.NamedChildCount()) {
			if v := d.NamedChild(i); b.t(v) == "variable_declarator" {
				b.patternNames(field(v, "name"), func(nm *sitter.Node) {
					b.f.Exports = append(b.f.Exports, Export{Name: b.text(nm), Local: b.text(nm)})
				})
			}
		}
	default:
		if nm := field(d, "name"); nm != nil {
			b.f.Exports = append(b.f.Exports, Export{Name: b.text(nm), Local: b.text(nm)})
		}
	}
}

// push opens a scope; pop closes it.
func (b *builder) push() { b.scopes = append(b.scopes, map[string]int32{}) }
func (b *builder) pop()  { b.scopes = b.scopes[:len(b.scopes)-1] }

// bind binds name in the innermost scope (at the top level: nothing, the
// module's names are OpName).
func (b *builder) bind(name string, x int32) {
	if len(b.scopes) > 0 {
		b.scopes[len(b.scopes)-1][name] = x
	}
}

// lookup is the expression the name means where the walk is: a local's,
// else the module-level name's; ok is false for a global.
func (b *builder) lookup(name string) (int32, bool) {
	for i := len(b.scopes) - 1; i >= 0; i-- {
		if x, ok := b.scopes[i][name]; ok {
			return x, true
		}
	}
	if b.module[name] {
		return b.add(Expr{Op: OpName, A: -1, Name: name}), true
	}
	return -1, false
}

// block walks the statements of a block in a scope of their own, the
// function and class declarations bound first (they are hoisted).
func (b *builder) block(n *sitter.Node) {
	top := b.t(n) == "program"
	if !top {
		b.push()
		defer b.pop()
		for i := range int(n.NamedChildCount()) {
			b.hoist(n.NamedChild(i))
		}
	}
	for i := range int(n.NamedChildCount()) {
		b.statement(n.NamedChild(i))
	}
}

// hoist declares a function or class declared in a block before the
// block's statements are walked.
func (b *builder) hoist(n *sitter.Node) {
	switch b.t(n) {
	case "function_declaration", "generator_function_declaration", "class_declaration", "abstract_class_declaration":
		nm := field(n, "name")
		if nm == nil {
			return
		}
		kind := DeclFunction
		if b.t(n) != "function_declaration" && b.t(n) != "generator_function_declaration" {
			kind = DeclClass
		}
		i := b.decl(Decl{Name: b.text(nm), Kind: kind, Line: line(nm), Parent: -1, Type: -1, Local: true})
		b.bind(b.text(nm), b.add(Expr{Op: OpDecl, A: i}))
	}
}

// local is the declaration a block hoisted for the name node nm; -1 at
// the top level.
func (b *builder) local(nm *sitter.Node) int32 {
	if len(b.scopes) == 0 || nm == nil {
		return -1
	}
	x, ok := b.scopes[len(b.scopes)-1][b.text(nm)]
	if !ok || b.f.Exprs[x].Op != OpDecl {
		return -1
	}
	return b.f.Exprs[x].A
}

// statement walks one statement.
func (b *builder) statement(n *sitter.Node) {
	switch b.t(n) {
	case "import_statement":
		if len(b.scopes) > 0 {
			b.importStmt(n)
		}
	case "export_statement":
		b.exportStmt(n)
	case "class_declaration", "abstract_class_declaration":
		b.classDecl(n, b.local(field(n, "name")))
	case "function_declaration", "generator_function_declaration", "function_signature":
		b.funcDecl(n, b.local(field(n, "name")))
	case "interface_declaration":
		b.interfaceDecl(n)
	case "type_alias_declaration":
		b.typeAlias(n)
	case "enum_declaration":
		if nm := field(n, "name"); nm != nil {
			i := b.decl(Decl{Name: b.text(nm), Kind: DeclEnum, Line: line(nm), Parent: -1, Type: -1, Local: len(b.scopes) > 0})
			b.site(nm, SiteDecl, i, b.text(nm))
		}
	case "lexical_declaration", "variable_declaration":
		b.varDecl(n)
	case "ambient_declaration":
		for i := range int(n.NamedChildCount()) {
			b.statement(n.NamedChild(i))
		}
	case "statement_block":
		b.block(n)
	default:
		b.walk(n)
	}
}

// typeAlias declares type NAME = TYPE.
func (b *builder) typeAlias(n *sitter.Node) {
	nm := field(n, "name")
	if nm == nil {
		return
	}
	b.pushTypeParams(field(n, "type_parameters"))
	t := b.typ(field(n, "value"))
	b.popTypeParams(field(n, "type_parameters"))
	i := b.decl(Decl{Name: b.text(nm), Kind: DeclTypeAlias, Line: line(nm), Parent: -1, Type: t, Local: len(b.scopes) > 0})
	b.site(nm, SiteDecl, i, b.text(nm))
}

// varDecl declares the variables of a declaration, each bound to its
// declared type or else its value.
func (b *builder) varDecl(n *sitter.Node) {
	for i := range int(n.NamedChildCount()) {
		d := n.NamedChild(i)
		if b.t(d) != "variable_declarator" {
			continue
		}
		nm, value, ty := field(d, "name"), field(d, "value"), field(d, "type")
		var x int32
		switch {
		case ty != nil:
			x = b.typ(ty)
			if value != nil {
				b.exprWith(value, x)
			}
		case value != nil && len(b.scopes) > 0 && b.t(nm) == "identifier":
			// The name is in scope in its own value's callbacks: bound
			// to a node the value's is copied into.
			ph := int32(len(b.f.Exprs))
			b.f.Exprs = append(b.f.Exprs, Expr{Op: OpUnknown, A: -1, B: -1})
			b.bind(b.text(nm), ph)
			x = b.expr(value)
			b.f.Exprs[ph] = b.f.Exprs[x]
		case value != nil:
			x = b.expr(value)
		default:
			x = b.unknown()
		}
		b.bindPattern(nm, x, true)
	}
}

// bindPattern binds the names of the pattern n to the parts of x, and
// records the sites of the keys it destructures; module-level ones are
// declared (top).
func (b *builder) bindPattern(n *sitter.Node, x int32, top bool) {
	if n == nil {
		return
	}
	switch b.t(n) {
	case "identifier":
		if len(b.scopes) == 0 && top {
			i := b.decl(Decl{Name: b.text(n), Kind: DeclVar, Line: line(n), Parent: -1, Type: x})
			b.site(n, SiteDecl, i, b.text(n))
			return
		}
		b.bind(b.text(n), x)
	case "shorthand_property_identifier_pattern":
		m := b.add(Expr{Op: OpMember, A: x, Name: b.text(n)})
		b.site(n, SiteMember, x, b.text(n))
		b.bindName(n, m, top)
	case "pair_pattern":
		key := field(n, "key")
		m := b.unknown()
		if b.t(key) == "property_identifier" {
			m = b.add(Expr{Op: OpMember, A: x, Name: b.text(key)})
			b.site(key, SiteMember, x, b.text(key))
		}
		b.bindPattern(field(n, "value"), m, top)
	case "object_assignment_pattern", "assignment_pattern":
		b.bindPattern(field(n, "left"), x, top)
		b.expr(field(n, "right"))
	case "object_pattern":
		for i := range int(n.NamedChildCount()) {
			b.bindPattern(n.NamedChild(i), x, top)
		}
	default:
		// Arrays, rests: the elements' types are not followed.
		b.patternNames(n, func(nm *sitter.Node) { b.bindName(nm, b.unknown(), top) })
	}
}

func (b *builder) bindName(nm *sitter.Node, x int32, top bool) {
	if len(b.scopes) == 0 && top {
		b.decl(Decl{Name: b.text(nm), Kind: DeclVar, Line: line(nm), Parent: -1, Type: x})
		return
	}
	b.bind(b.text(nm), x)
}
