package grammar

import (
	"strings"
	"testing"
)

func TestBlankAttributes(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"before a destructor", "  V8_INLINE ~Scope() {}", "            ~Scope() {}"},
		{"before an operator", "  V8_INLINE Member& operator=(const Member& o) {", "            Member& operator=(const Member& o) {"},
		{"before a conversion", "  V8_INLINE operator T*() const {", "            operator T*() const {"},
		{"a run of them", "  V8_WARN_UNUSED_RESULT V8_INLINE bool To(T* out) const {", "                                  bool To(T* out) const {"},
		{"a macro before a keyword after one", "  V8_INLINE CPPGC_CONST static uintptr_t Get() {", "                        static uintptr_t Get() {"},
		{"a prefix macro after one", "EXTERN CONST86 Tcl_Filesystem * Tcl_FSGet(Tcl_Obj *p);", "               Tcl_Filesystem * Tcl_FSGet(Tcl_Obj *p);"},
		{"after static", "  static V8_INLINE void Barrier(const Params& p);", "  static           void Barrier(const Params& p);"},
		{"after virtual", "  virtual V8_WARN_UNUSED_RESULT bool Discard(void* a);", "  virtual                       bool Discard(void* a);"},
		{"after explicit", "  explicit V8_INLINE Local(T* that) : val_(that) {}", "  explicit           Local(T* that) : val_(that) {}"},
		{"after static, the name on the next line", "  static _X_CONSTEXPR _V\n  _S_make(_Up&& d)", "  static              _V\n  _S_make(_Up&& d)"},
		{"before a name on the next line", "  static void V8_PRESERVE_MOST\n  Slow(int);", "  static void                 \n  Slow(int);"},
		{"a line of them before the type's line", "  _X_ALWAYS_INLINE _X_CONSTEXPR\n  _V\n  operator~() const", strings.Repeat(" ", 31) + "\n  _V\n  operator~() const"},
		{"a message over lines", "  V8_DEPRECATE_SOON(\n      \"Use the other \"\n      \"one.\")\n  void Detach();", strings.Repeat(" ", 20) + "\n" + strings.Repeat(" ", 22) + "\n" + strings.Repeat(" ", 13) + "\n  void Detach();"},
		{"an enumerator's message", "  kOld V8_ENUM_DEPRECATED(\"Gone \"\n      \"soon.\"),\n  kNew", "  kOld " + strings.Repeat(" ", 26) + "\n" + strings.Repeat(" ", 14) + ",\n  kNew"},
		{"a message before a keyword", "  V8_CLANG_NO_SANITIZE(\"address\") const void* Get() const {", strings.Repeat(" ", 34) + "const void* Get() const {"},
	}
	for _, tt := range tests {
		if got := string(blankMacros([]byte(tt.src))); got != tt.want {
			t.Errorf("%s: blankMacros(%q) = %q; want %q", tt.name, tt.src, got, tt.want)
		}
	}
}

func TestBlankAttributesKeeps(t *testing.T) {
	for _, src := range []string{
		// The word may be the declaration's only type.
		"static UINT8 f(void);",
		"static EXPORT_INFO *f(void);",
		"static EXPORT_INFO f(void);",
		"const EXPORT_INFO* GetInfo();",
		// Directives define and test the macros.
		"#define V8_INLINE inline __attribute__((always_inline))",
		"#ifdef V8_EXPORT\n#endif",
		// Messages that are code: a test's name, a statement, a value.
		"TEST_CASE(\"adds\") {\n}",
		"  LOG_ERROR(\"failed\");",
		"  return TEXT(\"x\");",
		"  return TEXT(\"x\"),",
		"  f(a, TEXT(\"x\"));",
		// An enumerator and an expression.
		"enum { A_EXPORT, B };",
		"  x = FLAG_INLINE | y;",
	} {
		if got := string(blankMacros([]byte(src))); got != src {
			t.Errorf("blankMacros(%q) = %q; want it unchanged", src, got)
		}
	}
}

func TestBlankGaps(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"using typename", "  using typename Base::Type;", "  using          Base::Type;"},
		{"unnamed pointer in a template", "template <typename U, std::enable_if_t<X<U>>* = nullptr>", "template <typename U, std::enable_if_t<X<U>>           >"},
		{"unnamed pointer parameter", "void f(int* = nullptr);", "void f(int           );"},
		{"macro-wrapped base", "class C : public NON_EXPORTED_BASE(v8::C) {", "class C : public                   v8::C  {"},
		{"macro-wrapped base on its line", "class C\n    : public NON_EXPORTED_BASE(v8::C),\n      public D {", "class C\n    : public                   v8::C ,\n      public D {"},
	}
	for _, tt := range tests {
		if got := string(blankMacros([]byte(tt.src))); got != tt.want {
			t.Errorf("%s: blankMacros(%q) = %q; want %q", tt.name, tt.src, got, tt.want)
		}
	}
	for _, src := range []string{
		"  using T = typename Base::Type;",
		"  p = nullptr;",
		"  *p = nullptr;",
		"  int* p = nullptr;",
		"class C : public Base {",
		"class C : public Base<int> {",
		"  virtual FOO(int x) {",
		"class C : public NON_EXPORTED_BASE(v8::C",
	} {
		if got := string(blankMacros([]byte(src))); got != src {
			t.Errorf("blankMacros(%q) = %q; want it unchanged", src, got)
		}
	}
}
