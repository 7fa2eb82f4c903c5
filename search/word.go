package search

import (
	"bytes"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/internal/index"
)

// IsWordRune reports whether r is part of a word: a letter, a digit, "_",
// or a combining mark (which belongs to the letter before it).
func IsWordRune(r rune) bool { return index.WordRune(r) }

// WordScanner finds whole-word occurrences of one word in byte slices.
//
// The rule is the regular expression's \b, written around the word only
// where the word has a word character at that end: "operate" must have a
// non-word character (or the start or end of data) on both sides, while
// "operate(" needs one only before it, so that "operate(x)" is found, and
// "++" needs none. For a word made of word characters this is the usual
// whole-word rule (grep -w); for one ending in punctuation, grep -w would
// demand a non-word character after the punctuation too, and miss most
// calls.
type WordScanner struct {
	word []byte
	// before and after: the word starts (ends) with a word character, so
	// a boundary is required there.
	before, after bool
}

// NewWordScanner returns a scanner for word.
func NewWordScanner(word string) *WordScanner {
	s := &WordScanner{word: []byte(word)}
	if word != "" {
		first, _ := utf8.DecodeRuneInString(word)
		last, _ := utf8.DecodeLastRuneInString(word)
		s.before, s.after = IsWordRune(first), IsWordRune(last)
	}
	return s
}

// Next returns the offset of the first whole-word occurrence at or after
// from, or -1. An occurrence is whole when, at each end of the word that
// is a word character, the character beyond it is not one (the start and
// end of data count as boundaries).
func (s *WordScanner) Next(data []byte, from int) int {
	w := s.word
	if len(w) == 0 {
		return -1
	}
	for from <= len(data)-len(w) {
		i := bytes.Index(data[from:], w)
		if i < 0 {
			return -1
		}
		i += from
		if (!s.before || s.boundaryBefore(data, i)) && (!s.after || s.boundaryAfter(data, i+len(w))) {
			return i
		}
		from = i + 1
	}
	return -1
}

func (s *WordScanner) boundaryBefore(data []byte, i int) bool {
	if i == 0 {
		return true
	}
	c := data[i-1]
	if c < utf8.RuneSelf {
		return !IsWordRune(rune(c))
	}
	r, _ := utf8.DecodeLastRune(data[:i])
	return !IsWordRune(r)
}

func (s *WordScanner) boundaryAfter(data []byte, j int) bool {
	if j >= len(data) {
		return true
	}
	c := data[j]
	if c < utf8.RuneSelf {
		return !IsWordRune(rune(c))
	}
	r, _ := utf8.DecodeRune(data[j:])
	return !IsWordRune(r)
}

// Contains reports whether data holds a whole-word occurrence.
func (s *WordScanner) Contains(data []byte) bool {
	return s.Next(data, 0) >= 0
}
