package grammar

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLineRegexpsAgree checks that each lineRegexp (and startRegexp)
// finds exactly what its expression finds over the whole text, on the C and C++ corpus, edge
// cases, and real headers and sources when present (/usr/include, the
// Linux tree of ZUMBA_BENCH_C or /work/linux; a sample of 40 files of
// each, 10 under -short, all of it with ZUMBA_LINEREGEXP_ALL=1).
func TestLineRegexpsAgree(t *testing.T) {
	exprs := map[string]*lineRegexp{
		"exportMacro":       exportMacroLines,
		"pointerMacro":      pointerMacroLines,
		"defineComment":     defineCommentLines,
		"prefixMacro":       prefixMacroLines,
		"callingConvention": callingConventionLines,
		"oldStyleParams":    oldStyleParamsLines,
		"namespaceMacro":    namespaceMacroLines,
		"accessMacro":       accessMacroLines,
		"lineMacro":         lineMacroLines,
	}
	texts := map[string][]byte{
		"empty":           nil,
		"no final break":  []byte("class API Foo {"),
		"crlf":            []byte("JSON_PRIVATE:\r\n  FOO_API int f(void);\r\nnamespace std _V(default)\r\n{\r\n"),
		"blank lines":     []byte("\n\n  \n\tMACRO\n\n"),
		"break in a name": []byte("struct\nAPI X {\nint WINAPI\nWinMain(\nint ZEXPORT f OF\n((int a));"),
		"trailing":        []byte("int f(void) const & __THROW;\nvoid g()\n  noexcept FOO_API(x, (y)) {\nh() gnu_attribute_x;\n(a) constexpr B;\nx) __attr ;"),
		"names":           []byte("struct A (x) B {\nclass  C\tD final {\nunion E F:\nstruct G *h;\nmystruct H I {\nint FOO *bar (\nx FOO bar BAZ(\n"),
	}
	var paths []string
	for _, dir := range []string{"../testdata/outline/c", "../testdata/outline/cpp", "../testdata/read_symbol/c", "../testdata/read_symbol/cpp"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		paths = append(paths, files...)
	}
	all := os.Getenv("ZUMBA_LINEREGEXP_ALL") != ""
	linux := os.Getenv("ZUMBA_BENCH_C")
	if linux == "" {
		linux = "/work/linux/linux-source-6.12"
	}
	for _, root := range []string{"/usr/include", filepath.Join(linux, "kernel"), filepath.Join(linux, "include/linux")} {
		var found []string
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && (strings.HasSuffix(p, ".h") || strings.HasSuffix(p, ".c")) {
				found = append(found, p)
			}
			return nil
		})
		slices.Sort(found)
		step := 1
		switch {
		case all:
		case testing.Short():
			step = max(len(found)/10, 1)
		default:
			step = max(len(found)/40, 1)
		}
		for i := 0; i < len(found); i += step {
			paths = append(paths, found[i])
		}
	}
	for _, p := range paths {
		if strings.HasSuffix(p, ".golden") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil || len(src) > 1<<20 {
			continue
		}
		texts[p] = src
	}
	t.Logf("%d texts", len(texts))
	for name, src := range texts {
		for expr, l := range exprs {
			want := l.re.FindAllSubmatchIndex(src, -1)
			got := l.FindAllSubmatchIndex(src)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s in %s: line by line differs (-whole text +lines):\n%s", expr, name, diff)
			}
		}
		want := trailingMacros.FindAllSubmatchIndex(src, -1)
		if diff := cmp.Diff(want, trailingMacrosAt.FindAllSubmatchIndex(src)); diff != "" {
			t.Errorf("trailingMacros in %s: run at its starts differs (-whole text +starts):\n%s", name, diff)
		}
	}
}
