package outline

import (
	"context"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/fixture"
)

// parseDecls outlines src with each entry's signature and visibility.
func parseDecls(t testing.TB, lang *grammar.Language, src []byte) *Outline {
	t.Helper()
	o, _, err := parse(context.Background(), lang, src, parseOpts{decls: true})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return o
}

// declLines prints o's entries as "QUALIFIED [exported] — SIG".
func declLines(o *Outline) []string {
	var out []string
	var walk func(es []*Entry)
	walk = func(es []*Entry) {
		for _, e := range es {
			mark := ""
			if e.Exported {
				mark = " exported"
			}
			out = append(out, e.QualifiedName()+mark+" — "+e.Sig)
			walk(e.Children)
		}
	}
	walk(o.Entries)
	return out
}

// TestDecls: a signature is the declaration from its first word (export,
// pub, public; not its decorators or annotations) up to its body, on one
// line; visibility is what the language marks (issue 47, item 1).
func TestDecls(t *testing.T) {
	for _, tc := range []struct {
		lang, src string
		want      []string
	}{
		{"go", "package p\n\n// Doc.\nfunc (c *Command) Find(\n\targs []string,\n) (*Command, []string, error) {\n\treturn nil, nil, nil\n}\n\nfunc (c *Command) find() {}\n\ntype T struct {\n\tA int\n}\n\ntype u interface {\n\tM(x int) error\n}\n\nconst (\n\tBig = 1 << 40\n\tsmall = 1\n)\n",
			[]string{
				"Command.Find exported — func (c *Command) Find(args []string) (*Command, []string, error)",
				"Command.find — func (c *Command) find()",
				"T exported — type T struct",
				"u — type u interface",
				"u.M — M(x int) error",
				"Big exported — Big = 1 << 40",
				"small — small = 1",
			}},
		{"typescript", "@Component({selector: 'x'})\nexport class A {\n  private p(): void {}\n  q(x: number): string { return '' }\n  #r() {}\n}\nclass B {\n  m() {}\n}\nexport function f(a: string): number;\nexport function f(a: any): any {\n  return a\n}\nexport const g = async (x: T): Promise<void> => {}\n",
			[]string{
				"A exported — export class A",
				"A.p — private p(): void",
				"A.q exported — q(x: number): string",
				"A.#r — #r()",
				"B — class B",
				"B.m — m()",
				"f exported — export function f(a: string): number",
				"f exported — export function f(a: any): any",
				"g exported — export const g = async (x: T): Promise<void> =>",
			}},
		{"python", "@decorator\ndef f(a,\n      b) -> int:\n    pass\n\nclass _K:\n    def m(self):\n        def inner():\n            pass\n\nclass K(Base):\n    def __init__(self):\n        pass\n\n    def _h(self):\n        pass\n\nMAX = 3\n",
			[]string{
				"f exported — def f(a, b) -> int",
				"_K — class _K",
				"_K.m — def m(self)",
				"_K.m.inner — def inner()",
				"K exported — class K(Base)",
				"K.__init__ exported — def __init__(self)",
				"K._h — def _h(self)",
				"MAX exported — MAX = 3",
			}},
		{"rust", "#[derive(Debug)]\npub struct S {\n    a: u8,\n}\n\nimpl S {\n    pub fn new() -> Self { S { a: 0 } }\n    fn private(&self) {}\n    pub(crate) fn krate(&self) {}\n}\n\nimpl Display for S {\n    fn fmt(&self, f: &mut Formatter) -> Result { Ok(()) }\n}\n",
			[]string{
				"S exported — pub struct S",
				"S exported — impl S",
				"S.new exported — pub fn new() -> Self",
				"S.private — fn private(&self)",
				"S.krate — pub(crate) fn krate(&self)",
				"Display for S exported — impl Display for S",
				"S.fmt exported — fn fmt(&self, f: &mut Formatter) -> Result",
			}},
		{"java", "public class C {\n  @Override\n  public String toString() { return \"\"; }\n  void pkg() {}\n}\ninterface I {\n  void m();\n}\n",
			[]string{
				"C exported — public class C",
				"C.toString exported — public String toString()",
				"C.pkg — void pkg()",
				"I — interface I",
				"I.m — void m()",
			}},
	} {
		o := parseDecls(t, grammar.ByName(tc.lang), []byte(tc.src))
		if diff := gocmp.Diff(tc.want, declLines(o)); diff != "" {
			t.Errorf("%s decls (-want +got):\n%s", tc.lang, diff)
		}
	}
}

// TestDeclsBounded: a signature is cut at MaxSignature characters, and a
// constant's value is read no further than maxSigRead bytes.
func TestDeclsBounded(t *testing.T) {
	src := "package p\n\nfunc F(" + strings.Repeat("a int, ", 40) + "z int) {}\n\nconst Long = \"" + strings.Repeat("x", 1<<20) + "\"\n"
	o := parseDecls(t, grammar.ByName("go"), []byte(src))
	for _, e := range o.Entries {
		if n := len([]rune(e.Sig)); n != MaxSignature+1 || !strings.HasSuffix(e.Sig, "…") {
			t.Errorf("%s: signature of %d characters %q; want %d and …", e.Name, n, e.Sig, MaxSignature+1)
		}
	}
}

// TestGoDeclsDifferential compares, for Go files of the distribution and
// cobra v1.8.1's command.go when the module cache holds it, the
// signatures and visibility of every function and method with go/ast's:
// the source from "func" to the body's brace, and ast.IsExported of the
// name and the receiver's type. On cobra, it is the count issue 47 asks
// for: Command has 98 exported methods.
func TestGoDeclsDifferential(t *testing.T) {
	goroot := filepath.Join(fixture.GOROOT(), "src")
	var files []string
	for _, dir := range []string{"net/http", "os", "strings", "go/ast", "encoding/json", "sync", "text/template"} {
		m, _ := filepath.Glob(filepath.Join(goroot, dir, "*.go"))
		files = append(files, m...)
	}
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		cache = filepath.Join(build.Default.GOPATH, "pkg", "mod")
	}
	cobra := filepath.Join(cache, "github.com", "spf13", "cobra@v1.8.1", "command.go")
	if _, err := os.Stat(cobra); err == nil {
		files = append(files, cobra)
	} else {
		t.Logf("cobra v1.8.1 is not in the module cache (GOFLAGS=-mod=mod go mod download github.com/spf13/cobra@v1.8.1): %v", err)
	}
	if len(files) == 0 {
		t.Skip("no Go sources")
	}
	lang := grammar.ByName("go")
	funcs := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := goASTDecls(src)
		if !ok {
			continue
		}
		got := map[string]string{}
		exportedOf := map[string]int{}
		for _, e := range parseDecls(t, lang, src).Entries {
			if e.Kind != grammar.Function && e.Kind != grammar.Method {
				continue
			}
			mark := ""
			if e.Exported {
				mark = " exported"
				if e.Kind == grammar.Method {
					recv, _, _ := strings.Cut(e.Name, ".")
					exportedOf[recv]++
				}
			}
			got[e.Name+"@"+strconv.Itoa(e.Line)] = e.Name + mark + " — " + e.Sig
		}
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Errorf("%s: decls differ from go/ast (-goast +zumba):\n%s", path, diff)
		}
		funcs += len(want)
		if path == cobra {
			if n := exportedOf["Command"]; n != 98 {
				t.Errorf("cobra command.go: %d exported methods of Command; want 98", n)
			}
		}
	}
	t.Logf("%d files, %d functions and methods compared", len(files), funcs)
}

// goASTDecls is, for each function and method of src (by "Name@LINE"),
// "Name[ exported] — SIG" computed with go/ast.
func goASTDecls(src []byte) (map[string]string, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	out := map[string]string{}
	for _, decl := range f.Decls {
		d, ok := decl.(*ast.FuncDecl)
		if !ok || d.Name.Name == "_" {
			continue
		}
		name, exported := d.Name.Name, d.Name.IsExported()
		if d.Recv != nil {
			recv := receiverName(d.Recv.List[0].Type)
			name, exported = recv+"."+name, exported && ast.IsExported(recv)
		}
		end := d.End()
		if d.Body != nil {
			end = d.Body.Lbrace
		}
		mark := ""
		if exported {
			mark = " exported"
		}
		start, stop := fset.Position(d.Type.Func).Offset, fset.Position(end).Offset
		out[name+"@"+strconv.Itoa(fset.Position(d.Name.Pos()).Line)] = name + mark + " — " + declText(src, uint32(start), uint32(stop))
	}
	return out, true
}
