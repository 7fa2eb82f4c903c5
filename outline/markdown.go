package outline

import "strings"

// headingText turns the inline Markdown of a heading into its text, as a
// reader sees it: backslash escapes resolved, code spans without their
// backticks, links and images reduced to their text, emphasis markers
// dropped. `## [v1.2.0](https://…) *2024*` is "v1.2.0 2024". Raw HTML and
// entities are kept as written. It follows CommonMark closely enough for
// headings; it is not a full inline parser.
func headingText(s string) string {
	if !strings.ContainsAny(s, "\\`[]<*_") {
		return s
	}
	return strings.TrimSpace(dropEmphasis(inlineText(s)))
}

// inlineText resolves escapes, code spans, links and autolinks. Emphasis
// markers are left for dropEmphasis; escaped ones are marked with \x00 so
// that it keeps them.
func inlineText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			if s[i+1] == '*' || s[i+1] == '_' {
				b.WriteByte(0)
			}
			b.WriteByte(s[i+1])
			i += 2
			continue
		case c == '`':
			n := runLen(s, i, '`')
			if end := closingBackticks(s, i+n, n); end >= 0 {
				code := s[i+n : end]
				if len(code) > 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
					code = code[1 : len(code)-1]
				}
				// Emphasis markers in code are literal.
				b.WriteString(strings.NewReplacer("*", "\x00*", "_", "\x00_").Replace(code))
				i = end + n
			} else {
				b.WriteString(s[i : i+n])
				i += n
			}
			continue
		case c == '[' || (c == '!' && i+1 < len(s) && s[i+1] == '['):
			open := i
			if c == '!' {
				open++
			}
			if text, next, ok := link(s, open); ok {
				b.WriteString(inlineText(text))
				i = next
				continue
			}
		case c == '<':
			if end := strings.IndexByte(s[i:], '>'); end > 0 {
				inner := s[i+1 : i+end]
				if isAutolink(inner) {
					b.WriteString(inner)
					i += end + 1
					continue
				}
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// link reads [text](destination), [text][label] or [text][] at s[open],
// which is '['. A bare [text] stays literal: without the document's link
// definitions it cannot be told from text in brackets.
func link(s string, open int) (text string, next int, ok bool) {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			depth++
		case ']':
			depth--
			if depth > 0 {
				continue
			}
			text = s[open+1 : i]
			if i+1 >= len(s) {
				return "", 0, false
			}
			closer := map[byte]byte{'(': ')', '[': ']'}[s[i+1]]
			if closer == 0 {
				return "", 0, false
			}
			d := 0
			for j := i + 1; j < len(s); j++ {
				switch s[j] {
				case '\\':
					j++
				case s[i+1]:
					d++
				case closer:
					d--
					if d == 0 {
						return text, j + 1, true
					}
				}
			}
			return "", 0, false
		}
	}
	return "", 0, false
}

// isAutolink reports whether <inner> is an autolink: a URI with a scheme
// or an email address.
func isAutolink(inner string) bool {
	if strings.ContainsAny(inner, " <>") || inner == "" {
		return false
	}
	if i := strings.IndexByte(inner, ':'); i >= 2 && i <= 32 {
		for _, r := range inner[:i] {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '+' || r == '.' || r == '-') {
				return false
			}
		}
		return true
	}
	at := strings.IndexByte(inner, '@')
	return at > 0 && strings.Contains(inner[at:], ".")
}

// dropEmphasis removes the * and _ runs that open or close emphasis,
// matching openers and closers of one character as CommonMark's flanking
// rules allow, and unmarks escaped ones.
func dropEmphasis(s string) string {
	type run struct {
		start, n        int
		c               byte
		canOpen, canCls bool
	}
	var runs []run
	for i := 0; i < len(s); {
		c := s[i]
		if (c != '*' && c != '_') || (i > 0 && s[i-1] == 0) {
			i++
			continue
		}
		n := runLen(s, i, c)
		prev, next := byte(' '), byte(' ')
		if i > 0 {
			prev = s[i-1]
		}
		if i+n < len(s) {
			next = s[i+n]
		}
		left := !isSpace(next) && (!isASCIIPunct(next) || isSpace(prev) || isASCIIPunct(prev))
		right := !isSpace(prev) && (!isASCIIPunct(prev) || isSpace(next) || isASCIIPunct(next))
		r := run{start: i, n: n, c: c, canOpen: left, canCls: right}
		if c == '_' {
			r.canOpen = left && (!right || isASCIIPunct(prev))
			r.canCls = right && (!left || isASCIIPunct(next))
		}
		runs = append(runs, r)
		i += n
	}
	drop := make([]bool, len(s))
	var openers []int
	for k, r := range runs {
		matched := false
		for o := len(openers) - 1; r.canCls && o >= 0; o-- {
			if op := runs[openers[o]]; op.c == r.c {
				for j := op.start; j < op.start+op.n; j++ {
					drop[j] = true
				}
				for j := r.start; j < r.start+r.n; j++ {
					drop[j] = true
				}
				openers = openers[:o]
				matched = true
				break
			}
		}
		if !matched && r.canOpen {
			openers = append(openers, k)
		}
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if !drop[i] && s[i] != 0 {
			b.WriteByte(s[i])
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func runLen(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// closingBackticks finds a run of exactly n backticks from i, or -1.
func closingBackticks(s string, i, n int) int {
	for i < len(s) {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			return -1
		}
		j += i
		m := runLen(s, j, '`')
		if m == n {
			return j
		}
		i = j + m
	}
	return -1
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}
