package search

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// naiveLineStarts lists where every line of data starts.
func naiveLineStarts(data []byte) []int {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// naiveLineText is a line as find_symbol shows it, from every line start.
func naiveLineText(data []byte, starts []int, line int) string {
	if line < 1 || line-1 >= len(starts) {
		return ""
	}
	end := len(data)
	if line < len(starts) {
		end = starts[line] - 1
	}
	return showLine(data[starts[line-1]:end], -1, -1)
}

// TestLineIndex: every line (and those before the first and past the
// last) comes out as from a list of every line start, for files of
// short and long lines, empty lines, no final newline, blocks that hold
// no newline, and files of exactly a block.
func TestLineIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	files := []string{"", "\n", "x", "a\nb", "a\nb\n", "\n\n\n", strings.Repeat("x", lineBlock), strings.Repeat("y", lineBlock-1) + "\n", strings.Repeat("z\n", lineBlock)}
	for range 100 {
		var b bytes.Buffer
		for n := rng.IntN(lineBlock / 10); n > 0; n-- {
			switch rng.IntN(8) {
			case 0:
				b.WriteString(strings.Repeat("w", rng.IntN(3*lineBlock)))
			case 1:
				b.WriteString("  \tpad ")
			default:
				b.WriteString("func f() {}")
			}
			if rng.IntN(5) > 0 {
				b.WriteByte('\n')
			}
		}
		files = append(files, b.String())
	}
	for _, f := range files {
		data := []byte(f)
		x := newLineIndex(data)
		starts := naiveLineStarts(data)
		for line := -1; line <= len(starts)+2; line++ {
			if got, want := x.text(line), naiveLineText(data, starts, line); got != want {
				t.Fatalf("line %d of a %d-byte file = %.40q; want %.40q", line, len(data), got, want)
			}
		}
	}
}
