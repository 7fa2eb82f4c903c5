package resolve

import "slices"

// Target is a Go definition whose uses are asked for: a package-level
// function, type, variable or constant (Recv ""), a method of a named
// type, or a method of an interface (Iface).
type Target struct {
	// Dir and Pkg are its package: the folder and the package clause's
	// name.
	Dir, Pkg string
	Recv     string
	Name     string
	Iface    bool
}

// Class is what a use of a name is to the targets.
type Class uint8

// The classes of a use.
const (
	// Other: the use resolves to a definition that is none of the
	// targets (or is no use at all).
	Other Class = iota
	// Match: the use resolves to the target.
	Match
	// Through: a call through an interface whose method the target
	// implements (Use.Via names the interface).
	Through
	// Unresolved: which definition the use means cannot be decided.
	Unresolved
)

// Use is how one use of a name resolves.
type Use struct {
	Class Class
	// Target is the index of the target the use means (Match, Through).
	Target int
	// Via names the group a Through use is listed in, after
	// "through ": the interface it calls through ("interface
	// io.Closer"; in TypeScript also a base class, an override).
	Via string
}

// Classify says what the use of name at line and col (1-based, the
// byte column of its first character) of the Go file at path means to
// the targets. The use must be code, not in a comment or string.
func (r *Resolver) Classify(path string, line, col int32, name string, targets []Target) Use {
	r.mu.Lock()
	defer r.mu.Unlock()
	fc := r.file(path)
	if fc == nil {
		return Use{Class: Unresolved}
	}
	for _, s := range fc.f.SitesAt(line) {
		if s.Col == col && s.Name == name {
			return r.site(fc, s, targets)
		}
	}
	return r.bare(fc, line, name, targets)
}

// bare classifies a bare use of name: a local one, or the package-level
// name of the file's package or of a dot import.
func (r *Resolver) bare(fc *fileCtx, line int32, name string, targets []Target) Use {
	if fc.f.LocalAt(name, line) {
		return Use{}
	}
	p := fc.pkg
	if _, ok := r.pkgName(p, name); !ok {
		for _, d := range fc.f.Dots {
			dp := r.importPkg(fc, d)
			if _, ok := r.pkgName(dp, name); ok {
				p = dp
				break
			}
		}
	}
	return pkgLevel(p, name, targets)
}

// pkgLevel is the use of the package-level name of p.
func pkgLevel(p *Pkg, name string, targets []Target) Use {
	if p == nil {
		return Use{}
	}
	for i, t := range targets {
		if t.Recv == "" && t.Name == name && t.Dir == p.Dir && t.Pkg == p.Name {
			return Use{Class: Match, Target: i}
		}
	}
	return Use{}
}

// site classifies a use or declaration the facts recorded.
func (r *Resolver) site(fc *fileCtx, s Site, targets []Target) Use {
	switch s.Kind {
	case SitePkg:
		p := r.importPkg(fc, s.X)
		if p == nil {
			return Use{}
		}
		return pkgLevel(p, s.Name, targets)
	case SiteMethod:
		f := fc.f.Funcs[s.X]
		return r.declared(fc.pkg, f.Recv, s.Name, false, targets)
	case SiteMember:
		t := fc.f.Types[s.X]
		if t.Local {
			return Use{}
		}
		return r.declared(fc.pkg, t.Name, s.Name, t.Kind == TypeInterface, targets)
	case SiteKey:
		lit := r.eval(fc, s.X)
		u := r.under(lit.t)
		if u.k == tPtr {
			u = r.under(u.elem)
		}
		switch u.k {
		case tUnknown:
			return Use{Class: Unresolved}
		case tNamed:
			if fc := u.decl.fc; fc.f.Types[u.decl.i].Kind == TypeStruct {
				return Use{} // a field: no target is one
			}
		}
		return r.bare(fc, s.Line, s.Name, targets)
	}
	x := r.eval(fc, s.X)
	m, how := r.member(x.t, s.Name)
	switch how {
	case undecided:
		if !anyMember(targets, s.Name) {
			return Use{}
		}
		return Use{Class: Unresolved}
	case found:
		return r.selected(fc, m, s.Name, targets)
	case foreign:
		return r.foreignSel(x.t, s.Name, targets)
	}
	return Use{}
}

// foreignSel classifies a use of the member name of a value of the type
// t from outside the project: when t is declared as one of the standard
// library's interfaces (stdInterfaces) that a target's type implements,
// it may call the target (not resolved); else it is none of the targets.
func (r *Resolver) foreignSel(t *ty, name string, targets []Target) Use {
	if t.k == tPtr && t.elem != nil {
		t = t.elem
	}
	sets := stdInterfaces[t.name]
	if len(sets) == 0 {
		return Use{}
	}
	for _, tg := range targets {
		if tg.Iface || tg.Recv == "" || tg.Name != name {
			continue
		}
		d, ok := r.pkg(tg.Dir, tg.Pkg).types[tg.Recv]
		if !ok {
			continue
		}
		tt := &ty{k: tPtr, elem: &ty{k: tNamed, decl: d}}
		for _, names := range sets {
			if !slices.Contains(names, name) {
				continue
			}
			all := true
			for _, n := range names {
				if m, how := r.member(tt, n); how != found || !m.method {
					all = false
					break
				}
			}
			if all {
				return Use{Class: Unresolved}
			}
		}
	}
	return Use{}
}

// anyMember reports whether a target is a method named name.
func anyMember(targets []Target, name string) bool {
	for _, t := range targets {
		if t.Recv != "" && t.Name == name {
			return true
		}
	}
	return false
}

// declared is the declaration of member name of the type recv of p.
func (r *Resolver) declared(p *Pkg, recv, name string, iface bool, targets []Target) Use {
	for i, t := range targets {
		if t.Recv == recv && t.Name == name && t.Dir == p.Dir && t.Pkg == p.Name {
			return Use{Class: Match, Target: i}
		}
	}
	// An interface's method that a concrete target implements is
	// declared there, not used (gopls agrees).
	_ = iface
	return Use{}
}

// selected classifies a use that selects the member m.
func (r *Resolver) selected(fc *fileCtx, m member, name string, targets []Target) Use {
	if m.method && m.iface && m.owner.fc == nil {
		// The universe's error: gopls lists the calls through it in the
		// target's own package only.
		var own []Target
		for _, t := range targets {
			if t.Dir == fc.pkg.Dir && t.Pkg == fc.pkg.Name {
				own = append(own, t)
			}
		}
		u := r.through(errorTy, nil, "error", name, own)
		if u.Class == Through {
			u.Target = slices.Index(targets, own[u.Target])
		}
		return u
	}
	if !m.method || m.owner.fc == nil {
		return Use{}
	}
	d := m.owner.fc.f.Types[m.owner.i]
	if d.Local {
		return Use{}
	}
	p := m.owner.fc.pkg
	for i, t := range targets {
		if t.Recv == d.Name && t.Name == name && t.Dir == p.Dir && t.Pkg == p.Name {
			return Use{Class: Match, Target: i}
		}
	}
	if !m.iface {
		return Use{}
	}
	return r.through(&ty{k: tNamed, decl: m.owner}, p, d.Name, name, targets)
}

// through classifies a use of the method name of the interface iface
// (named recv in p): a target of that name whose type implements it.
func (r *Resolver) through(iface *ty, p *Pkg, recv, name string, targets []Target) Use {
	for i, t := range targets {
		if t.Iface || t.Recv == "" || t.Name != name {
			continue
		}
		tp := r.pkg(t.Dir, t.Pkg)
		d, ok := tp.types[t.Recv]
		if !ok {
			continue
		}
		if r.implements(&ty{k: tNamed, decl: d}, iface) {
			via := recv
			if p != nil {
				via = p.Name + "." + recv
			}
			return Use{Class: Through, Target: i, Via: "interface " + via}
		}
	}
	return Use{}
}

// TargetAt is the target the Go definition at path and line declares
// (a function, method, type, interface method, package-level variable
// or constant named name); ok is false when the facts hold none.
func (r *Resolver) TargetAt(path string, line int32, name string) (Target, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fc := r.file(path)
	if fc == nil {
		return Target{}, false
	}
	t := Target{Dir: fc.pkg.Dir, Pkg: fc.pkg.Name, Name: name}
	for _, f := range fc.f.Funcs {
		if f.Line == line && f.Name == name {
			t.Recv = f.Recv
			return t, true
		}
	}
	for _, ty := range fc.f.Types {
		if ty.Local {
			continue
		}
		if ty.Line == line && ty.Name == name {
			return t, true
		}
		if ty.Kind != TypeInterface {
			continue
		}
		for _, m := range ty.Members {
			if m.Method && m.Line == line && m.Name == name {
				t.Recv, t.Iface = ty.Name, true
				return t, true
			}
		}
	}
	for _, v := range fc.f.Vars {
		if v.Name == name {
			return t, true
		}
	}
	return Target{}, false
}

// FileUse is one use of a name in a file and how it resolves.
type FileUse struct {
	Line, Col int32
	Use
}

// FileUses classifies the uses of name in the Go file at path that may
// mean one of the targets: its sites of the name, and, where a bare name
// may mean a package-level target (a file of the target's package, or
// one with dot imports), the bare uses text (the file's bytes, read
// only then) holds. Uses that mean none of the targets are left out. ok
// is false when the file's facts are not known.
func (r *Resolver) FileUses(path, name string, targets []Target, text func() []byte) (uses []FileUse, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fc := r.file(path)
	if fc == nil {
		return nil, false
	}
	at := map[[2]int32]bool{}
	fc.f.EachSite(name, func(s Site) bool {
		at[[2]int32{s.Line, s.Col}] = true
		if u := r.site(fc, s, targets); u.Class != Other {
			uses = append(uses, FileUse{Line: s.Line, Col: s.Col, Use: u})
		}
		return true
	})
	if !r.bareMayMatch(fc, name, targets) {
		return uses, true
	}
	src := text()
	if src == nil {
		return uses, true
	}
	Uses(src, name, func(line, col int32) {
		if at[[2]int32{line, col}] {
			return
		}
		if u := r.bare(fc, line, name, targets); u.Class != Other {
			uses = append(uses, FileUse{Line: line, Col: col, Use: u})
		}
	})
	return uses, true
}

// bareMayMatch reports whether a bare use of name in fc may mean a
// package-level target.
func (r *Resolver) bareMayMatch(fc *fileCtx, name string, targets []Target) bool {
	for _, t := range targets {
		if t.Recv != "" || t.Name != name {
			continue
		}
		if len(fc.f.Dots) > 0 || t.Dir == fc.pkg.Dir && t.Pkg == fc.pkg.Name {
			return true
		}
	}
	return false
}
