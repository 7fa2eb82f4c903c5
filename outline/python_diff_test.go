package outline

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

// pyDef is one outline entry as both sides see it.
type pyDef struct {
	line               int
	kind, name, parent string
}

func (d pyDef) String() string {
	return fmt.Sprintf("%d %s %s (in %q)", d.line, d.kind, d.name, d.parent)
}

// pyMismatch is an entry one side has and the other has not.
type pyMismatch struct {
	path    string
	def     pyDef
	missing bool // ast has it, zumba has not; otherwise zumba's extra
	partial bool // tree-sitter found syntax errors in the file
	src     []byte
}

// pyExceptions are the known classes of disagreement with the ast module,
// each explained. A mismatch falls in the first class that claims it; one
// that no class claims fails the test, so a new kind of disagreement is
// looked at rather than absorbed by the thresholds.
var pyExceptions = []struct {
	name, why string
	claims    func(m pyMismatch) bool
}{
	{
		name: "syntax tree-sitter cannot parse",
		// In CPython 3.11's library: test/test_compile.py continues a
		// bracketed expression on lines indented less than its block
		// (test_weird_attribute_position_regressions), which the grammar's
		// indentation scanner reads as a dedent, so the methods of the two
		// classes after it come out as top-level functions. The other two
		// files with errors, badsyntax_3131.py (ast rejects it too) and
		// badsyntax_future8.py, disagree on nothing.
		why: "the bundled tree-sitter-python (2024) finds a syntax error in the file " +
			"(a deliberately odd test file, or syntax newer than the grammar); " +
			"definitions near the error can be lost or placed at the wrong level",
		claims: func(m pyMismatch) bool { return m.partial },
	},
}

// TestPythonDifferential outlines every .py file of the Python standard
// library and compares (line, kind, name, parent) with what the ast module
// gives, through testdata/difftest/python_outline.py.
func TestPythonDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("the differential run over the Python standard library is skipped in -short mode")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the differential test against Python's ast module needs it")
	}
	// ZUMBA_PYDIFF_DIR runs the same comparison over another tree, .pyi
	// stubs included (typeshed, a project of one's own).
	root, exts := os.Getenv("ZUMBA_PYDIFF_DIR"), []string{".py", ".pyi"}
	if root == "" {
		out, err := exec.Command(py, "-c", `import sysconfig;print(sysconfig.get_paths()["stdlib"])`).Output()
		if err != nil {
			t.Skipf("python3 cannot say where its standard library is: %v", err)
		}
		root, exts = strings.TrimSpace(string(out)), []string{".py"}
	}
	var files []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// Installed third-party packages are not the standard library.
		if d.IsDir() && (d.Name() == "site-packages" || d.Name() == "dist-packages" || d.Name() == "__pycache__") && p != root {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && slices.Contains(exts, filepath.Ext(p)) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk %s: %v", root, err)
	}
	if len(files) == 0 {
		t.Skipf("no Python files under %s", root)
	}

	var (
		astDefs map[string][]pyDef
		astErrs map[string]string
		astErr  error
		done    = make(chan struct{})
	)
	go func() {
		defer close(done)
		astDefs, astErrs, astErr = runPythonAST(py, files)
	}()
	got, partial, srcs := outlinePythonFiles(t, files)
	<-done
	if astErr != nil {
		t.Fatal(astErr)
	}

	var tp, fp, fn int
	var mismatches []pyMismatch
	for _, p := range files {
		if _, bad := astErrs[p]; bad {
			continue
		}
		want := map[pyDef]int{}
		for _, d := range astDefs[p] {
			want[d]++
		}
		for _, d := range got[p] {
			if want[d] > 0 {
				want[d]--
				tp++
				continue
			}
			fp++
			mismatches = append(mismatches, pyMismatch{path: p, def: d, partial: partial[p], src: srcs[p]})
		}
		for d, n := range want {
			for range n {
				fn++
				mismatches = append(mismatches, pyMismatch{path: p, def: d, missing: true, partial: partial[p], src: srcs[p]})
			}
		}
	}
	sort.Slice(mismatches, func(i, j int) bool {
		a, b := mismatches[i], mismatches[j]
		if a.path != b.path {
			return a.path < b.path
		}
		return a.def.line < b.def.line
	})

	recall := float64(tp) / float64(tp+fn)
	precision := float64(tp) / float64(tp+fp)
	// Files ast rejects (Python 2 samples of lib2to3, bad encodings) are
	// left out: there is nothing to compare with.
	t.Logf("python differential: %d files (%d ast cannot parse, %d with tree-sitter syntax errors), %d entries from ast, %d from zumba",
		len(files), len(astErrs), countTrue(partial), tp+fn, tp+fp)
	t.Logf("recall %.4f%% (%d missed), precision %.4f%% (%d extra)", 100*recall, fn, 100*precision, fp)
	var partialFiles []string
	for p, bad := range partial {
		if bad {
			partialFiles = append(partialFiles, strings.TrimPrefix(p, root+string(filepath.Separator)))
		}
	}
	sort.Strings(partialFiles)
	t.Logf("files with tree-sitter syntax errors: %s", strings.Join(partialFiles, ", "))

	counts := make([]int, len(pyExceptions))
	var unclaimed []pyMismatch
	for _, m := range mismatches {
		claimed := false
		for i, ex := range pyExceptions {
			if ex.claims(m) {
				counts[i]++
				claimed = true
				break
			}
		}
		if !claimed {
			unclaimed = append(unclaimed, m)
		}
	}
	for i, ex := range pyExceptions {
		t.Logf("exception %q: %d entries; %s", ex.name, counts[i], ex.why)
	}
	if dump := os.Getenv("ZUMBA_PYDIFF_DUMP"); dump != "" {
		var sb strings.Builder
		for _, m := range mismatches {
			fmt.Fprintf(&sb, "%s\t%s\tmissing=%v partial=%v\n", m.path, m.def, m.missing, m.partial)
		}
		if err := os.WriteFile(dump, []byte(sb.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
	for i, m := range unclaimed {
		if i == 20 {
			t.Errorf("… %d more unexplained disagreements", len(unclaimed)-i)
			break
		}
		side := "zumba has, ast has not"
		if m.missing {
			side = "ast has, zumba has not"
		}
		t.Errorf("unexplained disagreement, %s: %s:%s", side, m.path, m.def)
	}
	if recall < 0.995 || precision < 0.995 {
		t.Errorf("recall %.4f, precision %.4f; want both at least 0.995", recall, precision)
	}
}

func countTrue(m map[string]bool) int {
	n := 0
	for _, v := range m {
		if v {
			n++
		}
	}
	return n
}

// runPythonAST feeds the file list to the ast script and reads its answer.
func runPythonAST(py string, files []string) (map[string][]pyDef, map[string]string, error) {
	cmd := exec.Command(py, filepath.Join("..", "testdata", "difftest", "python_outline.py"))
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("python_outline.py: %v: %s", err, stderr.String())
	}
	defs := map[string][]pyDef{}
	errs := map[string]string{}
	var cur string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		switch {
		case f[0] == "F" && len(f) == 2:
			cur = f[1]
		case f[0] == "E" && len(f) >= 2:
			errs[f[1]] = strings.Join(f[2:], " ")
		case len(f) == 4:
			line, err := strconv.Atoi(f[0])
			if err != nil {
				return nil, nil, fmt.Errorf("python_outline.py: bad line %q", sc.Text())
			}
			defs[cur] = append(defs[cur], pyDef{line: line, kind: f[1], name: f[2], parent: f[3]})
		default:
			return nil, nil, fmt.Errorf("python_outline.py: bad line %q", sc.Text())
		}
	}
	return defs, errs, sc.Err()
}

// outlinePythonFiles outlines the files on every core.
func outlinePythonFiles(t *testing.T, files []string) (map[string][]pyDef, map[string]bool, map[string][]byte) {
	lang := grammar.ByName("python")
	var (
		mu      sync.Mutex
		got     = map[string][]pyDef{}
		partial = map[string]bool{}
		srcs    = map[string][]byte{}
		wg      sync.WaitGroup
		next    = make(chan string)
	)
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				src, err := os.ReadFile(p)
				if err != nil {
					t.Error(err)
					continue
				}
				o, err := parseDiff(lang, src)
				if err != nil {
					t.Errorf("outline %s: %v", p, err)
					continue
				}
				var defs []pyDef
				for _, s := range withParents(o) {
					defs = append(defs, pyDef{line: s.Line, kind: s.Kind.String(), name: s.Name, parent: s.parent})
				}
				mu.Lock()
				got[p], partial[p], srcs[p] = defs, o.Partial, src
				mu.Unlock()
			}
		}()
	}
	for _, p := range files {
		next <- p
	}
	close(next)
	wg.Wait()
	return got, partial, srcs
}
