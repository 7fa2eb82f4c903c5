package tsjs

import (
	"path"
	"strings"
	"sync"
)

// Source gives the resolver the facts of a project's TypeScript and
// JavaScript files.
type Source interface {
	// Facts returns the facts of the file at path (relative to the
	// project, with "/"); nil when they are not known (not parsed,
	// unreadable).
	Facts(path string) *File
	// Exists reports whether the project holds a file at path.
	Exists(path string) bool
}

// Resolver resolves the uses of names across a project's TypeScript and
// JavaScript files, from their facts. It keeps what it worked out for as
// long as it lives: make one per state of the project. It is safe for
// concurrent use.
type Resolver struct {
	src   Source
	mu    sync.Mutex
	files map[string]*fileCtx
	mods  map[[2]string]string
	anc   map[declRef][]declRef
}

// declRef is a declaration of a file.
type declRef struct {
	fc *fileCtx
	i  int32
}

// fileCtx is one file's facts with what the resolver worked out of them.
type fileCtx struct {
	path string
	f    *File
	// byName are the module-level declarations by name; members the
	// members of each class or interface, heritage its clauses.
	byName   map[string][]int32
	members  map[int32][]int32
	heritage map[int32][]int32
	imports  map[string]int32
	// vals memoizes the expressions' values; state 1 being evaluated.
	vals  []val
	state []uint8
}

// NewResolver returns a resolver over src.
func NewResolver(src Source) *Resolver {
	return &Resolver{src: src, files: map[string]*fileCtx{}, mods: map[[2]string]string{}, anc: map[declRef][]declRef{}}
}

// file returns the context of the file at p; nil when its facts are
// not known. The caller holds r.mu.
func (r *Resolver) file(p string) *fileCtx {
	if fc, ok := r.files[p]; ok {
		return fc
	}
	var fc *fileCtx
	if f := r.src.Facts(p); f != nil {
		fc = newFileCtx(p, f)
	}
	r.files[p] = fc
	return fc
}

func newFileCtx(p string, f *File) *fileCtx {
	fc := &fileCtx{path: p, f: f, byName: map[string][]int32{}, members: map[int32][]int32{}, heritage: map[int32][]int32{}, imports: map[string]int32{},
		vals: make([]val, len(f.Exprs)), state: make([]uint8, len(f.Exprs))}
	for i, d := range f.Decls {
		switch {
		case d.Kind == DeclMember:
			fc.members[d.Parent] = append(fc.members[d.Parent], int32(i))
		case d.Kind == DeclHeritage:
			fc.heritage[d.Parent] = append(fc.heritage[d.Parent], int32(i))
		case !d.Local && d.Name != "":
			fc.byName[d.Name] = append(fc.byName[d.Name], int32(i))
		}
	}
	for i, im := range f.Imports {
		if im.Local != "" {
			fc.imports[im.Local] = int32(i)
		}
	}
	return fc
}

// resolvedExts are the extensions tried for an import's path, in
// TypeScript's order.
var resolvedExts = []string{".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}

// module is the file the import spec of the file at from names; "" when
// it is not a file of the project (a package, a path that is not
// there). The caller holds r.mu.
func (r *Resolver) module(from, spec string) string {
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") && spec != "." && spec != ".." {
		return ""
	}
	dir := path.Dir(from)
	key := [2]string{dir, spec}
	if p, ok := r.mods[key]; ok {
		return p
	}
	base := path.Join(dir, spec)
	var tries []string
	if Reads(base) {
		tries = append(tries, base)
		// ./x.js written for ./x.ts
		if ext := path.Ext(base); ext == ".js" || ext == ".jsx" || ext == ".mjs" || ext == ".cjs" {
			stem := strings.TrimSuffix(base, ext)
			tries = append(tries, stem+".ts", stem+".tsx", stem+".mts", stem+".cts")
		}
	}
	for _, e := range resolvedExts {
		tries = append(tries, base+e)
	}
	for _, e := range resolvedExts {
		tries = append(tries, base+"/index"+e)
	}
	found := ""
	for _, t := range tries {
		if strings.HasPrefix(t, "../") || t == ".." {
			break
		}
		if r.src.Exists(t) {
			found = t
			break
		}
	}
	r.mods[key] = found
	return found
}

// binding is what a name means in a module: declarations of a file
// (merged under one name), a module's namespace, something from outside
// the project (foreign), or nothing known (unknown: a file without
// facts).
type binding struct {
	fc      *fileCtx
	decls   []int32
	module  bool
	foreign bool
	unknown bool
}

// maxHops bounds the imports and re-exports followed for one name.
const maxHops = 24

// name is what the module-level name means in fc.
func (r *Resolver) name(fc *fileCtx, name string, hops int) binding {
	if ds := fc.byName[name]; len(ds) > 0 {
		if b, ok := r.requiredName(fc, ds, hops); ok {
			return b
		}
		return binding{fc: fc, decls: ds}
	}
	i, ok := fc.imports[name]
	if !ok {
		return binding{foreign: true}
	}
	im := fc.f.Imports[i]
	return r.imported(fc, im.Spec, im.Name, hops)
}

// imported is what the name imported from the module spec of fc means
// ("*": the module's namespace).
func (r *Resolver) imported(fc *fileCtx, spec, name string, hops int) binding {
	p := r.module(fc.path, spec)
	if p == "" {
		return binding{foreign: true}
	}
	m := r.file(p)
	if m == nil {
		return binding{unknown: true}
	}
	if name == "*" {
		return binding{fc: m, module: true}
	}
	return r.export(m, name, hops+1)
}

// export is what the module fc exports under name, following
// re-exports.
func (r *Resolver) export(fc *fileCtx, name string, hops int) binding {
	if hops > maxHops {
		return binding{unknown: true}
	}
	for _, ex := range fc.f.Exports {
		if ex.Name != name {
			continue
		}
		if ex.Spec == "" {
			return r.name(fc, ex.Local, hops)
		}
		return r.imported(fc, ex.Spec, ex.Local, hops)
	}
	if name == "default" {
		return binding{foreign: true}
	}
	var out binding
	out.foreign = true
	for _, ex := range fc.f.Exports {
		if ex.Name != "*" {
			continue
		}
		b := r.imported(fc, ex.Spec, name, hops)
		if b.fc != nil {
			return b
		}
		if b.unknown {
			out = b
		}
	}
	return out
}
