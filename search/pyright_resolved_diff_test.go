package search

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/search/internal/lsptest"
	"github.com/zumba-dev/zumba/search/resolve"
	"github.com/zumba-dev/zumba/search/resolve/pyres"
)

// The Python resolver's differential: the uses of definitions that
// package pyres finds against pyright's references (pyright-langserver
// over stdio), counted per use (file:line:column), on the json, http
// and asyncio packages of the machine's Python standard library, copied
// into a project of their own so that both read the same files. It
// needs pyright (npm, pinned in .ci/run), so it runs only when asked:
//
//	ZUMBA_PYRIGHT_DIFF=1 ZUMBA_PYRIGHT_BIN=…/pyright-langserver go test -count=1 -run TestPyrightResolved -v ./search
//
// ZUMBA_PYRIGHT_DEFS is how many definitions to sample (default 200).
var pyrightPackages = []string{"json", "http", "asyncio"}

// Goals of issue 45 for Python.
const (
	pyPrecisionGoal = 95.0
	pyRecallGoal    = 98.0
)

func TestPyrightResolvedDifferential(t *testing.T) {
	if os.Getenv("ZUMBA_PYRIGHT_DIFF") == "" {
		t.Skip("set ZUMBA_PYRIGHT_DIFF=1 and ZUMBA_PYRIGHT_BIN to compare with pyright")
	}
	bin := os.Getenv("ZUMBA_PYRIGHT_BIN")
	if bin == "" {
		t.Skip("set ZUMBA_PYRIGHT_BIN to pyright-langserver")
	}
	ws := pythonStdlibProject(t)
	pyrightTypeshed(t, bin, ws)
	defs := pythonDefs(t, ws)
	n := 200
	if v, err := strconv.Atoi(os.Getenv("ZUMBA_PYRIGHT_DEFS")); err == nil && v > 0 {
		n = v
	}
	picked := defs
	if len(defs) > n {
		picked = make([]pyDef, n)
		for i := range picked {
			picked[i] = defs[i*len(defs)/n]
		}
	}
	var paths []string
	filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(ws, p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	src := pyres.NewFiles(paths, func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(ws, p)) })
	r := pyres.NewResolver(src)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	ls, err := lsptest.Start(ctx, ws, os.Environ(), bin, "--stdio")
	if err != nil {
		t.Skipf("cannot start pyright: %v", err)
	}
	defer ls.Close()
	// pyright answers nothing until it has read the project.
	for try := 0; ; try++ {
		refs, err := pyrightRefs(ctx, ls, ws, defs[0])
		if err != nil {
			t.Fatalf("pyright references: %v", err)
		}
		if len(refs) > 0 {
			break
		}
		if try == 120 {
			t.Fatalf("pyright gives no references of %s:%d after 2 minutes", defs[0].path, defs[0].line)
		}
		time.Sleep(time.Second)
	}
	// pyright leaves out code it finds unreachable on this platform (a
	// module that raises ImportError but on Windows): such a file,
	// where pyright gives its first definition no reference at all,
	// not even its declaration, is left out on both sides.
	unreachable := map[string]bool{}
	for i, d := range defs {
		if i > 0 && defs[i-1].path == d.path {
			continue
		}
		refs, err := pyrightRefs(ctx, ls, ws, d)
		if err != nil {
			t.Fatalf("pyright references: %v", err)
		}
		if len(refs) == 0 {
			unreachable[d.path] = true
		}
	}
	var tally resolveTally
	var notes []string
	for _, d := range picked {
		if unreachable[d.path] {
			continue
		}
		target, ok := r.TargetAt(d.path, int32(d.line), d.name)
		if !ok {
			t.Errorf("no target at %s:%d %s", d.path, d.line, d.name)
			continue
		}
		want, err := pyrightRefs(ctx, ls, ws, d)
		if err != nil {
			t.Fatalf("pyright references %s: %v", d.name, err)
		}
		got := pyresUses(ws, paths, r, target)
		for key := range got {
			if unreachable[key[:strings.IndexByte(key, ':')]] {
				delete(got, key)
			}
		}
		tally.defs++
		tally.gopls += len(want)
		label := target.Recv + "." + d.name
		for key, c := range got {
			switch c {
			case resolve.Unresolved:
				tally.unresolved++
				if want[key] {
					tally.unresolvedAgree++
				} else if os.Getenv("ZUMBA_RESOLVE_NOISE") != "" {
					notes = append(notes, fmt.Sprintf("unresolved, not pyright's %s at %s", label, key))
				}
			default:
				tally.listed++
				if want[key] {
					tally.listedAgree++
				} else {
					notes = append(notes, fmt.Sprintf("extra %s at %s", label, key))
				}
			}
		}
		for key := range want {
			if _, ok := got[key]; !ok {
				notes = append(notes, fmt.Sprintf("missed %s at %s", label, key))
			}
		}
	}
	sort.Strings(notes)
	for i, n := range notes {
		if i == 300 {
			t.Logf("  … %d more", len(notes)-i)
			break
		}
		t.Logf("  %s", n)
	}
	var left []string
	for p := range unreachable {
		left = append(left, p)
	}
	sort.Strings(left)
	t.Logf("left out, unreachable to pyright: %s", strings.Join(left, ", "))
	t.Logf("pyright on %s: %s", strings.Join(pyrightPackages, ", "), strings.ReplaceAll(tally.String(), "gopls", "pyright"))
	if p := tally.precision(); p < pyPrecisionGoal {
		t.Errorf("precision %.1f%%; the goal is %.0f%%", p, pyPrecisionGoal)
	}
	if rc := tally.recall(); rc < pyRecallGoal {
		t.Errorf("recall %.1f%%; the goal is %.0f%%", rc, pyRecallGoal)
	}
}

// pythonStdlibProject copies the packages of the machine's Python
// standard library into a temporary project.
func pythonStdlibProject(t *testing.T) string {
	out, err := exec.Command("python3", "-c", `import sysconfig;print(sysconfig.get_paths()["stdlib"])`).Output()
	if err != nil {
		t.Skipf("no python3: %v", err)
	}
	stdlib := strings.TrimSpace(string(out))
	ws := t.TempDir()
	for _, pkg := range pyrightPackages {
		err := filepath.WalkDir(filepath.Join(stdlib, pkg), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "__pycache__" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".py") {
				return nil
			}
			rel, _ := filepath.Rel(stdlib, p)
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			dst := filepath.Join(ws, rel)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			return os.WriteFile(dst, data, 0o644)
		})
		if err != nil {
			t.Skipf("copy %s: %v", pkg, err)
		}
	}
	return ws
}

// pyrightTypeshed makes pyright read the project's json, http and
// asyncio as the modules of those names: pyright resolves a standard
// library module's name to its typeshed stub before the project's
// files, so that `from http import HTTPStatus` in http/server.py would
// mean the stub's class, not the project's. The project's
// pyrightconfig.json points pyright at a copy of its bundled typeshed
// without those packages.
func pyrightTypeshed(t *testing.T, bin, ws string) {
	js, err := filepath.EvalSymlinks(bin)
	if err != nil {
		t.Skipf("pyright: %v", err)
	}
	bundled := filepath.Join(filepath.Dir(js), "dist", "typeshed-fallback")
	ts := t.TempDir()
	err = filepath.WalkDir(bundled, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(bundled, p)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if len(parts) >= 2 && parts[0] == "stdlib" {
			if slices.Contains(pyrightPackages, strings.TrimSuffix(parts[1], ".pyi")) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		}
		dst := filepath.Join(ts, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if rel == filepath.Join("stdlib", "VERSIONS") {
			var keep []string
			for _, l := range strings.Split(string(data), "\n") {
				mod, _, _ := strings.Cut(l, ":")
				if !slices.Contains(pyrightPackages, strings.Split(mod, ".")[0]) {
					keep = append(keep, l)
				}
			}
			data = []byte(strings.Join(keep, "\n"))
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Skipf("pyright's typeshed: %v", err)
	}
	cfg, _ := json.Marshal(map[string]any{"typeshedPath": ts})
	if err := os.WriteFile(filepath.Join(ws, "pyrightconfig.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
}

// pyDef is a function, method or class of the project, where its name
// is (1-based line, byte column).
type pyDef struct {
	path, name string
	line, col  int
}

// pythonDefs lists the functions, methods and classes at module level
// and in classes, as Python's ast reads them, in path and line order.
func pythonDefs(t *testing.T, ws string) []pyDef {
	const script = `
import ast, os, sys, json
root = sys.argv[1]
out = []
for dp, dns, fns in os.walk(root):
    dns.sort()
    for fn in sorted(fns):
        if not fn.endswith('.py'):
            continue
        p = os.path.join(dp, fn)
        rel = os.path.relpath(p, root)
        src = open(p, 'rb').read()
        lines = src.split(b'\n')
        def visit(body):
            for n in body:
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    line = lines[n.lineno - 1]
                    col = line.find(n.name.encode(), n.col_offset)
                    out.append([rel, n.name, n.lineno, col + 1])
                    if isinstance(n, ast.ClassDef):
                        visit(n.body)
        visit(ast.parse(src).body)
print(json.dumps(out))
`
	data, err := exec.Command("python3", "-c", script, ws).Output()
	if err != nil {
		t.Skipf("python3 ast: %v", err)
	}
	var rows [][]any
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	var defs []pyDef
	for _, r := range rows {
		defs = append(defs, pyDef{path: r[0].(string), name: r[1].(string), line: int(r[2].(float64)), col: int(r[3].(float64))})
	}
	sort.SliceStable(defs, func(i, j int) bool { return defs[i].path < defs[j].path })
	return defs
}

// pyrightRefs is pyright's references of d inside the project, by
// "path:line:col" (byte columns).
func pyrightRefs(ctx context.Context, ls *lsptest.Client, ws string, d pyDef) (map[string]bool, error) {
	file := filepath.Join(ws, d.path)
	lineText := fileLine(file, d.line)
	char := utf16Col(lineText, d.col)
	refs, err := ls.Refs(file, d.line-1, char)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, r := range refs {
		c := byteCol(fileLine(filepath.Join(ws, filepath.FromSlash(r.Path)), r.Line), r.Char)
		out[fmt.Sprintf("%s:%d:%d", r.Path, r.Line, c)] = true
	}
	return out, nil
}

// fileLine is the 1-based line n of the file at p.
func fileLine(p string, n int) string {
	data, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	lines := bytes.Split(data, []byte("\n"))
	if n < 1 || n > len(lines) {
		return ""
	}
	return string(lines[n-1])
}

// utf16Col is the 0-based UTF-16 offset of the 1-based byte column col.
func utf16Col(line string, col int) int {
	n := 0
	for i, r := range line {
		if i >= col-1 {
			break
		}
		n += len(utf16.Encode([]rune{r}))
	}
	return n
}

// byteCol is the 1-based byte column of the 0-based UTF-16 offset c.
func byteCol(line string, c int) int {
	n := 0
	for i, r := range line {
		if n >= c {
			return i + 1
		}
		n += len(utf16.Encode([]rune{r}))
		_ = utf8.RuneLen(r)
	}
	return len(line) + 1
}

// pyresUses is every use of target the resolver finds in the Python
// files of paths, by "path:line:col", with its class.
func pyresUses(ws string, paths []string, r *pyres.Resolver, target resolve.Target) map[string]resolve.Class {
	out := map[string]resolve.Class{}
	for _, p := range paths {
		if !pyres.IsPython(p) {
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
