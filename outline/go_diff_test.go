package outline

import (
	"cmp"
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/fixture"
)

// goDiffExceptions lists the files of $GOROOT/src whose outline may differ
// from go/ast's, each with the reason. Keep it empty unless tree-sitter-go
// cannot follow the syntax.
var goDiffExceptions = map[string]string{}

// goEntry is one outline entry in a form both sides can produce.
type goEntry struct {
	Line      int
	Kind      string
	Name      string
	Container string
	// Start and End are the definition's extent: Start is the line of
	// its doc comment, as go/ast attaches it, or its own first line.
	Start, End int
}

// TestGoDifferential outlines every .go file of the Go distribution (or of
// $ZUMBA_GO_DIFF) with zumba and with go/parser + go/ast and compares the
// sets of entries. Files under testdata and files go/parser rejects are
// skipped.
func TestGoDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("walks the whole Go distribution")
	}
	root := filepath.Join(fixture.GOROOT(), "src")
	if dir := os.Getenv("ZUMBA_GO_DIFF"); dir != "" {
		root = dir // another tree of Go code, e.g. $(go env GOMODCACHE)
	}
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no Go sources: %v", err)
	}
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	lang := grammar.ByName("go")
	start := time.Now()

	type result struct {
		rel        string
		skipped    bool
		want, got  []goEntry
		parseError error
	}
	results := make([]result, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(2, runtime.NumCPU()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				path := files[i]
				rel, _ := filepath.Rel(root, path)
				r := &results[i]
				r.rel = filepath.ToSlash(rel)
				src, err := os.ReadFile(path)
				if err != nil {
					r.parseError = err
					continue
				}
				want, ok := goASTOutline(src)
				if !ok {
					r.skipped = true
					continue
				}
				o, err := parseDiff(lang, src)
				if err != nil {
					r.parseError = err
					continue
				}
				r.want, r.got = want, goZumbaOutline(o)
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()

	var compared, agreed, skipped, entries, entriesAgreed int
	for _, r := range results {
		if r.skipped {
			skipped++
			continue
		}
		if r.parseError != nil {
			t.Errorf("%s: %v", r.rel, r.parseError)
			continue
		}
		compared++
		entries += len(r.want)
		entriesAgreed += countCommon(r.want, r.got)
		diff := gocmp.Diff(r.want, r.got)
		if diff == "" {
			agreed++
			continue
		}
		if _, ok := goDiffExceptions[r.rel]; ok {
			continue
		}
		t.Errorf("Outline(%q) differs from go/ast (-goast +zumba):\n%s", r.rel, diff)
	}
	for rel := range goDiffExceptions {
		found := false
		for _, r := range results {
			if r.rel == rel && !r.skipped {
				found = true
			}
		}
		if !found {
			t.Errorf("exception %s names no compared file", rel)
		}
	}
	t.Logf("go differential: %d/%d files agree (%.2f%%), %d/%d go/ast entries found, %d files skipped (go/parser rejects them), %d exceptions, %v",
		agreed, compared, 100*float64(agreed)/float64(max(compared, 1)),
		entriesAgreed, entries, skipped, len(goDiffExceptions), time.Since(start).Round(time.Millisecond))
}

// goASTOutline is the outline SPEC.md asks for, computed with go/ast: the
// package-level funcs, methods (Recv.Name), types, interface methods and
// constants, without the blank identifier. ok is false when go/parser
// rejects the file.
func goASTOutline(src []byte) (entries []goEntry, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution|parser.ParseComments)
	if err != nil {
		return nil, false
	}
	line := func(p token.Pos) int { return fset.Position(p).Line }
	// extent is the lines of the node being added, from its doc comment.
	var extent [2]int
	setExtent := func(doc *ast.CommentGroup, n ast.Node) {
		extent = [2]int{line(n.Pos()), line(n.End())}
		if doc != nil {
			extent[0] = line(doc.Pos())
		}
	}
	add := func(id *ast.Ident, kind, name, container string) {
		if id.Name != "_" {
			entries = append(entries, goEntry{line(id.Pos()), kind, name, container, extent[0], extent[1]})
		}
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			setExtent(d.Doc, d)
			if d.Recv == nil {
				add(d.Name, "function", d.Name.Name, "")
				continue
			}
			if len(d.Recv.List) == 1 {
				if recv := receiverName(d.Recv.List[0].Type); recv != "" {
					add(d.Name, "method", recv+"."+d.Name.Name, "")
				}
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if d.Lparen.IsValid() {
						setExtent(s.Doc, s)
					} else {
						setExtent(d.Doc, d)
					}
					if s.Assign.IsValid() {
						add(s.Name, "type", s.Name.Name, "")
						continue
					}
					switch typ := s.Type.(type) {
					case *ast.StructType:
						add(s.Name, "struct", s.Name.Name, "")
					case *ast.InterfaceType:
						add(s.Name, "interface", s.Name.Name, "")
						if s.Name.Name == "_" {
							continue
						}
						for _, m := range typ.Methods.List {
							if _, isFunc := m.Type.(*ast.FuncType); !isFunc {
								continue
							}
							setExtent(m.Doc, m)
							for _, n := range m.Names {
								add(n, "method", n.Name, s.Name.Name)
							}
						}
					default:
						add(s.Name, "type", s.Name.Name, "")
					}
				case *ast.ValueSpec:
					if d.Lparen.IsValid() {
						setExtent(s.Doc, s)
					} else {
						setExtent(d.Doc, d)
					}
					if d.Tok == token.CONST {
						for _, n := range s.Names {
							add(n, "const", n.Name, "")
						}
					}
				}
			}
		}
	}
	sortGoEntries(entries)
	return entries, true
}

// receiverName strips *, parentheses and type arguments from a receiver
// type: (*List[K, V]) is List.
func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

func goZumbaOutline(o *Outline) []goEntry {
	var entries []goEntry
	for _, s := range withParents(o) {
		entries = append(entries, goEntry{s.Line, s.Kind.String(), s.Name, s.parent, s.Start, s.End})
	}
	sortGoEntries(entries)
	return entries
}

func sortGoEntries(es []goEntry) {
	slices.SortFunc(es, func(a, b goEntry) int {
		return cmp.Or(
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Kind, b.Kind),
			cmp.Compare(a.Name, b.Name),
			cmp.Compare(a.Container, b.Container),
			cmp.Compare(a.Start, b.Start),
			cmp.Compare(a.End, b.End),
		)
	})
}

// countCommon counts the entries of want also in got, each entry of got
// counted once; the Go and Rust differentials share it.
func countCommon[T comparable](want, got []T) int {
	have := map[T]int{}
	for _, e := range got {
		have[e]++
	}
	n := 0
	for _, e := range want {
		if have[e] > 0 {
			have[e]--
			n++
		}
	}
	return n
}

// TestGoDifferentialCases compares zumba with go/ast on the Go corpus and
// on shapes gofmt would rewrite, so they cannot live in the corpus.
func TestGoDifferentialCases(t *testing.T) {
	cases := map[string]string{
		"parenthesized receivers": "package p\n\nfunc (s (Server)) A() {}\n\nfunc (s (*Server)) B() {}\n\nfunc ((*List[T])) C() {}\n\nfunc (m (Map[K, V])) D() {}\n",
		"name on the next line":   "package p\n\nfunc\nSplit() {}\n\ntype\nT struct{}\n\nconst\nC = 1\n",
		"generic alias of struct": "package p\n\ntype A[T any] = struct{ x T }\n\ntype B[T any] = interface{ M() }\n",
		"parenthesized types":     "package p\n\ntype S (struct{})\n\ntype I (interface{ M() })\n",
		"one-line declarations":   "package p; const A, B = 1, 2; type T struct{}; func (T) M() {}; func F() {}\n",
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "go", "*.go"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases[filepath.Base(f)] = string(src)
	}
	lang := grammar.ByName("go")
	for name, src := range cases {
		want, ok := goASTOutline([]byte(src))
		if !ok {
			t.Errorf("%s: go/parser rejects the case", name)
			continue
		}
		o, err := Parse(context.Background(), lang, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff(want, goZumbaOutline(o)); diff != "" {
			t.Errorf("Outline(%s) differs from go/ast (-goast +zumba):\n%s", name, diff)
		}
	}
}
