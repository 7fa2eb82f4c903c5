package grammar

import "testing"

func TestCSSName(t *testing.T) {
	for _, tc := range []struct{ head, want string }{
		{"@media (min-width: 600px) {\n  .a { color: red }\n}", "@media (min-width: 600px)"},
		{"@media screen\n  and (max-width: 600px),\n\tprint {", "@media screen and (max-width: 600px), print"},
		{"@layer base{.a{}}", "@layer base"},
		{"@font-face {", "@font-face"},
		{"@import url(x.css);", "@import url(x.css)"},
		{".btn { }", ""},
		{"", ""},
	} {
		if got := cssName(Heading, []byte(tc.head)); got != tc.want {
			t.Errorf("cssName(%q) = %q, want %q", tc.head, got, tc.want)
		}
	}
}
