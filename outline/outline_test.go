package outline

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/grammar"
)

// TestParseReusesParsers parses one file many times from two goroutines:
// a pooled parser must never carry a stale cancellation from an earlier
// call (with ParseCtx's watcher goroutine, about one parse in twenty
// failed with "operation limit was hit"; -short parses 200 times, where
// that failure would have shown about ten times).
func TestParseReusesParsers(t *testing.T) {
	t.Parallel()
	n := 300
	if testing.Short() {
		n = 30
	}
	lang := grammar.ByName("go")
	src, err := os.ReadFile("outline.go")
	if err != nil {
		t.Fatal(err)
	}
	want := ""
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range n {
				o, err := Parse(context.Background(), lang, src)
				if err != nil {
					t.Errorf("Parse: %v", err)
					return
				}
				mu.Lock()
				if want == "" {
					want = text(o)
				}
				if got := text(o); got != want {
					t.Errorf("Outline(outline.go) = %q; want %q", got, want)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// TestParseCancelled answers a cancelled context with an error, not a
// parse.
func TestParseCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Parse(ctx, grammar.ByName("go"), []byte("package p\n")); err == nil {
		t.Error("Parse with a cancelled context succeeded")
	}
}

func TestLastSegment(t *testing.T) {
	tests := map[string]string{
		"Display":                       "Display",
		"fmt::Display":                  "Display",
		"::std::fmt::Debug":             "Debug",
		"From<io::Error>":               "From<io::Error>",
		"convert::From<io::Error>":      "From<io::Error>",
		"ops::Fn(u8) -> std::io::Error": "Fn(u8) -> std::io::Error",
		"!Send":                         "!Send",
	}
	for in, want := range tests {
		if got := lastSegment(in); got != want {
			t.Errorf("lastSegment(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestHeadingText(t *testing.T) {
	tests := map[string]string{
		"Plain title":                  "Plain title",
		"*a* **b** ***c*** _d_ __e__":  "a b c d e",
		"**unclosed and 2 * 3":         "**unclosed and 2 * 3",
		"foo_bar_baz":                  "foo_bar_baz",
		"`code` and ``a ` b``":         "code and a ` b",
		"` `` `":                       "``",
		"[a [nested] link](u) [x]":     "a [nested] link [x]",
		"![alt *em*](i.png)":           "alt em",
		`\[not a link\](x) \\`:         `[not a link](x) \`,
		"<https://a.b/c> <me@a.b> <b>": "https://a.b/c me@a.b <b>",
		"[v1.0.0] - 2026":              "[v1.0.0] - 2026",
	}
	for in, want := range tests {
		if got := headingText(in); got != want {
			t.Errorf("headingText(%q) = %q; want %q", in, got, want)
		}
	}
}

// TestHeadingSections checks that a heading's record spans its section,
// which is what find_symbol and the index report as its end.
func TestHeadingSections(t *testing.T) {
	src := "# A\n\ntext\n\n### B\n\nmore\n## C\nSetext\n===\nlast\n"
	o, err := Parse(context.Background(), grammar.ByName("markdown"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range withParents(o) {
		got = append(got, fmt.Sprintf("%s %d-%d in %q", s.QualifiedName(), s.Line, s.End, s.parent))
	}
	want := []string{
		`A 1-8 in ""`,
		`A.B 5-7 in "A"`,
		`A.C 8-8 in "A"`,
		`Setext 9-11 in ""`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Symbols mismatch (-want +got):\n%s", diff)
	}
}

// parseDiff parses for a differential test: on a loaded machine a large
// file (Go's rewriteAMD64.go) may need longer than ParseTimeout, and the
// test is about what the outline says, not how fast.
func parseDiff(lang *grammar.Language, src []byte) (*Outline, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	return Parse(ctx, lang, src)
}

// TestPreparedNamesReadOriginal: Markdown's guard hides characters from the
// parser, but the outline shows the heading as written.
func TestPreparedNamesReadOriginal(t *testing.T) {
	o, err := Parse(context.Background(), grammar.ByName("markdown"), []byte("# 2024年の計画\n\n## 1😀 item\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := text(o), "1 heading 2024年の計画\n  3 heading 1😀 item\n"; got != want {
		t.Errorf("Outline = %q; want %q", got, want)
	}
}

// parented is a definition with the name of the one containing it, as
// the differential tests compare them.
type parented struct {
	Definition
	parent string
}

func withParents(o *Outline) []parented {
	var out []parented
	var walk func(es []*Entry, parent string)
	walk = func(es []*Entry, parent string) {
		for _, e := range es {
			out = append(out, parented{e.Definition, parent})
			walk(e.Children, e.Name)
		}
	}
	walk(o.Entries, "")
	return out
}
