package grammar

import (
	"bytes"
	"regexp"
)

// C++ that the bundled tree-sitter-cpp cannot read, each written so that
// blanking a few bytes leaves what the grammar reads and the outline
// needs unchanged:
//
//	using typename Base::Type;                  // read as "using Base::Type;"
//	template <typename U, std::enable_if_t<X<U>>* = nullptr>
//	                                            // an unnamed pointer with a default
//	class Controller : public NON_EXPORTED_BASE(v8::Controller) {
//	                                            // a base a macro wraps
//
// Without them the grammar loses the class they stand in.

// wrappedBase: a base class inside a macro's parentheses, after an access
// specifier (where nothing else takes arguments): "public
// V8_PLATFORM_NON_EXPORTED_BASE(v8::TracingController) {".
var wrappedBase = regexp.MustCompile(`^(?:public|protected|private)[ \t]+(_?[A-Z][A-Z0-9_]*[A-Z0-9][ \t]*\()[\w:<>, \t*&]+(\))[ \t]*(?:[,{]|\r?\n)`)

// blankGaps blanks, with blank, the bytes of cur above.
func blankGaps(cur []byte, blank func(a, b int)) {
	eachWord(cur, "using", func(i int) {
		t := skipBlanks(cur, i+len("using"))
		if t > i+len("using") && bytes.HasPrefix(cur[t:], []byte("typename")) {
			if e := t + len("typename"); e < len(cur) && isBlank(cur[e]) {
				blank(t, e)
			}
		}
	})
	eachWord(cur, "nullptr", func(i int) {
		if a, ok := unnamedPointerDefault(cur, i); ok {
			blank(a, i+len("nullptr"))
		}
	})
	for _, kw := range []string{"public", "protected", "private"} {
		eachWord(cur, kw, func(i int) {
			// Most are "public:"; a match has blanks and a capital next.
			k := skipBlanks(cur, i+len(kw))
			if k == i+len(kw) || k+1 >= len(cur) || !isUpper(cur[k]) && !(cur[k] == '_' && isUpper(cur[k+1])) {
				return
			}
			// To the line's end, its "\n" included.
			e := min(len(cur), i+400)
			if k := bytes.IndexByte(cur[i:e], '\n'); k >= 0 {
				e = i + k + 1
			}
			if m := wrappedBase.FindSubmatchIndex(cur[i:e]); m != nil {
				blank(i+m[2], i+m[3])
				blank(i+m[4], i+m[5])
			}
		})
	}
}

// unnamedPointerDefault reports whether the "nullptr" at cur[i] is the
// default of an unnamed pointer parameter, a template's or a function's:
// "T* = nullptr" followed by ",", ">" or ")". The grammar wants a name
// before "="; the parameter declares nothing the outline shows. It returns
// where the "*" is.
func unnamedPointerDefault(cur []byte, i int) (int, bool) {
	after := skipSpace(cur, i+len("nullptr"))
	if after >= len(cur) || cur[after] != ',' && cur[after] != '>' && cur[after] != ')' {
		return 0, false
	}
	j := backBlanks(cur, i)
	if j == 0 || cur[j-1] != '=' {
		return 0, false
	}
	j = backBlanks(cur, j-1)
	if j == 0 || cur[j-1] != '*' {
		return 0, false
	}
	star := j - 1
	j = backBlanks(cur, star)
	if j == 0 || !isWord(cur[j-1]) && cur[j-1] != '>' {
		return 0, false
	}
	return star, true
}

// eachWord calls f with the index of each occurrence of word in cur that
// is a whole word.
func eachWord(cur []byte, word string, f func(i int)) {
	for i := 0; ; {
		k := bytes.Index(cur[i:], []byte(word))
		if k < 0 {
			return
		}
		i += k
		if (i == 0 || !isWord(cur[i-1])) && (i+len(word) == len(cur) || !isWord(cur[i+len(word)])) {
			f(i)
		}
		i += len(word)
	}
}
