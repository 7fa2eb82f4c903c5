package outline

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/fixture"
)

// BenchmarkParseCode is Parse and ParseCode of net/http/server.go: what
// finding comments and strings adds to a parse.
func BenchmarkParseCode(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(fixture.GOROOT(), "src", "net", "http", "server.go"))
	if err != nil {
		b.Skip(err)
	}
	lang := grammar.ByName("go")
	ctx := context.Background()
	b.Run("Parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := Parse(ctx, lang, src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ParseCode", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := ParseCode(ctx, lang, src); err != nil {
				b.Fatal(err)
			}
		}
	})
}
