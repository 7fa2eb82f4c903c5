package grammar

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzLineRegexps checks on any text that each lineRegexp (and
// trailingMacrosAt) finds what its expression finds over the whole text.
func FuzzLineRegexps(f *testing.F) {
	for _, s := range []string{
		"class V8_EXPORT Isolate {\n",
		"struct A (x) B {\nclass  C\tD final {\nunion E F:\n",
		"int ZEXPORT deflate OF((z_streamp strm, int f));\n",
		"typedef void (APIENTRYP PFNGLCLEARPROC) (GLbitfield mask);\n",
		"namespace std _GLIBCXX_VISIBILITY(default)\r\n{\n",
		"JSON_PRIVATE_UNLESS_TESTED:\n  FOO_API int f(void);\n",
		"#define X(a) /* c */ \\\n  a\n",
		"PyAPI_FUNC(int) SHA256(const char *d, size_t n) __THROW;\n",
		"DECLARE_ASN1_FUNCTIONS(X) // note\nfoo_BAR((a)(b))\n",
		"static UClassID U_EXPORT2 getStaticClassID();\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, l := range macroLines {
			want := l.re.FindAllSubmatchIndex(src, -1)
			if diff := cmp.Diff(want, l.FindAllSubmatchIndex(src)); diff != "" {
				t.Fatalf("%s on %q: line by line differs (-whole text +lines):\n%s", l.re, src, diff)
			}
		}
		want := trailingMacros.FindAllSubmatchIndex(src, -1)
		if diff := cmp.Diff(want, trailingMacrosAt.FindAllSubmatchIndex(src)); diff != "" {
			t.Fatalf("trailingMacros on %q differs (-whole text +starts):\n%s", src, diff)
		}
		out := prepareCpp(src)
		if len(out) != len(src) || bytes.Count(out, []byte("\n")) != bytes.Count(src, []byte("\n")) {
			t.Fatalf("prepareCpp moved bytes or lines of %q", src)
		}
	})
}

// TestLineRegexpsHostile runs the line reading and the conditionals on
// texts built to make a scan that reads back or ahead from each of many
// places quadratic: each is about a megabyte, and a quadratic reading of
// one would not end within the test's timeout.
func TestLineRegexpsHostile(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 20_000
	}
	texts := map[string]string{
		"names then braces":   "struct " + strings.Repeat("A ", n) + strings.Repeat("{", n) + "\n",
		"names and colons":    "struct " + strings.Repeat("A :", n) + "\n",
		"arguments":           "struct " + strings.Repeat("a (:{) ", n) + "{\n",
		"namespace":           "namespace " + strings.Repeat("a::b ", n) + strings.Repeat("X{", n) + "\n",
		"double parens":       strings.Repeat(" AB", n) + strings.Repeat("((", n) + "\n",
		"pointer":             strings.Repeat("( AB ", n) + strings.Repeat("( AB c )", n) + "\n",
		"macro line":          strings.Repeat("_A", n) + "(" + strings.Repeat("(a)", n) + ")\n",
		"conventions":         strings.Repeat("x AB ", n) + "(\n",
		"one comment":         "/*" + strings.Repeat("*\n#if x\n", n) + "*/\n",
		"nested conditionals": strings.Repeat("#if A\nint a(\n", n) + strings.Repeat("#endif\n", n),
	}
	for name, text := range texts {
		src := []byte(text)
		findLineRegexps(src, macroLines)
		trailingMacrosAt.FindAllSubmatchIndex(src)
		if out := prepareC(src); len(out) != len(src) {
			t.Errorf("%s: prepareC changed the length", name)
		}
	}
}

// FuzzConditionals checks that balanceConditionals gives what it gives
// when codeLine reads every line of code (plainLine's shortcut off).
func FuzzConditionals(f *testing.F) {
	for _, s := range []string{
		"A() : a(0),\n#ifdef DEBUG\n  d(1),\n#endif\n  b(2) {}\n",
		"#ifdef T\n  if (a) {\n#else\n  if (b) {\n#endif\n  }\n",
		"int a = f(x,\n#include \"x.h\"\n  y);\n/* c\n#if 0\n*/ int b;\n#if 0\nint c(;\n#endif\n",
		"char *s = \"#if\";\nint x = 1'000;\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n",
		"x = a /\n#if A\n b;\n#endif\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, cpp := range []bool{false, true} {
			fast := condScanner{src: src, cpp: cpp}
			fast.run()
			slow := condScanner{src: src, cpp: cpp, everyByte: true}
			slow.run()
			if !bytes.Equal(fast.out, slow.out) {
				t.Fatalf("cpp=%v %q:\nplainLine %q\neveryByte %q", cpp, src, fast.out, slow.out)
			}
		}
	})
}
