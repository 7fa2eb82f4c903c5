package search

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/search/internal/lsptest"
)

// The gopls differential: find_references' code and group options
// against gopls' references, on a pinned module. It installs gopls with
// the Go module proxy into the test's own GOPATH, so it runs only when
// asked (ZUMBA_GOPLS_DIFF=1) and is skipped when gopls cannot be
// installed. ZUMBA_GOPLS_VERSION and ZUMBA_GOPLS_MODULE override the pins
// (package search/internal/lsptest has them).
//
//	ZUMBA_GOPLS_DIFF=1 go test -count=1 -run TestGoplsDifferential -v ./search
//
// goplsNames is how many exported functions it asks about.
const goplsNames = 50

func TestGoplsDifferential(t *testing.T) {
	if os.Getenv("ZUMBA_GOPLS_DIFF") == "" {
		t.Skip("set ZUMBA_GOPLS_DIFF=1 to install gopls and compare with it")
	}
	gopls, ws, env, module, version := lsptest.GoplsWorkspace(t)

	funcs := lsptest.UniqueExported(t, ws)
	if len(funcs) < goplsNames {
		t.Fatalf("%s has %d exported functions with unique names; want %d", module, len(funcs), goplsNames)
	}
	// Evenly spread over the sorted names, so the choice is stable.
	picked := make([]lsptest.GoFunc, goplsNames)
	for i := range picked {
		picked[i] = funcs[i*len(funcs)/goplsNames]
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	ls, err := lsptest.Start(ctx, ws, env, gopls, "serve")
	if err != nil {
		t.Skipf("cannot start gopls: %v", err)
	}
	defer ls.Close()

	root, err := OpenRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	asts := map[string]*goFile{}
	var (
		goplsRefs, found, headers, agree int
		codeHits, extra                  int
		misses, disagree, extras         []string
	)
	for _, f := range picked {
		refs, err := ls.References(ctx, filepath.Join(ws, f.Path), f.Line-1, f.Col-1)
		if err != nil {
			t.Fatalf("gopls references %s: %v", f.Name, err)
		}
		res, err := allSites(ctx, root, f.Name, RefOptions{Code: true, Group: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		sites := map[string]Site{}
		for _, s := range res.Sites {
			sites[s.Path+":"+strconv.Itoa(s.Line)] = s
		}
		seen := map[string]bool{}
		for _, r := range refs {
			key := r.Path + ":" + strconv.Itoa(r.Line)
			if seen[key] {
				continue
			}
			seen[key] = true
			goplsRefs++
			s, ok := sites[key]
			if !ok {
				misses = append(misses, f.Name+" at "+key)
				continue
			}
			found++
			gf := asts[r.Path]
			if gf == nil {
				gf = parseGoFile(t, filepath.Join(ws, r.Path))
				asts[r.Path] = gf
			}
			want, wantLine := gf.enclosing(r.Line)
			headers++
			got, gotLine := "", 0
			if s.Def != nil && (s.Def.Kind.String() == "function" || s.Def.Kind.String() == "method") {
				got, gotLine = s.Def.QualifiedName(), s.Def.Line
			}
			if got == want && gotLine == wantLine {
				agree++
			} else {
				disagree = append(disagree, fmt.Sprintf("%s at %s: header %q line %d; go/ast %q line %d", f.Name, key, got, gotLine, want, wantLine))
			}
		}
		for key, s := range sites {
			codeHits++
			if !seen[key] {
				extra++
				extras = append(extras, fmt.Sprintf("%s at %s: %s", f.Name, key, s.Text))
			}
		}
	}
	t.Logf("gopls %s on %s, %d exported functions and methods with unique names", version, module, len(picked))
	t.Logf("recall: %d of %d gopls references are code hits (%.1f%%)", found, goplsRefs, pct(found, goplsRefs))
	t.Logf("enclosing function: %d of %d group headers agree with go/ast (%.1f%%)", agree, headers, pct(agree, headers))
	t.Logf("code hits gopls does not report: %d of %d (%.1f%%)", extra, codeHits, pct(extra, codeHits))
	sort.Strings(extras)
	for _, e := range extras {
		t.Logf("  not from gopls: %s", e)
	}
	for _, m := range misses {
		t.Errorf("gopls reference not among the code hits: %s", m)
	}
	for _, d := range disagree {
		t.Errorf("enclosing function differs: %s", d)
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

// goFile is a parsed file's function declarations, by line.
type goFile struct {
	fset  *token.FileSet
	funcs []*ast.FuncDecl
}

func parseGoFile(t *testing.T, path string) *goFile {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("go/parser: %v", err)
	}
	gf := &goFile{fset: fset}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			gf.funcs = append(gf.funcs, fd)
		}
	}
	return gf
}

// enclosing returns the FuncDecl holding line, named as zumba names it
// ("Recv.Name" for a method), and the line of its name; "" outside any.
func (gf *goFile) enclosing(line int) (string, int) {
	for _, fd := range gf.funcs {
		start := gf.fset.Position(fd.Pos()).Line
		if fd.Doc != nil {
			start = gf.fset.Position(fd.Doc.Pos()).Line
		}
		if start <= line && line <= gf.fset.Position(fd.End()).Line {
			name := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				name = lsptest.RecvName(fd.Recv.List[0].Type) + "." + name
			}
			return name, gf.fset.Position(fd.Name.Pos()).Line
		}
	}
	return "", 0
}
