package resolve

// Selecting a member: a type's own methods, its fields, and those its
// embedded fields promote, the shallowest first (Go's rule), through at
// most maxDepth levels of embedding.

const maxDepth = 8

// outcome is what a member lookup decided.
type outcome uint8

const (
	// found: the member is m.
	found outcome = iota
	// none: the type has no such member.
	none
	// undecided: the type, or a type it embeds, is not known.
	undecided
	// foreign: the member is of a type outside the project.
	foreign
)

// member is a selected member: a field, a method declared on a named
// type (fn the function), or an interface's method.
type member struct {
	// t is the member's type: the field's, the method's function type.
	t *ty
	// owner is the type that declares it (for a method of the universe's
	// error, the zero ref).
	owner  ref
	method bool
	iface  bool
	// fn is the method's declaration (a method declared on a named type).
	fn ref
}

// member selects name in a value or type t (a pointer is followed once).
func (r *Resolver) member(t *ty, name string) (member, outcome) {
	if t == nil {
		return member{}, undecided
	}
	if t.k == tPtr {
		t = t.elem
	}
	level := []*ty{t}
	seen := map[ref]bool{}
	unsure := false
	for depth := 0; depth < maxDepth && len(level) > 0; depth++ {
		var hit []member
		var next []*ty
		for _, x := range level {
			if x != nil && x.k == tPtr {
				x = x.elem
			}
			switch {
			case x == nil || x.k == tUnknown:
				unsure = true
				continue
			case x.k == tForeign:
				if depth == 0 {
					return member{}, foreign
				}
				// A promoted member of an embedded foreign type is not
				// the project's; nor is its absence known.
				unsure = true
				continue
			case x.k == tError:
				if name == "Error" {
					hit = append(hit, member{method: true, iface: true, t: unknownTy})
				}
				continue
			case x.k != tNamed || seen[x.decl]:
				continue
			}
			seen[x.decl] = true
			hit, next, unsure = r.membersOf(x, name, hit, next, unsure)
		}
		if len(hit) > 0 {
			return hit[0], found
		}
		level = next
	}
	if unsure {
		return member{}, undecided
	}
	return member{}, none
}

// membersOf adds to hit the members named name that the named type x
// declares (its methods, its struct's fields or its interface's
// methods), and to next the types it embeds.
func (r *Resolver) membersOf(x *ty, name string, hit []member, next []*ty, unsure bool) ([]member, []*ty, bool) {
	d := x.decl.fc.f.Types[x.decl.i]
	if !d.Local {
		if fn, ok := x.decl.fc.pkg.methods[d.Name][name]; ok {
			f := fn.fc.f.Funcs[fn.i]
			hit = append(hit, member{method: true, owner: x.decl, fn: fn, t: &ty{k: tFunc, fn: ref{fn.fc, f.Type}}})
		}
	}
	decl := x.decl
	if d.Kind == TypeOther {
		u := r.under(x)
		switch u.k {
		case tUnknown, tForeign:
			return hit, next, true
		case tError:
			if name == "Error" {
				hit = append(hit, member{method: true, iface: true, t: unknownTy})
			}
			return hit, next, unsure
		case tNamed:
			decl = u.decl
			d = decl.fc.f.Types[decl.i]
		default:
			return hit, next, unsure
		}
	}
	decls := []ref{decl}
	if !d.Local && decl == x.decl {
		// The type's other build variants may have other fields.
		decls = append(decls, decl.fc.pkg.variants[d.Name]...)
	}
	for _, decl := range decls {
		d := decl.fc.f.Types[decl.i]
		for _, m := range d.Members {
			switch {
			case m.Embedded:
				et := r.eval(decl.fc, m.Type).t
				if m.Name == name && d.Kind == TypeStruct {
					hit = append(hit, member{owner: decl, t: et})
				}
				next = append(next, et)
			case m.Name != name:
			case m.Method:
				hit = append(hit, member{method: true, iface: true, owner: decl, t: r.eval(decl.fc, m.Type).t})
			default:
				hit = append(hit, member{owner: decl, t: r.eval(decl.fc, m.Type).t})
			}
		}
		if len(hit) > 0 {
			break
		}
	}
	return hit, next, unsure
}

// sig is a method's arity: its parameters and results.
type sig struct{ params, results int }

// sigOf is the arity of the function type fn.
func sigOf(fn ref) sig {
	if fn.fc == nil || fn.i < 0 || int(fn.i) >= len(fn.fc.f.Exprs) {
		return sig{-1, -1}
	}
	e := fn.fc.f.Exprs[fn.i]
	if e.Op != OpFunc {
		return sig{-1, -1}
	}
	n := 0
	for r := e.A; r >= 0 && n < 64; r = fn.fc.f.Exprs[r].B {
		n++
	}
	return sig{int(e.B), n}
}

// methodSigs lists the methods of the interface t with their arities,
// its embedded interfaces' too; ok is false when one is not known.
func (r *Resolver) methodSigs(t *ty, out map[string]sig, depth int) bool {
	if depth > maxDepth {
		return false
	}
	u := r.under(t)
	switch u.k {
	case tError:
		out["Error"] = sig{0, 1}
		return true
	case tNamed:
	default:
		return false
	}
	d := u.decl.fc.f.Types[u.decl.i]
	if d.Kind != TypeInterface {
		return false
	}
	ok := true
	for _, m := range d.Members {
		switch {
		case m.Method:
			out[m.Name] = sigOf(ref{u.decl.fc, m.Type})
		case m.Embedded:
			if !r.methodSigs(r.eval(u.decl.fc, m.Type).t, out, depth+1) {
				ok = false
			}
		}
	}
	return ok
}

// implements reports whether the named type t (a pointer to it: its
// whole method set) has a method of every name of the interface iface,
// with the same numbers of parameters and results.
func (r *Resolver) implements(t *ty, iface *ty) bool {
	sigs := map[string]sig{}
	if !r.methodSigs(iface, sigs, 0) || len(sigs) == 0 {
		return false
	}
	pt := &ty{k: tPtr, elem: t}
	for n, want := range sigs {
		m, how := r.member(pt, n)
		if how != found || !m.method {
			return false
		}
		if got := sigOf(m.t.fn); m.t.k == tFunc && want.params >= 0 && got.params >= 0 && got != want {
			return false
		}
	}
	return true
}
