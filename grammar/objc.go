package grammar

import (
	"bytes"
	"regexp"
	"strings"
)

// objcOnly matches, at the start of a line, what only Objective-C writes:
// "@interface", "@protocol", "@class", "@implementation", "#import".
var objcOnly = regexp.MustCompile(`(?m)^[ \t]*(?:@(?:interface|protocol|class|implementation|import)\b|#[ \t]*import\b)`)

// looksLikeObjC reports whether a ".h" file is Objective-C: whether,
// outside comments, a line of its head starts with a construct only
// Objective-C has.
func looksLikeObjC(head []byte) bool {
	if !bytes.Contains(head, []byte("@")) && !bytes.Contains(head, []byte("import")) {
		return false
	}
	return objcOnly.Match(stripComments(head))
}

// objcEnum matches Foundation's enum macros, "NS_ENUM(NSInteger, Name)":
// the grammar reads only "enum Name".
var objcEnum = regexp.MustCompile(`\b(?:NS|CF)_(?:ENUM|OPTIONS|CLOSED_ENUM|ERROR_ENUM)[ \t]*\([^(),]*,[ \t]*([A-Za-z_]\w*)[ \t]*\)`)

// objcBracket matches a line that is only a bracketing macro,
// "NS_ASSUME_NONNULL_BEGIN" or "NS_HEADER_AUDIT_BEGIN(nullability)", which
// the grammar reads as the type of the declaration after it.
var objcBracket = regexp.MustCompile(`(?m)^[ \t]*[A-Z][A-Z0-9_]*_(?:BEGIN|END)(?:[ \t]*\([^()\n]*\))?[ \t]*$`)

// objcMacroRun matches a line's leading run of attribute macros, each
// with its arguments: "GS_EXPORT_CLASS", "NS_SWIFT_NAME(ImageCache)",
// "API_AVAILABLE(macos(10.15), ios(13.0))".
var objcMacroRun = regexp.MustCompile(`^[ \t]*(?:[A-Z_][A-Z0-9_]*(?:[ \t]*\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*\))?[ \t]*)+`)

// objcContainer matches the keyword of a class, category or protocol at
// the start of a line's rest.
var objcContainer = regexp.MustCompile(`^@(?:interface|protocol|implementation)\b`)

// objcGeneric matches GNUstep's generics macros, "GS_GENERIC_CLASS(NSArray,
// ElementT)", which stand for the class.
var objcGeneric = regexp.MustCompile(`\bGS_GENERIC_(?:CLASS|TYPE)[ \t]*\([ \t]*([A-Za-z_]\w*)[ \t]*,[^();{}]*\)`)

// prepareObjC is the Objective-C row's Prepare. A parser without a
// preprocessor cannot read Foundation's macros where they stand: an enum
// macro is overwritten as the "enum" keyword followed by spaces up to the
// name, which keeps its place ("typedef enum               Direction {");
// a bracketing macro's line is blanked. Bytes and lines keep their place.
func prepareObjC(src []byte) []byte {
	out := src
	own := func() {
		if sameText(out, src) {
			out = copyText(src)
		}
	}
	if bytes.Contains(src, []byte("@")) {
		own()
		firstBranches(out)
	}
	if c := prepareC(out); !sameText(c, out) {
		if !sameText(out, src) {
			Release(out, src)
		}
		out = c
		restoreMethodLines(out, src)
	}
	if ms := objcMethodLine.FindAllIndex(src, -1); len(ms) > 0 {
		own()
		for _, m := range ms {
			blankMethodMacros(out, m[0])
		}
	}
	if bytes.Contains(src, []byte("_ENUM")) || bytes.Contains(src, []byte("_OPTIONS")) {
		for _, m := range objcEnum.FindAllSubmatchIndex(src, -1) {
			own()
			blankKeeping(out, m[0], m[1], m[2], m[3])
			copy(out[m[0]:], "enum")
		}
	}
	if bytes.Contains(src, []byte("_BEGIN")) || bytes.Contains(src, []byte("_END")) {
		for _, m := range objcBracket.FindAllIndex(src, -1) {
			own()
			blankKeeping(out, m[0], m[1], m[0], m[0])
		}
	}
	if bytes.Contains(src, []byte("GS_GENERIC_")) {
		for _, m := range objcGeneric.FindAllSubmatchIndex(src, -1) {
			own()
			blankKeeping(out, m[0], m[1], m[2], m[3])
		}
	}
	if bytes.Contains(src, []byte("@")) {
		blankContainerMacros(out)
		// A lone ";" after a declaration or a directive, left where C's
		// rules blanked a macro that declares ("DEFINE_BLOCK_TYPE(…);"),
		// ends an @interface for the grammar.
		for _, m := range objcLoneSemicolon.FindAllIndex(out, -1) {
			if prev := lastLine(out[:m[0]]); bytes.HasSuffix(prev, []byte(";")) || bytes.HasPrefix(prev, []byte("#")) {
				out[m[0]+bytes.IndexByte(out[m[0]:m[1]], ';')] = ' '
			}
		}
	}
	return out
}

// lastLine is the last line of b that is not blank, trimmed.
func lastLine(b []byte) []byte {
	for len(b) > 0 {
		i := bytes.LastIndexByte(b, '\n')
		if l := bytes.TrimSpace(b[i+1:]); len(l) > 0 {
			return l
		}
		if i < 0 {
			break
		}
		b = b[:i]
	}
	return nil
}

// objcLoneSemicolon matches a line that is only a ";".
var objcLoneSemicolon = regexp.MustCompile(`(?m)^[ \t]*;[ \t]*\r?$`)

// objcMethodLine matches the first line of a method's header, "- (NSURL *) URL;",
// or of a property.
var objcMethodLine = regexp.MustCompile(`(?m)^[ \t]*(?:[-+][ \t]*\(|@property\b).*$`)

// restoreMethodLines puts back into out, C's prepared text, the first
// lines of methods' headers as src has them: C's macro rules read a
// capital selector after a return type, "- (NSURL *) URL;", as a macro
// trailing a declaration.
func restoreMethodLines(out, src []byte) {
	for _, m := range objcMethodLine.FindAllIndex(src, -1) {
		copy(out[m[0]:m[1]], src[m[0]:m[1]])
	}
}

// blankMethodMacros blanks the macros in capitals that stand among the
// parts of the method header starting at i, outside its types and not as
// a label: "API_DEPRECATED_WITH_REPLACEMENT("x", macos(10.10, 11))",
// "NS_SWIFT_NAME(load(_:))", "__TVOS_PROHIBITED".
func blankMethodMacros(out []byte, i int) {
	end := min(len(out), i+MaxRenameHead)
	for depth := 0; i < end; {
		c := out[i]
		switch {
		case c == '(':
			depth++
		case c == ')':
			depth--
		case (c == ';' || c == '{') && depth <= 0:
			return
		case depth == 0 && (c >= 'A' && c <= 'Z' || c == '_') && (i == 0 || !isIdentByte(out[i-1])):
			j := i
			for j < end && isIdentByte(out[j]) {
				j++
			}
			w := out[i:j]
			k := j
			for k < end && (out[k] == ' ' || out[k] == '\t') {
				k++
			}
			if !objcMacroWord(w) || k < end && out[k] == ':' {
				i = j
				continue
			}
			if k < end && out[k] == '(' {
				j = skipGroup(out[:end], k)
			}
			blankKeeping(out, i, j, i, i)
			i = j
			continue
		}
		i++
	}
}

// objcMacroWord reports whether w reads as a macro: capitals, digits and
// "_" with at least one "_" ("NS_SWIFT_NAME", "__deprecated_msg").
func objcMacroWord(w []byte) bool {
	if bytes.HasPrefix(w, []byte("__")) {
		return true
	}
	if bytes.IndexByte(w, '_') < 0 {
		return false
	}
	for _, c := range w {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// skipGroup returns the index after the parenthesised group that starts
// at b[i], skipping string literals; len(b) when it is not closed.
func skipGroup(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"' && b[i] != '\n'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(b)
}

// blankKeeping overwrites out[start:end] with spaces but out[keep:keepEnd]
// and line breaks.
func blankKeeping(out []byte, start, end, keep, keepEnd int) {
	for k := start; k < end; k++ {
		if (k < keep || k >= keepEnd) && out[k] != '\n' && out[k] != '\r' {
			out[k] = ' '
		}
	}
}

// blankContainerMacros blanks the attribute macros written before
// "@interface", "@protocol" or "@implementation", on its line or on lines
// of their own right above it ("GS_EXPORT_CLASS", "NS_SWIFT_NAME(Cache)"):
// the grammar reads them as a declaration's type and loses the class.
// Inside an @interface or @protocol it blanks the lines that are a
// macro's call ("DEFINE_BLOCK_TYPE(Block, void, id);"), which the grammar
// cannot read as a member and which end the class for it.
func blankContainerMacros(out []byte) {
	var pending [][2]int // macro-only lines right above
	inside := false
	for start := 0; start < len(out); {
		end := bytes.IndexByte(out[start:], '\n')
		if end < 0 {
			end = len(out)
		} else {
			end += start
		}
		line := out[start:end]
		run := objcMacroRun.FindIndex(line)
		n := 0
		if run != nil && (run[1] > 0 && bytes.ContainsAny(line[:run[1]], "ABCDEFGHIJKLMNOPQRSTUVWXYZ_")) {
			n = run[1]
		}
		switch {
		case objcContainer.Match(line[n:]):
			for _, p := range pending {
				blankKeeping(out, p[0], p[1], p[0], p[0])
			}
			blankKeeping(out, start, start+n, start, start)
			pending = pending[:0]
			inside = !bytes.HasPrefix(line[n:], []byte("@impl")) && !objcForward.Match(line[n:])
		case n > 0 && n == len(bytes.TrimRight(line, " \t\r")):
			pending = append(pending, [2]int{start, start + n})
		default:
			pending = pending[:0]
			if bytes.HasPrefix(bytes.TrimSpace(line), []byte("@end")) {
				inside = false
			} else if inside && objcMacroCall.Match(line) {
				blankKeeping(out, start, end, start, start)
			}
		}
		start = end + 1
	}
}

// firstBranches keeps only the first branch of each conditional of out
// whose branches close or open a class: GNUstep's "#if
// GS_PROTOCOLS_HAVE_OPTIONAL / @optional / #else / @end / @interface
// NSObject (Delegate) / #endif" leaves the grammar two containers, one of
// them never closed.
func firstBranches(out []byte) {
	type frame struct {
		branches   [][2]int // line ranges, from after a directive to the next
		depth      int      // @interface minus @end in the current branch
		unbalanced bool
	}
	var stack []*frame
	for start := 0; start < len(out); {
		end := bytes.IndexByte(out[start:], '\n')
		if end < 0 {
			end = len(out)
		} else {
			end += start
		}
		line := bytes.TrimSpace(out[start:end])
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch d := directiveWord(line); {
		case d == "if" || d == "ifdef" || d == "ifndef":
			stack = append(stack, &frame{branches: [][2]int{{end + 1, end + 1}}})
		case (d == "else" || d == "elif") && top != nil:
			top.unbalanced = top.unbalanced || top.depth != 0
			top.depth = 0
			top.branches[len(top.branches)-1][1] = start
			top.branches = append(top.branches, [2]int{end + 1, end + 1})
		case d == "endif" && top != nil:
			top.unbalanced = top.unbalanced || top.depth != 0
			top.branches[len(top.branches)-1][1] = start
			stack = stack[:len(stack)-1]
			if top.unbalanced {
				for _, b := range top.branches[1:] {
					blankKeeping(out, b[0], min(b[1], len(out)), b[0], b[0])
				}
			}
		case top != nil && bytes.HasPrefix(line, []byte("@end")):
			top.depth--
			if top.depth < 0 {
				top.unbalanced = true
			}
		case top != nil && objcContainer.Match(line) && !objcForward.Match(line):
			top.depth++
		}
		start = end + 1
	}
}

// directiveWord is the directive of a preprocessor line ("if", "endif"),
// or "".
func directiveWord(line []byte) string {
	if len(line) == 0 || line[0] != '#' {
		return ""
	}
	line = bytes.TrimLeft(line[1:], " \t")
	i := 0
	for i < len(line) && line[i] >= 'a' && line[i] <= 'z' {
		i++
	}
	return string(line[:i])
}

// objcForward matches a forward declaration, "@protocol A, B;".
var objcForward = regexp.MustCompile(`^@protocol[ \t]+[\w \t,]+;`)

// objcMacroCall matches a line that is a call of a macro in capitals.
var objcMacroCall = regexp.MustCompile(`^[ \t]*[A-Z][A-Z0-9]*_[A-Z0-9_]*[ \t]*\(.*\)[ \t]*;[ \t]*\r?$`)

// objcName names Objective-C methods and categories from their source
// from the name on (head). A method is named by its selector, which its
// parameters interleave: "- (void)drawInRect:(CGRect)r withColor:(id)c"
// is "drawInRect:withColor:". A category is the class and the category,
// "UIView(WebCache)"; a class extension, "Shape()". Other kinds, and a
// head it cannot read, are "".
func objcName(k Kind, head []byte) string {
	switch k {
	case Method:
		return objcSelector(head)
	case Extension:
		return objcCategory(head)
	}
	return ""
}

// objcSelector reads a method's selector from its first label on.
func objcSelector(head []byte) string {
	var sb strings.Builder
	s := objcScanner{src: head}
	label := s.word()
	if label == "" {
		return ""
	}
	if !s.colon() {
		return label // a unary selector: "- (void)draw"
	}
	for {
		sb.WriteString(label)
		sb.WriteByte(':')
		s.skipType()
		s.skipAttributes()
		if s.word() == "" {
			break // a parameter has a name
		}
		s.skipAttributes()
		label = s.word()
		if !s.colon() {
			break // a macro after the parameters, or the body
		}
	}
	return sb.String()
}

// objcCategory reads "Class (Category)" or "Class ()".
func objcCategory(head []byte) string {
	s := objcScanner{src: head}
	class := s.word()
	s.space()
	if class == "" || !s.is('(') {
		return ""
	}
	s.i++
	s.space()
	cat := s.word()
	s.space()
	if !s.is(')') {
		return ""
	}
	return class + "(" + cat + ")"
}

// objcScanner reads a method's header: words, colons, parenthesised
// types, comments.
type objcScanner struct {
	src []byte
	i   int
}

func (s *objcScanner) is(c byte) bool { return s.i < len(s.src) && s.src[s.i] == c }

// space skips white space and comments.
func (s *objcScanner) space() {
	for s.i < len(s.src) {
		switch c := s.src[s.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			s.i++
		case c == '/' && s.i+1 < len(s.src) && s.src[s.i+1] == '/':
			for s.i < len(s.src) && s.src[s.i] != '\n' {
				s.i++
			}
		case c == '/' && s.i+1 < len(s.src) && s.src[s.i+1] == '*':
			j := bytes.Index(s.src[s.i+2:], []byte("*/"))
			if j < 0 {
				s.i = len(s.src)
				return
			}
			s.i += j + 4
		default:
			return
		}
	}
}

// word reads an identifier after white space, or "".
func (s *objcScanner) word() string {
	s.space()
	j := s.i
	for s.i < len(s.src) && (isIdentByte(s.src[s.i]) || s.src[s.i] >= 0x80) {
		s.i++
	}
	return string(s.src[j:s.i])
}

// colon reads a ":" after white space.
func (s *objcScanner) colon() bool {
	s.space()
	if s.is(':') {
		s.i++
		return true
	}
	return false
}

// skipType skips a parenthesised type, "(NSString * _Nullable)".
func (s *objcScanner) skipType() {
	s.space()
	if !s.is('(') {
		return
	}
	depth := 0
	for ; s.i < len(s.src); s.i++ {
		switch s.src[s.i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				s.i++
				return
			}
		case '{', ';':
			return
		}
	}
}

// skipAttributes skips nullability and ownership words written before a
// parameter's name and the attributes a parameter may carry:
// "__unused", "__attribute__((noescape))", "NS_NOESCAPE".
func (s *objcScanner) skipAttributes() {
	for {
		s.space()
		j := s.i
		w := s.word()
		if w == "" {
			return
		}
		if !objcParamAttribute(w) {
			s.i = j
			return
		}
		s.space()
		if s.is('(') {
			s.skipType()
		}
	}
}

// objcParamAttribute reports whether w is a word written before a
// parameter's name that is not the name.
func objcParamAttribute(w string) bool {
	switch w {
	case "__unused", "__attribute__", "__attribute", "NS_NOESCAPE", "__nonnull", "__nullable",
		"_Nonnull", "_Nullable", "_Null_unspecified", "__strong", "__weak", "__autoreleasing",
		"__unsafe_unretained", "__kindof", "__block":
		return true
	}
	return false
}

// objcBodyless: C prototypes, and methods declared in an @interface or
// @protocol.
var objcBodyless = []string{"declaration", "method_declaration"}

// MaxRenameHead bounds the source a Rename function reads.
const MaxRenameHead = 2048
