package outline

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/grammar"
)

// TestExtents pins where definitions start and end: the doc comments,
// decorators and attributes right above belong to them, a blank line or a
// comment ending a line of code does not.
func TestExtents(t *testing.T) {
	tests := []struct {
		lang, src string
		want      []string // "QUALIFIED LINE START-END"
	}{
		{"python", "import x\n\n# about f\n@cache\n@wraps(g)\ndef f():\n    pass\n\nclass C:\n    # m's note\n\n    @property\n    def m(self):\n        return 1\n",
			[]string{"f 6 3-7", "C 9 9-14", "C.m 13 12-14"}},
		{"rust", "//! crate doc\n\n/// Spawns.\n/// Twice.\n#[inline]\n#[must_use]\npub fn spawn() {}\n\nimpl Rpc {\n    // not a doc\n    fn a() {}\n    /// b's doc\n    fn b() {}\n}\n",
			[]string{"spawn 7 3-7", "Rpc 9 9-14", "Rpc.a 11 10-11", "Rpc.b 13 12-13"}},
		{"go", "package p\n\nvar x = 1 // about x\nfunc F() {}\n\n// G is documented.\n//\n// Twice.\nfunc G() {}\n",
			[]string{"F 4 4-4", "G 9 6-9"}},
		// A one-line container's comment is its own, not its members'.
		{"go", "package p\n\n// I is documented.\ntype I interface{ M() }\n",
			[]string{"I 4 3-4", "I.M 4 4-4"}},
		{"typescript", "/**\n * A class.\n */\n@Component({})\nexport class A {\n  /** m's doc */\n  @Input() m(): void {}\n}\n",
			[]string{"A 5 1-8", "A.m 7 6-7"}},
		{"java", "package p;\n\n/** Doc. */\n@Deprecated\npublic class A {\n  // note\n  @Override\n  public String toString() { return \"\"; }\n}\n",
			[]string{"A 5 3-9", "A.toString 8 6-8"}},
		{"markdown", "# A\n\ntext\n\n## B\n\nmore\n",
			[]string{"A 1 1-7", "A.B 5 5-7"}},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprint(tt.lang, i), func(t *testing.T) {
			o, err := Parse(context.Background(), grammar.ByName(tt.lang), []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range o.Definitions("f") {
				got = append(got, fmt.Sprintf("%s %d %d-%d", d.QualifiedName(), d.Line, d.Start, d.End))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("extents of %q (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

func TestEnclosing(t *testing.T) {
	defs := []Definition{
		{Name: "A", Start: 3, End: 20},
		{Name: "m", Start: 5, End: 9},
		{Name: "n", Start: 11, End: 18},
		{Name: "inner", Start: 12, End: 14},
		{Name: "B", Start: 25, End: 30},
	}
	tests := []struct {
		line   int
		want   string
		inside bool
	}{
		{1, "A", false},
		{3, "A", true},
		{5, "m", true},
		{10, "A", true},
		{13, "inner", true},
		{15, "n", true},
		{21, "A", false},
		{23, "B", false},
		{24, "B", false},
		{31, "B", false},
	}
	for _, tt := range tests {
		i, inside := Enclosing(defs, tt.line)
		if got := defs[i].Name; got != tt.want || inside != tt.inside {
			t.Errorf("Enclosing(%d) = %s, %v; want %s, %v", tt.line, got, inside, tt.want, tt.inside)
		}
	}
	if i, _ := Enclosing(nil, 1); i != -1 {
		t.Errorf("Enclosing(nil, 1) = %d; want -1", i)
	}
}

func TestSplitQualified(t *testing.T) {
	for in, want := range map[string]string{
		"Rpc::spawn": "Rpc|spawn", "a.b.c": "a|b|c", "x": "x", ".": ".", " a . b ": "a|b",
	} {
		if got := strings.Join(SplitQualified(in), "|"); got != want {
			t.Errorf("SplitQualified(%q) = %q; want %q", in, got, want)
		}
	}
}

// TestQualify pins qualified names on an outline built by hand: Rust
// inherent and trait impls (with generics and paths), Go's "Recv.Name"
// methods, nested containers, headings with dots.
func TestQualify(t *testing.T) {
	entry := func(name string, kind grammar.Kind, children ...*Entry) *Entry {
		return &Entry{Definition: Definition{Name: name, Kind: kind}, Children: children}
	}
	fn := func(name string) *Entry { return entry(name, grammar.Method) }
	o := &Outline{Entries: []*Entry{
		entry("Rpc", grammar.Impl, fn("spawn")),
		entry("Display for Rpc", grammar.Impl, fn("fmt")),
		entry("fmt::Debug for Rpc<T>", grammar.Impl, fn("debug")),
		entry("Server.Serve", grammar.Method),
		entry("net", grammar.Module, entry("Conn", grammar.Class, fn("close"))),
		entry("v1.2 notes", grammar.Heading, entry("Install", grammar.Heading)),
	}}
	qualify(o.Entries, nil)
	var got []string
	for _, d := range o.Definitions("x") {
		got = append(got, strings.Join(d.Qualified, "|")+" in "+strings.Join(d.Container(), "|"))
	}
	want := []string{
		"Rpc in ", "Rpc|spawn in Rpc",
		"Display for Rpc in ", "Rpc|fmt in Rpc",
		"fmt|Debug for Rpc<T> in ", "Rpc|debug in Rpc",
		"Server|Serve in ",
		"net in ", "net|Conn in net", "net|Conn|close in net|Conn",
		"v1.2 notes in ", "v1.2 notes|Install in v1.2 notes",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("qualified names (-want +got):\n%s", diff)
	}
}

// TestQualifyDeep: thousands of nested definitions keep the innermost
// maxContainers containers each, in time linear in their number (all of
// them cost the square of the depth: 3,750 levels took 7 s and 225 MB).
func TestQualifyDeep(t *testing.T) {
	const depth = 5000
	root := &Entry{Definition: Definition{Name: "f0", Kind: grammar.Function}}
	e := root
	for i := 1; i < depth; i++ {
		c := &Entry{Definition: Definition{Name: "f" + strconv.Itoa(i), Kind: grammar.Function}}
		e.Children = []*Entry{c}
		e = c
	}
	qualify([]*Entry{root}, nil)
	if got, want := len(e.Qualified), maxContainers+1; got != want {
		t.Fatalf("deepest entry has %d segments; want %d", got, want)
	}
	if got, want := e.QualifiedName(), "f"+strconv.Itoa(depth-maxContainers-1); !strings.HasPrefix(got, want+".") {
		t.Errorf("deepest entry's qualified name = %.40q…; want it to start with its innermost containers, %q", got, want)
	}
	if got := e.LastSegment(); got != "f"+strconv.Itoa(depth-1) {
		t.Errorf("LastSegment = %q; want its own name", got)
	}
	if got := len(e.Container()); got != maxContainers {
		t.Errorf("Container has %d segments; want %d", got, maxContainers)
	}
}
