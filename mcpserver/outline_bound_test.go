package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/outline"
)

// TestOutlineBound: an outline answer stays within about 100 KB: nested
// levels collapse first, then the top level is cut with a last line
// saying what was left out (issue 11, defect 6).
func TestOutlineBound(t *testing.T) {
	t.Parallel()
	var nested, flat strings.Builder
	nested.WriteString("class A {\n")
	for i := range 9000 {
		fmt.Fprintf(&nested, "  m%d() {}\n", i)
	}
	nested.WriteString("}\n")
	for i := range 9000 {
		fmt.Fprintf(&flat, "function f%d() {}\n", i)
	}
	// The answer's shape is under test, not the speed: a loaded machine
	// must not stop these parses at the default 5 s deadline.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for name, src := range map[string]string{"nested.ts": nested.String(), "flat.ts": flat.String() + flat.String()} {
		got, isError := outlineSource(ctx, name, []byte(src))
		if isError || len(got) > maxOutlineAnswer {
			t.Errorf("%s: %d bytes, isError %v; want at most %d", name, len(got), isError, maxOutlineAnswer)
		}
		if name == "nested.ts" && got != "1 class A (9000 members)" {
			t.Errorf("%s = %.200q; want the class collapsed", name, got)
		}
		if name == "flat.ts" && !strings.Contains(got, "more top-level entries from line") {
			t.Errorf("%s ends %q; want a last line saying what was left out", name, got[max(0, len(got)-200):])
		}
	}
}

// TestOutlineHuge: a file past outline.MaxParse is outlined from its start
// (issue 11, defect 6: a 15 MB file used to stop at the 5 s parse limit),
// within the answer's bound, and the last line says which lines were left
// out.
func TestOutlineHuge(t *testing.T) {
	t.Parallel()
	var src strings.Builder
	src.WriteString("package big\n\n")
	for i := 0; src.Len() < 3*outline.MaxParse; i++ {
		fmt.Fprintf(&src, "func F%06d(a, b int) int { return a + b*%d }\n", i, i)
	}
	lines := strings.Count(src.String(), "\n")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	got, isError := outlineSource(ctx, "big.go", []byte(src.String()))
	if isError || len(got) > maxOutlineAnswer {
		t.Fatalf("%d bytes, isError %v: %.200q; want an outline of at most %d bytes", len(got), isError, got, maxOutlineAnswer)
	}
	last := got[strings.LastIndexByte(got, '\n')+1:]
	// Its first 256 KB hold more functions than the answer shows: the
	// rest is not parsed.
	want := fmt.Sprintf(" to %d are not outlined: the file is 3.1 MB and outline reads its first 256 KB; read those lines directly", lines)
	if !strings.HasPrefix(last, "… lines ") || !strings.HasSuffix(last, want) {
		t.Errorf("last line = %q; want … lines N%s", last, want)
	}
	if !strings.HasPrefix(got, "3 function F000000\n4 function F000001\n") {
		t.Errorf("outline starts %.100q; want the file's first functions", got)
	}
}

// TestOutlineDeep: a file nested deeper than outline searches is
// outlined down to that depth, and the last line says where the deeper
// part starts (issue 11: 30,000 nested blocks stopped at the parse limit
// under load).
func TestOutlineDeep(t *testing.T) {
	t.Parallel()
	src := "function f(){" + strings.Repeat("{", 30000) + strings.Repeat("}", 30000) + "}\nfunction g(){}\n"
	// The answer's shape is under test, not the speed (see TestOutlineBound).
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	got, isError := outlineSource(ctx, "deep.ts", []byte(src))
	want := "1 function f\n2 function g\n… definitions nested over 2048 syntax levels deep are not outlined (the first such nesting is at line 1); read those lines directly"
	if isError || got != want {
		t.Errorf("outline = %q, isError %v; want %q", got, isError, want)
	}
}

// TestOutlineHugeSparse: a file past outline.MaxParse whose first
// outlineHead bytes leave room in the answer is parsed up to
// outline.MaxParse.
func TestOutlineHugeSparse(t *testing.T) {
	t.Parallel()
	var src strings.Builder
	src.WriteString("package big\n\n")
	// Bodies of comments: sparse, and cheap to parse.
	body := strings.Repeat("\t// x = x*31 + 7\n", 165)
	for i := 0; src.Len() < 2*outline.MaxParse; i++ {
		fmt.Fprintf(&src, "func F%06d(x int) int {\n%s\treturn x\n}\n\n", i, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	got, isError := outlineSource(ctx, "big.go", []byte(src.String()))
	last := got[strings.LastIndexByte(got, '\n')+1:]
	if isError || !strings.HasSuffix(last, "outline reads its first 1 MB; read those lines directly") {
		t.Errorf("last line %q, isError %v; want the first 1 MB outlined", last, isError)
	}
	if n := strings.Count(got, "function F"); n < 300 {
		t.Errorf("%d functions listed; want the first 1 MB's (over 300)", n)
	}
}
