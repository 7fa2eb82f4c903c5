package outline

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

// TestSolidityDifferential compares zumba's Solidity outlines with solc's
// parser (its compact JSON AST after parsing, through
// scripts/sol-outline.js and the solc npm package in ZUMBA_SOL_DIFF_SOLC, a
// node_modules folder) on the .sol files under ZUMBA_SOL_DIFF_DIR
// (scripts/solidity-diff: pinned npm packages). Recall counts contracts,
// interfaces, libraries, functions, constructors, modifiers, events,
// errors, structs, enums, user-defined value types and constants found at
// the same (line, kind, name), a function in a contract counting as a
// method; nesting, whether each is in the contract solc puts it in.
func TestSolidityDifferential(t *testing.T) {
	dir := os.Getenv("ZUMBA_SOL_DIFF_DIR")
	if dir == "" {
		t.Skip("set ZUMBA_SOL_DIFF_DIR (scripts/solidity-diff) to compare with epp_dodger")
	}
	node, err := exec.LookPath("node")
	solcDir := os.Getenv("ZUMBA_SOL_DIFF_SOLC")
	if err != nil || solcDir == "" {
		t.Skip("node not found or ZUMBA_SOL_DIFF_SOLC unset (scripts/solidity-diff)")
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".sol")) {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	want := runOracle(t, []string{node, "../scripts/sol-outline.js", solcDir}, files)
	lang := grammar.ByName("solidity")
	var total, found, nested, partial int
	var log []string
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		o, err := Parse(context.Background(), lang, src)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if o.Partial {
			partial++
		}
		type key struct {
			line       int
			kind, name string
		}
		ours := map[key][]string{}
		for _, s := range withParents(o) {
			kind := s.Kind.String()
			if kind == "method" {
				kind = "function"
			}
			k := key{s.Line, kind, s.Name}
			ours[k] = append(ours[k], s.parent)
		}
		for _, d := range want[p] {
			total++
			ps := ours[key{d.line, d.kind, d.name}]
			if len(ps) == 0 {
				log = append(log, fmt.Sprintf("%s: solc has, zumba has not: %s", p, d))
				continue
			}
			found++
			if indexOf(ps, d.parent) >= 0 {
				nested++
			} else {
				log = append(log, fmt.Sprintf("%s: %s; zumba in %q", p, d, ps[0]))
			}
		}
	}
	sort.Strings(log)
	recall := float64(found) / float64(max(total, 1))
	nesting := float64(nested) / float64(max(found, 1))
	t.Logf("solidity differential: %d files (%d with tree-sitter syntax errors); %d entries from solc", len(files), partial, total)
	t.Logf("recall %.4f%% (%d missed), nesting %.4f%% (%d of the found elsewhere)", 100*recall, total-found, 100*nesting, found-nested)
	if dump := os.Getenv("ZUMBA_SOL_DIFF_DUMP"); dump != "" {
		if err := os.WriteFile(dump, []byte(strings.Join(log, "\n")+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
	for i, m := range log {
		if i == 20 {
			t.Logf("… %d more", len(log)-i)
			break
		}
		t.Log(m)
	}
	if len(files) < 20 || recall < 0.99 || nesting < 0.99 {
		t.Errorf("%d files, recall %.4f, nesting %.4f; want at least 20 files and both at least 0.99", len(files), recall, nesting)
	}
}
