package search

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/search/internal/lsptest"
	"github.com/zumba-dev/zumba/search/resolve"
)

// The resolver's differential: the uses of definitions that package
// resolve finds (find_references with a qualified name or a definition)
// against gopls' references, counted per use (file:line:column), on
// pinned modules. Like TestGoplsDifferential it installs gopls, so it
// runs only when asked:
//
//	ZUMBA_GOPLS_DIFF=1 go test -count=1 -run TestGoplsResolved -v ./search
//
// ZUMBA_RESOLVE_MODULES (comma-separated module@version) overrides the
// modules; ZUMBA_RESOLVE_DEFS how many definitions each (default 120).
// ZUMBA_RESOLVE_GOROOT=1 adds 200 definitions of the Go tree's net/http,
// encoding/json and os, on the Go tree itself (gopls loads the standard
// library's module: minutes; ZUMBA_GOPLS_BIN names the gopls to use).
var resolveModules = []string{"golang.org/x/mod@v0.43.0", "github.com/spf13/cobra@v1.8.1"}

// Goals of issue 45, per module and over all.
const (
	resolvePrecisionGoal = 98.0
	resolveRecallGoal    = 99.0
)

func TestGoplsResolvedDifferential(t *testing.T) {
	if os.Getenv("ZUMBA_GOPLS_DIFF") == "" {
		t.Skip("set ZUMBA_GOPLS_DIFF=1 to install gopls and compare with it")
	}
	modules := resolveModules
	if m := os.Getenv("ZUMBA_RESOLVE_MODULES"); m != "" {
		modules = strings.Split(m, ",")
	}
	var all resolveTally
	for _, m := range modules {
		t.Run(m, func(t *testing.T) {
			t.Setenv("ZUMBA_GOPLS_MODULE", m)
			gopls, ws, env, module, version := lsptest.GoplsWorkspace(t)
			tally := resolveDiff(t, gopls, ws, env)
			t.Logf("gopls %s on %s: %s", version, module, tally)
			all.add(tally)
			tally.check(t)
		})
	}
	if os.Getenv("ZUMBA_RESOLVE_GOROOT") != "" {
		t.Run("GOROOT", func(t *testing.T) {
			gopls := os.Getenv("ZUMBA_GOPLS_BIN")
			if gopls == "" {
				t.Skip("set ZUMBA_GOPLS_BIN to a gopls for the Go tree")
			}
			ws := filepath.Join(fixture.GOROOT(), "src")
			env := append(os.Environ(), "GOTOOLCHAIN=local", "GOWORK=off", "GOFLAGS=")
			tally := resolveDiffIn(t, gopls, ws, env, []string{"net/http", "encoding/json", "os"})
			t.Logf("gopls on the Go tree (%s), definitions of net/http, encoding/json and os: %s", runtime.Version(), tally)
			tally.check(t)
			all.add(tally)
		})
	}
	t.Logf("all: %s", all)
}

// resolveTally counts uses: gopls' references, those the resolver lists
// as uses (Match, Through) and agree, and those it leaves unresolved.
type resolveTally struct {
	defs, gopls, listed, listedAgree, unresolved, unresolvedAgree, through int
}

func (a *resolveTally) add(b resolveTally) {
	a.defs += b.defs
	a.gopls += b.gopls
	a.listed += b.listed
	a.listedAgree += b.listedAgree
	a.unresolved += b.unresolved
	a.unresolvedAgree += b.unresolvedAgree
	a.through += b.through
}

// check fails t when a goal of issue 45 is not met.
func (a resolveTally) check(t *testing.T) {
	if p := a.precision(); p < resolvePrecisionGoal {
		t.Errorf("precision %.1f%%; the goal is %.0f%%", p, resolvePrecisionGoal)
	}
	if r := a.recall(); r < resolveRecallGoal {
		t.Errorf("recall %.1f%%; the goal is %.0f%%", r, resolveRecallGoal)
	}
}

// precision is the share of the uses listed as resolved that gopls
// reports.
func (a resolveTally) precision() float64 { return pct(a.listedAgree, a.listed) }

// recall is the share of gopls' references the answer shows, resolved
// or in its last group.
func (a resolveTally) recall() float64 {
	return pct(a.listedAgree+a.unresolvedAgree, a.gopls)
}

func (a resolveTally) String() string {
	return fmt.Sprintf("%d definitions, %d gopls references; listed %d (%d through interfaces), precision %.1f%%; recall %.1f%% (%.1f%% resolved alone); %d not resolved (%d of them gopls')",
		a.defs, a.gopls, a.listed, a.through, a.precision(), a.recall(), pct(a.listedAgree, a.gopls), a.unresolved, a.unresolvedAgree)
}

// resolveDiff compares the resolver with gopls on the definitions of
// the module unpacked in ws.
func resolveDiff(t *testing.T, gopls, ws string, env []string) resolveTally {
	return resolveDiffIn(t, gopls, ws, env, nil)
}

// resolveDiffIn is resolveDiff with the definitions picked from the
// packages of the folders dirs (nil: all).
func resolveDiffIn(t *testing.T, gopls, ws string, env []string, dirs []string) resolveTally {
	paths, defs := moduleDefs(t, ws)
	if dirs != nil {
		defs = slices.DeleteFunc(defs, func(d lsptest.GoFunc) bool {
			return !slices.Contains(dirs, path.Dir(d.Path)) || strings.HasSuffix(d.Path, "_test.go")
		})
	}
	n := 120
	if dirs != nil {
		n = 200
	}
	if v, err := strconv.Atoi(os.Getenv("ZUMBA_RESOLVE_DEFS")); err == nil && v > 0 {
		n = v
	}
	picked := defs
	if len(defs) > n {
		picked = make([]lsptest.GoFunc, n)
		for i := range picked {
			picked[i] = defs[i*len(defs)/n]
		}
	}
	src := resolve.NewFiles(paths, func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(ws, p)) })
	r := resolve.NewResolver(src)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	ls, err := lsptest.Start(ctx, ws, env, gopls, "serve")
	if err != nil {
		t.Skipf("cannot start gopls: %v", err)
	}
	defer ls.Close()
	var tally resolveTally
	var notes []string
	for _, d := range picked {
		target, ok := r.TargetAt(d.Path, int32(d.Line), d.Name)
		if !ok {
			t.Errorf("no target at %s:%d %s", d.Path, d.Line, d.Name)
			continue
		}
		refs, err := ls.ReferencesAt(ctx, filepath.Join(ws, d.Path), d.Line-1, d.Col-1)
		if err != nil {
			t.Fatalf("gopls references %s: %v", d.Name, err)
		}
		want := map[string]bool{}
		for _, ref := range refs {
			want[ref] = true
		}
		got := resolvedUses(ws, paths, r, target)
		tally.defs++
		tally.gopls += len(want)
		for key, c := range got {
			switch c {
			case resolve.Unresolved:
				tally.unresolved++
				if want[key] {
					tally.unresolvedAgree++
					notes = append(notes, fmt.Sprintf("unresolved, gopls' %s %s.%s at %s", d.Label, target.Recv, d.Name, key))
				} else if os.Getenv("ZUMBA_RESOLVE_NOISE") != "" {
					notes = append(notes, fmt.Sprintf("unresolved, not gopls' %s %s.%s at %s", d.Label, target.Recv, d.Name, key))
				}
			default:
				tally.listed++
				if c == resolve.Through {
					tally.through++
				}
				if want[key] {
					tally.listedAgree++
				} else {
					notes = append(notes, fmt.Sprintf("extra %s %s.%s at %s (%s)", d.Label, target.Recv, d.Name, key, className(c)))
				}
			}
		}
		for key := range want {
			if _, ok := got[key]; !ok {
				notes = append(notes, fmt.Sprintf("missed %s %s.%s at %s", d.Label, target.Recv, d.Name, key))
			}
		}
	}
	sort.Strings(notes)
	for i, n := range notes {
		if i == 200 {
			t.Logf("  … %d more", len(notes)-i)
			break
		}
		t.Logf("  %s", n)
	}
	return tally
}

func className(c resolve.Class) string {
	return map[resolve.Class]string{resolve.Match: "use", resolve.Through: "through", resolve.Unresolved: "unresolved"}[c]
}

// resolvedUses is every use of target the resolver finds in the Go
// files of paths, by "path:line:col", with its class.
func resolvedUses(ws string, paths []string, r *resolve.Resolver, target resolve.Target) map[string]resolve.Class {
	out := map[string]resolve.Class{}
	for _, p := range paths {
		if !resolve.IsGo(p) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(ws, p))
		if err != nil || !bytes.Contains(data, []byte(target.Name)) {
			continue
		}
		uses, ok := r.FileUses(p, target.Name, []resolve.Target{target}, func() []byte { return data })
		if !ok {
			continue
		}
		for _, u := range uses {
			out[p+":"+strconv.Itoa(int(u.Line))+":"+strconv.Itoa(int(u.Col))] = u.Class
		}
	}
	return out
}

// moduleDefs lists the Go files gopls sees in ws (not under testdata,
// nor folders starting with "." or "_") and the functions and methods
// declared in them, in path and line order.
func moduleDefs(t *testing.T, ws string) (paths []string, defs []lsptest.GoFunc) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != ws && (d.Name() == "testdata" || d.Name() == "cmd" && filepath.Dir(p) == ws || d.Name() == "vendor" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(ws, p)
		rel = filepath.ToSlash(rel)
		if strings.HasSuffix(p, ".go") {
			// The files gopls loads: this platform's.
			if ok, err := build.Default.MatchFile(filepath.Dir(p), d.Name()); err != nil || !ok {
				return nil
			}
		}
		paths = append(paths, rel)
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Name.Name == "init" || fd.Name.Name == "main" || fd.Name.Name == "_" {
				continue
			}
			pos := fset.Position(fd.Name.Pos())
			label := "function"
			if fd.Recv != nil {
				label = "method"
			}
			defs = append(defs, lsptest.GoFunc{Name: fd.Name.Name, Path: rel, Line: pos.Line, Col: pos.Column, Label: label})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths, defs
}
