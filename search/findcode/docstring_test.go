package findcode

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// docstringAST prints, for every function and class of each file named
// on its command line, the file, the line of its name, its last line and
// the lines of its docstring (0 0 for none), as Python's ast sees them.
const docstringAST = `
import ast, sys
for path in sys.argv[1:]:
    try:
        tree = ast.parse(open(path, encoding="utf-8").read())
    except (SyntaxError, UnicodeDecodeError, ValueError):
        continue
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        first = node.body[0]
        lo = hi = 0
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            lo, hi = first.lineno, first.end_lineno
        print(path, node.lineno, node.end_lineno, lo, hi, sep="\t")
`

// TestDocstringAST: find_code's docstring of every function and class of
// some of Python's standard library (asyncio, email, json, logging,
// unittest: where long signatures span lines) is the one Python's ast
// finds, but for a docstring on the header's own line (`def f(): "doc"`),
// which find_code leaves to the body.
func TestDocstringAST(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the differential test against Python's ast module needs it")
	}
	out, err := exec.Command(py, "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		t.Skipf("python3 cannot say where its standard library is: %v", err)
	}
	stdlib := strings.TrimSpace(string(out))
	var files []string
	for _, dir := range []string{"asyncio", "email", "json", "logging", "unittest"} {
		m, _ := filepath.Glob(filepath.Join(stdlib, dir, "*.py"))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skipf("no Python files under %s", stdlib)
	}
	out, err = exec.Command(py, append([]string{"-c", docstringAST}, files...)...).Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	texts := map[string][][]byte{}
	var defs, docs, multi, sameLine, bad int
	for _, row := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var path string
		var name, end, lo, hi int
		if _, err := fmt.Sscanf(strings.ReplaceAll(row, "\t", " "), "%s %d %d %d %d", &path, &name, &end, &lo, &hi); err != nil {
			t.Fatalf("%q: %v", row, err)
		}
		ls, ok := texts[path]
		if !ok {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ls = bytes.SplitAfter(data, []byte("\n"))
			texts[path] = ls
		}
		line := func(n int) []byte {
			if n < 1 || n > len(ls) {
				return nil
			}
			return ls[n-1]
		}
		defs++
		if lo > 0 {
			docs++
		}
		if lo == name {
			sameLine++
			continue
		}
		if headerEnd(line, name, end) > name {
			multi++
		}
		got := docstring(line, name, end)
		if got.from != lo || got.to != hi {
			if bad++; bad <= 10 {
				t.Errorf("%s:%d: docstring lines %d-%d; ast: %d-%d", filepath.Base(path), name, got.from, got.to, lo, hi)
			}
		}
	}
	t.Logf("%d definitions in %d files, %d with a docstring (%d on the header's line, not compared), %d headers over several lines; %d differ",
		defs, len(texts), docs, sameLine, multi, bad)
	if multi == 0 || docs < 100 {
		t.Errorf("too few cases: %d docstrings, %d headers over several lines", docs, multi)
	}
}
