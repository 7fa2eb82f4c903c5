package grammar

import (
	"bytes"
	"regexp"
)

// prefixMacro: a macro that starts a declaration before its keywords or
// type: "V8_INLINE static Local<T> New(…)", "UV_EXTERN int uv_run(…)",
// "NODE_EXTERN v8::Local<v8::Context> NewContext(…)". Directly before a
// name and "(", the word may be a type in capitals ("BOOL Init(void)"), so
// it is blanked only when it reads as a marker (prefixMarker).
var prefixMacro = regexp.MustCompile(`(?m)^[ \t]*(_?[A-Z][A-Z0-9_]*[A-Z0-9])[ \t]+(?:(?:static|inline|virtual|explicit|constexpr|extern|friend|const|unsigned|signed|void|bool|char|int|long|short|float|double|auto|struct|class|enum|union|typename|template)\b|[A-Za-z_][\w:]*(?:<[^;{}()\n]*>)?[ \t*&]+~?[A-Za-z_][\w:]*[ \t]*\(|([A-Za-z_]\w*[ \t]*\())`)

// pointerMacro: a macro for "*" inside a declarator's parentheses,
// "typedef void (APIENTRYP PFNGLCLEARPROC) (GLbitfield mask);".
var pointerMacro = regexp.MustCompile(`\([ \t]*([A-Z][A-Z0-9_]*[A-Z0-9])[ \t]+[A-Za-z_]\w*[ \t]*\)[ \t]*\(`)

// oldStyleParams: zlib's "int ZEXPORT deflate OF((z_streamp strm, int f));",
// a macro that drops the parameters for pre-ANSI compilers.
var oldStyleParams = regexp.MustCompile(`[A-Za-z_]\w*[ \t]+([A-Z][A-Z0-9_]*)[ \t]*(\()\(`)

// prefixMarker: the words export and inlining macros are made of.
var prefixMarker = regexp.MustCompile(`CONSTEXPR|NOEXCEPT|NOTHROW|EXPORT|INLINE|EXTERN|_API\b|API_|DEPRECATED|NODISCARD|VISIBILITY|ATTRIBUTE|WARN_UNUSED|_DLL|DLL_|_PUBLIC|_HIDDEN|_LOCAL|_CAPI|ALWAYS`)

// qualifierBefore: a line that ends with a qualifier or storage class.
var qualifierBefore = regexp.MustCompile(`(?:^|\W)(?:const|volatile|static|extern|inline|register|typedef|return|struct|union|enum|class|virtual|friend|explicit|constexpr|unsigned|signed|mutable|thread_local|_Thread_local|__inline|__inline__)\s+$`)

// directive: the start of a preprocessor line up to the name it defines.
var directive = regexp.MustCompile(`^\s*#\s*\w+\s+$`)

// C and C++ code hides attributes and export markers behind macros that a
// parser without a preprocessor cannot expand, and tree-sitter's grammars
// then lose the whole declaration:
//
//	class V8_EXPORT Isolate { … };          // parsed as a function "Isolate"
//	extern int abs (int) __THROW __wur;      // parsed as an error
//
//	struct uv_req_s { UV_REQ_FIELDS };     // a line that is only a macro
//	typedef struct { PyObject_HEAD int n; } Obj;
//
// blankMacros overwrites such macros with spaces before parsing, so that
// every byte and line keeps its position and the names stay intact.

// exportMacro: "class NAME_API Name" followed by "{", ":" or "final"; more
// than one identifier after "class" can only be macros and the class name
// ("class V8_EXPORT V8_NODISCARD MicrotasksScope {").
var exportMacro = regexp.MustCompile(`\b(?:class|struct|union)[ \t]+((?:[A-Za-z_]\w*(?:[ \t]*\([^()\n]*\))?[ \t]+)+?)([A-Za-z_]\w*)[ \t]*(?:final\b[ \t]*)?[:{\n]`)

// trailingMacros: upper-case or __-prefixed macros, with their arguments,
// between a parameter list and the ";" or "{" that ends a declaration:
// ") __THROW __nonnull ((1)) __wur;"  ") Py_GCC_ATTRIBUTE((format(printf, 1, 2)));"
var trailingMacros = regexp.MustCompile(`\)(?:\s*(?:const|noexcept|override|final|volatile|&&|&)\b?)*((?:\s+(?:__[A-Za-z_]\w*|_[A-Z][A-Z0-9_]*[A-Z0-9]\b|[A-Za-z_]\w*_attribute_\w*|[A-Z][A-Z0-9_]*[A-Z0-9]|[A-Z][A-Za-z0-9]*_[A-Z][A-Z0-9_]*\b)(?:\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))?)+)\s*[;{]`)

// trailingMacrosAt is trailingMacros, run only at the ")"s that may
// start a match.
var trailingMacrosAt = &startRegexp{re: trailingMacros, first: ')', may: mayTrail}

// paramsLike: the first macro's arguments read as a parameter list, "()",
// "(void)" or "(type name, …)".
var paramsLike = regexp.MustCompile(`^\s*\w+\s*\((?:\s*(?:void\s*)?\)|[^()]*?[A-Za-z_]\w*[\s*&]+[A-Za-z_]\w*\s*[,)]|[^()]*?[*&]|[^()]*?\b(?:void|char|short|int|long|float|double|signed|unsigned|const|struct|union|enum|bool|size_t)\b)`)

// callingConvention: a macro between a declaration's type and its name,
// "static UClassID U_EXPORT2 getStaticClassID();", "int WINAPI WinMain(".
// When the word is a type in capitals instead ("static UINT8 f("), blanking
// it loses nothing the outline needs.
var callingConvention = regexp.MustCompile(`[\w*&>][ \t]+([A-Z][A-Z0-9_]*[A-Z0-9])[ \t]+\**[ \t]*[A-Za-z_]\w*[ \t]*(?:[A-Z][A-Z0-9_]*[ \t]*)?\(`)

// lineMacro: a line that is only a macro name in upper case (or ending in
// an upper-case word, as PyObject_HEAD), with arguments on that line, and
// no semicolon: a field list, a declaration list or a namespace opener.
var lineMacro = regexp.MustCompile(`(?m)^[ \t]*((?:[A-Z_][A-Z0-9_]*|[A-Za-z0-9_]*_[A-Z][A-Z0-9_]*)(?:[ \t]*\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*\))?)[ \t]*(?://[^\n]*|/\*[^\n]*\*/)?[ \t]*\r?$`)

// declaratorNext: the next line starts a declarator or a body, so the line
// before it was a return type ("PyAPI_FUNC(int)\nPy_Main(…)", "_V\noperator%(")
// or a function's head ("FOO(void)\n{"), not a stray macro. A conversion
// operator ("operator bool()") has no return type.
var declaratorNext = regexp.MustCompile(`^\s*(?:\{|\*?\s*[A-Za-z_]\w*\s*\(|[A-Za-z_]\w*\s*[;,=\[]|operator\s*[^\w\s]|operator\s+(?:new|delete)\b)`)

// The expressions above whose matches lie within one line, each run only
// on the lines that can hold a match (see lineRegexp).
var (
	exportMacroLines       = &lineRegexp{re: exportMacro, keep: exportEnds}
	prefixMacroLines       = &lineRegexp{re: prefixMacro, first: newByteSet(func(b byte) bool { return b == '_' || isUpper(b) }), keep: func(l *textLine) bool { return prefixHead(l.b) }}
	callingConventionLines = &lineRegexp{re: callingConvention, paren: true, keep: func(l *textLine) bool { return hasConventionCall(l.b[:bytes.LastIndexByte(l.b, '(')+1]) }}
	oldStyleParamsLines    = &lineRegexp{re: oldStyleParams, paren: true, keep: func(l *textLine) bool { return oldStyleHead(l.b) }}
	pointerMacroLines      = &lineRegexp{re: pointerMacro, paren: true, keep: func(l *textLine) bool { return pointerHead(l.b[l.paren:]) }}
	defineCommentLines     = &lineRegexp{re: defineComment, keep: func(l *textLine) bool {
		return (l.tail == '\\' || l.tail == '\r') && continues(l.b) && bytes.Contains(l.b, []byte("/*"))
	}}
	namespaceMacroLines = &lineRegexp{re: namespaceMacro, text: "namespace", anchor: 2, keep: namespaceEnds}
	accessMacroLines    = &lineRegexp{re: accessMacro, first: newByteSet(isUpper), keep: func(l *textLine) bool { return bytes.IndexByte(l.b, ':') >= 0 }}
	lineMacroLines      = &lineRegexp{re: lineMacro, first: newByteSet(isWord), keep: func(l *textLine) bool { return lineMacroHead(l.b) }}

	// macroLines are read in one pass over a text's lines.
	macroLines = []*lineRegexp{exportMacroLines, prefixMacroLines, callingConventionLines, pointerMacroLines,
		oldStyleParamsLines, defineCommentLines, namespaceMacroLines, accessMacroLines, lineMacroLines}
)

func blankMacros(src []byte) []byte {
	out := []byte(nil)
	blank := func(a, b int) {
		if out == nil {
			out = copyText(src)
		}
		for i := a; i < b; i++ {
			if out[i] != '\n' {
				out[i] = ' '
			}
		}
	}
	found := findLineRegexps(src, macroLines)
	exports, prefixes, conventions, pointers, oldStyles, defineComments, namespaces, accesses, lineMacros :=
		found[0], found[1], found[2], found[3], found[4], found[5], found[6], found[7], found[8]
	for _, m := range exports {
		// "struct Foo final : Base" names Foo; alignas(8) is no macro.
		if w := firstWord(src[m[2]:m[3]]); w == "alignas" || string(src[m[4]:m[5]]) == "final" {
			continue
		}
		blank(m[2], m[3])
	}
	for _, m := range trailingMacrosAt.FindAllSubmatchIndex(src) {
		// "PyAPI_FUNC(int) SHA256(const char *d, size_t n);" names a
		// function in capitals: its arguments are parameters.
		if p := paramsLike.FindSubmatch(src[m[2]:m[3]]); p != nil {
			continue
		}
		blank(m[2], m[3])
	}
	for _, m := range prefixes {
		if m[4] >= 0 && !prefixMarker.Match(src[m[2]:m[3]]) {
			continue
		}
		blank(m[2], m[3])
	}
	for _, m := range conventions {
		// "#define NAME f(x)" defines NAME.
		// "const BIO_METHOD *f(void)": after a qualifier the word is the
		// declaration's only type.
		// Read what precedes it as blanked so far: after a prefix macro
		// ("OSSL_DEPRECATEDIN_3_0 DH *DH_new(void);") DH is the type.
		cur := src
		if out != nil {
			cur = out
		}
		line := cur[bytes.LastIndexByte(cur[:m[2]], '\n')+1 : m[2]]
		if directive.Match(line) || qualifierBefore.Match(line) || len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		blank(m[2], m[3])
	}
	for _, m := range pointers {
		blank(m[2], m[3])
	}
	for _, m := range oldStyles {
		line := src[bytes.LastIndexByte(src[:m[2]], '\n')+1 : m[2]]
		if directive.Match(line) {
			continue
		}
		if end := closingParen(src, m[4]); end > 0 {
			blank(m[2], m[5])
			blank(end, end+1)
		}
	}
	// tree-sitter-c ends a #define at a comment on one of its continued
	// lines; the comment means nothing to the outline.
	for _, m := range defineComments {
		blank(m[2], m[3])
	}
	for _, m := range namespaces {
		blank(m[2], m[3])
	}
	for _, m := range accesses {
		blank(m[2], m[3])
	}
	for _, m := range lineMacros {
		next := src[m[1]:min(len(src), m[1]+200)]
		name := src[m[2]:m[3]]
		if declaratorNext.Match(next) && !nextIsLineMacro(next) && !tryCatchMacro.Match(name) && !numberArgs.Match(name) &&
			!(prefixMarker.Match(name) && bytes.IndexByte(name, '(') < 0) {
			continue
		}
		blank(m[2], m[3])
	}
	// The rules above read src; these read what they left.
	cur := func() []byte {
		if out != nil {
			return out
		}
		return src
	}
	blankAttributes(cur(), blank)
	blankGaps(cur(), blank)
	if out == nil {
		return src
	}
	return out
}

// accessMacro: a line that is only a macro and a colon, an access
// specifier a macro chooses ("JSON_PRIVATE_UNLESS_TESTED:" is private or
// public), which the grammar reads as a bit-field and loses the class
// after it. Blanked with its colon, the members stay in the section
// before; an upper-case goto label loses nothing the outline shows.
var accessMacro = regexp.MustCompile(`(?m)^[ \t]*([A-Z][A-Z0-9_]*[A-Z0-9][ \t]*:)[ \t]*(?://[^\n]*|/\*[^\n]*\*/)?[ \t]*\r?$`)

// namespaceMacro: a macro between a namespace's name and its body,
// libstdc++'s "namespace std _GLIBCXX_VISIBILITY(default)".
var namespaceMacro = regexp.MustCompile(`\bnamespace[ \t]+[A-Za-z_][\w:]*[ \t]+(_?[A-Z][A-Z0-9_]*[A-Z0-9](?:[ \t]*\([^()\n]*\))?)[ \t]*(?:\{|\r?\n)`)

// tryCatchMacro: exceptions a macro switches on or off, "JSON_TRY" and
// "JSON_CATCH (std::out_of_range&)" before a block; read as a function's
// head or a braced initializer, they cost the class around them.
var tryCatchMacro = regexp.MustCompile(`^\s*(?:[A-Z0-9]+_)*(?:TRY|CATCH|CATCH_ALL|FINALLY)\b`)

// numberArgs: a macro whose arguments are only numbers is an attribute,
// not a return type: "JSON_HEDLEY_NON_NULL(3)" above a constructor.
var numberArgs = regexp.MustCompile(`^\s*\w+\s*\(\s*\d+(?:\s*,\s*\d+)*\s*\)\s*$`)

// defineComment: a /* comment */ on a line that continues a #define.
var defineComment = regexp.MustCompile(`(/\*[^\n]*?\*/)[^\n]*\\\r?\n`)

// nextIsLineMacro reports whether the first non-blank line of b is itself
// a line that is only a macro: DECLARE_ASN1_FUNCTIONS(X) lines come in runs.
func nextIsLineMacro(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i+1]
	}
	return lineMacro.Match(b)
}

// closingParen returns the index of the ")" that closes the "(" at open,
// or -1 when it is not on the same few lines.
func closingParen(src []byte, open int) int {
	depth := 0
	for i := open; i < len(src) && i < open+2000; i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		case ';', '{', '}':
			return -1
		}
	}
	return -1
}

func firstWord(b []byte) string {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	j := i
	for j < len(b) && (b[j] == '_' || b[j] >= 'a' && b[j] <= 'z' || b[j] >= 'A' && b[j] <= 'Z' || b[j] >= '0' && b[j] <= '9') {
		j++
	}
	return string(b[i:j])
}
