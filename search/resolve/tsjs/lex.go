package tsjs

// Uses finds the whole-word occurrences of name in the TypeScript or
// JavaScript source src that are code (not in a comment or a string;
// a template literal's text is skipped, its substitutions too) and
// calls f with each one's line and byte column (1-based).
func Uses(src []byte, name string, f func(line, col int32)) {
	line, lineStart := int32(1), 0
	n := len(name)
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
			lineStart = i
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i += 2
			for i < len(src) && !(src[i] == '*' && i+1 < len(src) && src[i+1] == '/') {
				if src[i] == '\n' {
					line++
					lineStart = i + 1
				}
				i++
			}
			i += 2
		case c == '"' || c == '\'' || c == '`':
			i++
			for i < len(src) && src[i] != c && (c == '`' || src[i] != '\n') {
				if src[i] == '\\' {
					i++
				} else if src[i] == '\n' {
					line++
					lineStart = i + 1
				}
				i++
			}
			i++
		case wordByte(c):
			j := i
			for j < len(src) && wordByte(src[j]) {
				j++
			}
			if j-i == n && string(src[i:j]) == name {
				f(line, int32(i-lineStart)+1)
			}
			i = j
		default:
			i++
		}
	}
}

// wordByte reports whether c may be part of an identifier (any byte of
// a multi-byte letter counts).
func wordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
