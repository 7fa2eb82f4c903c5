package lines

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// naiveLines returns a file's lines as find_symbol shows them, from a
// list of every line start (made once per file: per line, the test is
// quadratic in the file's size).
func naiveLines(data []byte) func(line int) string {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return func(line int) string {
		if line < 1 || line-1 >= len(starts) {
			return ""
		}
		end := len(data)
		if line < len(starts) {
			end = starts[line] - 1
		}
		return Show(data[starts[line-1]:end], -1, -1)
	}
}

// TestLineIndex: every line (and those before the first and past the
// last) comes out as from a list of every line start, for files of
// short and long lines, empty lines, no final newline, blocks that hold
// no newline, and files of exactly a block; 200 random files of up to a
// few MB (40 under -short and under the race detector; the plain full
// run makes all 200).
func TestLineIndex(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	files := []string{"", "\n", "x", "a\nb", "a\nb\n", "\n\n\n", strings.Repeat("x", block), strings.Repeat("y", block-1) + "\n", strings.Repeat("z\n", block)}
	random := 200
	if testing.Short() || raceEnabled {
		random = 40 // 200 took ~33 s under the race detector
	}
	for range random {
		var b bytes.Buffer
		for n := rng.IntN(3 * block / 10); n > 0; n-- {
			switch rng.IntN(4) {
			case 0:
				b.WriteString(strings.Repeat("w", rng.IntN(3*block)))
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
		x := New(data)
		naive := naiveLines(data)
		n := bytes.Count(data, []byte{'\n'}) + 1
		for line := -1; line <= n+2; line++ {
			if got, want := x.Text(line), naive(line); got != want {
				t.Fatalf("line %d of a %d-byte file = %.40q; want %.40q", line, len(data), got, want)
			}
		}
	}
}
