package outline

import (
	"os"
	"os/exec"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

// TestRDifferential compares zumba's R outlines with R's own parser
// (getParseData, through scripts/r-outline.R) on the .R files under
// ZUMBA_R_DIFF_DIR (scripts/r-diff fetches pinned packages' sources).
// Recall counts the functions R finds bound by an assignment (<-, =, <<-,
// ->) at the same (line, name); nesting, whether the nearest function
// around each in zumba's outline is the one R has around it. Files where
// R finds no function are left out.
func TestRDifferential(t *testing.T) {
	dir := os.Getenv("ZUMBA_R_DIFF_DIR")
	if dir == "" {
		t.Skip("set ZUMBA_R_DIFF_DIR (scripts/r-diff) to compare with R's parser")
	}
	rscript, err := exec.LookPath("Rscript")
	if err != nil {
		t.Skip("Rscript not found (apt-get install r-base-core)")
	}
	files := filesUnder(dir, ".R", ".r")
	want := runOracle(t, []string{rscript, "--vanilla", "../scripts/r-outline.R"}, files)
	var compared []string
	for _, p := range files {
		if len(want[p]) > 0 {
			compared = append(compared, p)
		}
	}
	f := oracleDiff{lang: "r", oracle: "R", want: want, ours: rFunctions}.compare(t, compared)
	t.Logf("R differential: %d files with functions (%d with tree-sitter syntax errors); %d functions from R", f.files, f.partial, f.total)
	f.report(t, "ZUMBA_R_DIFF_DUMP", 20, 0.99)
}

// rFunctions lists the functions of o as scripts/r-outline.R does, each
// with the nearest function around it.
func rFunctions(o *Outline) []javaDef {
	var out []javaDef
	var walk func(es []*Entry, fn string)
	walk = func(es []*Entry, fn string) {
		for _, e := range es {
			inner := fn
			if e.Kind == grammar.Function {
				out = append(out, javaDef{line: e.Line, kind: "function", name: e.Name, parent: fn})
				inner = e.Name
			}
			walk(e.Children, inner)
		}
	}
	walk(o.Entries, "")
	return out
}
