package outline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/grammar"
)

// FuzzOutline outlines any bytes as any registered language: it must not
// panic or hang (a parse stops at its deadline), and the outline must be
// well nested (checkNesting).
func FuzzOutline(f *testing.F) {
	langs := grammar.Languages()
	for i, l := range langs {
		files, _ := filepath.Glob(filepath.Join(corpusDir, l.Name, "*"))
		for _, file := range files {
			if strings.HasSuffix(file, ".golden") {
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(i), src)
		}
	}
	// Deep nesting (issue 11, defect 4), in the languages it was found in.
	for name, src := range deepInputs(20000) {
		for i, l := range langs {
			if l == grammar.ForPath(name, src) {
				f.Add(uint8(i), src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, lang uint8, src []byte) {
		l := langs[int(lang)%len(langs)]
		// A parse that does not end (tree-sitter-swift loops forever on
		// some inputs, see TestParseDeadline) must stop at its deadline.
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start := time.Now()
		o, err := Parse(ctx, l, src)
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("Parse(%s, %q) took %v with a 1s deadline", l.Name, src, d)
		}
		if err != nil && errors.Is(err, context.DeadlineExceeded) {
			return
		}
		if err != nil {
			t.Fatalf("Parse(%s, %q) = %v", l.Name, src, err)
		}
		if err := checkNesting(o, src); err != "" {
			t.Fatalf("Parse(%s, %q): %s\n%s", l.Name, src, err, o.Text())
		}
	})
}
