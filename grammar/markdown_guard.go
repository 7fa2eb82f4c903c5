package grammar

import "unicode/utf8"

// guardMarkdown, the Markdown row's Prepare, works around a crash in tree-sitter-markdown's scanner.
// Where a block may start, it reads an ordered list marker with
// isdigit(lookahead), and glibc's isdigit indexes its table with the code
// point: a character above U+00FF right after the digits ("1😀" at the
// start of a line, found by FuzzOutline) reads outside the table and can
// kill the process. Which positions count as a block start is the
// scanner's business (NUL, \r and container markers all play a part), so
// every such character after an ASCII digit is replaced: its bytes become
// 'x', and byte offsets and lines do not move. The price is a heading like
// "2024年" shown as "2024xxx". src is copied before any change.
func guardMarkdown(src []byte) []byte {
	out := src
	for j := 1; j < len(src); j++ {
		if src[j] < utf8.RuneSelf || src[j-1] < '0' || src[j-1] > '9' {
			continue
		}
		r, size := utf8.DecodeRune(src[j:])
		if r <= 0xFF && r != utf8.RuneError {
			continue
		}
		if &out[0] == &src[0] {
			out = append([]byte(nil), src...)
		}
		for k := j; k < j+size; k++ {
			out[k] = 'x'
		}
		j += size - 1
	}
	return out
}
