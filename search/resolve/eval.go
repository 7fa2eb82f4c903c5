package resolve

import (
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Source gives the resolver the facts of a project's Go files.
type Source interface {
	// Facts returns the facts of the Go file at path (relative to the
	// project, with "/"); nil when they are not known (not parsed, not
	// Go, unreadable).
	Facts(path string) *File
	// GoDirs lists the project's Go files by their folder ("" for the
	// project's own), each folder's files sorted.
	GoDirs() map[string][]string
	// ReadFile reads a project file (go.mod files).
	ReadFile(path string) ([]byte, error)
}

// Resolver resolves the uses of names across a project's Go files, from
// their facts. It keeps what it resolved for as long as it lives: make
// one per state of the project (the index's generation). It is safe for
// concurrent use.
type Resolver struct {
	src     Source
	mu      sync.Mutex
	dirs    map[string][]string
	modules []module
	files   map[string]*fileCtx
	pkgs    map[pkgKey]*Pkg
	byPath  map[string]*Pkg // import path → package, from a folder
}

type module struct{ dir, path string }

type pkgKey struct{ dir, name string }

// Pkg is one Go package of the project: a folder's files that declare
// the same package name.
type Pkg struct {
	Dir, Name string
	files     []*fileCtx
	// The package-level names: types, functions and variables by name,
	// methods by receiver type and name.
	types map[string]ref
	// variants are the other declarations of the types declared more
	// than once (one per build variant: net's netFD in fd_plan9.go and
	// fd_posix.go).
	variants map[string][]ref
	funcs    map[string]ref
	vars     map[string]ref
	methods  map[string]map[string]ref
}

// ref is a declaration in a file: a type, function or variable by its
// index in the file's facts.
type ref struct {
	fc *fileCtx
	i  int32
}

// fileCtx is one file's facts with what the resolver worked out of them.
type fileCtx struct {
	path string
	f    *File
	pkg  *Pkg
	// imports are the packages of f.Imports, looked up once.
	imports []*Pkg
	looked  []bool
	// vals memoizes the expressions' values; state 1 being evaluated.
	vals  []val
	state []uint8
}

// NewResolver returns a resolver over src.
func NewResolver(src Source) *Resolver {
	r := &Resolver{src: src, files: map[string]*fileCtx{}, pkgs: map[pkgKey]*Pkg{}, byPath: map[string]*Pkg{}}
	r.dirs = src.GoDirs()
	r.readModules()
	return r
}

// readModules reads the project's go.mod files: their folders and module
// paths, the longest path first.
func (r *Resolver) readModules() {
	for dir, files := range r.dirs {
		p := path.Join(dir, "go.mod")
		if !slices.Contains(files, p) {
			continue
		}
		data, err := r.src.ReadFile(p)
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(data), "\n") {
			l = strings.TrimSpace(l)
			if rest, ok := strings.CutPrefix(l, "module "); ok {
				r.modules = append(r.modules, module{dir: dir, path: strings.Trim(strings.TrimSpace(rest), "\"")})
				break
			}
		}
	}
	sort.Slice(r.modules, func(i, j int) bool { return len(r.modules[i].path) > len(r.modules[j].path) })
}

// file returns the context of the Go file at p; nil when its facts are
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
	fc := &fileCtx{path: p, f: f, imports: make([]*Pkg, len(f.Imports)), looked: make([]bool, len(f.Imports)),
		vals: make([]val, len(f.Exprs)), state: make([]uint8, len(f.Exprs))}
	r.files[p] = fc
	fc.pkg = r.pkg(path.Dir(p), f.Package)
	return fc
}

func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// pkg returns the package name of the folder dir; nil when no file there
// has its facts known. The caller holds r.mu.
func (r *Resolver) pkg(dir, name string) *Pkg {
	if dir == "." {
		dir = ""
	}
	k := pkgKey{dir, name}
	if p, ok := r.pkgs[k]; ok {
		return p
	}
	p := &Pkg{Dir: dir, Name: name, types: map[string]ref{}, funcs: map[string]ref{}, vars: map[string]ref{}, methods: map[string]map[string]ref{}}
	r.pkgs[k] = p
	for _, fp := range r.dirs[dir] {
		fc := r.file(fp)
		if fc == nil || fc.f.Package != name {
			continue
		}
		p.add(fc)
	}
	return p
}

// add adds fc's package-level declarations to p.
func (p *Pkg) add(fc *fileCtx) {
	p.files = append(p.files, fc)
	f := fc.f
	for i, t := range f.Types {
		if !t.Local {
			if _, ok := p.types[t.Name]; !ok {
				p.types[t.Name] = ref{fc, int32(i)}
			} else {
				if p.variants == nil {
					p.variants = map[string][]ref{}
				}
				p.variants[t.Name] = append(p.variants[t.Name], ref{fc, int32(i)})
			}
		}
	}
	for i, fn := range f.Funcs {
		if fn.Recv == "" {
			if _, ok := p.funcs[fn.Name]; !ok {
				p.funcs[fn.Name] = ref{fc, int32(i)}
			}
			continue
		}
		ms := p.methods[fn.Recv]
		if ms == nil {
			ms = map[string]ref{}
			p.methods[fn.Recv] = ms
		}
		if _, ok := ms[fn.Name]; !ok {
			ms[fn.Name] = ref{fc, int32(i)}
		}
	}
	for i, v := range f.Vars {
		if _, ok := p.vars[v.Name]; !ok {
			p.vars[v.Name] = ref{fc, int32(i)}
		}
	}
}

// importPkg is the package import i of fc names; nil when it is not in
// the project. The caller holds r.mu.
func (r *Resolver) importPkg(fc *fileCtx, i int32) *Pkg {
	if i < 0 || int(i) >= len(fc.imports) {
		return nil
	}
	if fc.looked[i] {
		return fc.imports[i]
	}
	fc.looked[i] = true
	fc.imports[i] = r.byImport(dirOf(fc.path), fc.f.Imports[i].Path)
	return fc.imports[i]
}

// byImport is the package of the import path ip, imported from the
// folder from: a module's folder, a vendor folder above from, or the
// folder the path names (the Go tree's own packages).
func (r *Resolver) byImport(from, ip string) *Pkg {
	var cands []string
	for _, m := range r.modules {
		if ip == m.path {
			cands = append(cands, m.dir)
		} else if rest, ok := strings.CutPrefix(ip, m.path+"/"); ok {
			cands = append(cands, path.Join(m.dir, rest))
		}
	}
	for d := from; ; d = dirOf(d) {
		cands = append(cands, path.Join(d, "vendor", ip))
		if d == "" {
			break
		}
	}
	cands = append(cands, ip)
	for _, c := range cands {
		if c == "." {
			c = ""
		}
		files := r.dirs[c]
		if len(files) == 0 {
			continue
		}
		if p, ok := r.byPath[c]; ok {
			return p
		}
		name := r.clauseOf(c, importName(ip))
		if name == "" {
			continue
		}
		p := r.pkg(c, name)
		r.byPath[c] = p
		return p
	}
	return nil
}

// clauseOf is the package a folder's files declare, leaving out external
// test packages and, when there is another, main (a generator beside
// the package).
func (r *Resolver) clauseOf(dir, likely string) string {
	count := map[string]int{}
	for _, fp := range r.dirs[dir] {
		fc := r.file(fp)
		if fc == nil || strings.HasSuffix(fc.f.Package, "_test") || fc.f.Package == "" {
			continue
		}
		count[fc.f.Package]++
	}
	if count[likely] > 0 {
		return likely
	}
	best := ""
	for n, c := range count {
		if n == "main" && len(count) > 1 {
			continue
		}
		if best == "" || c > count[best] || c == count[best] && n < best {
			best = n
		}
	}
	return best
}
