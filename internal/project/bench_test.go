package project

import (
	"context"
	"os"
	"testing"

	"github.com/zumba-dev/zumba/internal/fixture"
)

// Benchmarks on the Go standard library, or on ZUMBA_WALK_TREE (a tree
// with many ignore files, such as Linux's); figures, not pass/fail.

func BenchmarkWalkGoSrc(b *testing.B) {
	dir := fixture.GoSrc(b)
	if d := os.Getenv("ZUMBA_WALK_TREE"); d != "" {
		dir = d
	}
	root, err := OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := root.Walk(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
