package grammar

// guardSwift, the Swift row's Prepare, works around tree-sitter-swift
// reading the body of an if, while or guard after a try or await
// expression as a trailing closure of that expression:
//
//	if let runtime = try? appContext?.runtime {
//
// is an error there, and the recovery drops the class around it (expo's
// `public final class SharedObjectRegistry` listed its init and methods as
// top-level functions). try, try?, try! and await mark effects and never
// name anything the outline shows, so each is overwritten with spaces
// where it starts an expression: after a character that cannot end a
// name or a member access, and before a space. Bytes and lines keep their
// place; src is copied before any change.
func guardSwift(src []byte) []byte {
	out := src
	for i := 0; i+3 < len(src); i++ {
		n := effectKeyword(src, i)
		if n == 0 {
			continue
		}
		if &out[0] == &src[0] {
			out = append([]byte(nil), src...)
		}
		for k := i; k < i+n; k++ {
			out[k] = ' '
		}
		i += n
	}
	return out
}

// effectKeyword returns the length of the try, try?, try! or await that
// starts at i as a keyword, or 0.
func effectKeyword(src []byte, i int) int {
	if i > 0 {
		if p := src[i-1]; isIdentByte(p) || p == '.' || p == '`' || p == '$' || p == '#' || p == '@' || p >= 0x80 {
			return 0
		}
	}
	n := 0
	switch {
	case src[i] == 't' && src[i+1] == 'r' && src[i+2] == 'y':
		n = 3
		if i+n < len(src) && (src[i+n] == '?' || src[i+n] == '!') {
			n++
		}
	case i+5 <= len(src) && string(src[i:i+5]) == "await":
		n = 5
	default:
		return 0
	}
	if i+n >= len(src) {
		return 0
	}
	if c := src[i+n]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
		return 0
	}
	return n
}
