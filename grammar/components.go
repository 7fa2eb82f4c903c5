package grammar

import "bytes"

// Single-file components (Vue's .vue, Svelte's .svelte) hold their code in
// <script> elements beside markup and styles. Their outline is that of the
// scripts, read by the TypeScript grammar (which reads JavaScript too):
// prepareComponent blanks everything outside the scripts' contents, so
// that every definition keeps its line and column.

// prepareComponent blanks, with spaces, every byte of src outside the
// contents of its <script> elements, line breaks kept. HTML comments are
// skipped, so a commented-out script stays out.
func prepareComponent(src []byte) []byte {
	blocks := scriptBlocks(src)
	out := make([]byte, len(src))
	copy(out, src)
	at := 0
	for _, b := range append(blocks, [2]int{len(src), len(src)}) {
		blankBytes(out[at:b[0]])
		at = b[1]
	}
	if bytes.Equal(out, src) {
		return src
	}
	return out
}

// blankBytes makes every byte of b a space but line breaks.
func blankBytes(b []byte) {
	for i, c := range b {
		if c != '\n' {
			b[i] = ' '
		}
	}
}

// scriptBlocks returns the [start, end) byte ranges of the contents of
// the <script> elements of src, in order. An element without its end tag
// runs to the end of src.
func scriptBlocks(src []byte) [][2]int {
	var out [][2]int
	i := 0
	for i < len(src) {
		lt := bytes.IndexByte(src[i:], '<')
		if lt < 0 {
			break
		}
		i += lt
		if bytes.HasPrefix(src[i:], []byte("<!--")) {
			end := bytes.Index(src[i+4:], []byte("-->"))
			if end < 0 {
				break
			}
			i += 4 + end + 3
			continue
		}
		if !tagNamed(src[i+1:], "script") {
			i++
			continue
		}
		open := tagEnd(src, i+len("<script"))
		if open < 0 {
			break
		}
		if src[open-1] == '/' {
			i = open + 1
			continue
		}
		start := open + 1
		end := indexFold(src[start:], "</script")
		if end < 0 {
			out = append(out, [2]int{start, len(src)})
			break
		}
		out = append(out, [2]int{start, start + end})
		i = start + end + len("</script")
	}
	return out
}

// tagNamed reports whether b starts with the tag name (any case) followed
// by a space, "/" or ">".
func tagNamed(b []byte, name string) bool {
	if len(b) <= len(name) || !bytes.EqualFold(b[:len(name)], []byte(name)) {
		return false
	}
	switch b[len(name)] {
	case ' ', '\t', '\n', '\r', '/', '>':
		return true
	}
	return false
}

// tagEnd returns the index of the ">" that ends the tag whose attributes
// start at i, skipping quoted attribute values; -1 if there is none.
func tagEnd(src []byte, i int) int {
	var quote byte
	for ; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return i
		}
	}
	return -1
}

// indexFold is bytes.Index of the ASCII string s, ignoring case; s starts
// with a byte that has no case ("<").
func indexFold(b []byte, s string) int {
	for i := 0; i+len(s) <= len(b); i++ {
		j := bytes.IndexByte(b[i:], s[0])
		if j < 0 {
			return -1
		}
		i += j
		if i+len(s) <= len(b) && bytes.EqualFold(b[i:i+len(s)], []byte(s)) {
			return i
		}
	}
	return -1
}
