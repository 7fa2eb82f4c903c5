package mcpserver

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/outline"
)

// goExtent is one function or method declaration with a body, as go/ast
// sees it: the line of its name, and its extent from the doc comment (or
// the func keyword) to the closing brace.
type goExtent struct {
	name             string
	line, start, end int
}

// goExtents lists the declarations of src; ok is false when go/parser
// rejects the file.
func goExtents(src []byte) (out []goExtent, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	for _, decl := range f.Decls {
		fd, isFunc := decl.(*ast.FuncDecl)
		// func _() is no outline entry (SPEC: not the blank identifier).
		if !isFunc || fd.Body == nil || fd.Name.Name == "_" {
			continue
		}
		first := fd.Pos()
		if fd.Doc != nil {
			first = fd.Doc.Pos()
		}
		out = append(out, goExtent{
			name:  fd.Name.Name,
			line:  fset.Position(fd.Name.Pos()).Line,
			start: fset.Position(first).Line,
			end:   fset.Position(fd.End()).Line,
		})
	}
	return out, true
}

var headerRE = regexp.MustCompile(`^(.+):(\d+)-(\d+) (\S+) (.*)$`)

// readHeader is the first line of a read_symbol answer, parsed.
func readHeader(answer string) (path string, start, end int, kind, name string, ok bool) {
	first, _, _ := strings.Cut(answer, "\n")
	m := headerRE.FindStringSubmatch(first)
	if m == nil {
		return "", 0, 0, "", "", false
	}
	start, _ = strconv.Atoi(m[2])
	end, _ = strconv.Atoi(m[3])
	return m[1], start, end, m[4], m[5], true
}

// TestReadSymbolGoDifferential reads, by PATH:LINE of its name, every
// function and method declaration with a body in the Go distribution (or
// $ZUMBA_GO_DIFF), and compares the extent in read_symbol's header with
// go/ast's: from the doc comment to the closing brace. Each file is read
// and parsed once; the answer is the tool's own (answerAt).
func TestReadSymbolGoDifferential(t *testing.T) {
	if os.Getenv("ZUMBA_READDIFF") == "" {
		t.Skip("set ZUMBA_READDIFF=1 to compare read_symbol with go/ast over the Go distribution (.ci/run does)")
	}
	root := filepath.Join(fixture.GOROOT(), "src")
	if dir := os.Getenv("ZUMBA_GO_DIFF"); dir != "" {
		root = dir
	}
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no Go sources: %v", err)
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	lang := grammar.ByName("go")
	start := time.Now()
	type result struct {
		decls, agreed int
		skipped       bool
		diffs         []string
	}
	results := make([]result, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(2, runtime.NumCPU()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r := &results[i]
				rel, _ := filepath.Rel(root, files[i])
				rel = filepath.ToSlash(rel)
				src, err := os.ReadFile(files[i])
				if err != nil {
					r.diffs = append(r.diffs, err.Error())
					continue
				}
				want, ok := goExtents(src)
				if !ok {
					r.skipped = true
					continue
				}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				o, err := outline.Parse(ctx, lang, src)
				cancel()
				if err != nil {
					r.diffs = append(r.diffs, fmt.Sprintf("%s: %v", rel, err))
					continue
				}
				defs := o.Definitions(rel)
				for _, w := range want {
					r.decls++
					answer, isErr := answerAt(rel, src, defs, w.line, readOpts{budget: readBudget})
					_, s, e, _, _, ok := readHeader(answer)
					if !isErr && ok && s == w.start && e == w.end {
						r.agreed++
						continue
					}
					first, _, _ := strings.Cut(answer, "\n")
					r.diffs = append(r.diffs, fmt.Sprintf("%s:%d %s: go/ast %d-%d, read_symbol %q", rel, w.line, w.name, w.start, w.end, first))
				}
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	var decls, agreed, skipped int
	var diffs []string
	for _, r := range results {
		if r.skipped {
			skipped++
		}
		decls += r.decls
		agreed += r.agreed
		diffs = append(diffs, r.diffs...)
	}
	t.Logf("read_symbol Go differential: %d/%d declarations with a body agree with go/ast's extent (%.3f%%), %d files (%d skipped: go/parser rejects them), %v",
		agreed, decls, 100*float64(agreed)/float64(max(decls, 1)), len(files), skipped, time.Since(start).Round(time.Millisecond))
	for i, d := range diffs {
		if i == 30 {
			t.Errorf("… %d more disagreements", len(diffs)-i)
			break
		}
		t.Errorf("%s", d)
	}
}

// pyExtent is one class, function or method as the ast module sees it,
// through testdata/difftest/python_extents.py.
type pyExtent struct {
	name             string
	line, start, end int
}

// TestReadSymbolPythonDifferential reads, by PATH:LINE of its name, every
// class, function and method of the Python standard library (or
// $ZUMBA_PYDIFF_DIR), and compares the extent in read_symbol's header with
// the ast module's: the first decorator (and the comment lines directly
// above) to end_lineno. Files where tree-sitter finds a syntax error are
// counted apart.
func TestReadSymbolPythonDifferential(t *testing.T) {
	if os.Getenv("ZUMBA_READDIFF") == "" {
		t.Skip("set ZUMBA_READDIFF=1 to compare read_symbol with Python's ast over its standard library (.ci/run does)")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	root := os.Getenv("ZUMBA_PYDIFF_DIR")
	if root == "" {
		out, err := exec.Command(py, "-c", `import sysconfig;print(sysconfig.get_paths()["stdlib"])`).Output()
		if err != nil {
			t.Skipf("python3 cannot say where its standard library is: %v", err)
		}
		root = strings.TrimSpace(string(out))
	}
	var files []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (d.Name() == "site-packages" || d.Name() == "dist-packages" || d.Name() == "__pycache__") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && (strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi")) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skipf("no Python files under %s", root)
	}
	start := time.Now()
	cmd := exec.Command(py, filepath.Join("..", "testdata", "difftest", "python_extents.py"))
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python_extents.py: %v: %s", err, stderr.String())
	}
	want := map[string][]pyExtent{}
	var cur string
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Split(l, "\t")
		switch {
		case l == "" || f[0] == "E":
		case f[0] == "F" && len(f) == 2:
			cur = f[1]
			want[cur] = []pyExtent{}
		case len(f) == 4:
			var e pyExtent
			e.line, _ = strconv.Atoi(f[0])
			e.start, _ = strconv.Atoi(f[1])
			e.end, _ = strconv.Atoi(f[2])
			e.name = f[3]
			want[cur] = append(want[cur], e)
		default:
			t.Fatalf("python_extents.py: bad line %q", l)
		}
	}
	lang := grammar.ByName("python")
	type result struct {
		defs, agreed int
		partial      bool
		diffs        []string
	}
	results := make([]result, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(2, runtime.NumCPU()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r := &results[i]
				ws, ok := want[files[i]]
				if !ok {
					continue // ast cannot parse it
				}
				rel, _ := filepath.Rel(root, files[i])
				rel = filepath.ToSlash(rel)
				src, err := os.ReadFile(files[i])
				if err != nil {
					r.diffs = append(r.diffs, err.Error())
					continue
				}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				o, err := outline.Parse(ctx, lang, src)
				cancel()
				if err != nil {
					r.diffs = append(r.diffs, fmt.Sprintf("%s: %v", rel, err))
					continue
				}
				r.partial = o.Partial
				defs := o.Definitions(rel)
				for _, w := range ws {
					r.defs++
					answer, isErr := answerAt(rel, src, defs, w.line, readOpts{budget: readBudget})
					_, s, e, _, _, ok := readHeader(answer)
					if !isErr && ok && s == w.start && e == w.end {
						r.agreed++
						continue
					}
					first, _, _ := strings.Cut(answer, "\n")
					r.diffs = append(r.diffs, fmt.Sprintf("%s:%d %s: ast %d-%d, read_symbol %q", rel, w.line, w.name, w.start, w.end, first))
				}
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	var defs, agreed, partialDefs, partialAgreed int
	var diffs []string
	for _, r := range results {
		if r.partial {
			partialDefs += r.defs
			partialAgreed += r.agreed
			continue
		}
		defs += r.defs
		agreed += r.agreed
		diffs = append(diffs, r.diffs...)
	}
	if dump := os.Getenv("ZUMBA_READDIFF_DUMP"); dump != "" {
		if err := os.WriteFile(dump, []byte(strings.Join(diffs, "\n")+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
	rate := float64(agreed) / float64(max(defs, 1))
	t.Logf("read_symbol Python differential: %d/%d definitions agree with ast's extent (%.3f%%) in files tree-sitter parses without error; %d/%d in files with syntax errors; %d files, %v",
		agreed, defs, 100*rate, partialAgreed, partialDefs, len(files), time.Since(start).Round(time.Millisecond))
	for i, d := range diffs {
		if i == 30 {
			t.Logf("… %d more disagreements", len(diffs)-i)
			break
		}
		t.Logf("%s", d)
	}
	if rate < 0.999 {
		t.Errorf("agreement %.4f%%; want at least 99.9%%", 100*rate)
	}
}
