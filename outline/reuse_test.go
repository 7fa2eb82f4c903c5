package outline

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

// TestParseAfterCancel pins pooled parsers surviving their callers'
// contexts: the binding's watcher goroutine may see a context end after
// the parse returned, and must not stop a later parse with the same parser.
func TestParseAfterCancel(t *testing.T) {
	lang := grammar.ByName("go")
	var sb strings.Builder
	sb.WriteString("package p\n")
	for i := range 200 {
		fmt.Fprintf(&sb, "\nfunc F%d(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n", i)
	}
	src := []byte(sb.String())
	n := 150
	if testing.Short() {
		n = 50
	}
	for i := range n {
		ctx, cancel := context.WithCancel(context.Background())
		o, err := Parse(ctx, lang, src)
		cancel()
		if err != nil {
			t.Fatalf("parse %d: %v", i, err)
		}
		if len(o.Entries) != 200 {
			t.Fatalf("parse %d: %d entries; want 200", i, len(o.Entries))
		}
	}
}
