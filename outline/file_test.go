package outline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadHead: a file past MaxParse is read up to what
// outline parses, its size and lines counted whole, with or without a
// last line break.
func TestReadHead(t *testing.T) {
	t.Parallel()
	line := "func F(a, b int) int { return a + b }\n"
	big := strings.Repeat(line, 3*MaxParse/len(line))
	for name, data := range map[string]string{"small.go": line + "x", "big.go": big, "unterminated.go": big + "x"} {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		src, whole, err := ReadHead(context.Background(), f, name, nil)
		f.Close()
		want := data[:min(len(data), MaxParse+1)]
		if err != nil || string(src) != want || whole != SizeOf([]byte(data)) {
			t.Errorf("%s: %d bytes, %+v, %v; want %d bytes, %+v", name, len(src), whole, err, len(want), SizeOf([]byte(data)))
		}
	}
}
