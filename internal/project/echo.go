package project

import (
	"strings"
	"unicode/utf8"
)

// maxEcho is how much of a name or argument an answer repeats, in
// characters, as lines are cut elsewhere.
const maxEcho = 300

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
