package project

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestEcho (issue 32, item 12): an echo keeps printable text as it is and
// escapes everything else, so that a one-line message stays one line and
// a terminal escape sequence is shown, not obeyed; it is cut at 300
// characters, escaped or not.
func TestEcho(t *testing.T) {
	for in, want := range map[string]string{
		"Server.Serve": "Server.Serve",
		"src/a b.go":   "src/a b.go",
		"日本語":          "日本語",
		"a\x1b[31mb":   `"a\x1b[31mb"`,
		"line\nnext":   `"line\nnext"`,
		"cr\rtab\t":    `"cr\rtab\t"`,
		"sep\u2028x":   `"sep\u2028x"`,
		"bidi\u202ex":  `"bidi\u202ex"`,
		"bad\xffutf8":  `"bad\xffutf8"`,
		"quote\"\n":    `"quote\"\n"`,
		"del\x7f":      `"del\x7f"`,
		"c1\u0085":     `"c1\u0085"`,
	} {
		if got := Echo(in); got != want {
			t.Errorf("Echo(%q) = %s; want %s", in, got, want)
		}
	}
	if got := Quote("plain"); got != `"plain"` {
		t.Errorf(`Quote("plain") = %s; want "plain"`, got)
	}
	for _, in := range []string{strings.Repeat("x", 1000), strings.Repeat("\x1b", 1000), strings.Repeat("\U0010ffff", 1000), strings.Repeat("\n界", 1000)} {
		for _, got := range []string{Echo(in), Quote(in)} {
			if n := utf8.RuneCountInString(got); n > maxEcho+3 || !strings.HasSuffix(got, "…") || strings.ContainsAny(got, "\n\x1b") {
				t.Errorf("echo of %.20q… = %.40s… (%d characters); want at most %d, cut with …, on one line", in, got, n, maxEcho+3)
			}
		}
	}
}
