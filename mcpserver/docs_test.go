package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
)

// TestDocumentedFigures: the figures the README and docs/ state are the
// ones the code defines (issue 32, defect 8: the README said 512 MiB and
// 160 MiB where the code set 768 MiB): the tools, the languages, and the
// size bounds.
func TestDocumentedFigures(t *testing.T) {
	readme := readDoc(t, "../README.md")
	for _, doc := range []struct{ file, heading string }{{"../README.md", "## Tools"}, {"../docs/tools.md", "# Tools"}} {
		if got := tableRows(readDoc(t, doc.file), doc.heading); len(got) != len(tools) {
			t.Errorf("the tool table of %s has %d rows %q; the server has %d tools", doc.file, len(got), got, len(tools))
		}
	}
	if got := tableRows(readDoc(t, "../docs/languages.md"), "# Languages"); len(got) != len(grammar.Languages()) {
		t.Errorf("docs/languages.md's table has %d rows; the registry has %d languages", len(got), len(grammar.Languages()))
	}
	if want := fmt.Sprintf("tree-sitter, for %d languages", len(grammar.Languages())); !strings.Contains(strings.Join(strings.Fields(readme), " "), want) {
		t.Errorf("the README does not say %q", want)
	}
	all := readme
	docs, _ := filepath.Glob("../docs/*.md")
	for _, d := range docs {
		all += "\n" + readDoc(t, d)
	}
	for _, c := range []struct {
		what string
		re   string
		want int
	}{
		{"the project search's file size bound", `files over (\d+) KB`, project.MaxFileSize >> 10},
		{"outline's file size bound", `(?:at most|up to) (\d+) MiB(?:, and its| and| the project)`, outline.MaxFileSize >> 20},
		{"outline's parse bound", `from its first (\d+) (?:KB|MB)`, 0},
		{"stdio's line bound", `Lines up to (\d+) MiB`, MaxLine >> 20},
	} {
		ms := regexp.MustCompile(c.re).FindAllStringSubmatch(all, -1)
		if len(ms) == 0 {
			t.Errorf("neither the README nor docs/ states %s (%s)", c.what, c.re)
		}
		for _, m := range ms {
			n, _ := strconv.Atoi(m[1])
			if c.want == 0 {
				// Either of the two parse sizes.
				if !(n == outline.HeadSize>>10 && strings.HasSuffix(m[0], "KB") || n == outline.MaxParse>>20 && strings.HasSuffix(m[0], "MB")) {
					t.Errorf("the docs say %q; outline parses %d KB, then %d MB", m[0], outline.HeadSize>>10, outline.MaxParse>>20)
				}
				continue
			}
			if n != c.want {
				t.Errorf("the docs say %q; the code's %s is %d", m[0], c.what, c.want)
			}
		}
	}
}

// readDoc is a documentation file's text.
func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tableRows is the first column of the table in the Markdown section that
// starts with heading.
func tableRows(readme, heading string) []string {
	_, section, _ := strings.Cut("\n"+readme, "\n"+heading+"\n")
	var rows []string
	inTable := false
	for _, line := range strings.Split(section, "\n") {
		switch {
		case strings.HasPrefix(line, "| ---"):
			inTable = true
		case inTable && strings.HasPrefix(line, "| "):
			cell, _, _ := strings.Cut(line[2:], " |")
			rows = append(rows, cell)
		case inTable:
			return rows
		}
	}
	return rows
}
