package lsptest

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// The pins of the gopls differentials: the gopls installed and the
// module compared on. ZUMBA_GOPLS_VERSION and ZUMBA_GOPLS_MODULE
// override them.
const (
	goplsVersion = "v0.23.0"
	goplsModule  = "golang.org/x/mod@v0.43.0"
)

// GoplsWorkspace installs gopls (or takes ZUMBA_GOPLS_BIN) and unpacks
// the pinned module into a workspace with its requirements downloaded,
// all in the test's own GOPATH; the test is skipped when that cannot be
// done. It returns gopls, the workspace, the environment to run gopls
// in, and the module and gopls version.
func GoplsWorkspace(t testing.TB) (gopls, ws string, env []string, module, version string) {
	version = envOr("ZUMBA_GOPLS_VERSION", goplsVersion)
	module = envOr("ZUMBA_GOPLS_MODULE", goplsModule)
	tmp := t.TempDir()
	gopath := filepath.Join(tmp, "gopath")
	env = append(os.Environ(), "GOPATH="+gopath, "GOMODCACHE="+filepath.Join(gopath, "pkg", "mod"),
		"GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off")
	t.Cleanup(func() {
		// The module cache is read-only; make it removable.
		clean := exec.Command("go", "clean", "-modcache")
		clean.Env = env
		clean.Run()
		filepath.WalkDir(gopath, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
	})
	gopls = os.Getenv("ZUMBA_GOPLS_BIN")
	start := time.Now()
	if gopls == "" {
		install := exec.Command("go", "install", "golang.org/x/tools/gopls@"+version)
		install.Env = env
		if out, err := install.CombinedOutput(); err != nil {
			t.Skipf("cannot install gopls %s: %v\n%s", version, err, out)
		}
		t.Logf("gopls %s installed in %v", version, time.Since(start).Round(time.Second))
		gopls = filepath.Join(gopath, "bin", "gopls")
	}

	dl := exec.Command("go", "mod", "download", "-json", module)
	dl.Env = env
	out, err := dl.Output()
	if err != nil {
		t.Skipf("cannot download %s: %v", module, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		t.Fatalf("go mod download %s: %s", module, out)
	}
	ws = filepath.Join(tmp, "ws")
	if err := os.CopyFS(ws, os.DirFS(info.Dir)); err != nil {
		t.Fatal(err)
	}
	filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	// gopls needs the module's requirements; go.sum is in the zip.
	tidy := exec.Command("go", "mod", "download")
	tidy.Dir, tidy.Env = ws, env
	if out, err := tidy.CombinedOutput(); err != nil {
		t.Skipf("cannot download the requirements of %s: %v\n%s", module, err, out)
	}

	return gopls, ws, env, module, version
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// GoFunc is a Go function or method: its name, where its name is (the
// path in the module, slash-separated; 1-based line and byte column),
// and a label the differential prints ("function", "method").
type GoFunc struct {
	Name      string
	Path      string
	Line, Col int
	Label     string
}

// UniqueExported lists the module's exported functions and methods whose
// name no other declaration of the module has (functions, methods, types,
// constants, variables, fields, interface methods), sorted by name.
func UniqueExported(t testing.TB, dir string) []GoFunc {
	count := map[string]int{}
	var funcs []GoFunc
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) && p != dir {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				count[n.Name.Name]++
				if n.Name.IsExported() && !strings.HasSuffix(rel, "_test.go") {
					pos := fset.Position(n.Name.Pos())
					funcs = append(funcs, GoFunc{Name: n.Name.Name, Path: filepath.ToSlash(rel), Line: pos.Line, Col: pos.Column})
				}
			case *ast.TypeSpec:
				count[n.Name.Name]++
			case *ast.ValueSpec:
				for _, id := range n.Names {
					count[id.Name]++
				}
			case *ast.Field:
				for _, id := range n.Names {
					count[id.Name]++
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []GoFunc
	for _, f := range funcs {
		if count[f.Name] == 1 {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// RecvName is the type a method's receiver names (T of *T, T[K]), as
// zumba qualifies a method ("T.Name"); "?" for another expression.
func RecvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return RecvName(e.X)
	case *ast.ParenExpr:
		return RecvName(e.X)
	case *ast.IndexExpr:
		return RecvName(e.X)
	case *ast.IndexListExpr:
		return RecvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}
