package outline

import (
	"os"
	"os/exec"
	"path/filepath"
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
	files := filesUnder(dir, ".pm", ".pl", ".t")
	want := runOracle(t, []string{perl, "../scripts/ppi-outline.pl"}, files)
	f := oracleDiff{lang: "perl", oracle: "PPI", want: want, ours: perlEntries, nestKind: "function"}.compare(t, files)
	t.Logf("perl differential: %d files (%d with tree-sitter syntax errors); %d entries from PPI", f.files, f.partial, f.total)
	f.report(t, "ZUMBA_PERL_DIFF_DUMP", 20, 0.99)
}

// perlEntries lists every entry of o with the nearest package around it.
func perlEntries(o *Outline) []javaDef {
	var out []javaDef
	var walk func(es []*Entry, pkg string)
	walk = func(es []*Entry, pkg string) {
		for _, e := range es {
			out = append(out, javaDef{line: e.Line, kind: e.Kind.String(), name: e.Name, parent: pkg})
			inner := pkg
			if e.Kind == grammar.Module {
				inner = e.Name
			}
			walk(e.Children, inner)
		}
	}
	walk(o.Entries, "")
	return out
}
