package search

import (
	"strings"
	"unicode/utf8"
)

// MaxName is the longest name find_symbol and find_references accept, in
// bytes: far longer than any identifier, and short enough that no answer
// repeats a megabyte a model sent.
const MaxName = 1000

// maxEcho is how much of a name or argument an answer repeats, in
// characters, as lines are cut elsewhere.
const maxEcho = 300

// checkName refuses an empty name (ErrEmptyName) or an overlong one.
func checkName(name string) error {
	if name == "" {
		return ErrEmptyName
	}
	if len(name) > MaxName {
		return pathErrorf("name too long (%d bytes; the limit is %d): %s", len(name), MaxName, Echo(name))
	}
	return nil
}

// Echo is s as an answer repeats it: cut at 300 characters with "…".
func Echo(s string) string {
	if utf8.RuneCountInString(s) <= maxEcho {
		return s
	}
	var sb strings.Builder
	n := 0
	for _, r := range s {
		if n == maxEcho {
			break
		}
		sb.WriteRune(r)
		n++
	}
	return sb.String() + "…"
}
