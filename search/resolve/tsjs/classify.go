package tsjs

import (
	"slices"

	"github.com/zumba-dev/zumba/search/resolve"
)

// A target is resolve.Target: Dir the file declaring it, Recv the class
// or interface holding a member ("" for a module-level declaration),
// Iface for an interface's member.

var _ resolve.Lang = (*Resolver)(nil)

// Reads reports whether p is a TypeScript or JavaScript file.
func (r *Resolver) Reads(p string) bool { return Reads(p) }

// TextUses is Uses.
func (r *Resolver) TextUses(src []byte, name string, f func(line, col int32)) { Uses(src, name, f) }

// TargetAt is the target the declaration named name on line of the file
// at path declares: a function, class, interface, variable, type or
// enum, or a member of a class or interface.
func (r *Resolver) TargetAt(p string, line int32, name string) (resolve.Target, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fc := r.file(p)
	if fc == nil {
		return resolve.Target{}, false
	}
	for _, d := range fc.f.Decls {
		if d.Line != line || d.Name != name || d.Kind == DeclHeritage {
			continue
		}
		t := resolve.Target{Dir: p, Name: name}
		if d.Kind == DeclMember {
			o := fc.f.Decls[d.Parent]
			if o.Name == "" {
				continue
			}
			t.Recv, t.Iface = o.Name, o.Kind == DeclInterface
		}
		return t, true
	}
	return resolve.Target{}, false
}

// FileUses classifies the sites of name in the file at path for the
// targets.
func (r *Resolver) FileUses(p, name string, targets []resolve.Target, _ func() []byte) ([]resolve.FileUse, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fc := r.file(p)
	if fc == nil {
		return nil, false
	}
	// The names the file imports it under too (import {a as b}).
	names := []string{name}
	for _, im := range fc.f.Imports {
		if im.Name == name && im.Local != name {
			names = append(names, im.Local)
		}
	}
	var uses []resolve.FileUse
	for _, s := range fc.f.Sites {
		if s.Name != name && (len(names) == 1 || !slices.Contains(names, s.Name)) {
			continue
		}
		best := resolve.Use{}
		for i, t := range targets {
			u := r.classify(fc, s, t)
			u.Target = i
			if rank(u.Class) > rank(best.Class) {
				best = u
			}
		}
		if best.Class != resolve.Other {
			uses = append(uses, resolve.FileUse{Line: s.Line, Col: s.Col, Use: best})
		}
	}
	return uses, true
}

func rank(c resolve.Class) int {
	switch c {
	case resolve.Match:
		return 3
	case resolve.Through:
		return 2
	case resolve.Unresolved:
		return 1
	}
	return 0
}

// classify says what the site s of fc is to the target t.
func (r *Resolver) classify(fc *fileCtx, s Site, t resolve.Target) resolve.Use {
	member := t.Recv != ""
	switch s.Kind {
	case SiteDecl:
		d := fc.f.Decls[s.X]
		if d.Kind == DeclMember {
			if !member {
				return resolve.Use{}
			}
			return r.memberUse(declRef{fc, s.X}, t)
		}
		if !member && fc.path == t.Dir && d.Parent < 0 {
			return resolve.Use{Class: resolve.Match}
		}
	case SiteMember, SiteKey:
		if s.Kind == SiteKey && s.X < 0 {
			if member {
				return resolve.Use{Class: resolve.Unresolved}
			}
			return resolve.Use{}
		}
		return r.memberSite(r.eval(fc, s.X), s.Name, t)
	case SiteName:
		e := fc.f.Exprs[s.X]
		switch e.Op {
		case OpDecl:
			return r.bindingUse(binding{fc: fc, decls: []int32{e.A}}, t)
		case OpMember:
			// A local bound to a required module's member.
			return r.memberSite(r.eval(fc, e.A), e.Name, t)
		}
		return r.bindingUse(r.name(fc, e.Name, 0), t)
	case SiteImport:
		im := fc.f.Imports[s.X]
		return r.bindingUse(r.imported(fc, im.Spec, im.Name, 0), t)
	case SiteExport:
		ex := fc.f.Exports[s.X]
		if ex.Spec != "" {
			return r.bindingUse(r.imported(fc, ex.Spec, ex.Local, 0), t)
		}
		return r.bindingUse(r.name(fc, ex.Local, 0), t)
	}
	return resolve.Use{}
}

// bindingUse is a use of a name that means b.
func (r *Resolver) bindingUse(b binding, t resolve.Target) resolve.Use {
	if b.unknown {
		return resolve.Use{Class: resolve.Unresolved}
	}
	if b.fc == nil || b.module || t.Recv != "" || b.fc.path != t.Dir {
		return resolve.Use{}
	}
	for _, i := range b.decls {
		if d := b.fc.f.Decls[i]; d.Name == t.Name && d.Parent < 0 {
			return resolve.Use{Class: resolve.Match}
		}
	}
	return resolve.Use{}
}

// memberSite is a use of the member name of v.
func (r *Resolver) memberSite(v val, name string, t resolve.Target) resolve.Use {
	switch v.k {
	case vUnknown:
		if t.Recv != "" {
			return resolve.Use{Class: resolve.Unresolved}
		}
	case vModule:
		return r.bindingUse(r.export(v.fc, name, 0), t)
	case vUnion:
		best := resolve.Use{}
		for _, a := range v.alts {
			if u := r.memberSite(a, name, t); rank(u.Class) > rank(best.Class) {
				best = u
			}
		}
		return best
	case vInst, vStatic:
		if t.Recv == "" {
			return resolve.Use{}
		}
		m, how := r.findMember(v.fc, v.i, name, v.k == vStatic)
		switch how {
		case found:
			return r.memberUse(m, t)
		case undecided:
			return resolve.Use{Class: resolve.Unresolved}
		}
	}
	return resolve.Use{}
}

// memberUse is a use of the member m (a declaration, or what a use
// selects): the target's, one it overrides or implements, or an
// override of it.
func (r *Resolver) memberUse(m declRef, t resolve.Target) resolve.Use {
	d := m.fc.f.Decls[m.i]
	if d.Name != t.Name || t.Recv == "" {
		return resolve.Use{}
	}
	o := m.fc.f.Decls[d.Parent]
	if m.fc.path == t.Dir && o.Name == t.Recv && o.Parent < 0 {
		return resolve.Use{Class: resolve.Match}
	}
	if o.Name == "" || d.Static {
		// A static member overrides and implements nothing.
		return resolve.Use{}
	}
	owner, ok := r.targetOwner(t)
	if !ok {
		return resolve.Use{}
	}
	// tsserver's rule: a member is the target's when the target, or a
	// member of its name it overrides or implements, is the member or
	// one the member overrides or implements.
	mo := r.canon(declRef{m.fc, d.Parent})
	up := r.ancestors(owner)
	roots := map[declRef]bool{}
	for _, a := range up {
		if a == up[0] || r.declares(a, t.Name) {
			roots[a] = true
		}
	}
	for _, a := range r.ancestors(mo) {
		if !roots[a] {
			continue
		}
		switch {
		case a == mo:
			return resolve.Use{Class: resolve.Through, Via: kindName(o) + " " + o.Name}
		case a == up[0]:
			return resolve.Use{Class: resolve.Through, Via: kindName(o) + " " + o.Name + ", which overrides it"}
		}
		ad := a.fc.f.Decls[a.i]
		return resolve.Use{Class: resolve.Through, Via: kindName(o) + " " + o.Name + ", which also implements " + ad.Name + "." + t.Name}
	}
	return resolve.Use{}
}

func kindName(d Decl) string {
	if d.Kind == DeclInterface {
		return "interface"
	}
	return "class"
}

// targetOwner is the class or interface declaring the member target t.
func (r *Resolver) targetOwner(t resolve.Target) (declRef, bool) {
	fc := r.file(t.Dir)
	if fc == nil {
		return declRef{}, false
	}
	for _, i := range fc.byName[t.Recv] {
		if k := fc.f.Decls[i].Kind; k == DeclClass || k == DeclInterface {
			return declRef{fc, i}, true
		}
	}
	return declRef{}, false
}
