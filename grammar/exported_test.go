package grammar

import "testing"

// TestExported: each language's marks of what is visible outside a file
// or package (issue 47, item 1).
func TestExported(t *testing.T) {
	for _, tc := range []struct {
		lang string
		d    Decl
		want bool
	}{
		{"go", Decl{Name: "Command.Find", Kind: Method}, true},
		{"go", Decl{Name: "Command.find", Kind: Method}, false},
		{"go", Decl{Name: "command.Find", Kind: Method}, false},
		{"go", Decl{Name: "Éclair", Kind: Function}, true},
		{"python", Decl{Name: "_private", Kind: Function}, false},
		{"python", Decl{Name: "__init__", Kind: Method, In: Class}, true},
		{"python", Decl{Name: "__mangled", Kind: Method, In: Class}, false},
		{"python", Decl{Name: "inner", Kind: Function, In: Function}, false},
		{"typescript", Decl{Name: "f", Kind: Function, Head: "export async function "}, true},
		{"typescript", Decl{Name: "f", Kind: Function, Head: "function "}, false},
		{"typescript", Decl{Name: "exporter", Kind: Function, Head: "function "}, false},
		{"typescript", Decl{Name: "m", Kind: Method, In: Class, Head: "private "}, false},
		{"typescript", Decl{Name: "#m", Kind: Method, In: Class}, false},
		{"typescript", Decl{Name: "m", Kind: Method, In: Class, Head: "static "}, true},
		{"typescript", Decl{Name: "run", Kind: Function, In: Namespace, Head: "function "}, false},
		{"rust", Decl{Name: "f", Kind: Function, Head: "pub fn "}, true},
		{"rust", Decl{Name: "f", Kind: Function, Head: "pub(crate) fn "}, false},
		{"rust", Decl{Name: "f", Kind: Function, Head: "pub (super) fn "}, false},
		{"rust", Decl{Name: "fmt", Kind: Method, In: Impl, InName: "Display for S", Head: "fn "}, true},
		{"rust", Decl{Name: "S", Kind: Impl, Head: "impl "}, true},
		{"java", Decl{Name: "m", Kind: Method, In: Class, Head: "@Override\n  public "}, true},
		{"java", Decl{Name: "m", Kind: Method, In: Interface, Head: "void "}, true},
		{"java", Decl{Name: "m", Kind: Method, In: Class, Head: "void "}, false},
		{"kotlin", Decl{Name: "m", Kind: Method, In: Class, Head: "fun "}, true},
		{"kotlin", Decl{Name: "m", Kind: Method, In: Class, Head: "internal fun "}, false},
		{"swift", Decl{Name: "m", Kind: Method, In: Class, Head: "open func "}, true},
	} {
		got, known := ByName(tc.lang).Exported(tc.d)
		if got != tc.want || !known {
			t.Errorf("%s Exported(%+v) = %v, %v; want %v, true", tc.lang, tc.d, got, known, tc.want)
		}
	}
	if _, known := ByName("ruby").Exported(Decl{Name: "m"}); known {
		t.Error("ruby: known; want a language that marks nothing")
	}
	for name := range exportRules {
		if ByName(name) == nil {
			t.Errorf("export rule for %s, which the registry lacks", name)
		}
	}
}
