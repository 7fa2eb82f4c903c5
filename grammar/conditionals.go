package grammar

import (
	"bytes"
	"regexp"
)

// A parser without a preprocessor sees every branch of an #if at once, and
// a directive can stand where its grammar allows none: in a member
// initializer list, in an expression, between the branches of an if
// statement that each open a brace:
//
//	Buffer() : data_(nullptr),
//	#ifdef DEBUG
//	    debug_(true),
//	#endif
//	    size_(0) {}
//
//	#ifdef THREADS
//	  if (lock(mu_)) {
//	#else
//	  if (ready_) {
//	#endif
//
// tree-sitter then recovers by dropping the class around them, and its
// members surface as functions at the top level. balanceConditionals
// overwrites with spaces, keeping every byte and line in place, the
// conditionals the grammar cannot read where they stand:
//
//   - a conditional is left alone when it stands where a declaration or
//     statement may start and each live branch balances its brackets and
//     ends where another may start: the grammar reads it, and keeps an
//     error inside one branch there;
//   - any other conditional loses its directive lines, so the code around
//     reads as one piece; when its branches do not each balance their
//     brackets they are alternatives for one piece of code, and only the
//     first live one is kept, as a compiler with that configuration would
//     read it;
//   - a dead branch is blanked: #if 0, and an unbalanced #ifdef
//     __cplusplus branch in C (`extern "C" {`; #ifndef __cplusplus in
//     C++), while a whole declaration there is kept as written;
//   - #include, #pragma and the like are blanked where no declaration may
//     start (inside an initializer); #define is never touched.
//
// It returns src itself when it changes nothing and never modifies src.
func balanceConditionals(src []byte, cpp bool) []byte {
	s := condScanner{src: src, cpp: cpp}
	s.run()
	if s.out == nil {
		return src
	}
	return s.out
}

// deadIf: a condition that is false for every configuration.
var deadIf = regexp.MustCompile(`^\s*(?:0+|\(\s*0+\s*\)|false)\s*(?:$|//|/\*)`)

var (
	definedCplusplus    = regexp.MustCompile(`^\s*(?:defined\s*\(\s*__cplusplus\s*\)|defined\s+__cplusplus|__cplusplus)\s*(?:$|//|/\*)`)
	notDefinedCplusplus = regexp.MustCompile(`^\s*!\s*(?:defined\s*\(\s*__cplusplus\s*\)|defined\s+__cplusplus)\s*(?:$|//|/\*)`)
)

type condBranch struct {
	start, end int    // the code between the directive lines
	delta      [3]int // how the branch changes the depth of {}, () and []
	last       byte   // the branch's last significant character, 0 if none
	dead       bool
	// other: dead only in the other language (#ifdef __cplusplus in C);
	// such a branch is blanked only when it is not balanced, as
	// `extern "C" {`, since ctags and readers count a whole declaration
	// there as written.
	other bool
}

type condGroup struct {
	depth    [3]int // the depth where the group starts
	prev     byte   // the last significant character before it
	branches []*condBranch
	lines    [][2]int // its directive lines
}

type condScanner struct {
	src []byte
	out []byte
	cpp bool
	// everyByte: codeLine reads every line of code, as plainLine's
	// reference in tests.
	everyByte bool
	depth     [3]int
	last      byte // the last significant character of the code kept so far
	groups    []*condGroup
}

func (s *condScanner) blank(a, b int) {
	for i := a; i < b; i++ {
		if s.src[i] == '\n' || s.src[i] == '\r' || s.src[i] == ' ' {
			continue
		}
		if s.out == nil {
			s.out = copyText(s.src)
		}
		s.out[i] = ' '
	}
}

// branch is the innermost open branch, or nil at the top.
func (s *condScanner) branch() *condBranch {
	if len(s.groups) == 0 {
		return nil
	}
	g := s.groups[len(s.groups)-1]
	return g.branches[len(g.branches)-1]
}

func (s *condScanner) run() {
	src := s.src
	inComment := false
	i := 0
	// hash: where the next "#" is at or after i, -1 when none is.
	hash := 0
	for i < len(src) {
		if hash >= 0 && hash < i {
			if k := bytes.IndexByte(src[i:], '#'); k >= 0 {
				hash = i + k
			} else {
				hash = -1
			}
		}
		if hash < 0 && len(s.groups) == 0 {
			// No directive follows and none is open: the code left
			// changes nothing.
			return
		}
		if !inComment {
			j := i
			for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			if j < len(src) && src[j] == '#' {
				end := directiveEnd(src, j)
				s.directive(i, end)
				i = end
				continue
			}
			if len(s.groups) == 0 && !s.everyByte {
				if next, ok := s.plainLine(i); ok {
					i = next
					continue
				}
			}
		}
		i, inComment = s.codeLine(i, inComment)
	}
	for len(s.groups) > 0 {
		s.endGroup(len(src))
	}
}

// plainLine reads the line from i as codeLine would when no group is
// open, where the depth of brackets matters to no one: on a line without
// "/", quotes or apostrophes, no comment or literal starts, so its last
// byte that codeLine does not skip is the last it notes. It returns where
// the next line starts, or false for a line codeLine must read.
func (s *condScanner) plainLine(i int) (int, bool) {
	src := s.src
	end := len(src)
	if k := bytes.IndexByte(src[i:], '\n'); k >= 0 {
		end = i + k
	}
	line := src[i:end]
	if bytes.IndexByte(line, '/') >= 0 || bytes.IndexByte(line, '"') >= 0 || bytes.IndexByte(line, '\'') >= 0 {
		return 0, false
	}
	for k := len(line) - 1; k >= 0; k-- {
		if codeClass[line[k]] != codeBlank {
			s.last = line[k]
			if codeClass[line[k]] == codeName && headKeyword(line[wordBefore(line, k+1):k+1]) {
				s.last = midDeclaration
			}
			break
		}
	}
	return min(end+1, len(src)), true
}

// directiveEnd returns where the directive starting at i ends: after its
// line break, following backslash continuations and block comments.
func directiveEnd(src []byte, i int) int {
	for i < len(src) {
		switch {
		case src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
		case src[i] == '\\' && i+2 < len(src) && src[i+1] == '\r' && src[i+2] == '\n':
			i += 3
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '*':
			k := bytes.Index(src[i+2:], []byte("*/"))
			if k < 0 {
				return len(src)
			}
			i += k + 4
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '/':
			k := bytes.IndexByte(src[i:], '\n')
			if k < 0 {
				return len(src)
			}
			return i + k + 1
		case src[i] == '\n':
			return i + 1
		default:
			i++
		}
	}
	return len(src)
}

func (s *condScanner) directive(start, end int) {
	line := s.src[start:end]
	// The directive's name after the "#" and blanks.
	k := skipBlanks(line, 0) + 1
	k = skipBlanks(line, k)
	kw, rest := "", line
	if e := nameEnd(line, k); e >= 0 {
		kw, rest = string(line[k:e]), line[e:]
	}
	switch kw {
	case "define":
		return
	case "if", "ifdef", "ifndef":
		g := &condGroup{depth: s.depth, prev: s.last}
		s.groups = append(s.groups, g)
		dead, other := s.deadBranch(kw, rest)
		g.branches = append(g.branches, &condBranch{start: end, dead: dead, other: other})
		g.lines = append(g.lines, [2]int{start, end})
		return
	case "elif", "elifdef", "elifndef", "else":
		if len(s.groups) > 0 {
			s.closeBranch(start)
			g := s.groups[len(s.groups)-1]
			s.depth, s.last = g.depth, g.prev
			b := &condBranch{start: end}
			if kw != "else" {
				b.dead, b.other = s.deadBranch(kw[2:], rest)
			}
			g.branches = append(g.branches, b)
			g.lines = append(g.lines, [2]int{start, end})
			return
		}
	case "endif":
		if len(s.groups) > 0 {
			s.groups[len(s.groups)-1].lines = append(s.groups[len(s.groups)-1].lines, [2]int{start, end})
			s.endGroup(start)
			return
		}
	}
	// #include, #pragma, #error…: where a declaration or statement may
	// start, the grammar reads them; elsewhere they are blanked.
	if !endsPiece(s.last) {
		s.blank(start, end)
	}
}

// midDeclaration is noted for a keyword after which a declaration goes
// on ("class", "const"): a conditional there stands inside one,
// "class\n#if X\n    alignas(16)\n#endif\n    uint128 {".
const midDeclaration = 1

// headKeyword reports whether name is such a keyword.
func headKeyword(name []byte) bool {
	if len(name) < 5 || len(name) > 8 {
		return false
	}
	switch string(name) {
	case "class", "struct", "union", "const", "virtual", "static", "inline", "explicit", "friend", "operator", "typename", "volatile":
		return true
	}
	return false
}

// endsPiece reports whether a declaration or statement may start after
// the significant character c (0 for none): where the grammar reads
// preprocessor lines and keeps the errors of one branch inside it. A
// name or ")" counts: lines that are only a macro (U_NAMESPACE_END,
// DECLARE_X(y)) end pieces as often as not.
func endsPiece(c byte) bool {
	return c == 0 || c == ';' || c == '}' || c == '{' || c == ':' || c == ')' || isIdentByte(c)
}

// deadBranch reports whether a branch opened by #if, #ifdef or #ifndef
// with this condition is never compiled, and whether that is only because
// it is for the other language.
func (s *condScanner) deadBranch(kw string, cond []byte) (dead, other bool) {
	switch kw {
	case "if":
		if deadIf.Match(cond) {
			return true, false
		}
		other = (!s.cpp && definedCplusplus.Match(cond)) || (s.cpp && notDefinedCplusplus.Match(cond))
	case "ifdef":
		other = !s.cpp && definedCplusplus.Match(cond)
	case "ifndef":
		other = s.cpp && definedCplusplus.Match(cond)
	}
	return other, other
}

func (s *condScanner) closeBranch(end int) {
	g := s.groups[len(s.groups)-1]
	b := g.branches[len(g.branches)-1]
	b.end = end
	for k := range b.delta {
		b.delta[k] = s.depth[k] - g.depth[k]
	}
}

// endGroup decides which branches of the innermost group are kept, blanks
// the others, and continues at the depth the kept code leaves.
func (s *condScanner) endGroup(end int) {
	s.closeBranch(end)
	g := s.groups[len(s.groups)-1]
	s.groups = s.groups[:len(s.groups)-1]
	for _, b := range g.branches {
		if b.other && b.delta == [3]int{} {
			b.dead = false
		}
	}
	var primary *condBranch
	whole := true
	// clean: a group of whole declarations or statements where one may
	// start, which the grammar reads as it is.
	clean := endsPiece(g.prev)
	for _, b := range g.branches {
		if b.dead {
			clean = false
			continue
		}
		if primary == nil {
			primary = b
		}
		if b.delta != [3]int{} {
			whole = false
		}
		if b.delta != [3]int{} || b.last == ',' || (b.last != 0 && !endsPiece(b.last)) {
			clean = false
		}
	}
	s.depth, s.last = g.depth, g.prev
	if !clean {
		for _, l := range g.lines {
			s.blank(l[0], l[1])
		}
		// Inside a declaration ("operator*() const" / "#if" / "{ … }" /
		// "#else" / "{ … }") branches are alternatives even when whole.
		alternatives := !whole || g.prev == midDeclaration
		for _, b := range g.branches {
			if b.dead || (b != primary && alternatives) {
				s.blank(b.start, b.end)
			}
		}
	}
	if primary != nil {
		for k := range s.depth {
			s.depth[k] += primary.delta[k]
		}
		if primary.last != 0 {
			s.last = primary.last
			if outer := s.branch(); outer != nil {
				outer.last = primary.last
			}
		}
	}
}

// codeLine reads one line of code from i, counting its brackets outside
// comments, strings and character literals, and returns where the next
// line starts and whether a block comment is still open there.
func (s *condScanner) codeLine(i int, inComment bool) (int, bool) {
	src := s.src
	b := s.branch()
	for i < len(src) {
		if inComment {
			// The comment's lines hold no directive: read on to its end.
			k := bytes.Index(src[i:], []byte("*/"))
			if k < 0 {
				return len(src), true
			}
			inComment = false
			i += k + 2
			continue
		}
		c := src[i]
		switch codeClass[c] {
		case codeName:
			// A name changes no depth: only its last byte is noted, or
			// that it is a keyword no declaration follows.
			j := i + 1
			for j < len(src) && codeClass[src[j]] == codeName {
				j++
			}
			if headKeyword(src[i:j]) {
				s.note(b, midDeclaration)
			} else {
				s.note(b, src[j-1])
			}
			i = j
			continue
		case codeBlank:
			i++
			continue
		case codeOther:
			s.note(b, c)
			i++
			continue
		}
		switch c {
		case '\n':
			return i + 1, false
		case ' ', '\t', '\r', '\f', '\v', '\\':
			i++
			continue
		case '/':
			if i+1 < len(src) && src[i+1] == '*' {
				inComment = true
				i += 2
				continue
			}
			if i+1 < len(src) && src[i+1] == '/' {
				k := bytes.IndexByte(src[i:], '\n')
				if k < 0 {
					return len(src), false
				}
				return i + k + 1, false
			}
		case '"':
			next, open := s.quoted(i)
			if open {
				return len(src), false
			}
			i = next
			s.note(b, '"')
			continue
		case '\'':
			// 1'000'000: a digit separator, not a character literal.
			if i > 0 && isIdentByte(src[i-1]) && !rawPrefix(src[:i]) {
				i++
				continue
			}
			i = skipQuoted(src, i, '\'')
			s.note(b, '\'')
			continue
		case '{':
			s.depth[0]++
		case '}':
			s.depth[0]--
		case '(':
			s.depth[1]++
		case ')':
			s.depth[1]--
		case '[':
			s.depth[2]++
		case ']':
			s.depth[2]--
		}
		s.note(b, c)
		i++
	}
	return i, inComment
}

// quoted returns where the string literal at src[i] ends; open is set
// when it is a raw string (R"x(...)x") that the source ends inside.
func (s *condScanner) quoted(i int) (next int, open bool) {
	src := s.src
	if i > 0 && src[i-1] == 'R' && (i < 2 || !isIdentByte(src[i-2]) || rawPrefix(src[:i-1])) {
		if k := bytes.IndexByte(src[i+1:min(len(src), i+20)], '('); k >= 0 {
			// A raw string may span lines; one search finds its end, so
			// the scan stays linear.
			raw := append(append([]byte(")"), src[i+1:i+1+k]...), '"')
			end := bytes.Index(src[i+k+2:], raw)
			if end < 0 {
				return len(src), true
			}
			return i + k + 2 + end + len(raw), false
		}
	}
	return skipQuoted(src, i, '"'), false
}

// Classes of bytes for codeLine: those of names, blanks it skips, others
// it only notes, and the rest, which it reads one by one.
const (
	codeSpecial = iota
	codeName
	codeBlank
	codeOther
)

var codeClass = func() (t [256]uint8) {
	for c := range t {
		switch b := byte(c); {
		case isIdentByte(b):
			t[c] = codeName
		case b == ' ' || b == '\t' || b == '\r' || b == '\f' || b == '\v' || b == '\\':
			t[c] = codeBlank
		case b == '\n' || b == '/' || b == '"' || b == '\'' || b == '{' || b == '}' || b == '(' || b == ')' || b == '[' || b == ']':
			t[c] = codeSpecial
		default:
			t[c] = codeOther
		}
	}
	return t
}()

func (s *condScanner) note(b *condBranch, c byte) {
	s.last = c
	if b != nil {
		b.last = c
	}
}

// rawPrefix reports whether b ends with a string prefix that is a whole
// word: u8R"(…)", LR"(…)", u'x', L'x'.
func rawPrefix(b []byte) bool {
	for _, p := range []string{"u8", "u", "U", "L"} {
		if bytes.HasSuffix(b, []byte(p)) && (len(b) == len(p) || !isIdentByte(b[len(b)-len(p)-1])) {
			return true
		}
	}
	return false
}

// skipQuoted returns the index after the literal opened by the quote at i;
// a literal ends at its closing quote or at the end of the line.
func skipQuoted(src []byte, i int, quote byte) int {
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case quote:
			return i + 1
		case '\n':
			return i
		}
	}
	return len(src)
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// prepareC is the C row's Prepare: conditionals, then macros.
func prepareC(src []byte) []byte { return prepare(src, false) }

// prepareCpp is the C++ row's Prepare.
func prepareCpp(src []byte) []byte { return prepare(src, true) }
