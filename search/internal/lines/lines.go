// Package lines finds and shows the lines of a file the searches answer
// with: a line by number (Index), the line holding an offset (At), and a
// line trimmed and cut to what an answer shows (Show).
package lines

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxRunes is the most characters of a source line an answer shows;
// longer lines (minified code) are cut with "…".
const MaxRunes = 300

// At returns the bounds of the line holding offset i, without its
// "\n" (or "\r\n").
func At(data []byte, i int) (start, end int) {
	start = bytes.LastIndexByte(data[:i], '\n') + 1
	end = bytes.IndexByte(data[i:], '\n')
	if end < 0 {
		end = len(data)
	} else {
		end += i
	}
	return start, end
}

// Show trims a source line and, when it is longer than MaxRunes,
// keeps a window around the bytes [ms, me) of it with "…" at the cut ends.
// ms < 0 means no match to keep: the line is cut at its end.
func Show(line []byte, ms, me int) string {
	lo, hi := 0, len(line)
	for lo < hi && isSpace(line[lo]) {
		lo++
	}
	for hi > lo && isSpace(line[hi-1]) {
		hi--
	}
	if ms >= 0 {
		ms = min(max(ms, lo), hi)
		me = min(max(me, ms), hi)
	}
	s := line[lo:hi]
	if utf8.RuneCount(s) <= MaxRunes {
		return strings.ToValidUTF8(string(s), "\uFFFD")
	}
	if ms < 0 {
		return cutRunes(s, 0, MaxRunes) + "…"
	}
	ms, me = ms-lo, me-lo
	// Centre the match in the window; a match longer than the window
	// keeps its start.
	matchRunes := utf8.RuneCount(s[ms:me])
	before := max(0, (MaxRunes-matchRunes)/2)
	startRune := max(0, utf8.RuneCount(s[:ms])-before)
	total := utf8.RuneCount(s)
	if startRune+MaxRunes > total {
		startRune = max(0, total-MaxRunes)
	}
	out := cutRunes(s, startRune, MaxRunes)
	if startRune > 0 {
		out = "…" + out
	}
	if startRune+MaxRunes < total {
		out += "…"
	}
	return out
}

// cutRunes returns n runes of s starting at rune skip, as valid UTF-8.
func cutRunes(s []byte, skip, n int) string {
	i := 0
	for ; skip > 0 && i < len(s); skip-- {
		_, size := utf8.DecodeRune(s[i:])
		i += size
	}
	j := i
	for ; n > 0 && j < len(s); n-- {
		_, size := utf8.DecodeRune(s[j:])
		j += size
	}
	return strings.ToValidUTF8(string(s[i:j]), "\uFFFD")
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// block is how many bytes Index counts the newlines of at once.
const block = 4096

// Index finds the lines of data by number. It counts the newlines of
// each block bytes once (bytes.Count is vectorised) instead of
// listing every line's start, then walks one block for a line: a file of
// thousands of lines costs a few dozen counts and no large allocation.
type Index struct {
	data []byte
	// before[b] is how many newlines data[:b*block] holds.
	before []int32
}

func New(data []byte) *Index {
	before := make([]int32, len(data)/block+1)
	c := 0
	for b := 1; b < len(before); b++ {
		c += bytes.Count(data[(b-1)*block:b*block], []byte{'\n'})
		before[b] = int32(c)
	}
	return &Index{data: data, before: before}
}

// text is the 1-based line as find_symbol shows it; "" past the last.
func (x *Index) Text(line int) string {
	if line < 1 {
		return ""
	}
	// The line starts after newline number line-1, which is in the block
	// after the last one with fewer newlines before it.
	want := line - 1
	b, _ := slices.BinarySearch(x.before, int32(want))
	b = max(b-1, 0)
	start, seen := b*block, int(x.before[b])
	for seen < want {
		j := bytes.IndexByte(x.data[start:], '\n')
		if j < 0 {
			return ""
		}
		start += j + 1
		seen++
	}
	_, end := At(x.data, start)
	return Show(x.data[start:end], -1, -1)
}
