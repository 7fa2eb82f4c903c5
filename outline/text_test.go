package outline

import (
	"strconv"
	"strings"
)

// text is an outline as tests compare it: one "LINE KIND NAME" line per
// entry, nested entries indented by two spaces per level ("" when empty).
// The outline tool prints answers (mcpserver/outline.go); this is only
// for the engine's own tests.
func text(o *Outline) string {
	var sb strings.Builder
	var walk func(es []*Entry, depth int)
	walk = func(es []*Entry, depth int) {
		for _, e := range es {
			sb.WriteString(strings.Repeat("  ", depth))
			sb.WriteString(strconv.Itoa(e.Line) + " " + e.Kind.String() + " " + e.Name + "\n")
			walk(e.Children, depth+1)
		}
	}
	walk(o.Entries, 0)
	return sb.String()
}
