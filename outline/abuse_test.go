package outline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/grammar"
)

// checkNesting returns what is wrong with an outline's structure, or "":
// every entry lies inside its parent, bytes and lines, and entries come in
// the order of their names in the file.
func checkNesting(o *Outline, src []byte) string {
	var walk func(es []*Entry, parent *Entry) string
	walk = func(es []*Entry, parent *Entry) string {
		for i, e := range es {
			if e.Name == "" || strings.ContainsAny(e.Name, "\n\r") {
				return fmt.Sprintf("entry at line %d has name %q", e.Line, e.Name)
			}
			if e.Line < 1 || e.End < e.Line || e.Start > e.Line || e.StartByte > e.EndByte || int(e.EndByte) > len(src) {
				return fmt.Sprintf("entry %s: lines %d-%d, bytes %d-%d of %d", e.Name, e.Line, e.End, e.StartByte, e.EndByte, len(src))
			}
			if startLine := 1 + bytes.Count(src[:e.StartByte], []byte("\n")); e.Line < startLine {
				return fmt.Sprintf("entry %s: name line %d before its start line %d", e.Name, e.Line, startLine)
			}
			if parent != nil {
				if e.StartByte < parent.StartByte || e.EndByte > parent.EndByte {
					return fmt.Sprintf("entry %s (bytes %d-%d) is outside its parent %s (%d-%d)", e.Name, e.StartByte, e.EndByte, parent.Name, parent.StartByte, parent.EndByte)
				}
				if e.Line < parent.Line || e.End > parent.End {
					return fmt.Sprintf("entry %s (lines %d-%d) is outside its parent %s (lines %d-%d)", e.Name, e.Line, e.End, parent.Name, parent.Line, parent.End)
				}
			}
			// In the order of their names (the outline's order): a
			// definition inside another's head (a class in a C++ return
			// type, `class {A();} A()`) comes before it.
			if i > 0 && (es[i-1].Line > e.Line || es[i-1].nameStart > e.nameStart) {
				return fmt.Sprintf("entry %s (line %d) comes after %s (line %d)", e.Name, e.Line, es[i-1].Name, es[i-1].Line)
			}
			if msg := walk(e.Children, e); msg != "" {
				return msg
			}
		}
		return ""
	}
	return walk(o.Entries, nil)
}

// pathological inputs of about n bytes.
func pathological(n int) map[string][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	bin := make([]byte, n)
	for i := range bin {
		bin[i] = byte(rng.IntN(256))
	}
	mixed := make([]byte, 0, n)
	for len(mixed) < n {
		if rng.IntN(2) == 0 {
			mixed = append(mixed, "func f() {\n\tx := 1\n}\nfn g() {}\nclass A:\n  def h(self): pass\n# T\n"...)
		} else {
			mixed = append(mixed, bin[:rng.IntN(200)]...)
		}
	}
	depth := min(10000, n/4)
	return map[string][]byte{
		"open parens":      bytes.Repeat([]byte("("), n),
		"nested blocks":    []byte(strings.Repeat("{", depth) + strings.Repeat("}", depth)),
		"nested functions": []byte(strings.Repeat("function f(){ fn g(){ def h(): ", depth/8) + strings.Repeat("}}", depth/8)),
		"unclosed blocks":  []byte(strings.Repeat("if (x) {\n", n/9)),
		"one long line":    bytes.Repeat([]byte("a = b + c; "), n/11),
		"binary":           bin,
		"mixed binary":     mixed[:n],
		"headings":         bytes.Repeat([]byte("#\n"), n/2),
		"quotes":           bytes.Repeat([]byte(`"'`+"`"), n/3),
		"semicolons":       []byte("fn f() {\nfunc g() {\ndef h():\n" + strings.Repeat(";", n) + "}}"),
		"commas":           []byte("x = [" + strings.Repeat(",", n) + "]"),
	}
}

// TestPathological outlines hostile inputs in every language, each with a
// one-second deadline: each finishes within a bound of CPU time (see
// threadCPU: a loaded machine stretches wall time, not the work done),
// with a well-nested outline or a clear error. ZUMBA_PATHOLOGICAL=1 runs
// them at 512 KB, the largest file the project search reads, with the
// default deadline. -short outlines 2 KB inputs, each language a third of
// them (a different third for neighbouring languages, so every input
// still meets about a third of the grammars).
func TestPathological(t *testing.T) {
	n, deadline, every := 16<<10, time.Second, 1
	if testing.Short() {
		n, every = 2<<10, 3
	}
	if os.Getenv("ZUMBA_PATHOLOGICAL") != "" {
		n, deadline, every = 512<<10, ParseTimeout, 1
	}
	inputs := pathological(n)
	names := slices.Sorted(maps.Keys(inputs))
	for li, l := range grammar.Languages() {
		t.Run(l.Name, func(t *testing.T) {
			t.Parallel()
			var worst time.Duration
			var worstCase string
			stopped := 0
			for i, name := range names {
				if (i+li)%every != 0 {
					continue
				}
				src := inputs[name]
				ctx, cancel := context.WithTimeout(context.Background(), deadline)
				var o *Outline
				var err error
				d := threadCPU(func() { o, err = Parse(ctx, l, src) })
				cancel()
				if d > worst {
					worst, worstCase = d, name
				}
				if d > deadline+2*time.Second {
					t.Errorf("%s: Parse took %v of CPU with a %v deadline", name, d, deadline)
				}
				if err != nil {
					stopped++
					if !strings.Contains(err.Error(), "parse stopped") {
						t.Errorf("%s: Parse = %v; want an outline or a stopped parse", name, err)
					}
					continue
				}
				if msg := checkNesting(o, src); msg != "" {
					t.Errorf("%s: %s", name, msg)
				}
			}
			t.Logf("%d-byte inputs: slowest %s in %v of CPU; %d parses stopped at the deadline", n, worstCase, worst, stopped)
		})
	}
}

// deepInputs are sources nested tens of thousands of levels deep, as a
// hostile user wrote them (issue 11, defect 4): blocks, a long sum, and
// nested functions; each has a definition after the deep part.
func deepInputs(n int) map[string][]byte {
	return map[string][]byte{
		"deep.ts": []byte("function f(){" + strings.Repeat("{", n) + strings.Repeat("}", n) + "}\nfunction g(){}\n"),
		// The typedef makes the body worth searching: a C body whose text
		// holds no definition is skipped whole (zumba_c_may_define).
		"deep.c": []byte("int f(){" + strings.Repeat("{", n) + "typedef int t;" + strings.Repeat("}", n) + "}\nint g(void){return 0;}\n"),
		"sum.ts": []byte("const f = " + strings.Repeat("1+", n) + "1;\nfunction g(){}\n"),
		// Nested definitions (3,750 for 30,000 blocks): each entry's
		// qualified name used to hold all its containers, quadratic in
		// their depth.
		"nested.js": []byte(strings.Repeat("function f(){", n/8) + strings.Repeat("}", n/8) + "\nfunction g(){}\n"),
	}
}

// TestDeepNesting: the query cursor's time on a deep tree stays within
// the deadline (it used to take 82 s on 60,000 nested blocks, out of
// reach of any deadline check), and the outline is complete: the
// definitions inside the deep part and after it.
func TestDeepNesting(t *testing.T) {
	const deadline = 3 * time.Second
	for name, src := range deepInputs(30000) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			lang := grammar.ForPath(name, src)
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			var o *Outline
			var err error
			if d := threadCPU(func() { o, err = Parse(ctx, lang, src) }); d > deadline+2*time.Second {
				t.Errorf("Parse took %v of CPU with a %v deadline", d, deadline)
			}
			if err != nil {
				// A loaded machine may stop it; it must say so.
				if !strings.Contains(err.Error(), "parse stopped") {
					t.Errorf("Parse = %v; want an outline or a stopped parse", err)
				}
				return
			}
			text := text(o)
			if !strings.HasPrefix(text, "1 ") || !strings.Contains(text, " g\n") {
				t.Errorf("outline = %.300q; want f at line 1 and g after it", text)
			}
		})
	}
}

// TestWideErrorNode pins the query cursor's quadratic case: a flat error
// node with hundreds of thousands of children used to take hours to query.
// -short uses 4 KiB: tree-sitter-scala's own parse of "(" is quadratic
// (0.17 s of CPU at 8 KiB, 0.6 s at 16 KiB, 2.4 s at 32 KiB, twice
// that for the two inputs), the other languages take milliseconds.
func TestWideErrorNode(t *testing.T) {
	n := 128 << 10
	if testing.Short() {
		n = 4 << 10
	}
	for _, l := range grammar.Languages() {
		t.Run(l.Name, func(t *testing.T) {
			t.Parallel()
			for _, src := range [][]byte{bytes.Repeat([]byte("("), n), []byte("fn f() {}\n" + strings.Repeat("(", n) + "\nfunc g() {}\ndef h(): pass\n")} {
				var o *Outline
				var err error
				d := threadCPU(func() { o, err = Parse(context.Background(), l, src) })
				// A parse that reaches ParseTimeout is stopped
				// (tree-sitter-scala does on 128 KiB of "(" on a loaded
				// machine); the bound here is that nothing runs on far past
				// it, not how fast it is.
				if d > ParseTimeout+5*time.Second {
					t.Errorf("%d bytes of ( took %v of CPU", len(src), d)
				}
				if err == nil {
					if msg := checkNesting(o, src); msg != "" {
						t.Error(msg)
					}
				}
			}
		})
	}
}

// TestParseDeadline checks that a deadline really stops tree-sitter in the
// middle of a parse, and that the parser is fine for the next file.
func TestParseDeadline(t *testing.T) {
	l := grammar.ByName("go")
	var src bytes.Buffer
	for i := 0; src.Len() < 8<<20; i++ {
		fmt.Fprintf(&src, "func f%d(a, b int) int {\n\tif a > b {\n\t\treturn a*b + %d\n\t}\n\treturn (a - b) / 2\n}\n\n", i, i)
	}
	// Parsing 8 MB takes far longer than 20ms on any machine.
	for range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		var err error
		d := threadCPU(func() { _, err = Parse(ctx, l, src.Bytes()) })
		cancel()
		if err == nil || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Parse with a 20ms deadline = %v after %v; want the deadline", err, d)
		}
		if d > time.Second {
			t.Errorf("Parse ran %v of CPU with a 20ms deadline", d)
		}
	}
	// tree-sitter-swift never ends on these (FuzzOutline found them): the
	// deadline is what stops it.
	for _, src := range []string{"f {\nm() {=\n", "str\xe5\xe5uct Rpc \n}f {\nnmain() {=\n"} {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		var err error
		d := threadCPU(func() { _, err = Parse(ctx, grammar.ByName("swift"), []byte(src)) })
		cancel()
		if d > time.Second {
			t.Errorf("swift %q: Parse ran %v of CPU with a 100ms deadline", src, d)
		}
		if err == nil {
			t.Logf("swift %q parses now; the grammar's endless loop is fixed", src)
		}
	}
	// The pooled parsers still work.
	for range 4 {
		o, err := Parse(context.Background(), l, []byte("package p\n\nfunc A() {}\n"))
		if err != nil {
			t.Fatalf("Parse after a stopped parse = %v", err)
		}
		if got := text(o); got != "3 function A\n" {
			t.Fatalf("Parse after a stopped parse = %q", got)
		}
	}
}

// TestCancelledThenReused: a parse whose context ends right after it must
// not leave its parser unable to parse the next file.
func TestCancelledThenReused(t *testing.T) {
	l := grammar.ByName("go")
	src := []byte("package p\n\nfunc A() {}\n")
	for i := range 2000 {
		ctx, cancel := context.WithCancel(context.Background())
		_, err := Parse(ctx, l, src)
		cancel()
		if err != nil {
			t.Fatalf("parse %d: %v", i, err)
		}
	}
}

// TestMarkdownDigitCrash: tree-sitter-markdown's scanner crashed the
// process on a large character right after the digits of a would-be list
// marker.
func TestMarkdownDigitCrash(t *testing.T) {
	l := grammar.ByName("markdown")
	for _, src := range []string{
		"00\U000b8e380000",
		"1\U000b8e38\n",
		"# T\n\n1\U0010ffff x\n",
		"> 12\U000b8e38\n",
		"- 3. 4\U000b8e38\n",
		"  7\xff\xfe\n",
		"1\U000b8e38 title\n===\n",
		"0u\xa2\x1f\r0\U000b8e380000",
		"\x000\U000b8e380000",
	} {
		o, err := Parse(context.Background(), l, []byte(src))
		if err != nil {
			t.Errorf("Parse(%q) = %v", src, err)
			continue
		}
		if msg := checkNesting(o, []byte(src)); msg != "" {
			t.Errorf("Parse(%q): %s", src, msg)
		}
	}
}

// TestDepthBound: a tree deeper than MaxDepth is searched down to it
// only, and DeepLine says where the deeper part starts, so its outline
// costs no more than a shallow file's whatever its depth (30,000 nested
// blocks used to cost 0.4 s of CPU at every outline; issue 11); a tree as
// deep as generated real code (x/text's tables: a 947-term string
// concatenation) is searched whole.
func TestDepthBound(t *testing.T) {
	for name, src := range deepInputs(30000) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			o, err := Parse(context.Background(), grammar.ForPath(name, src), src)
			if err != nil {
				t.Fatal(err)
			}
			text := text(o)
			if o.DeepLine != 1 || !o.Partial || !strings.HasPrefix(text, "1 ") || !strings.Contains(text, " g\n") {
				t.Errorf("DeepLine %d, Partial %v, outline %.300q; want DeepLine 1, f at line 1 and g after it", o.DeepLine, o.Partial, text)
			}
		})
	}
	t.Run("concatenation.go", func(t *testing.T) {
		t.Parallel()
		src := []byte("package p\n\nconst S = \"a\"" + strings.Repeat(" +\n\t\"a\"", 1500) + "\n\nfunc g() {\n\tvar x = func() {}\n\t_ = x\n}\n")
		o, err := Parse(context.Background(), grammar.ForPath("c.go", src), src)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := text(o), "3 const S\n1505 function g\n"; o.DeepLine != 0 || got != want {
			t.Errorf("DeepLine %d, outline %q; want 0 and %q", o.DeepLine, got, want)
		}
	})
}

// TestParseHeadStopped: whatever the deadline, ParseHead gives an error
// (the parse itself stopped) or an outline; one whose queries were
// stopped (StopLine) holds exactly the whole outline's definitions that
// start before StopLine, so the answer's last line can say the lines
// from StopLine on are not outlined.
func TestParseHeadStopped(t *testing.T) {
	t.Parallel()
	var src strings.Builder
	src.WriteString("package big\n\n")
	for i := 0; src.Len() < 128<<10; i++ {
		fmt.Fprintf(&src, "func F%06d(a, b int) int { return a + b*%d }\n", i, i)
	}
	lang := grammar.ForPath("big.go", nil)
	start := time.Now()
	whole, err := ParseHead(context.Background(), lang, []byte(src.String()), 1<<20)
	if err != nil || whole.StopLine != 0 {
		t.Fatalf("ParseHead: StopLine %v, %v", whole.StopLine, err)
	}
	// Deadlines from a third of the whole outline's time to past it:
	// some stop the parse, some the queries, some neither (-short tries
	// 7 of them, the full run 18).
	full := time.Since(start)
	step := full / 15
	if testing.Short() {
		step = full / 6
	}
	stopped := 0
	for d := full / 3; d < full*3/2; d += step {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		o, err := ParseHead(ctx, lang, []byte(src.String()), 1<<20)
		cancel()
		if err != nil || o.StopLine == 0 {
			continue
		}
		stopped++
		var want []string
		for _, e := range whole.Entries {
			if e.Line < o.StopLine {
				want = append(want, e.Name)
			}
		}
		var got []string
		for _, e := range o.Entries {
			got = append(got, e.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("deadline %v: stopped at line %d with %d entries; want the %d before it", d, o.StopLine, len(got), len(want))
		}
	}
	t.Logf("%d of the deadlines stopped the queries", stopped)
}
