package resolve

// The values of expressions: a type, or a value of a type. Evaluation is
// lazy and memoized per file; a cycle (a variable declared by its own
// use) evaluates to unknown.

type tkind uint8

const (
	tUnknown tkind = iota
	tBasic
	// tNamed is a declared type (package-level or local, or anonymous
	// struct or interface): decl says which.
	tNamed
	tPtr
	tSlice
	tMap
	tChan
	tFunc
	// tError is the universe's error interface.
	tError
	// tForeign is a type of a package outside the project, or a value
	// made from one: none of its members is the project's.
	tForeign
)

// ty is a type.
type ty struct {
	k tkind
	// decl is a tNamed's declaration: Types[decl.i] of decl.fc.
	decl ref
	// elem and key: a pointer's, slice's, channel's elements, a map's
	// values and keys.
	elem, key *ty
	// fn is a function's OpFunc in fc.
	fn ref
	// name is a tForeign's name, when it is a named type ("FileInfo").
	name string
}

// val is an expression's value: a type (isType) or a value of type t.
type val struct {
	isType bool
	t      *ty
}

var (
	unknownTy = &ty{k: tUnknown}
	basicTy   = &ty{k: tBasic}
	errorTy   = &ty{k: tError}
	foreignTy = &ty{k: tForeign}
)

func unknownVal() val { return val{t: unknownTy} }

// universe are the predeclared types, as types.
var universe = map[string]*ty{
	"bool": basicTy, "byte": basicTy, "complex64": basicTy, "complex128": basicTy,
	"float32": basicTy, "float64": basicTy, "int": basicTy, "int8": basicTy, "int16": basicTy,
	"int32": basicTy, "int64": basicTy, "rune": basicTy, "string": basicTy, "uint": basicTy,
	"uint8": basicTy, "uint16": basicTy, "uint32": basicTy, "uint64": basicTy, "uintptr": basicTy,
	"error": errorTy, "any": unknownTy, "comparable": unknownTy,
}

// eval is the value of expression i of fc. The caller holds r.mu.
func (r *Resolver) eval(fc *fileCtx, i int32) val {
	if fc == nil || i < 0 || int(i) >= len(fc.f.Exprs) {
		return unknownVal()
	}
	switch fc.state[i] {
	case 2:
		return fc.vals[i]
	case 1:
		return unknownVal()
	}
	fc.state[i] = 1
	v := r.evalExpr(fc, i, fc.f.Exprs[i])
	if v.t == nil {
		v.t = unknownTy
	}
	fc.vals[i], fc.state[i] = v, 2
	return v
}

func (r *Resolver) evalExpr(fc *fileCtx, i int32, e Expr) val {
	switch e.Op {
	case OpBasic:
		return val{t: basicTy}
	case OpName:
		return r.name(fc, e)
	case OpLocalType:
		if e.A < 0 || int(e.A) >= len(fc.f.Types) {
			return unknownVal()
		}
		return val{isType: true, t: &ty{k: tNamed, decl: ref{fc, e.A}}}
	case OpStar:
		x := r.eval(fc, e.A)
		if x.t.k == tForeign {
			return x
		}
		if x.isType {
			return val{isType: true, t: &ty{k: tPtr, elem: x.t}}
		}
		if u := r.under(x.t); u.k == tPtr {
			return val{t: u.elem}
		}
		return unknownVal()
	case OpAddr:
		return val{t: &ty{k: tPtr, elem: r.eval(fc, e.A).t}}
	case OpSlice, OpChan:
		k := tSlice
		if e.Op == OpChan {
			k = tChan
		}
		return val{isType: true, t: &ty{k: k, elem: r.eval(fc, e.A).t}}
	case OpMap:
		return val{isType: true, t: &ty{k: tMap, key: r.eval(fc, e.A).t, elem: r.eval(fc, e.B).t}}
	case OpFunc:
		return val{isType: true, t: &ty{k: tFunc, fn: ref{fc, i}}}
	case OpCall:
		return r.call(fc, e)
	case OpSel:
		x := r.eval(fc, e.A)
		m, how := r.member(x.t, e.Name)
		switch {
		case how == foreign:
			return val{t: foreignTy}
		case how != found || m.t == nil:
			return unknownVal()
		}
		return val{t: m.t}
	case OpIndex:
		x := r.eval(fc, e.A)
		if x.isType || x.t.k == tFunc {
			// An instantiation of a generic type or function.
			return x
		}
		return val{t: r.elem(x.t, false)}
	case OpElem:
		x := r.eval(fc, e.A)
		return val{isType: true, t: r.elem(x.t, false)}
	case OpRangeKey, OpRangeVal:
		u := r.under(r.eval(fc, e.A).t)
		switch {
		case u.k == tPtr:
			u = r.under(u.elem)
		}
		switch u.k {
		case tSlice:
			if e.Op == OpRangeKey {
				return val{t: basicTy}
			}
			return val{t: u.elem}
		case tMap:
			if e.Op == OpRangeKey {
				return val{t: u.key}
			}
			return val{t: u.elem}
		case tChan:
			return val{t: u.elem}
		case tBasic:
			return val{t: u}
		}
		if u.k == tForeign && fc.f.Exprs[e.A].Op != OpCall {
			return val{t: foreignTy}
		}
		// A foreign iterator (slices.Backward) may yield the project's
		// values.
		return unknownVal()
	case OpRecv:
		if u := r.under(r.eval(fc, e.A).t); u.k == tChan {
			return val{t: u.elem}
		}
		return unknownVal()
	}
	return unknownVal()
}

// call is the value of a call: a conversion, or result B of a function.
func (r *Resolver) call(fc *fileCtx, e Expr) val {
	f := r.eval(fc, e.A)
	u := r.under(f.t)
	if u.k == tForeign {
		return val{t: foreignTy}
	}
	if u.k == tFunc {
		return val{t: r.result(u.fn, int(e.B))}
	}
	if f.isType && e.B == 0 {
		return val{t: f.t}
	}
	return unknownVal()
}

// result is the type of result n of the function type fn.
func (r *Resolver) result(fn ref, n int) *ty {
	if fn.fc == nil || fn.i < 0 {
		return unknownTy
	}
	res := fn.fc.f.Exprs[fn.i].A
	for ; res >= 0 && n > 0; n-- {
		res = fn.fc.f.Exprs[res].B
	}
	if res < 0 {
		return unknownTy
	}
	return r.eval(fn.fc, fn.fc.f.Exprs[res].A).t
}

// elem is the type of the elements of t: of a slice, array, map, channel
// or pointer to array; a string's are basic.
func (r *Resolver) elem(t *ty, _ bool) *ty {
	u := r.under(t)
	if u.k == tPtr {
		if v := r.under(u.elem); v.k == tSlice {
			return v.elem
		}
		return unknownTy
	}
	switch u.k {
	case tSlice, tMap, tChan:
		if u.elem == nil {
			return unknownTy
		}
		return u.elem
	case tBasic, tForeign:
		return u
	}
	return unknownTy
}

// under is t's underlying type: a named type declared over another is
// that one's (after at most 16 steps); structs and interfaces are their
// own.
func (r *Resolver) under(t *ty) *ty {
	for range 16 {
		if t == nil {
			return unknownTy
		}
		if t.k != tNamed {
			return t
		}
		d := t.decl.fc.f.Types[t.decl.i]
		if d.Kind != TypeOther || d.Under < 0 {
			return t
		}
		t = r.eval(t.decl.fc, d.Under).t
	}
	return unknownTy
}

// name is the value of a package-level name: of fc's package, a dot
// import's, or the universe's.
func (r *Resolver) name(fc *fileCtx, e Expr) val {
	var p *Pkg
	if e.A < 0 {
		p = fc.pkg
	} else {
		p = r.importPkg(fc, e.A)
		if p == nil {
			return val{t: &ty{k: tForeign, name: e.Name}}
		}
	}
	if v, ok := r.pkgName(p, e.Name); ok {
		return v
	}
	if e.A < 0 {
		for _, d := range fc.f.Dots {
			if dp := r.importPkg(fc, d); dp != nil {
				if v, ok := r.pkgName(dp, e.Name); ok {
					return v
				}
			}
		}
		if t, ok := universe[e.Name]; ok {
			return val{isType: true, t: t}
		}
		switch e.Name {
		case "true", "false", "iota":
			return val{t: basicTy}
		}
	}
	return unknownVal()
}

// pkgName is the value of the package-level name s of p.
func (r *Resolver) pkgName(p *Pkg, s string) (val, bool) {
	if p == nil {
		return val{}, false
	}
	if d, ok := p.types[s]; ok {
		t := d.fc.f.Types[d.i]
		if t.Alias && t.Under >= 0 {
			return val{isType: true, t: r.eval(d.fc, t.Under).t}, true
		}
		return val{isType: true, t: &ty{k: tNamed, decl: d}}, true
	}
	if d, ok := p.funcs[s]; ok {
		return val{t: &ty{k: tFunc, fn: ref{d.fc, d.fc.f.Funcs[d.i].Type}}}, true
	}
	if d, ok := p.vars[s]; ok {
		v := r.eval(d.fc, d.fc.f.Vars[d.i].Type)
		return val{t: v.t}, true
	}
	return val{}, false
}
