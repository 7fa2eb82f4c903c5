package pyres

// compact leaves out of f what no query can need, to keep the index
// small: sites on values decided to hold no project definition
// (literals: "".join) and of data attributes of self, a function's plain local names that no
// module-level name of the file shares (a bare use of them resolves to
// nothing either way; with star imports all are kept), and the
// expressions nothing left refers to.
func compact(f *File) {
	globals := map[string]bool{}
	for _, fn := range f.Funcs {
		if fn.Class < 0 {
			globals[fn.Name] = true
		}
	}
	for _, c := range f.Classes {
		if c.Parent < 0 {
			globals[c.Name] = true
		}
	}
	for _, v := range f.Vars {
		if v.Class < 0 {
			globals[v.Name] = true
		}
	}
	locals := f.Locals[:0]
	for _, l := range f.Locals {
		if l.Kind != LocalPlain || len(f.Stars) > 0 || globals[l.Name] {
			locals = append(locals, l)
		}
	}
	f.Locals = locals
	// An attribute of self that the class assigns (and does not
	// define as a method or a class) is that attribute: no query's
	// target, which are functions, methods, classes and module-level
	// names.
	type member struct {
		cls  int32
		name string
	}
	attrs, defs := map[member]bool{}, map[member]bool{}
	for _, v := range f.Vars {
		if v.Class >= 0 {
			attrs[member{v.Class, v.Name}] = true
		}
	}
	for _, fn := range f.Funcs {
		if fn.Class >= 0 {
			defs[member{fn.Class, fn.Name}] = true
		}
	}
	for _, c := range f.Classes {
		if c.Parent >= 0 {
			defs[member{c.Parent, c.Name}] = true
		}
	}
	sites := f.Sites[:0]
	for _, s := range f.Sites {
		if s.X >= 0 {
			switch x := f.Exprs[s.X]; x.Op {
			case OpOther:
				continue
			case OpSelf, OpClass:
				if m := (member{x.A, s.Name}); s.Kind == SiteAttr && attrs[m] && !defs[m] {
					continue
				}
			}
		}
		sites = append(sites, s)
	}
	f.Sites = sites
	compactExprs(f)
}

// compactExprs drops the expressions nothing refers to and renumbers
// the rest.
func compactExprs(f *File) {
	n := len(f.Exprs)
	keep := make([]bool, n)
	var mark func(i int32)
	mark = func(i int32) {
		for i >= 0 && int(i) < n && !keep[i] {
			keep[i] = true
			e := f.Exprs[i]
			switch e.Op {
			case OpSelf, OpClass, OpSuper:
				return
			case OpUnion:
				mark(e.B)
			}
			i = e.A
		}
	}
	each := func(fn func(*int32)) {
		for k := range f.Sites {
			fn(&f.Sites[k].X)
		}
		for k := range f.Vars {
			for j := range f.Vars[k].Vals {
				fn(&f.Vars[k].Vals[j])
			}
		}
		for k := range f.Funcs {
			for j := range f.Funcs[k].Rets {
				fn(&f.Funcs[k].Rets[j])
			}
		}
		for k := range f.Classes {
			for j := range f.Classes[k].Bases {
				fn(&f.Classes[k].Bases[j])
			}
		}
		for k := range f.Stars {
			fn(&f.Stars[k])
		}
		for k := range f.Locals {
			if f.Locals[k].Kind == LocalAlias {
				fn(&f.Locals[k].X)
			}
		}
	}
	each(func(i *int32) { mark(*i) })
	at := make([]int32, n)
	var out []Expr
	for i, e := range f.Exprs {
		at[i] = -1
		if keep[i] {
			at[i] = int32(len(out))
			out = append(out, e)
		}
	}
	re := func(i int32) int32 {
		if i < 0 || int(i) >= n {
			return i
		}
		return at[i]
	}
	for k := range out {
		switch out[k].Op {
		case OpSelf, OpClass, OpSuper:
		default:
			out[k].A = re(out[k].A)
			out[k].B = re(out[k].B)
		}
	}
	f.Exprs = out
	each(func(i *int32) { *i = re(*i) })
}
