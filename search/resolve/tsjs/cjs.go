package tsjs

import sitter "github.com/smacker/go-tree-sitter"

// CommonJS: require('./x') is the module's namespace (an import without
// a local name), a variable bound to it or to one of its members is an
// import of it; module.exports = {a, b}, exports.a = a and
// module.exports.a = a export the module-level names.

// require records require('SPEC') (the global require, a string
// argument) as an import and returns its expression.
func (b *builder) require(fn, args *sitter.Node) (int32, bool) {
	if b.t(fn) != "identifier" || b.text(fn) != "require" || childCount(args) != 1 {
		return -1, false
	}
	if _, ok := b.lookup("require"); ok {
		return -1, false
	}
	arg := args.NamedChild(0)
	if b.t(arg) != "string" {
		return -1, false
	}
	b.f.Imports = append(b.f.Imports, Import{Spec: b.unquote(arg), Name: "*"})
	return b.add(Expr{Op: OpRequire, A: int32(len(b.f.Imports) - 1)}), true
}

// required reports whether x is a required module's member.
func (b *builder) required(x int32) bool {
	e := b.f.Exprs[x]
	return e.Op == OpMember && e.A >= 0 && b.f.Exprs[e.A].Op == OpRequire
}

// cjsExport records what an assignment to module.exports or exports
// exports.
func (b *builder) cjsExport(left, right *sitter.Node) {
	if len(b.scopes) > 0 || b.t(left) != "member_expression" || right == nil {
		return
	}
	obj, prop := field(left, "object"), b.text(field(left, "property"))
	if b.isModuleExports(left) {
		switch b.t(right) {
		case "object":
			for i := range int(right.NamedChildCount()) {
				c := right.NamedChild(i)
				switch b.t(c) {
				case "shorthand_property_identifier":
					b.f.Exports = append(b.f.Exports, Export{Name: b.text(c), Local: b.text(c)})
				case "pair":
					if k, v := field(c, "key"), field(c, "value"); b.t(k) == "property_identifier" && b.t(v) == "identifier" {
						b.f.Exports = append(b.f.Exports, Export{Name: b.text(k), Local: b.text(v)})
					}
				}
			}
		case "identifier":
			b.f.Exports = append(b.f.Exports, Export{Name: "default", Local: b.text(right)})
		}
		return
	}
	if (b.t(obj) == "identifier" && b.text(obj) == "exports" || b.isModuleExports(obj)) && b.t(right) == "identifier" {
		b.f.Exports = append(b.f.Exports, Export{Name: prop, Local: b.text(right)})
	}
}

// isModuleExports reports whether n is module.exports.
func (b *builder) isModuleExports(n *sitter.Node) bool {
	if b.t(n) != "member_expression" {
		return false
	}
	o := field(n, "object")
	return b.t(o) == "identifier" && b.text(o) == "module" && b.text(field(n, "property")) == "exports"
}

// requiredName is what the module-level variable ds names when it was
// bound to require('SPEC') or one of its members; ok is false for any
// other declaration.
func (r *Resolver) requiredName(fc *fileCtx, ds []int32, hops int) (binding, bool) {
	if len(ds) != 1 {
		return binding{}, false
	}
	d := fc.f.Decls[ds[0]]
	if d.Kind != DeclVar || d.Type < 0 {
		return binding{}, false
	}
	e := fc.f.Exprs[d.Type]
	name := "*"
	if e.Op == OpMember && e.A >= 0 {
		name = e.Name
		e = fc.f.Exprs[e.A]
	}
	if e.Op != OpRequire {
		return binding{}, false
	}
	im := fc.f.Imports[e.A]
	return r.imported(fc, im.Spec, name, hops), true
}
