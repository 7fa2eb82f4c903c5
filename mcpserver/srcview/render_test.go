package srcview

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zumba-dev/zumba/search"
)

// readBudget is read_symbol's budget of source lines (mcpserver's).
const readBudget = 200

// synthClass builds a class of methods of the given body sizes: line 1
// "class C:", then per method a "    def mN(self):" line and its body
// lines "        xN_K = K". It returns the lines and the folds.
func synthClass(sizes ...int) (Lines, []fold) {
	lines := Lines{"class C:"}
	var folds []fold
	for i, n := range sizes {
		name := fmt.Sprintf("m%d", i)
		lines = append(lines, "    def "+name+"(self):")
		keep := len(lines)
		for k := range n {
			lines = append(lines, fmt.Sprintf("        x%d_%d = %d", i, k, k))
		}
		folds = append(folds, fold{keep: keep, end: len(lines), label: "method " + name, read: "C." + name})
	}
	return lines, folds
}

// sourceLines counts the lines of a body that are not markers or the
// last "… more lines" line.
func sourceLines(body string) int {
	n := 0
	for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		t := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(t, "⋮ ") || strings.HasPrefix(l, "… ") {
			continue
		}
		n++
	}
	return n
}

func TestWriteBodyFits(t *testing.T) {
	lines, folds := synthClass(3, 4)
	var sb strings.Builder
	n := writeBody(&sb, lines, "c.py", 1, len(lines), folds, readBudget)
	want := strings.Join(lines, "\n") + "\n"
	if diff := cmp.Diff(want, sb.String()); diff != "" {
		t.Errorf("writeBody of a short class (-want +got):\n%s", diff)
	}
	if n != len(lines) {
		t.Errorf("writeBody wrote %d lines; want %d", n, len(lines))
	}
}

// A 600-line class: the largest method bodies are collapsed first, just
// until the class fits in 200 source lines.
func TestWriteBodyElidesLargestFirst(t *testing.T) {
	lines, folds := synthClass(40, 250, 30, 180, 60, 28)
	if len(lines) < 590 {
		t.Fatalf("class of %d lines; want about 600", len(lines))
	}
	var sb strings.Builder
	n := writeBody(&sb, lines, "c.py", 1, len(lines), folds, readBudget)
	got := sb.String()
	// 595 lines - 250 - 180 = 165 lines: m1 and m3 are collapsed, the rest
	// shown.
	var markers []string
	for _, l := range strings.Split(got, "\n") {
		if strings.Contains(l, "⋮") {
			markers = append(markers, l)
		}
	}
	wantMarkers := []string{
		fmt.Sprintf("        ⋮ %d-%d method m1", folds[1].keep+1, folds[1].end),
		fmt.Sprintf("        ⋮ %d-%d method m3", folds[3].keep+1, folds[3].end),
	}
	if diff := cmp.Diff(wantMarkers, markers); diff != "" {
		t.Errorf("markers (-want +got):\n%s", diff)
	}
	if n != len(lines)-250-180 || sourceLines(got) != n {
		t.Errorf("wrote %d source lines (%d counted); want %d", n, sourceLines(got), len(lines)-250-180)
	}
	// Every shown line is the file's line, in order, with the markers'
	// ranges stepped over.
	cur := 1
	for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		var from, to int
		if _, err := fmt.Sscanf(strings.TrimSpace(l), "⋮ %d-%d", &from, &to); err == nil {
			if from != cur {
				t.Fatalf("marker %q at line %d", l, cur)
			}
			cur = to + 1
			continue
		}
		if l != lines[cur-1] {
			t.Fatalf("line %d = %q; want %q", cur, l, lines[cur-1])
		}
		cur++
	}
	if cur != len(lines)+1 {
		t.Errorf("the body ends at line %d; want %d", cur-1, len(lines))
	}
}

// A body that does not fit even with every nested definition collapsed is
// cut at the budget, and the last line says what is left and how to read
// it.
func TestWriteBodyCut(t *testing.T) {
	lines := Lines{"func F() {"}
	for i := range 300 {
		lines = append(lines, fmt.Sprintf("\tx%d := %d", i, i))
	}
	lines = append(lines, "}")
	var sb strings.Builder
	n := writeBody(&sb, lines, "f.go", 1, len(lines), nil, readBudget)
	got := strings.Split(strings.TrimSuffix(sb.String(), "\n"), "\n")
	if n != readBudget || len(got) != readBudget+1 {
		t.Fatalf("wrote %d source lines, %d lines in all; want %d and %d", n, len(got), readBudget, readBudget+1)
	}
	if want := "… 102 more lines (201-302); read those lines of f.go"; got[readBudget] != want {
		t.Errorf("last line = %q; want %q", got[readBudget], want)
	}

	// With a nested definition after the cut, the last line names it.
	lines, folds := synthClass(150, 150, 150, 150)
	folds = folds[:3]
	for i := range folds {
		folds[i].end = folds[i].keep + 1 // bodies too small to collapse
	}
	sb.Reset()
	writeBody(&sb, lines, "c.py", 1, len(lines), folds, readBudget)
	got = strings.Split(strings.TrimSuffix(sb.String(), "\n"), "\n")
	if want := "… 405 more lines (201-605); read_symbol C.m2 reads the next nested definition, or read those lines of c.py"; got[len(got)-1] != want {
		t.Errorf("last line = %q; want %q", got[len(got)-1], want)
	}
}

// Tabs and trailing spaces are kept; a line over 300 characters is cut
// with "…"; invalid UTF-8 is replaced.
func TestShowLine(t *testing.T) {
	long := strings.Repeat("é", 301)
	for _, c := range []struct{ in, want string }{
		{"\tx := 1  ", "\tx := 1  "},
		{long, strings.Repeat("é", 300) + "…"},
		{strings.Repeat("a", 300), strings.Repeat("a", 300)},
		{"a\xffb", "a\uFFFDb"},
	} {
		if got := Show(c.in); got != c.want {
			t.Errorf("Show(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}

func TestSplitFileLines(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Lines
	}{
		{"a\r\nb\r\n", Lines{"a", "b"}},
		{"a\nb", Lines{"a", "b"}},
		{"a\n\n", Lines{"a", ""}},
		{"", Lines{}},
	} {
		if diff := cmp.Diff(c.want, SplitLines([]byte(c.in))); diff != "" {
			t.Errorf("SplitLines(%q) (-want +got):\n%s", c.in, diff)
		}
	}
}

// TestFileReaderExtent: lines start..end as in the file, with their line
// breaks; a file shorter than end (changed since it was indexed) has no
// such extent.
func TestFileReaderExtent(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"a.go": "1\n2\r\n3\n", "b.go": "1\n2\n3", "c.go": ""}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := search.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	rd := GetReader(root, nil, time.Now())
	defer rd.Release()
	for _, c := range []struct {
		path       string
		start, end int
		want       string
		ok         bool
	}{
		{"a.go", 1, 3, "1\n2\r\n3\n", true},
		{"a.go", 2, 2, "2\r\n", true},
		{"a.go", 3, 4, "", false},
		{"a.go", 4, 4, "", false},
		{"b.go", 2, 3, "2\n3", true},
		{"b.go", 3, 4, "", false},
		{"c.go", 1, 1, "", false},
		{"no.go", 1, 1, "", false},
	} {
		got, ok := rd.Extent(context.Background(), c.path, c.start, c.end)
		if string(got) != c.want || ok != c.ok {
			t.Errorf("extent(%s, %d, %d) = %q, %v; want %q, %v", c.path, c.start, c.end, got, ok, c.want, c.ok)
		}
	}
}
