package grammar

import (
	"bytes"
	"regexp"
	"sync"
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

func isWord(b byte) bool { return isUpper(b) || isLower(b) || isDigit(b) || b == '_' }

// macroWord returns the end of the upper-case macro name that starts at
// line[i] ([A-Z][A-Z0-9_]*[A-Z0-9], the longest run), or -1.
func macroWord(line []byte, i int) int {
	if i >= len(line) || !isUpper(line[i]) {
		return -1
	}
	j := i + 1
	for j < len(line) && (isUpper(line[j]) || isDigit(line[j]) || line[j] == '_') {
		j++
	}
	if j-i < 2 || line[j-1] == '_' {
		return -1
	}
	return j
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' }

// hasMacroWord reports whether line holds a macro name between blanks:
// callingConvention's " EXPORT ".
func hasMacroWord(line []byte) bool {
	for i := 0; i+1 < len(line); i++ {
		if isBlank(line[i]) {
			if j := macroWord(line, i+1); j >= 0 && j < len(line) && isBlank(line[j]) {
				return true
			}
		}
	}
	return false
}

// hasParenMacroWord reports whether line holds a "(", blanks, a macro
// name and a blank: pointerMacro's "(APIENTRYP ".
func hasParenMacroWord(line []byte) bool {
	for i := 0; i < len(line); i++ {
		if line[i] != '(' {
			continue
		}
		k := i + 1
		for k < len(line) && isBlank(line[k]) {
			k++
		}
		if j := macroWord(line, k); j >= 0 && j < len(line) && isBlank(line[j]) {
			return true
		}
	}
	return false
}

// continues reports whether line ends with a "\\" that continues it.
func continues(line []byte) bool {
	t := bytes.TrimSuffix(bytes.TrimSuffix(line, []byte{'\n'}), []byte{'\r'})
	return len(t) > 0 && t[len(t)-1] == '\\' && len(t) < len(line)
}

// startsWithMacroWord reports whether line starts, after blanks, with a
// macro name (an "_" before it allowed) and a blank: prefixMacro's
// "V8_INLINE ".
func startsWithMacroWord(line []byte) bool {
	i := 0
	for i < len(line) && isBlank(line[i]) {
		i++
	}
	if i < len(line) && line[i] == '_' {
		i++
	}
	j := macroWord(line, i)
	return j >= 0 && j < len(line) && isBlank(line[j])
}

// trimEnd drops a line's break and the blanks before it.
func trimEnd(line []byte) []byte {
	line = bytes.TrimSuffix(line, []byte{'\n'})
	line = bytes.TrimSuffix(line, []byte{'\r'})
	return bytes.TrimRight(line, " \t")
}

// mayEndHead reports whether exportMacro may end on line: at a ":" or
// "{", or at its break after a name.
func mayEndHead(line []byte) bool {
	if bytes.IndexByte(line, ':') >= 0 || bytes.IndexByte(line, '{') >= 0 {
		return true
	}
	t := bytes.TrimRight(bytes.TrimSuffix(line, []byte{'\n'}), " \t")
	return len(t) > 0 && isWord(t[len(t)-1])
}

// mayEndMacroLine reports whether line may end as lineMacro's do: with a
// name, its arguments' ")", or a comment.
func mayEndMacroLine(line []byte) bool {
	if bytes.Contains(line, []byte("//")) {
		return true
	}
	t := trimEnd(line)
	if len(t) == 0 {
		return false
	}
	b := t[len(t)-1]
	return isWord(b) || b == ')' || b == '/'
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

// startRegexp is a regular expression whose matches all start with the
// byte first, run anchored only at the places where may, a cheap
// necessary condition, holds: most ")" of a file cannot start a match,
// and the engine would try every one of them.
type startRegexp struct {
	re    *regexp.Regexp
	first byte
	may   func(src []byte, i int) bool

	once     sync.Once
	anchored *regexp.Regexp
}

// FindAllSubmatchIndex is re.FindAllSubmatchIndex(src, -1). A match of re
// starting at i is the anchored expression's match on src[i:], since re
// does not look before its first byte.
func (s *startRegexp) FindAllSubmatchIndex(src []byte) [][]int {
	s.once.Do(func() { s.anchored = regexp.MustCompile(`^(?:` + s.re.String() + `)`) })
	var out [][]int
	for i := 0; i < len(src); {
		k := bytes.IndexByte(src[i:], s.first)
		if k < 0 {
			break
		}
		p := i + k
		i = p + 1
		if !s.may(src, p) {
			continue
		}
		m := s.anchored.FindSubmatchIndex(src[p:])
		if m == nil {
			continue
		}
		for j := range m {
			if m[j] >= 0 {
				m[j] += p
			}
		}
		out = append(out, m)
		i = max(m[1], p+1)
	}
	return out
}

// mayTrail reports whether trailingMacros may match at the ")" at i: after
// it, past blanks, "&" and the qualifiers the expression allows, comes
// "_", a capital letter or a name holding "_attribute_".
func mayTrail(src []byte, i int) bool {
	i++
	for i < len(src) {
		switch c := src[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '&':
			i++
			continue
		case isLower(c):
			j := i
			for j < len(src) && isWord(src[j]) {
				j++
			}
			switch string(src[i:j]) {
			case "const", "noexcept", "override", "final", "volatile":
				i = j
				continue
			}
			return bytes.Contains(src[i:j], []byte("_attribute_"))
		default:
			return c == '_' || isUpper(c)
		}
	}
	return false
}

// twoNamesAfterKeyword reports whether line holds "class", "struct" or
// "union" as a word, then blanks, a name (with a parenthesized argument
// list), blanks and the start of another name: exportMacro's
// "class V8_EXPORT Isolate".
func twoNamesAfterKeyword(line []byte) bool {
	for i := 0; i < len(line); i++ {
		if i > 0 && isWord(line[i-1]) {
			continue
		}
		var n int
		switch {
		case bytes.HasPrefix(line[i:], []byte("class")):
			n = 5
		case bytes.HasPrefix(line[i:], []byte("struct")):
			n = 6
		case bytes.HasPrefix(line[i:], []byte("union")):
			n = 5
		default:
			continue
		}
		j := i + n
		k := skipBlanks(line, j)
		if k == j || k >= len(line) || !(isWord(line[k]) && !isDigit(line[k])) {
			continue
		}
		for k < len(line) && isWord(line[k]) {
			k++
		}
		if p := skipBlanks(line, k); p < len(line) && line[p] == '(' {
			if q := bytes.IndexAny(line[p+1:], "()\n"); q >= 0 && line[p+1+q] == ')' {
				k = p + 1 + q + 1
			}
		}
		if m := skipBlanks(line, k); m > k && m < len(line) && isWord(line[m]) && !isDigit(line[m]) {
			return true
		}
	}
	return false
}

func skipBlanks(line []byte, i int) int {
	for i < len(line) && isBlank(line[i]) {
		i++
	}
	return i
}

// hasConventionCall reports whether line may hold callingConvention's
// "int WINAPI WinMain(": a name, "*", "&" or ">", blanks, a macro name,
// blanks, "*"s, a name, and "(" after at most one more name.
func hasConventionCall(line []byte) bool {
	for i := 1; i+1 < len(line); i++ {
		if !isBlank(line[i]) || isBlank(line[i-1]) {
			continue
		}
		if c := line[i-1]; !(isWord(c) || c == '*' || c == '&' || c == '>') {
			continue
		}
		k := skipBlanks(line, i)
		j := macroWord(line, k)
		if j < 0 || j >= len(line) || !isBlank(line[j]) {
			continue
		}
		k = j
		for k < len(line) && (isBlank(line[k]) || line[k] == '*') {
			k++
		}
		for w := 0; w < 2; w++ {
			if k >= len(line) || !isWord(line[k]) || isDigit(line[k]) {
				break
			}
			for k < len(line) && isWord(line[k]) {
				k++
			}
			k = skipBlanks(line, k)
			if k < len(line) && line[k] == '(' {
				return true
			}
		}
	}
	return false
}
