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

// TestErlangDifferential compares zumba's Erlang outlines with OTP's
// epp_dodger (through scripts/erl-outline.escript) on the .erl and .hrl
// files under ZUMBA_ERLANG_DIFF_DIR (scripts/erlang-diff: OTP's own
// sources as Debian's erlang-src installs them). Recall counts the
// module, records, types, macros and functions (name/arity, all clauses
// one entry) found at the same (line, kind, name); nesting, whether the
// entry is in the module epp_dodger read before it.
func TestErlangDifferential(t *testing.T) {
	dir := os.Getenv("ZUMBA_ERLANG_DIFF_DIR")
	if dir == "" {
		t.Skip("set ZUMBA_ERLANG_DIFF_DIR (scripts/erlang-diff) to compare with epp_dodger")
	}
	escript, err := exec.LookPath("escript")
	if err != nil {
		t.Skip("escript not found (apt-get install erlang-base erlang-syntax-tools)")
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".erl") || strings.HasSuffix(p, ".hrl")) {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	want := runOracle(t, []string{escript, "../scripts/erl-outline.escript"}, files)
	lang := grammar.ByName("erlang")
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
			k := key{s.Line, s.Kind.String(), s.Name}
			ours[k] = append(ours[k], s.parent)
		}
		for _, d := range want[p] {
			total++
			ps := ours[key{d.line, d.kind, d.name}]
			if len(ps) == 0 {
				log = append(log, fmt.Sprintf("%s: epp_dodger has, zumba has not: %s", p, d))
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
	t.Logf("erlang differential: %d files (%d with tree-sitter syntax errors); %d entries from epp_dodger", len(files), partial, total)
	t.Logf("recall %.4f%% (%d missed), nesting %.4f%% (%d of the found elsewhere)", 100*recall, total-found, 100*nesting, found-nested)
	if dump := os.Getenv("ZUMBA_ERLANG_DIFF_DUMP"); dump != "" {
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
