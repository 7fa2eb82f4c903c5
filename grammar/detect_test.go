package grammar

import (
	"strings"
	"testing"
)

func TestHeaderLanguage(t *testing.T) {
	tests := []struct {
		name, head, want string
	}{
		{"plain C", "#include <stdio.h>\nstruct point { int x; };\nint f(void);\n", "c"},
		{"C guarding extern C", "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(void);\n", "c"},
		{"C including cstddef for C++ callers", "#ifdef __cplusplus\n#include <cstddef>\n#endif\n", "c"},
		{"prose in a comment", "/* a class of errors:\n   namespace { is not code */\nint f(void);\n", "c"},
		{"C mode line", "/* -*- C -*- */\nclass Foo {\n", "c"},
		{"class", "class Widget {\n public:\n};\n", "cpp"},
		{"class on its own line", "class Widget\n{\n", "cpp"},
		{"forward class", "class Isolate;\n", "cpp"},
		{"struct with a base", "struct Derived : public Base {\n", "cpp"},
		{"namespace", "namespace v8 {\n", "cpp"},
		{"template", "template <typename T>\nT max(T a, T b);\n", "cpp"},
		{"using alias", "using Id = int;\n", "cpp"},
		{"using declaration", "using std::swap;\n", "cpp"},
		{"C++ library header", "#include <vector>\n", "cpp"},
		{"C++ mode line", "//===-- Foo.h - The Foo class ---*- C++ -*-===//\n#define FOO 1\n", "cpp"},
		{"beyond 8 KiB", strings.Repeat("int x;\n", 1300) + "class Late {\n", "c"},
		{"Objective-C interface", "#import <Foundation/Foundation.h>\n@interface Shape : NSObject\n@end\n", "objc"},
		{"Objective-C protocol", "@protocol Drawable <NSObject>\n- (void)draw;\n@end\n", "objc"},
		{"Objective-C import only", "#import \"Shape.h\"\nextern int count;\n", "objc"},
		{"@interface in a comment", "/* see @interface Foo */\nint f(void);\n", "c"},
	}
	for _, tt := range tests {
		got := ""
		if l := ForPath("include/x.h", []byte(tt.head)); l != nil {
			got = l.Name
		}
		if got != tt.want {
			t.Errorf("%s: ForPath(x.h) = %q; want %q", tt.name, got, tt.want)
		}
	}
	// Only the shared extension is sniffed.
	if l := ForPath("x.c", []byte("class Widget {\n")); l == nil || l.Name != "c" {
		t.Errorf("ForPath(x.c) with C++ content = %v; want c", l)
	}
}

func TestBlankMacros(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"export macro", "class V8_EXPORT Isolate {", "class           Isolate {"},
		{"export macro with arguments", "struct ABSL_ATTR(x) Foo : Bar {", "struct              Foo : Bar {"},
		{"final is not a macro", "struct Foo final : Base {", "struct Foo final : Base {"},
		{"trailing attributes", "int f(int) __THROW __wur;", "int f(int)              ;"},
		{"trailing attribute call", "int f(const char*, ...) Py_GCC_ATTRIBUTE((format(printf, 1, 2)));", "int f(const char*, ...)" + strings.Repeat(" ", 41) + ";"},
		{"capital function name", "PyAPI_FUNC(void) SHA256_Init(SHA256_CTX *c);", "PyAPI_FUNC(void) SHA256_Init(SHA256_CTX *c);"},
		{"mixed-case function name", "PyAPI_FUNC(int) PyList_New(int n);", "PyAPI_FUNC(int) PyList_New(int n);"},
		{"const member", "int size() const;", "int size() const;"},
		{"field-list macro", "struct s {\n  PyObject_HEAD\n  int n;\n};", "struct s {\n               \n  int n;\n};"},
		{"return type on its own line", "PyAPI_FUNC(int)\nPy_Main(int argc);", "PyAPI_FUNC(int)\nPy_Main(int argc);"},
		{"function head on its own line", "int\nFOO(void)\n{\n}", "int\nFOO(void)\n{\n}"},
		{"comment in a define", "#define F \\\n  /* x */ \\\n  int a;", "#define F \\\n          \\\n  int a;"},
	}
	for _, tt := range tests {
		if got := string(blankMacros([]byte(tt.src))); got != tt.want {
			t.Errorf("%s: blankMacros(%q) = %q; want %q", tt.name, tt.src, got, tt.want)
		}
	}
	src := []byte("int f(int) __THROW;")
	if blankMacros(src); string(src) != "int f(int) __THROW;" {
		t.Error("blankMacros modified its input")
	}
}

func TestBlankMacrosCallingConvention(t *testing.T) {
	tests := []struct{ src, want string }{
		{"static UClassID U_EXPORT2 getStaticClassID();", "static UClassID           getStaticClassID();"},
		{"int WINAPI WinMain(HINSTANCE h)", "int        WinMain(HINSTANCE h)"},
		{"extern NCURSES_EXPORT(int) COLOR_PAIR (int);", "extern NCURSES_EXPORT(int) COLOR_PAIR (int);"},
		{"return f(x);", "return f(x);"},
	}
	for _, tt := range tests {
		if got := string(blankMacros([]byte(tt.src))); got != tt.want {
			t.Errorf("blankMacros(%q) = %q; want %q", tt.src, got, tt.want)
		}
	}
}

func TestBlankMacrosKeepsDefines(t *testing.T) {
	src := "#define PyObject_HEAD_INIT(type) { 1, type },\n#define FOO bar(x)\n#define BIT ((unsigned)1 << 3)\n"
	if got := string(blankMacros([]byte(src))); got != src {
		t.Errorf("blankMacros(%q) = %q", src, got)
	}
}

func TestBlankMacrosPrefixAndQualified(t *testing.T) {
	tests := []struct{ src, want string }{
		{"  V8_INLINE static Local<T> New(Isolate* i);", "            static Local<T> New(Isolate* i);"},
		{"const_iterator end() const ABSL_ATTRIBUTE_LIFETIME_BOUND {", "const_iterator end() const" + strings.Repeat(" ", 31) + "{"},
	}
	for _, tt := range tests {
		if got := string(blankMacros([]byte(tt.src))); got != tt.want {
			t.Errorf("blankMacros(%q) = %q; want %q", tt.src, got, tt.want)
		}
	}
}

func TestBlankMacrosMore(t *testing.T) {
	tests := []struct{ src, want string }{
		{"class V8_EXPORT V8_NODISCARD Scope {", "class                        Scope {"},
		{"NODE_EXTERN v8::Local<v8::Context> NewContext(", "            v8::Local<v8::Context> NewContext("},
		{"  V8_INLINE Persistent(Isolate* i)", "            Persistent(Isolate* i)"},
		{"BOOL Init(void);", "BOOL Init(void);"},
	}
	for _, tt := range tests {
		if got := string(blankMacros([]byte(tt.src))); got != tt.want {
			t.Errorf("blankMacros(%q) = %q; want %q", tt.src, got, tt.want)
		}
	}
}

func TestBlankMacrosRuns(t *testing.T) {
	src := "DECLARE_ASN1_FUNCTIONS(A)\nDECLARE_ASN1_FUNCTIONS(B)\n#define X 1\n"
	want := "                         \n                         \n#define X 1\n"
	if got := string(blankMacros([]byte(src))); got != want {
		t.Errorf("blankMacros(%q) = %q; want %q", src, got, want)
	}
}

func TestBlankMacrosFinalClass(t *testing.T) {
	tests := []struct{ src, want string }{
		{"class V8_EXPORT HeapState final {", "class           HeapState final {"},
		{"class Foo final : public Bar {", "class Foo final : public Bar {"},
	}
	for _, tt := range tests {
		if got := string(blankMacros([]byte(tt.src))); got != tt.want {
			t.Errorf("blankMacros(%q) = %q; want %q", tt.src, got, tt.want)
		}
	}
}

func TestBlankMacrosPointer(t *testing.T) {
	src := "typedef void (APIENTRYP PFNGLCLEARPROC) (GLbitfield mask);"
	want := "typedef void (          PFNGLCLEARPROC) (GLbitfield mask);"
	if got := string(blankMacros([]byte(src))); got != want {
		t.Errorf("blankMacros(%q) = %q; want %q", src, got, want)
	}
}

func TestBlankMacrosOldStyle(t *testing.T) {
	tests := []struct{ src, want string }{
		{"ZEXTERN int ZEXPORT gzputc OF((gzFile file, int c));", "        int         gzputc    (gzFile file, int c) ;"},
		{"extern int pg_sprintf(char *s,...) pg_attribute_printf(2, 3);", "extern int pg_sprintf(char *s,...)" + strings.Repeat(" ", 26) + ";"},
	}
	for _, tt := range tests {
		if got := string(blankMacros([]byte(tt.src))); got != tt.want {
			t.Errorf("blankMacros(%q) = %q; want %q", tt.src, got, tt.want)
		}
	}
}
