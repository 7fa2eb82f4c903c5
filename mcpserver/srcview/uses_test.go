package srcview

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/outline"
)

// TestUsesLine: a definition read ends with the definitions of its file
// it uses, in the order of their first use, by their names' lines; not
// itself, its type, its members, nor names only in comments and strings
// (issue 47, item 5).
func TestUsesLine(t *testing.T) {
	src := `package p

type T struct{ n int }

func (t *T) size() int { return t.n }

func (t *T) Find(x int) int {
	// unused is not called here, nor "quoted".
	if helper(x) > 0 {
		return t.size() + other(x) + helper(x)
	}
	return Max
}

func helper(x int) int { return x }

func other(x int) int { return x }

func unused() {}

func quoted() {}

const Max = 3
`
	o, nc, err := outline.ParseCode(context.Background(), grammar.ByName("go"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	defs := o.Definitions("p.go")
	find := func(name string) *outline.Definition {
		for i := range defs {
			if defs[i].Name == name {
				return &defs[i]
			}
		}
		t.Fatalf("no %s", name)
		return nil
	}
	for _, tc := range []struct {
		name string
		nc   outline.NonCode
		want string
	}{
		{"T.Find", nc, "Uses in this file: 15 helper, 5 T.size, 17 other, 23 Max"},
		{"T.Find", nil, "Uses in this file: 19 unused, 21 quoted, 15 helper, 5 T.size, 17 other, 23 Max"},
		{"helper", nc, ""},
		{"T", nc, ""},
	} {
		if got := UsesLine([]byte(src), find(tc.name), defs, tc.nc); got != tc.want {
			t.Errorf("UsesLine(%s, nc %v) = %q; want %q", tc.name, tc.nc != nil, got, tc.want)
		}
	}
}

// TestUsesLineBounded: at most 10 names and 200 bytes, then how many
// more.
func TestUsesLineBounded(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("package p\n\nfunc F() {\n")
	for i := range 15 {
		fmt.Fprintf(&sb, "\tshort%d()\n", i)
	}
	sb.WriteString("}\n")
	for i := range 15 {
		fmt.Fprintf(&sb, "func short%d() {}\n", i)
	}
	src := []byte(sb.String())
	o, err := outline.Parse(context.Background(), grammar.ByName("go"), src)
	if err != nil {
		t.Fatal(err)
	}
	defs := o.Definitions("p.go")
	got := UsesLine(src, &defs[0], defs, nil)
	if !strings.HasSuffix(got, ", … 5 more") || strings.Count(got, "short") != 10 || len(got) > maxUsesLine {
		t.Errorf("UsesLine = %q (%d bytes); want 10 names, then … 5 more, within %d bytes", got, len(got), maxUsesLine)
	}
	long := strings.ReplaceAll(sb.String(), "short", "aVeryLongHelperFunctionName")
	o, _ = outline.Parse(context.Background(), grammar.ByName("go"), []byte(long))
	defs = o.Definitions("p.go")
	got = UsesLine([]byte(long), &defs[0], defs, nil)
	if len(got) > maxUsesLine || !strings.Contains(got, "more") {
		t.Errorf("UsesLine = %q (%d bytes); want at most %d bytes and a count of the rest", got, len(got), maxUsesLine)
	}
}
