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

// TestRDifferential compares zumba's R outlines with R's own parser
// (getParseData, through scripts/r-outline.R) on the .R files under
// ZUMBA_R_DIFF_DIR (scripts/r-diff fetches pinned packages' sources).
// Recall counts the functions R finds bound by an assignment (<-, =, <<-,
// ->) at the same (line, name); nesting, whether the nearest function
// around each in zumba's outline is the one R has around it.
func TestRDifferential(t *testing.T) {
	dir := os.Getenv("ZUMBA_R_DIFF_DIR")
	if dir == "" {
		t.Skip("set ZUMBA_R_DIFF_DIR (scripts/r-diff) to compare with R's parser")
	}
	rscript, err := exec.LookPath("Rscript")
	if err != nil {
		t.Skip("Rscript not found (apt-get install r-base-core)")
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".R") || strings.HasSuffix(p, ".r")) {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	want := runOracle(t, []string{rscript, "--vanilla", "../scripts/r-outline.R"}, files)
	lang := grammar.ByName("r")
	var total, found, nested, partial, compared int
	var log []string
	for _, p := range files {
		if len(want[p]) == 0 {
			continue
		}
		compared++
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
			line int
			name string
		}
		ours := map[key][]string{}
		var walk func(es []*Entry, fn string)
		walk = func(es []*Entry, fn string) {
			for _, e := range es {
				inner := fn
				if e.Kind == grammar.Function {
					ours[key{e.Line, e.Name}] = append(ours[key{e.Line, e.Name}], fn)
					inner = e.Name
				}
				walk(e.Children, inner)
			}
		}
		walk(o.Entries, "")
		for _, d := range want[p] {
			total++
			fns := ours[key{d.line, d.name}]
			if len(fns) == 0 {
				log = append(log, fmt.Sprintf("%s: R has, zumba has not: %s", p, d))
				continue
			}
			found++
			if indexOf(fns, d.parent) >= 0 {
				nested++
			} else {
				log = append(log, fmt.Sprintf("%s: %s; zumba in %q", p, d, fns[0]))
			}
		}
	}
	sort.Strings(log)
	recall := float64(found) / float64(max(total, 1))
	nesting := float64(nested) / float64(max(found, 1))
	t.Logf("R differential: %d files with functions (%d with tree-sitter syntax errors); %d functions from R", compared, partial, total)
	t.Logf("recall %.4f%% (%d missed), nesting %.4f%% (%d of the found elsewhere)", 100*recall, total-found, 100*nesting, found-nested)
	if dump := os.Getenv("ZUMBA_R_DIFF_DUMP"); dump != "" {
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
	if compared < 20 || recall < 0.99 || nesting < 0.99 {
		t.Errorf("%d files, recall %.4f, nesting %.4f; want at least 20 files and both at least 0.99", compared, recall, nesting)
	}
}
