package outline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

// FuzzOutline outlines any bytes as any registered language: it must not
// panic or hang, and the outline must be well nested (checkNesting).
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
	f.Fuzz(func(t *testing.T, lang uint8, src []byte) {
		l := langs[int(lang)%len(langs)]
		o, err := Parse(context.Background(), l, src)
		if err != nil {
			t.Fatalf("Parse(%s, %q) = %v", l.Name, src, err)
		}
		if err := checkNesting(o, src); err != "" {
			t.Fatalf("Parse(%s, %q): %s\n%s", l.Name, src, err, o.Text())
		}
	})
}
