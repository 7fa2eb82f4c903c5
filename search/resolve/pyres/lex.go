package pyres

// Uses finds the whole-word occurrences of name in the Python source src
// that are code (not in a comment or a string, but in an f-string's
// replacement fields), not an attribute (after a dot) and not a keyword
// argument's name, and calls f with each one's line and byte column
// (1-based).
func Uses(src []byte, name string, f func(line, col int32)) {
	lx := &lexer{src: src, name: name, f: f, line: 1}
	lx.code(0, false)
}

type lexer struct {
	src       []byte
	name      string
	f         func(line, col int32)
	line      int32
	lineStart int
}

// code lexes code from i; in a replacement field (field), up to the
// "}" that closes it, whose offset it returns.
func (lx *lexer) code(i int, field bool) int {
	src := lx.src
	depth := 0
	prev := byte(0) // the last byte of code before, spaces left out
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			lx.line++
			i++
			lx.lineStart = i
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\\' || c == '\f':
			i++
			continue
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '"' || c == '\'':
			i = lx.str(i, false)
		case wordByte(c) && !(c >= '0' && c <= '9'):
			j := i
			for j < len(src) && wordByte(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '\'' || src[j] == '"') && isPrefix(src[i:j]) {
				i = lx.str(j, hasF(src[i:j]))
				break
			}
			if j-i == len(lx.name) && string(src[i:j]) == lx.name && prev != '.' && !(depth > 0 && kwarg(src, j)) {
				lx.f(lx.line, int32(i-lx.lineStart)+1)
			}
			i = j
		case c == '(' || c == '[' || c == '{':
			depth++
			i++
		case c == ')' || c == ']' || c == '}':
			if depth == 0 && field {
				return i
			}
			if depth > 0 {
				depth--
			}
			i++
		case field && depth == 0 && (c == '!' && i+1 < len(src) && src[i+1] != '=' || c == ':'):
			// A conversion or a format spec: to the field's end.
			return lx.spec(i)
		default:
			i++
		}
		prev = src[i-1]
	}
	return i
}

// spec skips a replacement field's format spec from i to its closing
// "}" (nested fields are lexed as code).
func (lx *lexer) spec(i int) int {
	for i < len(lx.src) {
		switch lx.src[i] {
		case '}':
			return i
		case '{':
			i = lx.code(i+1, true) + 1
			continue
		case '\n':
			lx.line++
			lx.lineStart = i + 1
		}
		i++
	}
	return i
}

// str returns the offset past the string whose quote is at i, counting
// its lines; an f-string's replacement fields are lexed as code.
func (lx *lexer) str(i int, fstr bool) int {
	src := lx.src
	q := src[i]
	triple := i+2 < len(src) && src[i+1] == q && src[i+2] == q
	if triple {
		i += 3
	} else {
		i++
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\\':
			i++
			if i < len(src) && src[i] == '\n' {
				lx.line++
				lx.lineStart = i + 1
			}
		case c == '\n':
			if !triple {
				return i
			}
			lx.line++
			lx.lineStart = i + 1
		case c == q && (!triple || i+2 < len(src) && src[i+1] == q && src[i+2] == q):
			if triple {
				return i + 3
			}
			return i + 1
		case fstr && c == '{':
			if i+1 < len(src) && src[i+1] == '{' {
				i++
			} else {
				i = lx.code(i+1, true)
			}
		}
		i++
	}
	return i
}

// kwarg reports whether the word ending at j is followed by a single
// "=": a keyword argument's name (or a default's in a lambda).
func kwarg(src []byte, j int) bool {
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	return j < len(src) && src[j] == '=' && (j+1 >= len(src) || src[j+1] != '=')
}

// isPrefix reports whether w is a string prefix (r, b, f, u, rb, …).
func isPrefix(w []byte) bool {
	if len(w) > 2 {
		return false
	}
	for _, c := range w {
		switch c | 0x20 {
		case 'r', 'b', 'f', 'u':
		default:
			return false
		}
	}
	return true
}

func hasF(w []byte) bool {
	for _, c := range w {
		if c|0x20 == 'f' {
			return true
		}
	}
	return false
}

// wordByte reports whether c may be part of an identifier (any byte of
// a multi-byte letter counts).
func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
