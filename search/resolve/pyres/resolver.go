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
	// module name of each file.
	modules map[string]string
	names   map[string]string
	files   map[string]*fileCtx
}

// fileCtx is one file's facts and what the resolver worked out of them.
type fileCtx struct {
	path, module string
	// pkg is the package relative imports start from.
	pkg  string
	f    *File
	vals []val
	// state: 1 being evaluated, 2 done.
	state []uint8
	// classOf memoizes the classes' linearizations.
	mro map[int32][]clsRef
}

// NewResolver returns a resolver over src.
func NewResolver(src Source) *Resolver {
	r := &Resolver{src: src, modules: map[string]string{}, names: map[string]string{}, files: map[string]*fileCtx{}}
	files := src.Files()
	inits := map[string]bool{}
	for _, p := range files {
		if b := path.Base(p); b == "__init__.py" || b == "__init__.pyi" {
			inits[dirOf(p)] = true
		}
	}
	for _, p := range files {
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
	fc.pkg = fc.module
	if b := path.Base(p); b != "__init__.py" && b != "__init__.pyi" {
		if i := strings.LastIndexByte(fc.module, '.'); i >= 0 {
			fc.pkg = fc.module[:i]
		} else {
			fc.pkg = ""
		}
	}
	r.files[p] = fc
	return fc
}

// module returns the file of the module named m (absolute, or relative
// to fc's package); ok is false for a module outside the project.
func (r *Resolver) module(fc *fileCtx, m string) (*fileCtx, bool) {
	abs := m
	if strings.HasPrefix(m, ".") {
		dots := len(m) - len(strings.TrimLeft(m, "."))
		base := fc.pkg
		for i := 1; i < dots; i++ {
			if k := strings.LastIndexByte(base, '.'); k >= 0 {
				base = base[:k]
			} else {
				base = ""
			}
		}
		abs = strings.Trim(base+"."+m[dots:], ".")
	}
	p, ok := r.modules[abs]
	if !ok {
		return nil, false
	}
	return r.file(p), true
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
