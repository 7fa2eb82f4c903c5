package grammar

import "unicode/utf8"

// guardMarkdown, the Markdown row's Prepare, works around a crash in tree-sitter-markdown's scanner.
// Where a block may start, it reads an ordered list marker with
// isdigit(lookahead), and glibc's isdigit indexes its table with the code
// point: a character far above U+00FF right after the digits ("1😀" at the
// start of a line, found by FuzzOutline) reads unmapped memory and kills
// the process. Such a character's bytes become 'x' before parsing, so byte
// offsets and lines do not move. src is copied before any change.
func guardMarkdown(src []byte) []byte {
	out := src
	for start := 0; start < len(src); {
		end := start
		for end < len(src) && src[end] != '\n' {
			end++
		}
		i := start
		for i < end {
			for i < end && isBlockPrefix(src[i]) {
				i++
			}
			j := i
			for j < end && '0' <= src[j] && src[j] <= '9' {
				j++
			}
			if j == i || j == end {
				break
			}
			if src[j] == '.' || src[j] == ')' {
				i = j + 1
				continue
			}
			if src[j] >= utf8.RuneSelf {
				if &out[0] == &src[0] {
					out = append([]byte(nil), src...)
				}
				_, size := utf8.DecodeRune(src[j:])
				for k := j; k < j+size; k++ {
					out[k] = 'x'
				}
			}
			break
		}
		start = end + 1
	}
	return out
}

func isBlockPrefix(b byte) bool {
	return b == ' ' || b == '\t' || b == '>' || b == '-' || b == '*' || b == '+'
}
