package outline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

// BenchmarkOutline outlines a file of about 1,000 lines per language, made
// of the language's corpus files one after another (the parser recovers
// at the seams, as it does in real files with errors).
func BenchmarkOutline(b *testing.B) {
	for _, lang := range grammar.Languages() {
		dir := filepath.Join("..", "testdata", "outline", lang.Name)
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		var src []byte
		for len(src) == 0 || bytes.Count(src, []byte{'\n'}) < 1000 {
			n := len(src)
			for _, e := range ents {
				p := filepath.Join(dir, e.Name())
				if filepath.Ext(p) == ".golden" || grammar.ForPath(p, nil) != lang {
					continue
				}
				data, err := os.ReadFile(p)
				if err != nil {
					b.Fatal(err)
				}
				src = append(append(src, data...), '\n')
			}
			if len(src) == n {
				break
			}
		}
		if len(src) == 0 {
			continue
		}
		lines := bytes.Count(src, []byte{'\n'})
		b.Run(lang.Name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := Parse(context.Background(), lang, src); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(lines), "lines")
		})
	}
}
