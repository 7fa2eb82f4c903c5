package search

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// IsWordRune reports whether r is part of a word: a letter, a digit, "_",
// or a combining mark (which belongs to the letter before it).
func IsWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r)
}

// WordScanner finds whole-word occurrences of one word in byte slices.
type WordScanner struct {
	word []byte
}

// NewWordScanner returns a scanner for word.
func NewWordScanner(word string) *WordScanner {
	return &WordScanner{word: []byte(word)}
}

// Next returns the offset of the first whole-word occurrence at or after
// from, or -1. An occurrence is whole when the characters just before and
// after it are not word characters (the start and end of data count as
// boundaries).
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
		if s.boundaryBefore(data, i) && s.boundaryAfter(data, i+len(w)) {
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
