package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestOutlineBound: an outline answer stays within about 100 KB: nested
// levels collapse first, then the top level is cut with a last line
// saying what was left out (issue 11, defect 6).
func TestOutlineBound(t *testing.T) {
	var nested, flat strings.Builder
	nested.WriteString("class A {\n")
	for i := range 9000 {
		fmt.Fprintf(&nested, "  m%d() {}\n", i)
	}
	nested.WriteString("}\n")
	for i := range 9000 {
		fmt.Fprintf(&flat, "function f%d() {}\n", i)
	}
	for name, src := range map[string]string{"nested.ts": nested.String(), "flat.ts": flat.String() + flat.String()} {
		got, isError := outlineSource(context.Background(), name, []byte(src))
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
