package search

import (
	"context"
	"testing"

	"github.com/zumba-dev/zumba/internal/fixture"
)

// Benchmarks on the Go standard library; figures, not pass/fail.

func benchTool(b *testing.B, run func(ctx context.Context, root *Root) error) {
	root, err := OpenRoot(fixture.GoSrc(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := run(context.Background(), root); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRefsGoSrc(b *testing.B) {
	for _, name := range []string{"Getpagesize", "Reader", "err"} {
		b.Run(name, func(b *testing.B) {
			benchTool(b, func(ctx context.Context, root *Root) error {
				_, err := root.References(ctx, name, nil)
				return err
			})
		})
	}
}

func BenchmarkSymbolGoSrc(b *testing.B) {
	for _, name := range []string{"Getpagesize", "ServeHTTP", "String", "NoSuchName", "err", "Reader"} {
		b.Run(name, func(b *testing.B) {
			benchTool(b, func(ctx context.Context, root *Root) error {
				_, err := root.Symbols(ctx, ParseSymbolQuery(name))
				return err
			})
		})
	}
}
