package findcode

import (
	"strings"

	"github.com/zumba-dev/zumba/search/internal/lines"
)

// The text find_code shows of a definition beside its name.

// docLine is the first line of the doc comment between lines start and
// name (or of a docstring after its header), without its comment marks.
func docLine(text *lines.Index, start, name, end int) string {
	for n := start; n < name; n++ {
		t := text.Text(n)
		if strings.HasPrefix(t, "@") || strings.HasPrefix(t, "#[") || strings.HasPrefix(t, "#!") {
			continue
		}
		if s := stripComment(t); s != "" {
			return s
		}
	}
	doc := docstring(func(n int) []byte { return []byte(text.Text(n)) }, name, end)
	if doc.from == 0 {
		return ""
	}
	rest, q := openString([]byte(text.Text(doc.from)))
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(string(rest)), q))
	if t == "" && doc.to > doc.from {
		t = strings.TrimSpace(text.Text(doc.from + 1))
	}
	return strings.TrimSpace(strings.TrimSuffix(t, q))
}

// stripComment removes a comment line's marks: "//", "///", "/*", "*",
// "*/", "#", "--", "<!--".
func stripComment(t string) string {
	t = strings.TrimSpace(t)
	for _, p := range []string{"/**", "/*!", "/*", "///", "//!", "//", "*", "#", "--", "<!--", ";"} {
		if strings.HasPrefix(t, p) {
			t = strings.TrimPrefix(t, p)
			break
		}
	}
	t = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(t), "*/"), "-->")
	return strings.TrimSpace(t)
}
