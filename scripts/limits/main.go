// Command limits checks the size limits of the house on the module's Go
// code: no non-test file over 800 lines, no function over 100 lines, no
// package over 6,000 non-test lines. It prints each limit exceeded and
// the largest of each kind, and exits 1 when one is; test functions over
// 100 lines are listed apart, and do not fail it.
//
//	go run ./scripts/limits [DIR]
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

const (
	maxFileLines    = 800
	maxFuncLines    = 100
	maxPackageLines = 6000
)

type sized struct {
	name  string
	lines int
}

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	var files, funcs, testFuncs []sized
	pkgs := map[string]int{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		lines := strings.Count(string(src), "\n")
		test := strings.HasSuffix(p, "_test.go")
		if !test {
			files = append(files, sized{p, lines})
			pkgs[filepath.Dir(p)] += lines
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			name := fn.Name.Name
			if fn.Recv != nil && len(fn.Recv.List) > 0 {
				name = recvName(fn.Recv.List[0].Type) + "." + name
			}
			it := sized{fmt.Sprintf("%s:%d %s", p, fset.Position(fn.Pos()).Line, name), n}
			if test {
				testFuncs = append(testFuncs, it)
			} else {
				funcs = append(funcs, it)
			}
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "limits:", err)
		os.Exit(2)
	}
	var packages []sized
	for p, n := range pkgs {
		packages = append(packages, sized{p, n})
	}
	bad := report("non-test files", files, maxFileLines)
	bad = report("functions", funcs, maxFuncLines) || bad
	bad = report("packages (non-test lines)", packages, maxPackageLines) || bad
	report("test functions (not a failure)", testFuncs, maxFuncLines)
	if bad {
		os.Exit(1)
	}
}

// report prints the items over max, or else the largest three, and
// reports whether one is over.
func report(what string, items []sized, max int) bool {
	sort.Slice(items, func(i, j int) bool { return items[i].lines > items[j].lines })
	over := 0
	for _, it := range items {
		if it.lines > max {
			over++
		}
	}
	if over > 0 {
		fmt.Printf("%s over %d lines: %d\n", what, max, over)
		for _, it := range items[:over] {
			fmt.Printf("  %5d  %s\n", it.lines, it.name)
		}
		return true
	}
	fmt.Printf("%s: none over %d lines; largest:\n", what, max)
	for _, it := range items[:min(3, len(items))] {
		fmt.Printf("  %5d  %s\n", it.lines, it.name)
	}
	return false
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}
