package pyres

// vkind is what a value is.
type vkind uint8

const (
	vUnknown vkind = iota
	vOther
	vModule
	vClass
	vInst
	vSuper
	vFunc
)

// val is an expression's value: a project module, class, instance of a
// class, function or method; decided to be none of them (vOther); or
// not decided.
type val struct {
	k  vkind
	fc *fileCtx
	i  int32 // the class (vClass, vInst, vSuper) or function (vFunc)
	// alts are the other values of a union (each without alts of its
	// own).
	alts []val
}

// maxAlts bounds the values of a union.
const maxAlts = 8

// each lists the values of x: x itself, or those of its union.
func (x val) each() []val {
	if len(x.alts) == 0 {
		return []val{x}
	}
	one := x
	one.alts = nil
	return append([]val{one}, x.alts...)
}

// union is a value that may be any of vs: the project values among
// them; else not decided when one is not; else none.
func union(vs []val) val {
	var out []val
	unknown := false
	for _, v := range vs {
		for _, x := range v.each() {
			switch x.k {
			case vOther:
			case vUnknown:
				unknown = true
			default:
				dup := false
				for _, o := range out {
					if o.k == x.k && o.fc == x.fc && o.i == x.i {
						dup = true
					}
				}
				if !dup && len(out) < maxAlts {
					out = append(out, x)
				}
			}
		}
	}
	switch {
	case len(out) == 0 && unknown:
		return val{}
	case len(out) == 0:
		return val{k: vOther}
	}
	first := out[0]
	if len(out) > 1 {
		first.alts = out[1:]
	}
	return first
}

// clsRef is a class of a file.
type clsRef struct {
	fc *fileCtx
	i  int32
}

// dkind is what a declaration is.
type dkind uint8

const (
	dNone dkind = iota
	dFunc
	dClass
	dVar
	dModule
)

// decl is the declaration a name resolves to.
type decl struct {
	k  dkind
	fc *fileCtx
	i  int32
}

// outcome is how a lookup ended.
type outcome uint8

const (
	found outcome = iota
	// absent: decided, no project declaration (a builtin's, a foreign
	// module's, none).
	absent
	// undecided: it may be a project declaration.
	undecided
)

// maxHops bounds the chains of aliases and star imports followed, and
// the depth of a class hierarchy; maxMRO the classes an MRO's walk meets.
const (
	maxHops = 24
	maxMRO  = 256
)

// eval is the value of fc's expression i.
func (r *Resolver) eval(fc *fileCtx, i int32) val {
	if i < 0 || int(i) >= len(fc.f.Exprs) {
		return val{}
	}
	switch fc.state[i] {
	case 1:
		return val{} // a cycle
	case 2:
		return fc.vals[i]
	}
	fc.state[i] = 1
	v := r.evalExpr(fc, fc.f.Exprs[i])
	fc.vals[i], fc.state[i] = v, 2
	return v
}

func (r *Resolver) evalExpr(fc *fileCtx, e Expr) val {
	switch e.Op {
	case OpOther:
		return val{k: vOther}
	case OpName:
		d, how := r.global(fc, e.Name, 0)
		return r.declVal(d, how)
	case OpModule:
		m, ok := r.module(fc, e.Name)
		if !ok {
			return val{k: vOther}
		}
		if m == nil {
			return val{}
		}
		return val{k: vModule, fc: m}
	case OpThis:
		return val{k: vModule, fc: fc}
	case OpAttr:
		var vs []val
		for _, x := range r.eval(fc, e.A).each() {
			d, how := r.member(x, e.Name, 0)
			if how == found && d.k == dFunc && (x.k == vInst || x.k == vSuper) && d.fc.f.Funcs[d.i].Flags&FuncProperty != 0 {
				// A property's value is what its getter returns.
				vs = append(vs, r.returns(d.fc, d.i))
				continue
			}
			vs = append(vs, r.declVal(d, how))
		}
		return union(vs)
	case OpCall:
		var vs []val
		for _, x := range r.eval(fc, e.A).each() {
			vs = append(vs, r.call(x))
		}
		return union(vs)
	case OpUnion:
		return union([]val{r.eval(fc, e.A), r.eval(fc, e.B)})
	case OpSelf:
		return val{k: vInst, fc: fc, i: e.A}
	case OpClass:
		return val{k: vClass, fc: fc, i: e.A}
	case OpSuper:
		return val{k: vSuper, fc: fc, i: e.A}
	case OpInst:
		var vs []val
		for _, x := range r.eval(fc, e.A).each() {
			switch x.k {
			case vClass:
				vs = append(vs, val{k: vInst, fc: x.fc, i: x.i})
			case vOther:
				vs = append(vs, x)
			default:
				vs = append(vs, val{})
			}
		}
		return union(vs)
	}
	return val{}
}

// call is the value a call of x returns.
func (r *Resolver) call(x val) val {
	switch x.k {
	case vClass:
		return val{k: vInst, fc: x.fc, i: x.i}
	case vFunc:
		return r.returns(x.fc, x.i)
	case vOther:
		return x
	}
	return val{}
}

// returns is the value the function fn of fc returns.
func (r *Resolver) returns(fc *fileCtx, fn int32) val {
	rets := fc.f.Funcs[fn].Rets
	if len(rets) == 0 {
		return val{k: vOther} // None
	}
	return r.combine(fc, rets)
}

// combine is the value of a name bound to each of vals (fc's
// expressions): a project value if one is, else undecided if one is,
// else none.
func (r *Resolver) combine(fc *fileCtx, vals []int32) val {
	vs := make([]val, 0, len(vals))
	for _, i := range vals {
		vs = append(vs, r.eval(fc, i))
	}
	return union(vs)
}

// declVal is the value of the declaration a lookup found.
func (r *Resolver) declVal(d decl, how outcome) val {
	switch how {
	case absent:
		return val{k: vOther}
	case undecided:
		return val{}
	}
	switch d.k {
	case dFunc:
		return val{k: vFunc, fc: d.fc, i: d.i}
	case dClass:
		return val{k: vClass, fc: d.fc, i: d.i}
	case dModule:
		return val{k: vModule, fc: d.fc}
	case dVar:
		return r.combine(d.fc, d.fc.f.Vars[d.i].Vals)
	}
	return val{}
}

// isAlias reports whether the value i of fc is an import's: a module,
// or a name of one.
func isAlias(f *File, i int32) bool {
	if i < 0 || int(i) >= len(f.Exprs) {
		return false
	}
	e := f.Exprs[i]
	if e.Op == OpModule {
		return true
	}
	return e.Op == OpAttr && e.A >= 0 && int(e.A) < len(f.Exprs) && f.Exprs[e.A].Op == OpModule
}

// aliasDecl is the declaration an import's value i of fc names.
func (r *Resolver) aliasDecl(fc *fileCtx, i int32, hops int) (decl, outcome) {
	e := fc.f.Exprs[i]
	if e.Op == OpModule {
		m, ok := r.module(fc, e.Name)
		if !ok {
			return decl{}, absent
		}
		if m == nil {
			return decl{}, undecided
		}
		return decl{k: dModule, fc: m}, found
	}
	m, how := r.aliasDecl(fc, e.A, hops+1)
	if how != found {
		return m, how
	}
	return r.moduleMember(m.fc, e.Name, hops+1)
}

// global is the declaration of the module-level name of fc's module:
// a function, a class, what an import binds, a variable; then the
// names of star imports, then builtins.
func (r *Resolver) global(fc *fileCtx, name string, hops int) (decl, outcome) {
	if hops > maxHops {
		return decl{}, undecided
	}
	f := fc.f
	for i := range f.Funcs {
		if fn := &f.Funcs[i]; fn.Class < 0 && fn.Name == name {
			return decl{k: dFunc, fc: fc, i: int32(i)}, found
		}
	}
	for i := range f.Classes {
		if c := &f.Classes[i]; c.Parent < 0 && c.Name == name {
			return decl{k: dClass, fc: fc, i: int32(i)}, found
		}
	}
	for i := range f.Vars {
		v := &f.Vars[i]
		if v.Class >= 0 || v.Name != name {
			continue
		}
		for _, x := range v.Vals {
			if isAlias(f, x) {
				if d, how := r.aliasDecl(fc, x, hops+1); how != absent {
					return d, how
				}
			}
		}
		return decl{k: dVar, fc: fc, i: int32(i)}, found
	}
	unsure := false
	for _, s := range f.Stars {
		m, ok := r.module(fc, f.Exprs[s].Name)
		if !ok || m == nil {
			unsure = true
			continue
		}
		if len(name) > 0 && name[0] == '_' {
			continue
		}
		switch d, how := r.global(m, name, hops+1); how {
		case found:
			return d, how
		case undecided:
			unsure = true
		}
	}
	if unsure && !builtins[name] {
		return decl{}, undecided
	}
	return decl{}, absent
}

// moduleMember is the declaration of m's attribute name: a module-level
// name, else a submodule.
func (r *Resolver) moduleMember(m *fileCtx, name string, hops int) (decl, outcome) {
	d, how := r.global(m, name, hops)
	if how == found {
		return d, how
	}
	sub, ok := r.modules[joinMod(m.module, name)]
	if !ok {
		sub, ok = r.paths[joinMod(dottedPath(m.path), name)]
	}
	if !ok {
		if ns, ok := r.namespace(joinMod(dottedPath(m.path), name)); ok {
			return decl{k: dModule, fc: ns}, found
		}
	}
	if ok {
		if fc := r.file(sub); fc != nil {
			return decl{k: dModule, fc: fc}, found
		}
		return decl{}, undecided
	}
	return d, how
}

func joinMod(m, name string) string {
	if m == "" {
		return name
	}
	return m + "." + name
}

// member is the declaration of the attribute name of x; skip leaves
// out that many classes of the start of a class's MRO (super).
func (r *Resolver) member(x val, name string, _ int) (decl, outcome) {
	switch x.k {
	case vModule:
		return r.moduleMember(x.fc, name, 0)
	case vClass, vInst:
		return r.classMember(clsRef{x.fc, x.i}, name, 0)
	case vSuper:
		return r.classMember(clsRef{x.fc, x.i}, name, 1)
	case vFunc, vOther:
		return decl{}, absent
	}
	return decl{}, undecided
}

// classMember looks name up in c's MRO, the first skip classes left
// out.
func (r *Resolver) classMember(c clsRef, name string, skip int) (decl, outcome) {
	mro, complete := r.mro(c)
	if skip > len(mro) {
		skip = len(mro)
	}
	for _, k := range mro[skip:] {
		if d, ok := ownMember(k, name); ok {
			return d, found
		}
	}
	if !complete {
		return decl{}, undecided
	}
	return decl{}, absent
}

// ownMember is the declaration of name in the class c's own body (its
// methods, then its attributes, then its classes).
func ownMember(c clsRef, name string) (decl, bool) {
	f := c.fc.f
	for i := range f.Funcs {
		if fn := &f.Funcs[i]; fn.Class == c.i && fn.Name == name {
			return decl{k: dFunc, fc: c.fc, i: int32(i)}, true
		}
	}
	for i := range f.Classes {
		if k := &f.Classes[i]; k.Parent == c.i && k.Name == name {
			return decl{k: dClass, fc: c.fc, i: int32(i)}, true
		}
	}
	for i := range f.Vars {
		if v := &f.Vars[i]; v.Class == c.i && v.Name == name {
			return decl{k: dVar, fc: c.fc, i: int32(i)}, true
		}
	}
	return decl{}, false
}

// mro is c's method resolution order among the project's classes (a
// left-first walk of the bases, each class at its last place, which is
// C3's order for the hierarchies C3 accepts but the rarest); complete
// is false when a base could not be decided.
func (r *Resolver) mro(c clsRef) ([]clsRef, bool) {
	if m, ok := c.fc.mros[c.i]; ok {
		return m.order, m.complete
	}
	var order []clsRef
	complete := true
	var walk func(c clsRef, depth int)
	walk = func(c clsRef, depth int) {
		// A hierarchy deeper, or with more paths to its roots, than
		// any written by hand is not decided (and its walk is bounded).
		if depth > maxHops || len(order) >= maxMRO {
			complete = false
			return
		}
		order = append(order, c)
		for _, b := range c.fc.f.Classes[c.i].Bases {
			switch v := r.eval(c.fc, b); v.k {
			case vClass:
				walk(clsRef{v.fc, v.i}, depth+1)
			case vOther:
			default:
				complete = false
			}
		}
	}
	walk(c, 0)
	// Each class at its last place.
	last := map[clsRef]int{}
	for i, k := range order {
		last[k] = i
	}
	out := order[:0:0]
	for i, k := range order {
		if last[k] == i {
			out = append(out, k)
		}
	}
	if c.fc.mros == nil {
		c.fc.mros = map[int32]mroMemo{}
	}
	c.fc.mros[c.i] = mroMemo{out, complete}
	return out, complete
}
