package project

import (
	"context"
	"testing"

	"github.com/zumba-dev/zumba/internal/fixture"
)

// A benchmark on the Go standard library; figures, not pass/fail.

func BenchmarkWalkGoSrc(b *testing.B) {
	root, err := OpenRoot(fixture.GoSrc(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := root.Walk(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
