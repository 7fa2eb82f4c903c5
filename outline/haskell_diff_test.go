package outline

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
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

	lang := grammar.ByName("haskell")
	var found, nested, total, extra, zumbaTotal, partialFiles int
	var missLog []string
	for _, p := range files {
		if rejected[p] {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		o, err := Parse(context.Background(), lang, src)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if o.Partial {
			partialFiles++
		}
		type key struct {
			line       int
			kind, name string
		}
		ours := map[key][]string{}
		for _, s := range haskellEntries(o.Entries, nil) {
			ours[key{s.line, s.kind, s.name}] = append(ours[key{s.line, s.kind, s.name}], s.parent)
			zumbaTotal++
		}
		for _, d := range want[p] {
			total++
			k := key{d.line, d.kind, d.name}
			parents := ours[k]
			if len(parents) == 0 {
				missLog = append(missLog, fmt.Sprintf("%s: ghc has, zumba has not: %s", p, d))
				continue
			}
			found++
			i := indexOf(parents, d.parent)
			if i < 0 {
				missLog = append(missLog, fmt.Sprintf("%s: %s; zumba in %q", p, d, parents[0]))
				i = 0
			} else {
				nested++
			}
			ours[k] = append(parents[:i], parents[i+1:]...)
		}
		for k, ps := range ours {
			for range ps {
				extra++
				missLog = append(missLog, fmt.Sprintf("%s: zumba has, ghc has not: %d %s %s", p, k.line, k.kind, k.name))
			}
		}
	}
	sort.Strings(missLog)
	recall := float64(found) / float64(max(total, 1))
	nesting := float64(nested) / float64(max(found, 1))
	precision := float64(zumbaTotal-extra) / float64(max(zumbaTotal, 1))
	t.Logf("haskell differential: %d files (%d GHC rejects, %d with tree-sitter syntax errors); %d entries from GHC, %d from zumba",
		len(files), len(rejected), partialFiles, total, zumbaTotal)
	t.Logf("recall %.4f%% (%d missed), nesting %.4f%% (%d of the found elsewhere), precision %.4f%% (%d extra)",
		100*recall, total-found, 100*nesting, found-nested, 100*precision, extra)
	if dump := os.Getenv("ZUMBA_HASKELL_DIFF_DUMP"); dump != "" {
		if err := os.WriteFile(dump, []byte(strings.Join(missLog, "\n")+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
	for i, m := range missLog {
		if i == 20 {
			t.Logf("… %d more", len(missLog)-i)
			break
		}
		t.Log(m)
	}
	if recall < 0.99 || nesting < 0.99 {
		t.Errorf("recall %.4f, nesting %.4f; want both at least 0.99", recall, nesting)
	}
}

// haskellDef is one outline entry as both sides see it; methods are
// functions, and an instance is named "Class Type".
type haskellDef struct {
	line               int
	kind, name, parent string
}

func (d haskellDef) String() string {
	return fmt.Sprintf("%d %s %s (in %q)", d.line, d.kind, d.name, d.parent)
}

// haskellOracle builds HsOutline with ghc and runs it over files: the
// definitions of each file, and the files GHC rejects.
func haskellOracle(t *testing.T, ghc string, files []string) (map[string][]haskellDef, map[string]bool) {
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
	want := map[string][]haskellDef{}
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
		want[f[0]] = append(want[f[0]], haskellDef{line, f[2], strings.Join(strings.Fields(f[3]), " "), strings.Join(strings.Fields(f[4]), " ")})
	}
	return want, rejected
}

// haskellEntries flattens zumba's outline as the oracle lists it: methods
// as functions, "Show for T" as "Show T", and nothing nested in a
// function but a constructor's fields (a constructor is a function in a
// type).
func haskellEntries(es []*Entry, parent *Entry) []haskellDef {
	var out []haskellDef
	for _, e := range es {
		kind := e.Kind.String()
		if kind == "method" {
			kind = "function"
		}
		name, parentName := haskellName(e.Name), ""
		if parent != nil {
			parentName = haskellName(parent.Name)
		}
		out = append(out, haskellDef{e.Line, kind, name, parentName})
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
