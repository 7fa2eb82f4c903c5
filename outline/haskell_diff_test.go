package outline

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

// TestHaskellDifferential outlines the .hs files under
// ZUMBA_HASKELL_DIFF_DIR (scripts/haskell-diff) and compares (line, kind,
// name, parent) with what GHC's own parser gives, through
// testdata/difftest/HsOutline.hs built with the ghc package. Both sides
// list modules, classes with their method signatures and defaults,
// instances (zumba's `Show for T` is GHC's `Show T`), types, families and
// their instances, constructors and record fields, and functions: a
// signature and the equations of its name are one function, at the first
// line of either. Functions local to a function (where, let) are not
// compared: GHC's parser keeps them inside expressions. Recall counts
// GHC's entries zumba lists with the same line, kind and name; nesting
// counts those that also have the same parent.
func TestHaskellDifferential(t *testing.T) {
	root := os.Getenv("ZUMBA_HASKELL_DIFF_DIR")
	if root == "" {
		t.Skip("set ZUMBA_HASKELL_DIFF_DIR to a tree of .hs files (scripts/haskell-diff) to compare with GHC's parser")
	}
	ghc, err := exec.LookPath("ghc")
	if err != nil {
		t.Skip("ghc not found: the differential test against GHC's parser needs it")
	}
	var files []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".hs") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want, rejected := haskellOracle(t, ghc, files)
	var compared []string
	for _, p := range files {
		if !rejected[p] {
			compared = append(compared, p)
		}
	}
	f := oracleDiff{lang: "haskell", oracle: "ghc", want: want, extra: true, ours: func(o *Outline) []javaDef {
		return haskellEntries(o.Entries, nil)
	}}.compare(t, compared)
	t.Logf("haskell differential: %d files (%d GHC rejects, %d with tree-sitter syntax errors); %d entries from GHC, %d from zumba",
		len(files), len(rejected), f.partial, f.total, f.ours)
	f.report(t, "ZUMBA_HASKELL_DIFF_DUMP", 0, 0.99)
}

// haskellOracle builds HsOutline with ghc and runs it over files: the
// definitions of each file, and the files GHC rejects.
func haskellOracle(t *testing.T, ghc string, files []string) (map[string][]javaDef, map[string]bool) {
	src, err := filepath.Abs("../testdata/difftest/HsOutline.hs")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "hsoutline")
	build := exec.Command(ghc, "-package", "ghc", "-O0", "-outputdir", dir, "-o", bin, src)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the GHC oracle: %v\n%s", err, out)
	}
	libdir, err := exec.Command(ghc, "--print-libdir").Output()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{strings.TrimSpace(string(libdir))}, files...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("GHC oracle: %v", err)
	}
	want := map[string][]javaDef{}
	rejected := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) == 3 && f[1] == "!" {
			rejected[f[0]] = true
			continue
		}
		if len(f) != 5 {
			t.Fatalf("oracle line %q", sc.Text())
		}
		line, _ := strconv.Atoi(f[1])
		want[f[0]] = append(want[f[0]], javaDef{line, f[2], strings.Join(strings.Fields(f[3]), " "), strings.Join(strings.Fields(f[4]), " ")})
	}
	return want, rejected
}

// haskellEntries flattens zumba's outline as the oracle lists it: methods
// as functions, "Show for T" as "Show T", and nothing nested in a
// function but a constructor's fields (a constructor is a function in a
// type).
func haskellEntries(es []*Entry, parent *Entry) []javaDef {
	var out []javaDef
	for _, e := range es {
		kind := e.Kind.String()
		if kind == "method" {
			kind = "function"
		}
		name, parentName := haskellName(e.Name), ""
		if parent != nil {
			parentName = haskellName(parent.Name)
		}
		out = append(out, javaDef{e.Line, kind, name, parentName})
		fn := e.Kind == grammar.Function || e.Kind == grammar.Method
		if !fn || parent != nil && parent.Kind == grammar.Type {
			out = append(out, haskellEntries(e.Children, e)...)
		}
	}
	return out
}

func haskellName(s string) string {
	if class, typ, ok := strings.Cut(s, " for "); ok {
		return class + " " + typ
	}
	return s
}
