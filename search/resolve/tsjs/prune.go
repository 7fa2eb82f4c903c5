package tsjs

// prune drops the expressions no site or declaration reaches (the values
// of sub-expressions no one asks about: most of a call chain's steps),
// renumbering the rest: a record holds only what the resolver may read.
func (f *File) prune() {
	keep := make([]bool, len(f.Exprs))
	var mark func(x int32)
	mark = func(x int32) {
		for x >= 0 && int(x) < len(f.Exprs) && !keep[x] {
			keep[x] = true
			e := f.Exprs[x]
			a, b := exprRefs(e)
			if b >= 0 {
				mark(b)
			}
			x = a
		}
	}
	for _, s := range f.Sites {
		switch s.Kind {
		case SiteMember, SiteKey, SiteName:
			mark(s.X)
		}
	}
	for _, d := range f.Decls {
		mark(d.Type)
	}
	at := make([]int32, len(f.Exprs))
	n := int32(0)
	for i := range f.Exprs {
		at[i] = -1
		if keep[i] {
			at[i] = n
			f.Exprs[n] = f.Exprs[i]
			n++
		}
	}
	f.Exprs = f.Exprs[:n]
	re := func(x int32) int32 {
		if x < 0 {
			return x
		}
		return at[x]
	}
	for i := range f.Exprs {
		e := &f.Exprs[i]
		a, b := exprRefs(*e)
		if a >= 0 {
			e.A = re(a)
		}
		if b >= 0 {
			e.B = re(b)
		}
	}
	for i := range f.Sites {
		switch s := &f.Sites[i]; s.Kind {
		case SiteMember, SiteKey, SiteName:
			s.X = re(s.X)
		}
	}
	for i := range f.Decls {
		f.Decls[i].Type = re(f.Decls[i].Type)
	}
}

// exprRefs are the expression nodes e refers to (-1: none).
func exprRefs(e Expr) (a, b int32) {
	switch e.Op {
	case OpMember, OpCall, OpNew, OpAwait, OpArg, OpArgParam, OpArrayOf, OpElem:
		return e.A, -1
	case OpUnion, OpFunc, OpParam:
		return e.A, e.B
	}
	return -1, -1
}
