package outline

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

// TestPerlDifferential compares zumba's Perl outlines with PPI's reading
// of the .pm, .pl and .t files under ZUMBA_PERL_DIFF_DIR, through
// scripts/ppi-outline.pl (scripts/perl-diff runs it over Perl's own
// library and Debian's packaged modules). Recall counts PPI's packages
// and named subs found at the same (line, kind, name); nesting, for subs,
// whether the nearest package around the sub in zumba's outline is the
// package PPI has in effect there (a sub in a sub counts by the package
// around both).
func TestPerlDifferential(t *testing.T) {
	dir := os.Getenv("ZUMBA_PERL_DIFF_DIR")
	if dir == "" {
		t.Skip("set ZUMBA_PERL_DIFF_DIR (scripts/perl-diff) to compare with PPI")
	}
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	perl, err := exec.LookPath("perl")
	if err != nil {
		t.Skip("perl not found")
	}
	if err := exec.Command(perl, "-MPPI", "-e", "1").Run(); err != nil {
		t.Skip("PPI not installed (apt-get install libppi-perl)")
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".pm") || strings.HasSuffix(p, ".pl") || strings.HasSuffix(p, ".t")) {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	want := runOracle(t, []string{perl, "../scripts/ppi-outline.pl"}, files)
	lang := grammar.ByName("perl")
	var total, found, subs, nested, partial int
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
		var walk func(es []*Entry, pkg string)
		walk = func(es []*Entry, pkg string) {
			for _, e := range es {
				ours[key{e.Line, e.Kind.String(), e.Name}] = append(ours[key{e.Line, e.Kind.String(), e.Name}], pkg)
				inner := pkg
				if e.Kind == grammar.Module {
					inner = e.Name
				}
				walk(e.Children, inner)
			}
		}
		walk(o.Entries, "")
		for _, d := range want[p] {
			total++
			pkgs := ours[key{d.line, d.kind, d.name}]
			if len(pkgs) == 0 {
				log = append(log, fmt.Sprintf("%s: PPI has, zumba has not: %s", p, d))
				continue
			}
			found++
			if d.kind != "function" {
				continue
			}
			subs++
			if indexOf(pkgs, d.parent) >= 0 {
				nested++
			} else {
				log = append(log, fmt.Sprintf("%s: %s; zumba in %q", p, d, pkgs[0]))
			}
		}
	}
	sort.Strings(log)
	recall := float64(found) / float64(max(total, 1))
	nesting := float64(nested) / float64(max(subs, 1))
	t.Logf("perl differential: %d files (%d with tree-sitter syntax errors); %d entries from PPI", len(files), partial, total)
	t.Logf("recall %.4f%% (%d missed), nesting %.4f%% (%d of %d subs in another package)", 100*recall, total-found, 100*nesting, subs-nested, subs)
	if dump := os.Getenv("ZUMBA_PERL_DIFF_DUMP"); dump != "" {
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

// runOracle runs argv with files appended, 200 at a time, and reads its
// lines: FILE<TAB>LINE<TAB>KIND<TAB>NAME<TAB>PARENT.
func runOracle(t *testing.T, argv, files []string) map[string][]javaDef {
	want := map[string][]javaDef{}
	for i := 0; i < len(files); i += 200 {
		cmd := exec.Command(argv[0], append(argv[1:len(argv):len(argv)], files[i:min(i+200, len(files))]...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", argv[len(argv)-1], err, stderr.String())
		}
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			f := strings.Split(sc.Text(), "\t")
			if len(f) != 5 {
				continue
			}
			line, _ := strconv.Atoi(f[1])
			want[f[0]] = append(want[f[0]], javaDef{line: line, kind: f[2], name: f[3], parent: f[4]})
		}
	}
	return want
}
