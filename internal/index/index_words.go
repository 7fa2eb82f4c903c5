package index

import (
	"unicode"
	"unicode/utf8"
)

// WordRune reports whether r is part of a word: a letter, a digit, "_",
// or a combining mark (which belongs to the letter before it). It is the
// word index's rule, and every search's (IsWordRune).
func WordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r)
}
