package outline

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

// TestParseReusesParsers parses one file many times from two goroutines:
// a pooled parser must never carry a stale cancellation from an earlier
// call (with ParseCtx's watcher goroutine, about one parse in twenty
// failed with "operation limit was hit").
func TestParseReusesParsers(t *testing.T) {
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
			for range 300 {
				o, err := Parse(context.Background(), lang, src)
				if err != nil {
					t.Errorf("Parse: %v", err)
					return
				}
				mu.Lock()
				if want == "" {
					want = o.Text()
				}
				if got := o.Text(); got != want {
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
