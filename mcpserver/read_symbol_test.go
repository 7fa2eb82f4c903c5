package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/search"
)

const readCorpus = "../testdata/read_symbol"

// readProject is the project folder a queries file runs in: the folder
// beside it of the same name. The language folders are copies of the
// outline corpus as it was when the cases were written, so that new
// outline cases do not change these answers.
func readProject(name string) string { return filepath.Join(readCorpus, name) }

// readAnswers runs each query of a .queries file (one per line; blank
// lines and lines starting with "#" are skipped) and prints every answer
// under a "== read_symbol QUERY" line; an error answer starts with
// "error: ".
func readAnswers(t *testing.T, root *search.Root, queries string, call func(string) (string, bool)) string {
	t.Helper()
	var sb strings.Builder
	for _, q := range strings.Split(queries, "\n") {
		if strings.TrimSpace(q) == "" || strings.HasPrefix(q, "#") {
			continue
		}
		text, isErr := call(q)
		sb.WriteString("== read_symbol " + q + "\n")
		if isErr {
			sb.WriteString("error: ")
		}
		sb.WriteString(text + "\n")
	}
	return sb.String()
}

// TestReadSymbolGolden runs the queries of testdata/read_symbol/*.queries
// and compares the answers with the .golden beside them; -update rewrites
// them. Each language's queries run in its outline corpus.
func TestReadSymbolGolden(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(readCorpus, "*.queries"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no queries in %s: %v", readCorpus, err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".queries")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			queries, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			root, err := openRoot(readProject(name))
			if err != nil {
				t.Fatal(err)
			}
			got := readAnswers(t, root, string(queries), func(q string) (string, bool) {
				return ReadSymbol(context.Background(), root, q)
			})
			golden := strings.TrimSuffix(f, ".queries") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./mcpserver -run TestReadSymbolGolden -update, then read the golden)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("read_symbol answers for %s differ from %s (-want +got):\n%s", f, golden, diff)
			}
		})
	}
}

// TestReadSymbolCorpusCoversLanguages fails for a registered language
// without read_symbol golden cases.
func TestReadSymbolCorpusCoversLanguages(t *testing.T) {
	for _, l := range grammar.Languages() {
		if _, err := os.Stat(filepath.Join(readCorpus, l.Name+".queries")); err != nil {
			t.Errorf("language %s has no read_symbol cases: add %s/%s.queries", l.Name, readCorpus, l.Name)
		}
	}
}

// TestReadSymbolIndexed: through a server with a complete index, every
// golden query gets the answer the files give directly, byte for byte.
func TestReadSymbolIndexed(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"project", "go", "python", "markdown", "typescript"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			queries, err := os.ReadFile(filepath.Join(readCorpus, name+".queries"))
			if err != nil {
				t.Fatal(err)
			}
			dir := readProject(name)
			root, err := openRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			c := startIndexedServer(t, dir)
			direct := readAnswers(t, root, string(queries), func(q string) (string, bool) {
				return ReadSymbol(context.Background(), root, q)
			})
			indexed := readAnswers(t, root, string(queries), func(q string) (string, bool) {
				return c.tool("read_symbol", map[string]any{"name": q})
			})
			if diff := cmp.Diff(direct, indexed); diff != "" {
				t.Errorf("read_symbol through the indexed server differs from the files read directly (-direct +indexed):\n%s", diff)
			}
		})
	}
}

// TestReadSymbolFresh: a file edited after it was indexed is read as it
// is at the time of the call, by name and by path:line.
func TestReadSymbolFresh(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "a.go")
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package a\n\n// F is old.\nfunc F() int {\n\treturn 1\n}\n")
	c := startIndexedServer(t, dir)
	want := "a.go:3-6 function F\n// F is old.\nfunc F() int {\n\treturn 1\n}"
	if got, _ := c.tool("read_symbol", map[string]any{"name": "F"}); got != want {
		t.Fatalf("read_symbol F = %q; want %q", got, want)
	}
	write("package a\n\nvar x = 1\n\n// F is new.\nfunc F() int {\n\tx++\n\treturn x\n}\n")
	want = "a.go:5-9 function F\n// F is new.\nfunc F() int {\n\tx++\n\treturn x\n}"
	for _, q := range []string{"F", "a.go:7"} {
		if got, _ := c.tool("read_symbol", map[string]any{"name": q}); got != want {
			t.Errorf("after the edit, read_symbol %s = %q; want %q", q, got, want)
		}
	}
}

// TestToolListAtMostEight: strict clients show at most eight tools of a
// server without a search step (SPEC.md).
func TestToolListAtMostEight(t *testing.T) {
	if len(tools) > 8 {
		t.Errorf("%d tools are registered; at most 8 are shown by strict clients", len(tools))
	}
}

// TestReadSymbolManyMatches: a name with more definitions than fit gets
// at most readMaxBodies bodies, then readMaxPlaces places, then the line
// saying how to narrow it, from the files directly and through the index.
// A definition with the same text as a shown body is listed under it.
func TestReadSymbolManyMatches(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// 50 packages, in path order: d00/f.go … d49/f.go; d01's F has the
	// same text as d00's.
	for i := range 50 {
		src := fmt.Sprintf("package p\n\nfunc F() int {\n\treturn %d\n}\n", i)
		if i == 1 {
			src = "package p\n\nfunc F() int {\n\treturn 0\n}\n"
		}
		writeFiles(t, dir, map[string]string{fmt.Sprintf("d%02d/f.go", i): src})
	}
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	check := func(how, got string) {
		t.Helper()
		lines := strings.Split(got, "\n")
		var headers, places int
		for _, l := range lines {
			switch {
			case readHeaderRE.MatchString(l):
				headers++
			case readPlaceRE.MatchString(l) && !strings.HasSuffix(l, "(same text)"):
				places++
			}
		}
		if headers != readMaxBodies || places != readMaxPlaces {
			t.Errorf("%s: %d bodies and %d places; want %d and %d:\n%s", how, headers, places, readMaxBodies, readMaxPlaces, got)
		}
		want := "3 of more than 43 definitions of F shown (1 more has the same text as one shown); narrow it with a qualified name (Type.method) or path:line"
		if last := lines[len(lines)-1]; last != want {
			t.Errorf("%s: last line %q; want %q", how, last, want)
		}
		if !strings.Contains(got, "\nd01/f.go:3 function F (same text)\n") {
			t.Errorf("%s: d01's F is not listed as the same text as d00's:\n%s", how, got)
		}
	}
	got, _ := ReadSymbol(context.Background(), root, "F")
	check("files", got)

	c := startIndexedServer(t, dir)
	got, _ = c.tool("read_symbol", map[string]any{"name": "F"})
	check("index", got)
}

// TestReadSymbolVariants: Go's build variants of a name in one package
// show one body, the one in a file without a platform suffix, then one
// line for the others; an external test package's same name is another
// definition; a qualified name's last line says to pick by PATH:LINE
// (issue 26, item 4).
func TestReadSymbolVariants(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fn := func(pkg string, n int) string {
		return fmt.Sprintf("package %s\n\nfunc Setuid(uid int) int {\n\treturn %d\n}\n", pkg, n)
	}
	writeFiles(t, dir, map[string]string{
		"unix/syscall_darwin.go":  fn("unix", 1),
		"unix/syscall_linux.go":   fn("unix", 2),
		"unix/syscall.go":         fn("unix", 3),
		"unix/syscall_windows.go": fn("unix", 4),
		"unix/x_test.go":          fn("unix_test", 5),
		"other/setuid.go":         fn("other", 6),
	})
	c := startTestServer(t, dir, false)
	// In find_symbol's order: path order, test files last.
	want := "other/setuid.go:3-5 function Setuid\nfunc Setuid(uid int) int {\n\treturn 6\n}\n\n" +
		"unix/syscall.go:3-5 function Setuid\nfunc Setuid(uid int) int {\n\treturn 3\n}\n" +
		"+ 3 variants in unix/ (syscall_darwin.go:3, syscall_linux.go:3, syscall_windows.go:3)\n\n" +
		"unix/x_test.go:3-5 function Setuid\nfunc Setuid(uid int) int {\n\treturn 5\n}"
	if got, isError := c.tool("read_symbol", map[string]any{"name": "Setuid"}); isError || got != want {
		t.Errorf("read_symbol Setuid = %q, %v;\nwant %q", got, isError, want)
	}
	want = "unix/syscall.go:3-5 function Setuid\nfunc Setuid(uid int) int {\n\treturn 3\n}\n" +
		"+ 3 variants in unix/ (syscall_darwin.go:3, syscall_linux.go:3, syscall_windows.go:3)\n\n" +
		"unix/x_test.go:3-5 function Setuid\nfunc Setuid(uid int) int {\n\treturn 5\n}"
	if got, isError := c.tool("read_symbol", map[string]any{"name": "unix.Setuid"}); isError || got != want {
		t.Errorf("read_symbol unix.Setuid = %q, %v;\nwant %q", got, isError, want)
	}
}

var (
	readHeaderRE = regexp.MustCompile(`^\S+:\d+-\d+ \S+ \S+$`)
	readPlaceRE  = regexp.MustCompile(`^\S+:\d+ \S+ \S+( \(same text\))?$`)
)
