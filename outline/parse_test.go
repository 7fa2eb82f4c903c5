package outline

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

// TestParseConcurrently pins a failure of pooled parsers: ParseCtx's
// watcher goroutine could raise a parser's cancellation flag after the
// parse had returned, and the next parse on that parser then failed with
// "operation limit was hit". Many parses at once make that likely; -short
// runs fewer (80 instead of 200).
func TestParseConcurrently(t *testing.T) {
	t.Parallel()
	n := 50
	if testing.Short() {
		n = 10
	}
	lang := grammar.ByName("python")
	src := []byte(strings.Repeat("class A:\n    def f(self):\n        return [x for x in range(3)]\n", 200))
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n {
				if _, err := Parse(context.Background(), lang, src); err != nil {
					t.Errorf("parse %d: %v", i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
