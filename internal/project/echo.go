package project

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxEcho is how much of a name or argument an answer repeats, in
// characters, as lines are cut elsewhere.
const maxEcho = 300

// Every echo of client input (a name, a path, a glob, a header, a method)
// in any answer, error or log line goes through echo, by way of Echo,
// Quote or show: it is cut, and anything that is not printable text is
// escaped, so a one-line error stays one line and a terminal shows an
// escape sequence as text instead of obeying it.

// Echo is s as an answer repeats it: cut at 300 characters with "…", and
// quoted with Go's escapes when it holds anything but printable text (a
// newline, an escape sequence, a bidirectional-text control, bytes that
// are not UTF-8). Printable text is repeated as it is.
func Echo(s string) string { return echo(s, maxEcho, false) }

// Quote is Echo always quoted, for messages that show what they repeat
// between quotes.
func Quote(s string) string { return echo(s, maxEcho, true) }

// echo cuts s at max characters (of its escaped form, when it is
// escaped) with "…", and quotes it when quote is set or it holds anything
// but printable text.
func echo(s string, max int, quote bool) string {
	if !quote && printable(s) {
		if utf8.RuneCountInString(s) <= max {
			return s
		}
		n := 0
		for i := range s {
			if n == max {
				return s[:i] + "…"
			}
			n++
		}
		return s
	}
	var sb strings.Builder
	sb.WriteByte('"')
	for i, n := 0, 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		var e string
		if r == utf8.RuneError && size == 1 {
			e = fmt.Sprintf(`\x%02x`, s[i])
		} else {
			q := strconv.Quote(string(r))
			e = q[1 : len(q)-1]
		}
		if n+utf8.RuneCountInString(e) > max {
			sb.WriteString(`"…`)
			return sb.String()
		}
		sb.WriteString(e)
		n += utf8.RuneCountInString(e)
		i += size
	}
	sb.WriteByte('"')
	return sb.String()
}

// printable reports whether s is valid UTF-8 made only of printable
// characters and spaces that keep a line one line.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	return !strings.ContainsFunc(s, func(r rune) bool {
		return r != ' ' && !unicode.IsPrint(r)
	})
}
