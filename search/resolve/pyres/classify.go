package pyres

import (
	"strings"

	"github.com/zumba-dev/zumba/search/resolve"
)

var _ resolve.Lang = (*Resolver)(nil)

// clsQual is the class i of fc with the classes holding it: "A.B".
func clsQual(fc *fileCtx, i int32) string {
	var parts []string
	for n := 0; i >= 0 && n < maxHops; n++ {
		c := &fc.f.Classes[i]
		parts = append(parts, c.Name)
		i = c.Parent
	}
	for a, b := 0, len(parts)-1; a < b; a, b = a+1, b-1 {
		parts[a], parts[b] = parts[b], parts[a]
	}
	return strings.Join(parts, ".")
}

// target is the target d declares.
func target(d decl) (resolve.Target, bool) {
	f := d.fc.f
	t := resolve.Target{Dir: d.fc.path, Pkg: d.fc.module}
	switch d.k {
	case dFunc:
		fn := &f.Funcs[d.i]
		t.Name = fn.Name
		if fn.Class >= 0 {
			t.Recv = clsQual(d.fc, fn.Class)
		}
	case dClass:
		c := &f.Classes[d.i]
		t.Name = c.Name
		if c.Parent >= 0 {
			t.Recv = clsQual(d.fc, c.Parent)
		}
	case dVar:
		v := &f.Vars[d.i]
		t.Name = v.Name
		if v.Class >= 0 {
			t.Recv = clsQual(d.fc, v.Class)
		}
	default:
		return t, false
	}
	return t, true
}

// TargetAt is the target the Python definition named name at path and
// line declares: a function, a method, a class, a module-level or class
// variable.
func (r *Resolver) TargetAt(path string, line int32, name string) (resolve.Target, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fc := r.file(path)
	if fc == nil {
		return resolve.Target{}, false
	}
	f := fc.f
	for i := range f.Funcs {
		if f.Funcs[i].Line == line && f.Funcs[i].Name == name {
			return target(decl{k: dFunc, fc: fc, i: int32(i)})
		}
	}
	for i := range f.Classes {
		if f.Classes[i].Line == line && f.Classes[i].Name == name {
			return target(decl{k: dClass, fc: fc, i: int32(i)})
		}
	}
	for i := range f.Vars {
		if f.Vars[i].Line == line && f.Vars[i].Name == name {
			return target(decl{k: dVar, fc: fc, i: int32(i)})
		}
	}
	return resolve.Target{}, false
}

// classify is what the declaration a lookup found is to the targets.
func classify(d decl, how outcome, targets []resolve.Target) resolve.Use {
	switch how {
	case undecided:
		return resolve.Use{Class: resolve.Unresolved}
	case absent:
		return resolve.Use{}
	}
	t, ok := target(d)
	if !ok {
		return resolve.Use{}
	}
	for i, x := range targets {
		if x.Dir == t.Dir && x.Recv == t.Recv && x.Name == t.Name {
			return resolve.Use{Class: resolve.Match, Target: i}
		}
	}
	return resolve.Use{}
}

// FileUses classifies the uses of name in the Python file at path that
// may mean one of the targets: its attribute uses and declarations of
// the name, and its bare uses (read from text, lexed) where one may
// mean a target. Uses that mean none of them are left out; ok is false
// when the file's facts are not known.
func (r *Resolver) FileUses(path, name string, targets []resolve.Target, text func() []byte) (uses []resolve.FileUse, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fc := r.file(path)
	if fc == nil {
		return nil, false
	}
	f := fc.f
	at := map[[2]int32]bool{}
	add := func(line, col int32, u resolve.Use) {
		at[[2]int32{line, col}] = true
		if u.Class != resolve.Other {
			uses = append(uses, resolve.FileUse{Line: line, Col: col, Use: u})
		}
	}
	for _, s := range f.Sites {
		if s.Name != name {
			continue
		}
		if s.Kind == SiteName {
			d, how := r.global(fc, name, 0)
			add(s.Line, s.Col, classify(d, how, targets))
			continue
		}
		// A use of a union's member is one of each of its values'.
		u := resolve.Use{}
		for _, x := range r.eval(fc, s.X).each() {
			d, how := r.member(x, name, 0)
			if c := classify(d, how, targets); c.Class == resolve.Match || c.Class == resolve.Unresolved && u.Class == resolve.Other {
				u = c
			}
		}
		if s.Kind == SiteImport && u.Class != resolve.Match {
			// It declares the module's own name too (a function
			// replaced by a faster one: from _json import x).
			if d, ok := r.ownGlobal(fc, name); ok {
				if c := classify(d, found, targets); c.Class == resolve.Match {
					u = c
				}
			}
		}
		add(s.Line, s.Col, u)
	}
	for i := range f.Funcs {
		if fn := &f.Funcs[i]; fn.Name == name {
			add(fn.Line, fn.Col, classify(decl{k: dFunc, fc: fc, i: int32(i)}, found, targets))
		}
	}
	for i := range f.Classes {
		if c := &f.Classes[i]; c.Name == name {
			add(c.Line, c.Col, classify(decl{k: dClass, fc: fc, i: int32(i)}, found, targets))
		}
	}
	if !r.bareMayMatch(fc, targets) {
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
		d, how := r.bare(fc, line, name)
		if u := classify(d, how, targets); u.Class != resolve.Other {
			uses = append(uses, resolve.FileUse{Line: line, Col: col, Use: u})
		}
	})
	return uses, true
}

// ownGlobal is the declaration of the module-level name of fc by a def,
// a class or an assignment (not an import).
func (r *Resolver) ownGlobal(fc *fileCtx, name string) (decl, bool) {
	f := fc.f
	for i := range f.Funcs {
		if fn := &f.Funcs[i]; fn.Class < 0 && fn.Name == name {
			return decl{k: dFunc, fc: fc, i: int32(i)}, true
		}
	}
	for i := range f.Classes {
		if c := &f.Classes[i]; c.Parent < 0 && c.Name == name {
			return decl{k: dClass, fc: fc, i: int32(i)}, true
		}
	}
	return decl{}, false
}

// bareMayMatch reports whether a bare use in fc may mean a target: a
// module-level one, or one of fc's classes (in their bodies).
func (r *Resolver) bareMayMatch(fc *fileCtx, targets []resolve.Target) bool {
	for _, t := range targets {
		if t.Recv == "" || t.Dir == fc.path {
			return true
		}
	}
	return false
}

// bare is the declaration a bare use of name at line means: the
// innermost binding of a function, comprehension or class body holding
// the line, else the module's name.
func (r *Resolver) bare(fc *fileCtx, line int32, name string) (decl, outcome) {
	best := -1
	for i := range fc.f.Locals {
		l := &fc.f.Locals[i]
		if line < l.From || line > l.To {
			continue
		}
		if l.Name != name && !(l.Name == "" && l.Kind == LocalMember) {
			continue
		}
		if l.Name == "" {
			if _, ok := ownMember(clsRef{fc, l.X}, name); !ok {
				continue
			}
		}
		if best < 0 || l.To-l.From < fc.f.Locals[best].To-fc.f.Locals[best].From {
			best = i
		}
	}
	if best < 0 {
		return r.global(fc, name, 0)
	}
	l := &fc.f.Locals[best]
	switch l.Kind {
	case LocalAlias:
		if isAlias(fc.f, l.X) {
			return r.aliasDecl(fc, l.X, 0)
		}
	case LocalMember:
		d, _ := ownMember(clsRef{fc, l.X}, name)
		return d, found
	}
	return decl{}, absent
}
