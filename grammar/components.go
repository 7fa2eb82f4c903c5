package grammar

import (
	"bytes"
	"slices"
)

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

// componentComments returns the comments of the parts of a component
// that prepareComponent blanks, which the parser never sees: the HTML
// comments of its markup and the /* */ comments of its <style> elements.
// They are not code, as the scripts' own comments are not. The ranges are
// in order.
func componentComments(src []byte) [][2]int {
	scripts, styles := scriptBlocks(src), elementBlocks(src, "style")
	var out [][2]int
	at := 0
	for _, b := range inOrder(scripts, styles, len(src)) {
		out = appendDelimited(out, src, at, b[0], "<!--", "-->")
		at = b[1]
	}
	for _, b := range styles {
		out = appendDelimited(out, src, b[0], b[1], "/*", "*/")
	}
	slices.SortFunc(out, func(a, b [2]int) int { return a[0] - b[0] })
	return out
}

// inOrder merges two sorted lists of ranges into one sorted list, a range
// that starts inside the one before left out, and ends it with the empty
// range at end.
func inOrder(a, b [][2]int, end int) [][2]int {
	out := make([][2]int, 0, len(a)+len(b)+1)
	for len(a) > 0 || len(b) > 0 {
		var next [2]int
		if len(b) == 0 || len(a) > 0 && a[0][0] < b[0][0] {
			next, a = a[0], a[1:]
		} else {
			next, b = b[0], b[1:]
		}
		if n := len(out); n > 0 && next[0] < out[n-1][1] {
			continue
		}
		out = append(out, next)
	}
	return append(out, [2]int{end, end})
}

// appendDelimited appends to out the ranges of src[from:to] that open with
// open and close with close (the close included; one left open runs to
// to).
func appendDelimited(out [][2]int, src []byte, from, to int, open, close string) [][2]int {
	for from < to {
		i := bytes.Index(src[from:to], []byte(open))
		if i < 0 {
			break
		}
		start := from + i
		j := bytes.Index(src[start+len(open):to], []byte(close))
		if j < 0 {
			return append(out, [2]int{start, to})
		}
		from = start + len(open) + j + len(close)
		out = append(out, [2]int{start, from})
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
func scriptBlocks(src []byte) [][2]int { return elementBlocks(src, "script") }

// elementBlocks returns the [start, end) byte ranges of the contents of
// the elements of src named name (script, style), in order, outside HTML
// comments. An element without its end tag runs to the end of src.
func elementBlocks(src []byte, name string) [][2]int {
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
		if !tagNamed(src[i+1:], name) {
			i++
			continue
		}
		open := tagEnd(src, i+1+len(name))
		if open < 0 {
			break
		}
		if src[open-1] == '/' {
			i = open + 1
			continue
		}
		start := open + 1
		end := indexFold(src[start:], "</"+name)
		if end < 0 {
			out = append(out, [2]int{start, len(src)})
			break
		}
		out = append(out, [2]int{start, start + end})
		i = start + end + len("</") + len(name)
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
