package grammar

import (
	"bytes"
	"regexp"
)

// headSize is how much of a file Detect functions see: the same 8 KiB the
// callers of ForPath read.
const headSize = 8 << 10

// cppOnly matches, at the start of a line, constructs that C does not
// have: "class Foo {", "struct Foo : Base", "namespace x {", "template <", "public:",
// "using namespace", "using T = …", "using std::swap;", and includes of
// the C++ library's own headers (not <cstddef>, which C headers include
// for C++ callers).
var cppOnly = regexp.MustCompile(`(?m)^[ \t]*(?:` +
	`class[ \t]+[A-Za-z_]\w*(?:[ \t]+final)?[ \t]*(?::[^:]|\{|;|$)` +
	`|struct[ \t]+[A-Za-z_]\w*(?:[ \t]+final)?[ \t]*:[^:]` +
	`|namespace(?:[ \t]+[A-Za-z_][\w:]*)?[ \t]*\{` +
	`|inline[ \t]+namespace\b` +
	`|template[ \t]*<` +
	`|(?:public|private|protected)[ \t]*:` +
	`|using[ \t]+namespace\b` +
	`|using[ \t]+[A-Za-z_]\w*[ \t]*=` +
	`|using[ \t]+(?:[A-Za-z_]\w*)?::` +
	`|#[ \t]*include[ \t]*<(?:string|vector|memory|map|iostream|utility|functional|algorithm|type_traits|optional|unordered_map|tuple|ostream|sstream)>` +
	`)`)

// modeLine reads an Emacs mode line, "-*- C++ -*-" or "-*- C -*-", which
// LLVM and many other projects put on the first line of their headers.
var modeLine = regexp.MustCompile(`-\*-\s*(?:[Mm]ode:\s*)?([Cc](?:\+\+)?)\s*[;-]`)

// looksLikeCpp reports whether a ".h" file is C++: an Emacs mode line on
// its first line decides; otherwise whether, outside comments, a line of
// its head starts with a construct only C++ has. C headers that guard an
// extern "C" block for C++ callers stay C.
func looksLikeCpp(head []byte) bool {
	first := head
	if i := bytes.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	if m := modeLine.FindSubmatch(first); m != nil {
		return len(m[1]) > 1
	}
	return cppOnly.Match(stripComments(head))
}

// stripComments blanks out comments and string literals, keeping line
// breaks, so that prose such as "a class of errors:" cannot count as code.
func stripComments(src []byte) []byte {
	out := bytes.Clone(src)
	for i := 0; i < len(out); i++ {
		switch {
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '*':
			j := bytes.Index(out[i+2:], []byte("*/"))
			end := len(out)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			for ; i < end; i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			i--
		case out[i] == '"':
			for i++; i < len(out) && out[i] != '"' && out[i] != '\n'; i++ {
				if out[i] == '\\' && i+1 < len(out) {
					out[i] = ' '
					i++
				}
				out[i] = ' '
			}
		}
	}
	return out
}
