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
// parses it; most lines of a file cannot match, and a look at a line's
// first character, its "(" or its ends tells which.
//
// Its matches are the expression's over the whole text: a match lies
// within one line, and a line holds the same text around it (its "\n"
// included, so \b, (?m)^ and (?m)$ read the same neighbours).
// TestLineRegexpsAgree checks this on real C and C++ files.
type lineRegexp struct {
	re *regexp.Regexp
	// text: a text that holds a match holds this string (when set), found
	// by its byte at anchor, the string's rarest in code.
	text   string
	anchor int
	// What a line that holds a match has, checked in this order: its
	// first byte that is not a blank in first (when set), a "(" (when
	// paren), and keep's approval (when set).
	first *byteSet
	paren bool
	keep  func(l *textLine) bool
}

// byteSet holds the bytes set true.
type byteSet [256]bool

func newByteSet(in func(b byte) bool) *byteSet {
	var s byteSet
	for c := range s {
		s[c] = in(byte(c))
	}
	return &s
}

// textLine is one line of a text, its "\n" included, with what several
// expressions look at first.
type textLine struct {
	b []byte
	// first is the first byte that is not a space or tab, 0 when there is
	// none; tail is the last byte before the line's "\n" and the blanks
	// before it, 0 when there is none or no "\n"; paren and brace are the
	// indexes of the first "(" and "{", -1 when there is none.
	first, tail  byte
	paren, brace int
}

// FindAllSubmatchIndex is re.FindAllSubmatchIndex(src, -1).
func (l *lineRegexp) FindAllSubmatchIndex(src []byte) [][]int {
	return findLineRegexps(src, []*lineRegexp{l})[0]
}

// findLineRegexps returns, for each expression in order, its
// FindAllSubmatchIndex(src), reading the lines of src once for all of
// them.
func findLineRegexps(src []byte, exprs []*lineRegexp) [][][]int {
	out := make([][][]int, len(exprs))
	var activeBuf [16]int
	active := activeBuf[:0]
	for k, e := range exprs {
		if e.text == "" || holds(src, e.text, e.anchor) {
			active = append(active, k)
		}
	}
	var l textLine
	for start := 0; start < len(src); {
		end := len(src)
		if k := bytes.IndexByte(src[start:], '\n'); k >= 0 {
			end = start + k + 1
		}
		l.b = src[start:end]
		l.first = firstNonBlank(l.b)
		l.tail = 0
		if n := len(l.b) - 1; n >= 0 && l.b[n] == '\n' {
			if k := backBlanks(l.b, n); k > 0 {
				l.tail = l.b[k-1]
			}
		}
		l.paren = bytes.IndexByte(l.b, '(')
		l.brace = bytes.IndexByte(l.b, '{')
		for _, k := range active {
			e := exprs[k]
			if e.first != nil && !e.first[l.first] || e.paren && l.paren < 0 || e.keep != nil && !e.keep(&l) {
				continue
			}
			for _, m := range e.re.FindAllSubmatchIndex(l.b, -1) {
				for i := range m {
					if m[i] >= 0 {
						m[i] += start
					}
				}
				out[k] = append(out[k], m)
			}
		}
		start = end
	}
	return out
}

// holds reports whether src holds lit, searching for its byte at anchor:
// a byte rarer than its first reads on further per search.
func holds(src []byte, lit string, anchor int) bool {
	a := lit[anchor]
	for i := anchor; i < len(src); i++ {
		k := bytes.IndexByte(src[i:], a)
		if k < 0 {
			return false
		}
		i += k
		if bytes.HasPrefix(src[i-anchor:], []byte(lit)) {
			return true
		}
	}
	return false
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

func skipBlanks(line []byte, i int) int {
	for i < len(line) && isBlank(line[i]) {
		i++
	}
	return i
}

// backBlanks returns where the blanks that end at line[i] start.
func backBlanks(line []byte, i int) int {
	for i > 0 && isBlank(line[i-1]) {
		i--
	}
	return i
}

// wordBefore returns where the run of name bytes that ends at line[i]
// starts (i when there is none).
func wordBefore(line []byte, i int) int {
	for i > 0 && isWord(line[i-1]) {
		i--
	}
	return i
}

// argsBefore returns the index of the "(" that opens the ")" at line[i],
// with no bracket or line break between, or -1.
func argsBefore(line []byte, i int) int {
	for j := i - 1; j >= 0; j-- {
		switch line[j] {
		case '(':
			return j
		case ')', '\n':
			return -1
		}
	}
	return -1
}

// continues reports whether line ends with a "\\" that continues it.
func continues(line []byte) bool {
	n := len(line) - 1
	if n < 1 || line[n] != '\n' {
		return false
	}
	if line[n-1] == '\r' {
		n--
	}
	return n >= 1 && line[n-1] == '\\'
}

// trimEnd drops a line's break and the blanks before it.
func trimEnd(line []byte) []byte {
	line = bytes.TrimSuffix(line, []byte{'\n'})
	line = bytes.TrimSuffix(line, []byte{'\r'})
	return bytes.TrimRight(line, " \t")
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

// nameEnd returns the end of the name ([A-Za-z_]\w*) that starts at
// line[i], or -1 when none starts there.
func nameEnd(line []byte, i int) int {
	if i >= len(line) || !isWord(line[i]) || isDigit(line[i]) {
		return -1
	}
	for i++; i < len(line) && isWord(line[i]); i++ {
	}
	return i
}

// exportEnds reports whether l may hold exportMacro's match, read back
// from each place one may end: a ":", a "{" or the line's break after a
// name.
func exportEnds(l *textLine) bool {
	line := l.b
	if isWord(l.tail) && exportBefore(line, len(line)-1) {
		return true
	}
	return l.brace >= 0 && beforeAny(line, l.brace, '{', exportBefore) || beforeAny(line, 0, ':', exportBefore)
}

// beforeAny reports whether before(line, e) holds at one of the bytes c
// of line from i on: whether a match read back by before may end there.
func beforeAny(line []byte, i int, c byte, before func(line []byte, e int) bool) bool {
	for ; ; i++ {
		k := bytes.IndexByte(line[i:], c)
		if k < 0 {
			return false
		}
		i += k
		if before(line, i) {
			return true
		}
	}
}

// exportBefore reports whether exportMacro's match may end at line[e]:
// before it, past blanks, names each after blanks (all but the last may
// take a parenthesized argument list before their blanks), at least two
// of them ("final" counted), and before those "class", "struct" or
// "union" as a word. A reading stops at the first byte no match may hold
// there, so the readings from a line's ends cover it about once.
func exportBefore(line []byte, e int) bool {
	k := backBlanks(line, e)
	args := false // the name ending at k takes arguments
	for names := 0; ; {
		j := wordBefore(line, k)
		if j == k || isDigit(line[j]) {
			return false
		}
		if names >= 2 && !args {
			switch string(line[j:k]) {
			case "class", "struct", "union":
				return true
			}
		}
		names++
		b := backBlanks(line, j)
		if b == j || b == 0 {
			return false
		}
		args = line[b-1] == ')'
		if args {
			p := argsBefore(line, b-1)
			if p < 0 {
				return false
			}
			b = backBlanks(line, p)
		}
		k = b
	}
}

// namespaceEnds reports whether l may hold namespaceMacro's match, read
// back from each place one may end, a "{" or the line's break: "namespace",
// blanks, a name (with "::"), blanks, a name, its arguments.
func namespaceEnds(l *textLine) bool {
	line := l.b
	if isWord(l.tail) || l.tail == ')' || l.tail == '\r' {
		e := len(line) - 1
		if line[e-1] == '\r' {
			e--
		}
		if namespaceBefore(line, e) {
			return true
		}
	}
	return l.brace >= 0 && beforeAny(line, l.brace, '{', namespaceBefore)
}

func namespaceBefore(line []byte, e int) bool {
	k := backBlanks(line, e)
	if k > 0 && line[k-1] == ')' {
		p := argsBefore(line, k-1)
		if p < 0 {
			return false
		}
		k = backBlanks(line, p)
	}
	j := wordBefore(line, k)
	if j == k {
		return false
	}
	k = backBlanks(line, j)
	if k == j {
		return false
	}
	j = k
	for j > 0 && (isWord(line[j-1]) || line[j-1] == ':') {
		j--
	}
	if j == k {
		return false
	}
	k = backBlanks(line, j)
	if k == j {
		return false
	}
	return string(line[wordBefore(line, k):k]) == "namespace"
}

// prefixHead reports whether line starts as prefixMacro's matches do:
// blanks, a macro name (an "_" before it allowed), blanks, and the start
// of a name.
func prefixHead(line []byte) bool {
	i := skipBlanks(line, 0)
	if i < len(line) && line[i] == '_' {
		i++
	}
	j := macroWord(line, i)
	if j < 0 || j >= len(line) || !isBlank(line[j]) {
		return false
	}
	k := skipBlanks(line, j)
	return k < len(line) && (isWord(line[k]) && !isDigit(line[k]))
}

// oldStyleHead reports whether line may hold oldStyleParams's match: a
// name, blanks, an upper-case name ([A-Z][A-Z0-9_]*), blanks and "((".
func oldStyleHead(line []byte) bool {
	for p := 0; ; p++ {
		k := bytes.Index(line[p:], []byte("(("))
		if k < 0 {
			return false
		}
		p += k
		// Back over blanks and the upper-case name's [A-Z0-9_]; its first
		// byte a capital, a blank before it and a name's byte before that.
		j := p
		for j > 0 && isBlank(line[j-1]) {
			j--
		}
		e := j
		for j > 0 && (isUpper(line[j-1]) || isDigit(line[j-1]) || line[j-1] == '_') {
			j--
		}
		// The name may start at any capital of the run that follows a
		// blank: only the run's start can follow one.
		if j < e && isUpper(line[j]) && j > 0 && isBlank(line[j-1]) {
			b := j - 1
			for b > 0 && isBlank(line[b-1]) {
				b--
			}
			if b > 0 && isWord(line[b-1]) {
				return true
			}
		}
	}
}

// pointerHead reports whether line holds pointerMacro's match: "(",
// blanks, a macro name, blanks, a name, blanks, ")", blanks and "(".
func pointerHead(line []byte) bool {
	for i := 0; i < len(line); i++ {
		if line[i] != '(' {
			continue
		}
		j := macroWord(line, skipBlanks(line, i+1))
		if j < 0 || j >= len(line) || !isBlank(line[j]) {
			continue
		}
		e := nameEnd(line, skipBlanks(line, j))
		if e < 0 {
			continue
		}
		k := skipBlanks(line, e)
		if k < len(line) && line[k] == ')' {
			if k = skipBlanks(line, k+1); k < len(line) && line[k] == '(' {
				return true
			}
		}
	}
	return false
}

// lineMacroHead reports whether line starts as lineMacro's matches do:
// blanks, then a name that is a macro's (only capitals, digits and "_",
// not starting with a digit, or ending in "_" and such a run starting
// with a capital), then, past blanks, its arguments' "(", a comment or
// the line's end.
func lineMacroHead(line []byte) bool {
	i := skipBlanks(line, 0)
	j := i
	for j < len(line) && isWord(line[j]) {
		j++
	}
	if j == i {
		return false
	}
	// upper: where the name's last run of [A-Z0-9_] starts.
	upper := j
	for upper > i && (isUpper(line[upper-1]) || isDigit(line[upper-1]) || line[upper-1] == '_') {
		upper--
	}
	macro := upper == i && !isDigit(line[i])
	if !macro {
		for k := upper; k+1 < j; k++ {
			if line[k] == '_' && isUpper(line[k+1]) {
				macro = true
				break
			}
		}
	}
	if !macro {
		return false
	}
	k := skipBlanks(line, j)
	if k < len(line) && line[k] == '(' {
		// Its arguments: brackets nested at most three deep on the line.
		depth := 0
		for ; k < len(line); k++ {
			switch line[k] {
			case '(':
				depth++
				if depth > 3 {
					return false
				}
			case ')':
				depth--
			case '\n':
				return false
			}
			if depth == 0 {
				break
			}
		}
		if k == len(line) {
			return false
		}
		k = skipBlanks(line, k+1)
	}
	// Then a comment, blanks and the line's end.
	if bytes.HasPrefix(line[k:], []byte("//")) {
		return true
	}
	if bytes.HasPrefix(line[k:], []byte("/*")) {
		t := trimEnd(line)
		return len(t) >= k+4 && bytes.HasSuffix(t, []byte("*/"))
	}
	if k < len(line) && line[k] == '\r' {
		k++
	}
	return k == len(line) || line[k] == '\n'
}
