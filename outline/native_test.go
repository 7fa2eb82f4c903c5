package outline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
)

// TestNativeLayout pins what layout.go reads from go-tree-sitter's values
// without its API: a Node's TSNode (start, id) and, through the C API, the
// end, type and children of every node of a tree, against the binding's
// own methods.
func TestNativeLayout(t *testing.T) {
	lang := grammar.ByName("typescript")
	src := []byte("// c\nexport class A<T> { /** d */ m(x: T): void { if (x) { return; } } }\nconst f = () => 1;\n")
	tree, _ := parsePrepared(t, lang, src)
	defer tree.Close()
	q, _ := lang.Query()
	pl := planFor(lang, q, nodeOf(tree.RootNode()))
	var buf []sib
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		tn := nodeOf(n)
		if tn.startByte() != n.StartByte() || tn.startRow() != n.StartPoint().Row || tn.id != n.ID() {
			t.Fatalf("node %s: start %d row %d id %x; want %d %d %x", n.Type(), tn.startByte(), tn.startRow(), tn.id, n.StartByte(), n.StartPoint().Row, n.ID())
		}
		buf = children(&tn, buf)
		kids := append([]sib(nil), buf...)
		c := sitter.NewTreeCursor(n)
		defer c.Close()
		k := 0
		for more := c.GoToFirstChild(); more; more = c.GoToNextSibling() {
			m := c.CurrentNode()
			if k >= len(kids) {
				t.Fatalf("node %s: %d children; want more", n.Type(), len(kids))
			}
			s := kids[k]
			end := m.EndPoint()
			if s.n.id != m.ID() || s.endByte != m.EndByte() || s.endRow != end.Row || s.endCol != end.Column ||
				pl.name(s.symbol, tn.language()) != m.Type() || (s.named != 0) != m.IsNamed() || (s.extra != 0) != m.IsExtra() {
				t.Fatalf("child %d of %s: %+v; want %s %d-%d", k, n.Type(), s, m.Type(), m.StartByte(), m.EndByte())
			}
			k++
			walk(m)
		}
		if k != len(kids) {
			t.Fatalf("node %s: %d children; want %d", n.Type(), len(kids), k)
		}
	}
	walk(tree.RootNode())
	if !pl.native {
		t.Errorf("typescript's query does not run natively")
	}
}

// TestNativePlans: every language's query runs natively, starting its
// patterns only at the node types they are rooted at. A pattern rooted
// at a wildcard, a field or a supertype would send its language back to
// the slower run over every node (matches).
func TestNativePlans(t *testing.T) {
	for _, l := range grammar.Languages() {
		q, err := l.Query()
		if err != nil {
			t.Fatal(err)
		}
		tree, _ := parsePrepared(t, l, []byte("x\n"))
		root := nodeOf(tree.RootNode())
		if pl := newPlan(l, q, root.language()); !pl.native {
			t.Errorf("%s: the query does not run natively", l.Name)
		}
		tree.Close()
	}
}

// TestCancelFlag pins cancelFlag: the flag it returns stops a parse.
func TestCancelFlag(t *testing.T) {
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(grammar.ByName("c").Sitter())
	src := []byte(strings.Repeat("int f(void) { return 1; }\n", 2000))
	*cancelFlag(p) = 1
	if tree, err := p.ParseCtx(context.Background(), nil, src); err == nil {
		tree.Close()
		t.Fatalf("a parse with the flag set finished")
	}
	*cancelFlag(p) = 0
	p.Reset()
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		t.Fatalf("a parse with the flag clear: %v", err)
	}
	tree.Close()
}

// TestCSkippedBodies: the C bodies, initializers and lists the native run
// skips when their text holds no definition still give the definitions
// inside them when it does.
func TestCSkippedBodies(t *testing.T) {
	src := []byte(`int f(void)
{
	struct /* tag */ inner { int a; } v;
	enum e2 { X, Y } w;
	struct __attribute__((packed)) e3 { int q; } w2;
	union
	u2 { int b; } z;
	typedef int local_t;
#define IN 1
	struct outer *p = 0;
	return (int)sizeof(struct outer);
}

static const struct ops tbl[] = {
	{ .open = 0 },
};

struct s {
	union { int c; } anon;
	struct named { int d; } n;
};
`)
	o, err := Parse(context.Background(), grammar.ByName("c"), src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range o.Definitions("") {
		got = append(got, d.Name)
	}
	want := []string{"f", "inner", "e2", "e3", "u2", "local_t", "IN", "s", "named"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("definitions = %q; want %q", got, want)
	}
}

// TestTSSkippedBlocks: a TypeScript block the native run skips when its
// text holds no definition still gives each kind of definition the
// outline lists inside a function body, each alone in its body.
func TestTSSkippedBlocks(t *testing.T) {
	src := []byte(`function a() { class A1 {} }
function b() { const B1 = () => 1 }
function c() { const C1 = async x => x }
function d() { const D1 = x => x }
function e() { const E1 = <T,>(x: T) => x }
function f() { const F1 = { fm() {} } }
function g() { return { gm() {} } }
function h() { interface H1 {} }
function i() { type I1 = number }
function j() { enum J1 { A } }
function k() { function K1() {} }
const l = () => { return { lm() {} } }
function m() {
  const M1 = // the handlers
  { mm() {} }
}
function n() { const N1 = /* c */ { nm() {} } }
function o() { const O1: Record<string, () => void>= { om() {} } }
function q() { const Q1 = function () {} }
function r() { if (x) { s.run((y) => { y.go() }) } }
namespace P { const p1 = require("x"); const p2 = 1 }
`)
	o, err := Parse(context.Background(), grammar.ByName("typescript"), src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range o.Definitions("") {
		got = append(got, d.QualifiedName())
	}
	want := []string{"a", "a.A1", "b", "b.B1", "c", "c.C1", "d", "d.D1", "e", "e.E1", "f", "f.F1", "f.F1.fm",
		"g", "g.gm", "h", "h.H1", "i", "i.I1", "j", "j.J1", "k", "k.K1", "l", "l.lm", "m", "m.M1", "m.M1.mm",
		"n", "n.N1", "n.N1.nm", "o", "o.O1", "o.O1.om", "q", "q.Q1", "r", "P", "P.p2"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("definitions = %q; want %q", got, want)
	}
}

// TestChainsAgree: the chain patterns matched without the query cursor
// (zumba_chain) give the definitions the query cursor gives, on every
// case of the golden corpus. They may come in another order (the cursor
// finishes matches in the order of their last node): the outline sorts
// them.
func TestChainsAgree(t *testing.T) {
	eachCorpusCase(t, func(lang *grammar.Language, name string, src []byte) {
		q, err := lang.Query()
		if err != nil {
			t.Fatal(err)
		}
		tree, parsed := parsePrepared(t, lang, src)
		defer tree.Close()
		root := tree.RootNode()
		rn := nodeOf(root)
		chained := newPlan(lang, q, rn.language())
		plain := *chained
		plain.roots = slices.Clone(chained.roots)
		for s := range plain.roots {
			plain.roots[s] &^= chainRoot
		}
		got := defsText(collectPlan(context.Background(), chained, q, root, src, parsed, nil))
		want := defsText(collectPlan(context.Background(), &plain, q, root, src, parsed, nil))
		if got != want {
			t.Errorf("%s: chains give\n%s\nthe query cursor\n%s", name, got, want)
		}
	})
}

// eachCorpusCase calls f with every case of the golden corpus (not the
// .golden files) and its registered language.
func eachCorpusCase(t *testing.T, f func(lang *grammar.Language, name string, src []byte)) {
	t.Helper()
	dirs, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		lang := grammar.ByName(dir.Name())
		if lang == nil {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(corpusDir, dir.Name(), "*"))
		for _, name := range files {
			if strings.HasSuffix(name, ".golden") {
				continue
			}
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			f(lang, name, src)
		}
	}
}

// defsText lists defs one a line, all their fields, sorted.
func defsText(defs []def) string {
	var lines []string
	for _, d := range defs {
		lines = append(lines, fmt.Sprintf("%+v %d-%d pattern %d", d.entry.Definition, d.entry.StartByte, d.entry.EndByte, d.pattern))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// TestChainCombinations: a chain step without captures that many
// children match in many combinations ((modifiers "static" "final") on a
// field with thousands of each) is matched once, at the first child that
// fits (zumba_chain_exists), not in every combination: linear, with the
// query cursor's definitions.
func TestChainCombinations(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	java := grammar.ByName("java")
	src := []byte("class A {\n  " + strings.Repeat("static ", n) + strings.Repeat("final ", n) + "int X = 1;\n}\n")
	o, err := Parse(context.Background(), java, src)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := java.Query()
	pl, _ := plans.Load(q)
	if s := slices.Index(pl.(*plan).names, "field_declaration"); s < 0 || pl.(*plan).roots[s]&chainRoot == 0 {
		t.Errorf("java's field_declaration patterns are not matched as chains")
	}
	var got []string
	for _, d := range o.Definitions("") {
		got = append(got, d.Kind.String()+" "+d.QualifiedName())
	}
	if want := []string{"class A", "const A.X"}; !slices.Equal(got, want) {
		t.Errorf("definitions = %q; want %q", got, want)
	}
}

// TestRunOwnClock: without a caller's deadline, a parse's deadline has no
// timer (deadlineCtx) and the native run stops by its own clock, at a
// node before which every definition is found, as with a timer.
func TestRunOwnClock(t *testing.T) {
	size := 512 << 10
	if testing.Short() {
		size = 128 << 10
	}
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "export function f%06d(a: number): number { return a + %d }\n", i, i)
	}
	src := []byte(b.String())
	lang := grammar.ByName("typescript")
	q, _ := lang.Query()
	tree, _ := parsePrepared(t, lang, src)
	defer tree.Close()
	root := tree.RootNode()
	whole := collect(context.Background(), lang, q, root, src, src, nil)
	if len(whole) < 1000 {
		t.Fatalf("%d definitions; want thousands", len(whole))
	}
	if err := (&deadlineCtx{context.Background(), time.Now().Add(-time.Second)}).Err(); err != context.DeadlineExceeded {
		t.Errorf("a past deadline: Err() = %v", err)
	}
	// Deadlines from far too short to long enough: some stop the run.
	stopped := 0
	for d := 50 * time.Microsecond; d < time.Second && stopped < 3; d *= 2 {
		ctx := &deadlineCtx{context.Background(), time.Now().Add(d)}
		var deep deepCut
		defs := collect(ctx, lang, q, root, src, src, &deep)
		if deep.Stop == 0 {
			if ctx.Err() == nil && len(defs) != len(whole) {
				t.Errorf("deadline %v: %d definitions without a stop; want %d", d, len(defs), len(whole))
			}
			continue
		}
		stopped++
		want := 0
		for _, w := range whole {
			if w.entry.Line < deep.Stop {
				want++
			}
		}
		if len(defs) != want {
			t.Errorf("deadline %v: stopped at line %d with %d definitions; want the %d before it", d, deep.Stop, len(defs), want)
		}
	}
	if stopped == 0 {
		t.Errorf("no deadline stopped the run")
	}
}

// parsePrepared parses src as outline does, after the language's Prepare;
// it returns the tree and the text parsed.
func parsePrepared(t *testing.T, lang *grammar.Language, src []byte) (*sitter.Tree, []byte) {
	t.Helper()
	parsed := src
	if lang.Prepare != nil {
		parsed = lang.Prepare(src)
	}
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(lang.Sitter())
	tree, err := p.ParseCtx(context.Background(), nil, parsed)
	if err != nil {
		t.Fatal(err)
	}
	return tree, parsed
}
