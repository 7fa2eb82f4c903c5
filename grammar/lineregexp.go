package grammar

import (
	"bytes"
	"regexp"
)

// lineRegexp is a regular expression none of whose matches spans a line
// break (a match may end with its line's "\n"), run only on the lines that
// may hold a match. Go's regexp engine reads a large file at a few MB/s
// when the expression has no literal prefix, slower than tree-sitter
// parses it; most lines of a file cannot match, and a byte search or a
// look at a line's first character tells which.
//
// Its matches are the expression's over the whole text: a match lies
// within one line, and a line holds the same text around it (its "\n"
// included, so \b, (?m)^ and (?m)$ read the same neighbours).
// TestLineRegexpsAgree checks this on real C and C++ files.
type lineRegexp struct {
	re *regexp.Regexp
	// lits: a line that matches holds one of these strings; nil when keep
	// alone decides.
	lits []string
	// keep: a line that matches passes it; nil when lits alone decide.
	keep func(line []byte) bool
}

// FindAllSubmatchIndex is re.FindAllSubmatchIndex(src, -1).
func (l *lineRegexp) FindAllSubmatchIndex(src []byte) [][]int {
	var out [][]int
	// next[i] is where lits[i] next occurs at or after the current line,
	// len(src) when it does not.
	next := make([]int, len(l.lits))
	for i := range next {
		next[i] = -1
	}
	for start := 0; start < len(src); {
		if len(l.lits) > 0 {
			at := len(src)
			for i, lit := range l.lits {
				if next[i] < start {
					if k := bytes.Index(src[start:], []byte(lit)); k >= 0 {
						next[i] = start + k
					} else {
						next[i] = len(src)
					}
				}
				at = min(at, next[i])
			}
			if at == len(src) {
				break
			}
			start = bytes.LastIndexByte(src[:at], '\n') + 1
		}
		end := len(src)
		if k := bytes.IndexByte(src[start:], '\n'); k >= 0 {
			end = start + k + 1
		}
		line := src[start:end]
		if l.keep == nil || l.keep(line) {
			for _, m := range l.re.FindAllSubmatchIndex(line, -1) {
				for i := range m {
					if m[i] >= 0 {
						m[i] += start
					}
				}
				out = append(out, m)
			}
		}
		start = end
	}
	return out
}

// firstNonBlank is the first byte of line that is not a space or tab, 0
// when there is none.
func firstNonBlank(line []byte) byte {
	for _, b := range line {
		if b != ' ' && b != '\t' {
			return b
		}
	}
	return 0
}

func isUpper(b byte) bool { return 'A' <= b && b <= 'Z' }

func isLower(b byte) bool { return 'a' <= b && b <= 'z' }

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// upperAfterBlank reports whether line holds a space or tab followed by
// two characters of an upper-case macro name ([A-Z][A-Z0-9_]).
func upperAfterBlank(line []byte) bool {
	for i := 0; i+2 < len(line); i++ {
		if (line[i] == ' ' || line[i] == '\t') && isUpper(line[i+1]) {
			if b := line[i+2]; isUpper(b) || isDigit(b) || b == '_' {
				return true
			}
		}
	}
	return false
}

// underscoreUpper reports whether line holds "_" followed by an upper-case
// letter.
func underscoreUpper(line []byte) bool {
	for i := 0; i+1 < len(line); i++ {
		if line[i] == '_' && isUpper(line[i+1]) {
			return true
		}
	}
	return false
}
