package outline

import (
	"context"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

// TestParseHead: a file larger than the limit is outlined from its start,
// cut before a line that starts a top-level declaration, and CutLine is
// the first line left out.
func TestParseHead(t *testing.T) {
	tests := []struct {
		name, src string
		max       int
		// want is the outline's text; cut its CutLine.
		want string
		cut  int
	}{
		{"small enough", "def a():\n    pass\n", 100, "1 function a\n", 0},
		{
			// The cut falls inside b's body: it moves back to b's line, so
			// that a is whole and b is left out.
			"before a top-level line", "def a():\n    pass\n\ndef b():\n    x = 1\n    return x\n", 35,
			"1 function a\n", 4,
		},
		{
			// Closing brackets end a declaration: they are not where one starts.
			"not before a closing bracket", "int a(void) {\n  return 0;\n}\nint b(void) {\n  return 1;\n}\n", 41,
			"1 function a\n", 4,
		},
		{
			// One long line (minified code): cut inside it, on a character.
			"one line", "function a(){}function é(){}function c(){}", 28,
			"1 function a\n", 1,
		},
	}
	for _, tt := range tests {
		lang := grammar.ByName("python")
		switch {
		case strings.HasPrefix(tt.src, "function"):
			lang = grammar.ByName("javascript")
		case strings.HasPrefix(tt.src, "int"):
			lang = grammar.ByName("c")
		}
		o, err := ParseHead(context.Background(), lang, []byte(tt.src), tt.max)
		if err != nil {
			t.Errorf("%s: ParseHead = %v", tt.name, err)
			continue
		}
		if got := text(o); got != tt.want || o.CutLine != tt.cut {
			t.Errorf("%s: ParseHead(%q, %d) = %q, CutLine %d; want %q, %d", tt.name, tt.src, tt.max, got, o.CutLine, tt.want, tt.cut)
		}
	}
}

func TestHeadCutOnACharacter(t *testing.T) {
	src := []byte(strings.Repeat("é", 100))
	for max := 1; max < len(src); max++ {
		cut := headCut(src, max)
		if cut > max || cut%2 != 0 {
			t.Fatalf("headCut(%d) = %d; want at most %d, on a character", max, cut, max)
		}
	}
}
