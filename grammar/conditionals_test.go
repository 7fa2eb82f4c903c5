package grammar

import (
	"strings"
	"testing"
)

func TestBalanceConditionals(t *testing.T) {
	tests := []struct {
		name string
		cpp  bool
		// src and want are written with "|" for line breaks; want is
		// what the parser reads.
		src, want string
	}{
		{
			"directive in an initializer list", true,
			"A() : a(0),|#ifdef DEBUG|  d(1),|#endif|  b(2) {}",
			"A() : a(0),|            |  d(1),|      |  b(2) {}",
		},
		{
			"branches that each open a brace keep the first", true,
			"#ifdef T|  if (a) {|#else|  if (b) {|#endif|  }",
			"        |  if (a) {|     |          |      |  }",
		},
		{
			"a conditional between a class keyword and its name", true,
			"class|#if X|  alignas(16)|#endif|  wide {",
			"class|     |  alignas(16)|      |  wide {",
		},
		{
			"bodies after a member's qualifiers are alternatives", true,
			"int f() const|#if X|{ return 1; }|#else|{ return 2; }|#endif",
			"int f() const|     |{ return 1; }|     |             |      ",
		},
		{
			// The grammar reads these, and keeps an error in one branch there.
			"whole declarations where one may start are left alone", true,
			"int a;|#ifdef _WIN32|int open_w(void);|#else|int open(void);|#endif",
			"int a;|#ifdef _WIN32|int open_w(void);|#else|int open(void);|#endif",
		},
		{
			// Balanced branches are all kept: a branch that ends in a
			// name or ")" ends in a macro line as often as in a head.
			"a function head per platform is left to the grammar", false,
			"#ifdef _WIN32|void f(int a)|#else|void f(long a)|#endif|{ }",
			"#ifdef _WIN32|void f(int a)|#else|void f(long a)|#endif|{ }",
		},
		{
			"#if 0 is dead, its #else lives", false,
			"#if 0|int old(;|#else|int now(void);|#endif",
			"     |         |     |int now(void);|      ",
		},
		{
			"__cplusplus is undefined in C", false,
			"#ifdef __cplusplus|extern \"C\" {|#endif|int f(void);",
			"                  |            |      |int f(void);",
		},
		{
			"a whole declaration for C++ is read in C too", false,
			"int a;|#ifdef __cplusplus|extern \"C\" int f(int);|#else|int f();|#endif",
			"int a;|#ifdef __cplusplus|extern \"C\" int f(int);|#else|int f();|#endif",
		},
		{
			"__cplusplus is defined in C++", true,
			"#ifdef __cplusplus|extern \"C\" {|#endif|int f(void);",
			"                  |extern \"C\" {|      |int f(void);",
		},
		{
			"#define stays, #include goes only inside an expression", true,
			"#include <x.h>|int a[] = {1,|#include \"more.inc\"|#define N 1|2};",
			"#include <x.h>|int a[] = {1,|                   |#define N 1|2};",
		},
		{
			"brackets in strings, characters and comments do not count", true,
			"y(|#if A|f('{', \"{\", R\"x({)x\"), // {|/* { */ g(1'000),|#else|h(),|#endif|0);",
			"y(|     |f('{', \"{\", R\"x({)x\"), // {|/* { */ g(1'000),|     |h(),|      |0);",
		},
		{
			"a directive in a raw string is text", true,
			"f(|R\"x(|#if A|{|)x\",|#if B|1,|#endif|2);",
			"f(|R\"x(|#if A|{|)x\",|     |1,|      |2);",
		},
		{
			"a directive in a block comment is text", true,
			"/*|#if X|*/ int a;",
			"/*|#if X|*/ int a;",
		},
		{
			// As for a compiler, a comment is a space within the directive.
			"a comment continues a directive line", true,
			"f(|#if A|1,|#endif /* a|b */ 3,|2);",
			"f(|     |1,|           |       |2);",
		},
		{
			"nested groups are decided inside out", true,
			"#if A|#if B|{|#else|{|#endif|}|#else|x;|#endif",
			"#if A|     |{|     | |      |}|#else|x;|#endif",
		},
	}
	for _, tt := range tests {
		src := strings.ReplaceAll(tt.src, "|", "\n")
		want := strings.ReplaceAll(tt.want, "|", "\n")
		got := string(balanceConditionals([]byte(src), tt.cpp))
		if got != want {
			t.Errorf("%s: balanceConditionals(%q) =\n%q; want\n%q", tt.name, src, got, want)
		}
		if len(got) != len(src) {
			t.Errorf("%s: length %d, want %d", tt.name, len(got), len(src))
		}
	}
	src := []byte("#ifdef X\nint a;\n#endif\n")
	if balanceConditionals(src, true); string(src) != "#ifdef X\nint a;\n#endif\n" {
		t.Error("balanceConditionals modified its input")
	}
	if plain := []byte("int a;\n"); &balanceConditionals(plain, true)[0] != &plain[0] {
		t.Error("balanceConditionals copied a file it does not change")
	}
}
