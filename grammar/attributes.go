package grammar

import (
	"bytes"
	"regexp"
)

// Large C++ projects put attribute macros in every position a declaration
// has, and each one the grammar reads as a type costs the declaration, often
// the class around it (V8's and cppgc's public headers, Chromium's base/):
//
//	V8_INLINE ~Scope() { … }                  // before a destructor
//	V8_INLINE BasicMember& operator=(…) {     // before an operator
//	V8_WARN_UNUSED_RESULT V8_INLINE bool To(  // a run of them
//	static V8_INLINE void Barrier(…);         // after a storage class
//	explicit V8_INLINE Local(T* that)         // after explicit
//	static void V8_PRESERVE_MOST              // before a name on the next line
//	    Slow(…);
//	V8_DEPRECATE_SOON(                        // a message, over lines
//	    "Use the other one.")
//	void Detach();
//
// blankAttributes blanks them where the word can only be an attribute:
// its name is made of the words attribute macros are (attributeWord), or it
// takes only string literals as arguments, and where it stands a type
// would leave the declaration without one. A macro that may be the
// declaration's only type ("static UINT8 f(", "static EXPORT_INFO *f(") is
// left alone, as the older rules in macros.go leave it.

// attributeWord: the words attribute macros are made of; prefixMarker's,
// and clang's calling conventions and sanitizer switches.
var attributeWord = regexp.MustCompile(prefixMarker.String() + `|PRESERVE_|SANITIZE|TRIVIAL_ABI|MUST_USE`)

// specifierBefore: the words after which a macro stands where a
// declaration's specifiers do.
var specifierBefore = map[string]bool{"static": true, "virtual": true, "inline": true, "explicit": true,
	"constexpr": true, "consteval": true, "friend": true, "extern": true}

// typeStart: the keywords a macro at a line's start may stand before
// (prefixMacro's); before them the word cannot be a type.
var typeStart = map[string]bool{"static": true, "inline": true, "virtual": true, "explicit": true, "constexpr": true,
	"extern": true, "friend": true, "const": true, "unsigned": true, "signed": true, "void": true, "bool": true,
	"char": true, "int": true, "long": true, "short": true, "float": true, "double": true, "auto": true,
	"struct": true, "class": true, "enum": true, "union": true, "typename": true, "template": true}

// notConvention: the words after which an upper-case word is a type, not a
// calling convention (qualifierBefore's, and those that start an
// expression).
var notConvention = map[string]bool{"const": true, "volatile": true, "static": true, "extern": true, "inline": true,
	"register": true, "typedef": true, "return": true, "struct": true, "union": true, "enum": true, "class": true,
	"virtual": true, "friend": true, "explicit": true, "constexpr": true, "unsigned": true, "signed": true,
	"mutable": true, "thread_local": true, "_Thread_local": true, "__inline": true, "__inline__": true, "case": true,
	"goto": true, "new": true, "delete": true, "throw": true, "sizeof": true, "typename": true, "using": true,
	"namespace": true, "define": true, "else": true, "do": true}

// maxAttributeArgs bounds how far an attribute macro's arguments are read.
const maxAttributeArgs = 2000

// blankAttributes blanks the attribute macros of cur (see above) with
// blank. cur is read as it was before; blank writes elsewhere.
func blankAttributes(cur []byte, blank func(a, b int)) {
	cont := false // the line continues a directive
	for start := 0; start < len(cur); {
		end := len(cur)
		if k := bytes.IndexByte(cur[start:], '\n'); k >= 0 {
			end = start + k + 1
		}
		line := cur[start:end]
		directive := cont || firstNonBlank(line) == '#'
		cont = continues(line)
		if !directive {
			i := attributeRun(cur, start, end, blank)
			inlineAttributes(cur, start, i, end, blank)
		}
		start = end
	}
}

// attributeRun blanks the macros at the start of the line cur[start:end]
// that stand before a declaration: an attribute word before a name, "~"
// or "[[", a macro with only string literals for arguments before one
// (its arguments may span lines), and any macro before a keyword that
// starts a declaration. It returns where the line's code resumes.
func attributeRun(cur []byte, start, end int, blank func(a, b int)) int {
	i := skipBlanks(cur[:end], start)
	for first := true; ; first = false {
		w := i
		if w < end && cur[w] == '_' {
			w++
		}
		j := macroWord(cur[:end], w)
		if j < 0 || j == end {
			return i
		}
		k := skipBlanks(cur[:end], j)
		strs := false
		if k < end && cur[k] == '(' {
			c := closingArgs(cur, k)
			if c < 0 || !stringArgs(cur[k+1:c]) {
				return i
			}
			strs = true
			k = c + 1
		}
		// An attribute's declaration may go on on the next line.
		if a := skipSpace(cur, k); a == j && !strs || a >= len(cur) || !isWord(cur[a]) && cur[a] != '~' && cur[a] != '[' {
			return i
		}
		attr := strs || attributeWord.Match(cur[i:j])
		next := k
		if attr {
			next = skipSpace(cur, k)
		}
		if next == j || next >= len(cur) {
			return i
		}
		word := cur[next:nameEndAt(cur, next)]
		switch {
		case typeStart[string(word)] && (next < end || attr):
		case attr && (len(word) > 0 && !isDigit(word[0]) || cur[next] == '~' || bytes.HasPrefix(cur[next:], []byte("[["))):
		case !first && prefixBefore(cur[i:end], strs):
		default:
			return i
		}
		blank(i, k)
		if next >= end {
			return end
		}
		i = next
	}
}

// inlineAttributes blanks the attribute words of the line cur[start:end]
// from i on that stand after a declaration's specifier, or between its
// type and its name, the name on the same line or the next.
func inlineAttributes(cur []byte, start, i, end int, blank func(a, b int)) {
	line := cur[:end]
	for ; i < end; i++ {
		if !isUpper(cur[i]) && cur[i] != '_' || i == start || !isBlank(cur[i-1]) {
			continue
		}
		w := i
		if cur[i] == '_' {
			i++
		}
		j := macroWord(line, i)
		if j < 0 {
			continue
		}
		if e := enumeratorMessage(cur, start, w, j); e > 0 {
			blank(w, e)
			i = e - 1
			continue
		}
		i = max(i, j-1)
		if j == end || !isBlank(cur[j]) && cur[j] != '\n' && cur[j] != '\r' {
			continue
		}
		b := backBlanks(line, w)
		if b == start {
			continue
		}
		// Where the word stands first, then what it is.
		prevWord := string(cur[wordBefore(line, b):b])
		next := skipBlanks(line, j)
		switch {
		case specifierBefore[prevWord]:
			if !afterSpecifier(cur, prevWord, next, end) {
				continue
			}
		case isWord(cur[b-1]) && !notConvention[prevWord] || cur[b-1] == '*' || cur[b-1] == '&' || cur[b-1] == '>':
			if !nameCall(cur, skipSpace(cur, j)) {
				continue
			}
		default:
			continue
		}
		if attributeWord.Match(cur[w:j]) {
			blank(w, j)
		}
	}
}

// enumeratorMessage returns the end of the arguments of the macro
// cur[w:j] when it is an enumerator's attribute with only a message,
// "kFinalizer V8_ENUM_DEPRECATED(\"Use …\" \"…\")," (the arguments may
// span lines), or 0: after a name on its line, before ",", "=" or "}".
func enumeratorMessage(cur []byte, start, w, j int) int {
	k := skipBlanks(cur, j)
	if k >= len(cur) || cur[k] != '(' {
		return 0
	}
	b := backBlanks(cur, w)
	if b == start || !isWord(cur[b-1]) || notConvention[string(cur[wordBefore(cur, b):b])] {
		return 0
	}
	c := closingArgs(cur, k)
	if c < 0 || !stringArgs(cur[k+1:c]) {
		return 0
	}
	if n := skipSpace(cur, c+1); n < len(cur) && (cur[n] == ',' || cur[n] == '=' || cur[n] == '}') {
		return c + 1
	}
	return 0
}

// prefixBefore reports whether the macro that starts line, after a
// macro blanked before it, is one as prefixMacro reads a line's first:
// "EXTERN CONST86 Tcl_Filesystem * Tcl_FSGet(" leaves "Tcl_Filesystem" the
// type. Before a compiler's keyword ("EXTERN LRESULT __stdcall F(") the
// word is the type.
func prefixBefore(line []byte, strs bool) bool {
	if strs {
		return false
	}
	m := prefixMacro.FindSubmatchIndex(line)
	if m == nil || m[2] != 0 || m[4] >= 0 && !prefixMarker.Match(line[m[2]:m[3]]) {
		return false
	}
	next := skipBlanks(line, m[3])
	return !bytes.HasPrefix(line[next:], []byte("__"))
}

// afterSpecifier reports whether an attribute word after the specifier
// spec, followed by cur[next:], leaves the declaration a type: after
// "explicit" there is none to leave; after the others, a name, "~" or
// "operator" must follow, and not as the declaration's name (the name
// may be on the next line).
func afterSpecifier(cur []byte, spec string, next, end int) bool {
	if next >= end {
		return false
	}
	if cur[next] == '~' {
		return true
	}
	e := nameEndAt(cur, next)
	if e == next || isDigit(cur[next]) {
		return false
	}
	word := string(cur[next:e])
	if spec == "explicit" || word == "operator" || typeStart[word] {
		return true
	}
	after := skipSpace(cur, e)
	return after < len(cur) && cur[after] != '(' && cur[after] != ';' && cur[after] != '=' && cur[after] != ','
}

// nameCall reports whether cur[i:] starts with a declarator's name and
// its "(": "*"s and "&"s, a name with "::" scopes, blanks, "(".
func nameCall(cur []byte, i int) bool {
	for i < len(cur) && (cur[i] == '*' || cur[i] == '&' || isBlank(cur[i])) {
		i++
	}
	n := 0
	for {
		e := nameEndAt(cur, i)
		if e == i || isDigit(cur[i]) {
			return false
		}
		n++
		i = e
		if !bytes.HasPrefix(cur[i:], []byte("::")) {
			break
		}
		i += 2
	}
	i = skipBlanks(cur, i)
	return n > 0 && i < len(cur) && cur[i] == '('
}

// nameEndAt returns the end of the run of name bytes at cur[i] (i when
// there is none).
func nameEndAt(cur []byte, i int) int {
	for i < len(cur) && isWord(cur[i]) {
		i++
	}
	return i
}

// skipSpace skips blanks and line breaks.
func skipSpace(cur []byte, i int) int {
	for i < len(cur) && (isBlank(cur[i]) || cur[i] == '\n' || cur[i] == '\r') {
		i++
	}
	return i
}

// closingArgs returns the index of the ")" that closes the "(" at open,
// or -1 when it is farther than maxAttributeArgs or a ";", "{" or "}"
// comes first outside a string literal.
func closingArgs(cur []byte, open int) int {
	depth := 0
	for i := open; i < len(cur) && i < open+maxAttributeArgs; i++ {
		switch cur[i] {
		case '"', '\'':
			i = skipQuoted(cur, i, cur[i]) - 1
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

// stringArgs reports whether args, a macro's arguments, are one or more
// string literals and nothing else: a message, not code.
func stringArgs(args []byte) bool {
	i, n := skipSpace(args, 0), 0
	for i < len(args) {
		if args[i] != '"' {
			return false
		}
		e := skipQuoted(args, i, '"')
		if args[e-1] != '"' {
			return false
		}
		n++
		i = skipSpace(args, e)
	}
	return n > 0
}
