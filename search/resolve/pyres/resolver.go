package pyres

import (
	"path"
	"sort"
	"strings"
	"sync"
)

// Source gives the resolver the facts of a project's Python files.
type Source interface {
	// Facts returns the facts of the Python file at path; nil when they
	// are not known.
	Facts(path string) *File
	// Files lists the project's Python files (.py, .pyi), sorted.
	Files() []string
}

// IsPython reports whether the resolver reads the file at p.
func IsPython(p string) bool { return strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi") }

// Resolver resolves the uses of names across a project's Python files.
// It keeps what it worked out while it lives: make one per state of the
// project. It is safe for concurrent use.
type Resolver struct {
	src Source
	mu  sync.Mutex
	// modules maps a module's dotted name to its file; names the
	// module name of each file; paths each file's dotted path from the
	// project's folder (a/b/c for a/b/c.py and a/b/c/__init__.py), for
	// relative imports and namespace packages (folders without an
	// __init__.py).
	modules map[string]string
	names   map[string]string
	paths   map[string]string
	// dirs are the folders holding Python files, as dotted paths, and
	// namespaces the contexts made for those without an __init__.py.
	dirs       map[string]bool
	namespaces map[string]*fileCtx
	files      map[string]*fileCtx
}

// fileCtx is one file's facts and what the resolver worked out of them.
type fileCtx struct {
	path, module string
	f            *File
	vals         []val
	// state: 1 being evaluated, 2 done.
	state []uint8
	// mros memoizes the classes' linearizations.
	mros map[int32]mroMemo
}

// mroMemo is a class's MRO and whether it is complete.
type mroMemo struct {
	order    []clsRef
	complete bool
}

// NewResolver returns a resolver over src.
func NewResolver(src Source) *Resolver {
	r := &Resolver{src: src, modules: map[string]string{}, names: map[string]string{}, paths: map[string]string{}, files: map[string]*fileCtx{}, dirs: map[string]bool{}, namespaces: map[string]*fileCtx{}}
	files := src.Files()
	inits := map[string]bool{}
	for _, p := range files {
		if b := path.Base(p); b == "__init__.py" || b == "__init__.pyi" {
			inits[dirOf(p)] = true
		}
	}
	for _, p := range files {
		for d := dirOf(p); d != "" && !r.dirs[strings.ReplaceAll(d, "/", ".")]; d = dirOf(d) {
			r.dirs[strings.ReplaceAll(d, "/", ".")] = true
		}
		dp := dottedPath(p)
		if old, ok := r.paths[dp]; !ok || strings.HasSuffix(old, ".pyi") && strings.HasSuffix(p, ".py") {
			r.paths[dp] = p
		}
		m := moduleName(p, inits)
		if m == "" {
			continue
		}
		r.names[p] = m
		// A .py file wins over its stub; the first path wins else.
		if old, ok := r.modules[m]; !ok || strings.HasSuffix(old, ".pyi") && strings.HasSuffix(p, ".py") {
			r.modules[m] = p
		}
	}
	return r
}

func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// dottedPath is p as a dotted module path from the project's folder.
func dottedPath(p string) string {
	p = strings.TrimSuffix(strings.TrimSuffix(p, ".pyi"), ".py")
	p = strings.TrimSuffix(strings.TrimSuffix(p, "__init__"), "/")
	return strings.ReplaceAll(p, "/", ".")
}

// moduleName is the dotted name of the module at p: its folders up to
// the first one that is not a package (no __init__.py), then its own.
func moduleName(p string, inits map[string]bool) string {
	base := path.Base(p)
	stem := strings.TrimSuffix(strings.TrimSuffix(base, ".pyi"), ".py")
	var parts []string
	if stem != "__init__" {
		parts = append(parts, stem)
	}
	for d := dirOf(p); d != "" && inits[d]; d = dirOf(d) {
		parts = append(parts, path.Base(d))
	}
	if len(parts) == 0 {
		return ""
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".")
}

// file returns the context of the file at p; nil when its facts are
// not known. The caller holds r.mu.
func (r *Resolver) file(p string) *fileCtx {
	if fc, ok := r.files[p]; ok {
		return fc
	}
	f := r.src.Facts(p)
	if f == nil {
		r.files[p] = nil
		return nil
	}
	fc := &fileCtx{path: p, module: r.names[p], f: f, vals: make([]val, len(f.Exprs)), state: make([]uint8, len(f.Exprs))}
	r.files[p] = fc
	return fc
}

// module returns the file of the module named m (absolute, or relative
// to fc's folder); ok is false for a module outside the project. An
// absolute name is a package's module, else a path from the project's
// folder (namespace packages).
func (r *Resolver) module(fc *fileCtx, m string) (*fileCtx, bool) {
	if strings.HasPrefix(m, ".") {
		dots := len(m) - len(strings.TrimLeft(m, "."))
		base := strings.ReplaceAll(dirOf(fc.path), "/", ".")
		for i := 1; i < dots; i++ {
			if k := strings.LastIndexByte(base, '.'); k >= 0 {
				base = base[:k]
			} else {
				base = ""
			}
		}
		p, ok := r.paths[strings.Trim(base+"."+m[dots:], ".")]
		if !ok {
			return nil, false
		}
		return r.file(p), true
	}
	p, ok := r.modules[m]
	if !ok {
		if p, ok = r.paths[m]; !ok {
			return r.namespace(m)
		}
	}
	return r.file(p), true
}

// namespace is the namespace package m: a folder of the project without
// an __init__.py, whose names are its modules.
func (r *Resolver) namespace(m string) (*fileCtx, bool) {
	if !r.dirs[m] {
		return nil, false
	}
	fc, ok := r.namespaces[m]
	if !ok {
		fc = &fileCtx{path: strings.ReplaceAll(m, ".", "/") + "/__init__.py", module: m, f: &File{}}
		r.namespaces[m] = fc
	}
	return fc, true
}

// Modules lists the module names of the files, sorted (tests).
func (r *Resolver) Modules() []string {
	var out []string
	for m := range r.modules {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}
