package tsjs

// What an expression is: the classes and interfaces its value is an
// instance of, a class itself, a function, a module's namespace, a
// value from outside the project (basic), or unknown.

type vkind uint8

const (
	vUnknown vkind = iota
	vBasic
	// vInst is an instance of the class or interface d; vStatic the
	// class d itself.
	vInst
	vStatic
	// vFunc is a function whose type is the OpFunc e of fc.
	vFunc
	// vModule is the namespace of the module fc.
	vModule
	// vUnion is one of alts.
	vUnion
	// vArray is an array of alts[0]; vArrayMethod its method name
	// (alts[0] the array); vCallback a callback of one, whose first
	// parameter is alts[0].
	vArray
	vArrayMethod
	vCallback
)

type val struct {
	k    vkind
	fc   *fileCtx
	i    int32
	alts []val
	name string
}

var (
	unknownVal = val{k: vUnknown}
	basicVal   = val{k: vBasic}
)

// maxAlts bounds a union's alternatives.
const maxAlts = 16

func union(a, b val) val {
	if a.k == vUnknown && b.k == vUnknown {
		return a
	}
	var alts []val
	for _, v := range []val{a, b} {
		if v.k == vUnion {
			alts = append(alts, v.alts...)
		} else {
			alts = append(alts, v)
		}
	}
	if len(alts) > maxAlts {
		return unknownVal
	}
	return val{k: vUnion, alts: alts}
}

// eval is the value of the expression x of fc. The caller holds r.mu.
func (r *Resolver) eval(fc *fileCtx, x int32) val {
	if x < 0 || int(x) >= len(fc.f.Exprs) {
		return unknownVal
	}
	switch fc.state[x] {
	case 1:
		return unknownVal
	case 2:
		return fc.vals[x]
	}
	fc.state[x] = 1
	v := r.evalExpr(fc, fc.f.Exprs[x], x)
	fc.vals[x], fc.state[x] = v, 2
	return v
}

func (r *Resolver) evalExpr(fc *fileCtx, e Expr, x int32) val {
	switch e.Op {
	case OpBasic:
		return basicVal
	case OpName:
		return r.valueOf(r.name(fc, e.Name, 0), e.B == 1)
	case OpDecl:
		return r.valueOf(binding{fc: fc, decls: []int32{e.A}}, e.B == 1)
	case OpThis:
		return val{k: vInst, fc: fc, i: e.A}
	case OpStatic:
		return val{k: vStatic, fc: fc, i: e.A}
	case OpSuper:
		for _, h := range fc.heritage[e.A] {
			if fc.f.Decls[h].Name == "extends" {
				return r.eval(fc, fc.f.Decls[h].Type)
			}
		}
		return unknownVal
	case OpMember:
		return r.memberVal(r.eval(fc, e.A), e.Name, e.B == 1)
	case OpCall:
		return r.callResult(r.eval(fc, e.A))
	case OpNew:
		return r.newVal(r.eval(fc, e.A))
	case OpUnion:
		return union(r.eval(fc, e.A), r.eval(fc, e.B))
	case OpFunc:
		return val{k: vFunc, fc: fc, i: x}
	case OpArg, OpArgParam:
		return r.paramType(r.eval(fc, e.A), int(e.B))
	case OpArrayOf:
		return val{k: vArray, alts: []val{r.eval(fc, e.A)}}
	case OpElem:
		return elemOf(r.eval(fc, e.A))
	case OpRequire:
		im := fc.f.Imports[e.A]
		return r.valueOf(r.imported(fc, im.Spec, "*", 0), false)
	}
	return unknownVal
}

// valueOf is the value (or, asType, the type) a binding names.
func (r *Resolver) valueOf(b binding, asType bool) val {
	switch {
	case b.foreign:
		return basicVal
	case b.unknown || b.fc == nil:
		return unknownVal
	case b.module:
		return val{k: vModule, fc: b.fc}
	}
	out := val{k: vUnknown}
	first := true
	for _, i := range b.decls {
		d := b.fc.f.Decls[i]
		var v val
		switch d.Kind {
		case DeclClass:
			v = val{k: vStatic, fc: b.fc, i: i}
			if asType {
				v.k = vInst
			}
		case DeclInterface:
			if !asType {
				continue
			}
			v = val{k: vInst, fc: b.fc, i: i}
		case DeclFunction:
			if asType {
				continue
			}
			v = val{k: vFunc, fc: b.fc, i: d.Type}
		case DeclVar:
			if asType {
				continue
			}
			v = r.eval(b.fc, d.Type)
		case DeclTypeAlias:
			if !asType {
				continue
			}
			v = r.eval(b.fc, d.Type)
		case DeclEnum:
			v = basicVal
		default:
			v = unknownVal
		}
		if first {
			out, first = v, false
		} else if v.k == vInst && out.k == vInst {
			// A class and an interface merged: the first declaration
			// stands for both (member lookup reads every one).
			continue
		} else {
			out = union(out, v)
		}
	}
	return out
}

// memberVal is the value of the member name of v.
func (r *Resolver) memberVal(v val, name string, asType bool) val {
	switch v.k {
	case vBasic:
		return basicVal
	case vUnion:
		out := val{}
		for i, a := range v.alts {
			m := r.memberVal(a, name, asType)
			if i == 0 {
				out = m
			} else {
				out = union(out, m)
			}
		}
		return out
	case vModule:
		return r.valueOf(r.export(v.fc, name, 0), asType)
	case vFunc:
		return basicVal
	case vArray:
		return arrayMember(v, name)
	case vInst, vStatic:
		if v.k == vStatic && name == "prototype" {
			return val{k: vInst, fc: v.fc, i: v.i}
		}
		m, how := r.findMember(v.fc, v.i, name, v.k == vStatic && name != "constructor")
		switch how {
		case found:
			return r.eval(m.fc, m.fc.f.Decls[m.i].Type)
		case absent:
			return basicVal
		}
	}
	return unknownVal
}

// callResult is what calling v returns. What a function from outside
// the project returns is unknown: its type may be the project's
// (Map<K, V>.get).
func (r *Resolver) callResult(v val) val {
	switch v.k {
	case vArrayMethod:
		return arrayCall(v)
	case vFunc:
		e := v.fc.f.Exprs[v.i]
		if e.Op != OpFunc {
			return unknownVal
		}
		return r.eval(v.fc, e.A)
	case vInst:
		m, how := r.findMember(v.fc, v.i, "()", false)
		if how == found {
			return r.callResult(r.eval(m.fc, m.fc.f.Decls[m.i].Type))
		}
	case vUnion:
		out := val{}
		for i, a := range v.alts {
			if i == 0 {
				out = r.callResult(a)
			} else {
				out = union(out, r.callResult(a))
			}
		}
		return out
	}
	return unknownVal
}

// newVal is the instance `new v` makes.
func (r *Resolver) newVal(v val) val {
	switch v.k {
	case vStatic:
		return val{k: vInst, fc: v.fc, i: v.i}
	case vUnion:
		out := val{}
		for i, a := range v.alts {
			if i == 0 {
				out = r.newVal(a)
			} else {
				out = union(out, r.newVal(a))
			}
		}
		return out
	}
	return unknownVal
}

// paramType is the type of the parameter number k of the function v.
func (r *Resolver) paramType(v val, k int) val {
	switch v.k {
	case vArrayMethod:
		return arrayParam(v, k)
	case vCallback:
		if k == 0 {
			return v.alts[0]
		}
	case vFunc:
		e := v.fc.f.Exprs[v.i]
		if e.Op != OpFunc {
			return unknownVal
		}
		p := e.B
		for ; p >= 0 && k > 0; k-- {
			p = v.fc.f.Exprs[p].B
		}
		if p < 0 {
			return unknownVal
		}
		return r.eval(v.fc, v.fc.f.Exprs[p].A)
	case vInst:
		m, how := r.findMember(v.fc, v.i, "()", false)
		if how == found {
			return r.paramType(r.eval(m.fc, m.fc.f.Decls[m.i].Type), k)
		}
	case vUnion:
		out := val{}
		n := 0
		for _, a := range v.alts {
			p := r.paramType(a, k)
			if p.k == vUnknown && a.k != vFunc {
				// Not a function: it has no say.
				continue
			}
			if n == 0 {
				out = p
			} else {
				out = union(out, p)
			}
			n++
		}
		return out
	}
	return unknownVal
}

// how a member lookup ended.
type lookup uint8

const (
	absent lookup = iota
	found
	undecided
)

// maxDepth bounds the heritage a lookup climbs.
const maxDepth = 12

// findMember looks up the member name (static: of the class itself) of
// the class or interface d of fc, its merged declarations and its
// heritage.
func (r *Resolver) findMember(fc *fileCtx, d int32, name string, static bool) (declRef, lookup) {
	return r.findMemberIn(fc, d, name, static, 0)
}

func (r *Resolver) findMemberIn(fc *fileCtx, d int32, name string, static bool, depth int) (declRef, lookup) {
	if depth > maxDepth {
		return declRef{}, undecided
	}
	decls := r.merged(fc, d)
	for _, di := range decls {
		for _, m := range fc.members[di] {
			md := fc.f.Decls[m]
			if md.Name == name && (md.Static == static || name == "constructor") {
				return declRef{fc, m}, found
			}
		}
	}
	how := absent
	for _, di := range decls {
		for _, h := range fc.heritage[di] {
			base := r.eval(fc, fc.f.Decls[h].Type)
			m, k := r.findIn(base, name, static, depth+1)
			if k == found {
				return m, found
			}
			if k == undecided {
				how = undecided
			}
		}
	}
	return declRef{}, how
}

// findIn looks name up in the type v.
func (r *Resolver) findIn(v val, name string, static bool, depth int) (declRef, lookup) {
	switch v.k {
	case vInst, vStatic:
		return r.findMemberIn(v.fc, v.i, name, static, depth)
	case vBasic:
		return declRef{}, absent
	case vUnion:
		how := absent
		for _, a := range v.alts {
			m, k := r.findIn(a, name, static, depth)
			if k == found {
				return m, found
			}
			if k == undecided {
				how = undecided
			}
		}
		return declRef{}, how
	}
	return declRef{}, undecided
}

// merged are the declarations merged with d: the module-level classes
// and interfaces of fc of the same name.
func (r *Resolver) merged(fc *fileCtx, d int32) []int32 {
	dd := fc.f.Decls[d]
	if dd.Local || dd.Name == "" || dd.Parent >= 0 {
		return []int32{d}
	}
	ds := fc.byName[dd.Name]
	if len(ds) <= 1 {
		return []int32{d}
	}
	out := make([]int32, 0, len(ds))
	for _, i := range ds {
		if k := fc.f.Decls[i].Kind; k == DeclClass || k == DeclInterface {
			out = append(out, i)
		}
	}
	return out
}

// canon is the first of the declarations merged with d.
func (r *Resolver) canon(d declRef) declRef {
	return declRef{d.fc, r.merged(d.fc, d.i)[0]}
}

// ancestors are the class or interface d, canonical, and every one it
// inherits from (extends, implements), nearest first.
func (r *Resolver) ancestors(d declRef) []declRef {
	d = r.canon(d)
	if a, ok := r.anc[d]; ok {
		return a
	}
	r.anc[d] = []declRef{d}
	out := []declRef{d}
	seen := map[declRef]bool{d: true}
	for k := 0; k < len(out) && k < 64; k++ {
		cur := out[k]
		for _, m := range r.merged(cur.fc, cur.i) {
			for _, h := range cur.fc.heritage[m] {
				r.types(r.eval(cur.fc, cur.fc.f.Decls[h].Type), func(t declRef) {
					t = r.canon(t)
					if !seen[t] {
						seen[t] = true
						out = append(out, t)
					}
				})
			}
		}
	}
	r.anc[d] = out
	return out
}

// types calls f with each class or interface v is an instance of.
func (r *Resolver) types(v val, f func(declRef)) {
	switch v.k {
	case vInst, vStatic:
		f(declRef{v.fc, v.i})
	case vUnion:
		for _, a := range v.alts {
			r.types(a, f)
		}
	}
}

// declares reports whether the class or interface d (or one merged
// with it) declares a member name.
func (r *Resolver) declares(d declRef, name string) bool {
	for _, m := range r.merged(d.fc, d.i) {
		for _, i := range d.fc.members[m] {
			if d.fc.f.Decls[i].Name == name {
				return true
			}
		}
	}
	return false
}
