package project

import (
	"bytes"
	"strings"
)

// ignoreFile is the rules of one ignore file (a .gitignore, or
// .git/info/exclude), which apply to paths under its folder.
type ignoreFile struct {
	// dir is the folder the patterns are relative to, "" for the project.
	dir   string
	rules []ignoreRule
}

// ignoreRule is one pattern line, parsed the way git's dir.c does.
type ignoreRule struct {
	// pattern keeps its backslash escapes; wildmatch reads them. A leading
	// "/" and a trailing "/" are removed.
	pattern string
	negate  bool
	// dirOnly: the line ended in "/", so only folders match.
	dirOnly bool
	// basename: the pattern has no "/", so it matches the base name at any
	// depth; otherwise it matches the path relative to dir.
	basename bool
	// form is how the pattern matches without wildmatch when it is as
	// simple as most lines are (a name, "*.o", "vmlinux*"), lit the
	// literal text it compares. Every file of a walk is held against every
	// line of each ignore file above it: wildmatch for all took 0.8 of the
	// 1.9 core-s of the walk of three Linux trees.
	form ruleForm
	lit  string
}

// ruleForm is how an ignore rule matches (see ignoreRule.form).
type ruleForm uint8

const (
	formWild   ruleForm = iota // wildmatch
	formExact                  // the text is lit
	formSuffix                 // "*" then lit: the base name ends in lit
	formPrefix                 // lit then "*": the base name starts with lit
)

// formOf classifies a rule's pattern: one without special characters is
// exact; for a base name (which holds no "/"), one with a single "*" at
// either end and none elsewhere is a suffix or a prefix.
func formOf(pattern string, basename bool) (ruleForm, string) {
	const special = "*?[\\"
	if !strings.ContainsAny(pattern, special) {
		return formExact, pattern
	}
	if !basename || len(pattern) < 2 {
		return formWild, ""
	}
	if rest := pattern[1:]; pattern[0] == '*' && !strings.ContainsAny(rest, special) {
		return formSuffix, rest
	}
	if rest := pattern[:len(pattern)-1]; pattern[len(pattern)-1] == '*' && !strings.ContainsAny(rest, special) {
		return formPrefix, rest
	}
	return formWild, ""
}

// parseIgnore reads the lines of an ignore file in folder dir.
func parseIgnore(dir string, data []byte) *ignoreFile {
	f := &ignoreFile{dir: dir}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		s := trimTrailingSpaces(string(line))
		if s == "" {
			continue
		}
		var r ignoreRule
		if s[0] == '!' {
			r.negate = true
			s = s[1:]
		}
		if strings.HasSuffix(s, "/") {
			r.dirOnly = true
			s = s[:len(s)-1]
		}
		r.basename = !strings.Contains(s, "/")
		s = strings.TrimPrefix(s, "/")
		if s == "" {
			continue
		}
		r.pattern = s
		r.form, r.lit = formOf(s, r.basename)
		f.rules = append(f.rules, r)
	}
	return f
}

// trimTrailingSpaces drops unescaped trailing spaces (not tabs), as git does.
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// match reports whether this file has a rule for the project path rel
// (which must lie under f.dir), and if so whether the last matching rule
// ignores it.
func (f *ignoreFile) match(rel string, isDir bool) (decided, ignored bool) {
	sub := rel
	if f.dir != "" {
		sub = rel[len(f.dir)+1:]
	}
	base := sub[strings.LastIndexByte(sub, '/')+1:]
	for i := len(f.rules) - 1; i >= 0; i-- {
		r := &f.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		text := sub
		if r.basename {
			text = base
		}
		var ok bool
		switch r.form {
		case formExact:
			ok = text == r.lit
		case formSuffix:
			ok = strings.HasSuffix(text, r.lit)
		case formPrefix:
			ok = strings.HasPrefix(text, r.lit)
		default:
			ok = wildmatch(r.pattern, text, !r.basename)
		}
		if ok {
			return true, !r.negate
		}
	}
	return false, false
}

// ignoreStack is the ignore files that apply in one folder: the folder's
// own .gitignore and its parents', deepest first, then .git/info/exclude.
// It is immutable and shared by subfolders.
type ignoreStack struct {
	file   *ignoreFile
	parent *ignoreStack
}

func (s *ignoreStack) push(f *ignoreFile) *ignoreStack {
	if f == nil || len(f.rules) == 0 {
		return s
	}
	return &ignoreStack{file: f, parent: s}
}

// ignored reports whether the project path rel is excluded: the first file,
// from the deepest, with a rule for it decides.
func (s *ignoreStack) ignored(rel string, isDir bool) bool {
	for ; s != nil; s = s.parent {
		if decided, ignored := s.file.match(rel, isDir); decided {
			return ignored
		}
	}
	return false
}

// Results of wildmatch's recursive step, as in git: the abort codes let a
// failing "*" give up early instead of backtracking exponentially.
const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

// wildmatch matches text against a git wildcard pattern, byte by byte. With
// pathname, "*" and "?" do not match "/", and "**" between slashes matches
// any number of folders.
func wildmatch(pattern, text string, pathname bool) bool {
	return dowild(pattern, text, pathname) == wmMatch
}

func dowild(p, t string, pathname bool) int {
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pc := p[pi]
		if ti >= len(t) && pc != '*' {
			return wmAbortAll
		}
		switch pc {
		case '\\':
			pi++
			if pi >= len(p) {
				// A trailing backslash matches nothing.
				return wmNoMatch
			}
			if t[ti] != p[pi] {
				return wmNoMatch
			}
		case '?':
			if pathname && t[ti] == '/' {
				return wmNoMatch
			}
		case '*':
			pi++
			matchSlash := !pathname
			if pi < len(p) && p[pi] == '*' {
				prev := pi - 2
				for pi < len(p) && p[pi] == '*' {
					pi++
				}
				if !pathname {
					matchSlash = true
				} else if (prev < 0 || p[prev] == '/') &&
					(pi == len(p) || p[pi] == '/' || (p[pi] == '\\' && pi+1 < len(p) && p[pi+1] == '/')) {
					// "**/" may match no folder at all: "a/**/b" matches "a/b".
					if pi < len(p) && p[pi] == '/' && dowild(p[pi+1:], t[ti:], pathname) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				} else {
					matchSlash = false
				}
			}
			if pi == len(p) {
				if !matchSlash && strings.IndexByte(t[ti:], '/') >= 0 {
					return wmAbortToStarStar
				}
				return wmMatch
			}
			if !matchSlash && p[pi] == '/' {
				// One "*" then "/": skip to the next folder.
				j := strings.IndexByte(t[ti:], '/')
				if j < 0 {
					return wmAbortAll
				}
				ti += j
				continue
			}
			for ti < len(t) {
				m := dowild(p[pi:], t[ti:], pathname)
				if m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && t[ti] == '/' {
					return wmAbortToStarStar
				}
				ti++
			}
			return wmAbortAll
		case '[':
			m, next, ok := matchClass(p, pi, t[ti])
			if !ok {
				return wmAbortAll
			}
			if !m || (pathname && t[ti] == '/') {
				return wmNoMatch
			}
			pi = next
		default:
			if t[ti] != pc {
				return wmNoMatch
			}
		}
	}
	if ti < len(t) {
		return wmNoMatch
	}
	return wmMatch
}

// matchClass matches c against the bracket expression starting at p[pi]
// ("["). It returns whether c is in it, the index of the closing "]", and
// false when the expression is malformed (git then fails the whole match).
func matchClass(p string, pi int, c byte) (matched bool, end int, ok bool) {
	pi++
	if pi >= len(p) {
		return false, 0, false
	}
	negated := false
	if p[pi] == '!' || p[pi] == '^' {
		negated = true
		pi++
	}
	var prev byte
	first := true
	for ; first || (pi < len(p) && p[pi] != ']'); pi++ {
		first = false
		if pi >= len(p) {
			return false, 0, false
		}
		pc := p[pi]
		switch {
		case pc == '\\':
			pi++
			if pi >= len(p) {
				return false, 0, false
			}
			pc = p[pi]
			if c == pc {
				matched = true
			}
		case pc == '-' && prev != 0 && pi+1 < len(p) && p[pi+1] != ']':
			pi++
			hi := p[pi]
			if hi == '\\' {
				pi++
				if pi >= len(p) {
					return false, 0, false
				}
				hi = p[pi]
			}
			if c >= prev && c <= hi {
				matched = true
			}
			pc = 0
		case pc == '[' && pi+1 < len(p) && p[pi+1] == ':':
			s := pi + 2
			j := s
			for j < len(p) && p[j] != ']' {
				j++
			}
			if j >= len(p) {
				return false, 0, false
			}
			if j-s-1 < 0 || p[j-1] != ':' {
				// No ":]": an ordinary "[" in the set.
				if c == '[' {
					matched = true
				}
				break
			}
			in, known := charClass(p[s:j-1], c)
			if !known {
				return false, 0, false
			}
			if in {
				matched = true
			}
			pi = j
			pc = 0
		default:
			if c == pc {
				matched = true
			}
		}
		prev = pc
	}
	if pi >= len(p) {
		return false, 0, false
	}
	return matched != negated, pi, true
}

// charClass tests c against a POSIX class name, in the C locale as git does.
func charClass(name string, c byte) (in, known bool) {
	alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	digit := c >= '0' && c <= '9'
	graph := c > 0x20 && c < 0x7f
	switch name {
	case "alnum":
		return alpha || digit, true
	case "alpha":
		return alpha, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return graph, true
	case "lower":
		return c >= 'a' && c <= 'z', true
	case "print":
		return graph || c == ' ', true
	case "punct":
		return graph && !alpha && !digit, true
	case "space":
		return c == ' ' || (c >= '\t' && c <= '\r'), true
	case "upper":
		return c >= 'A' && c <= 'Z', true
	case "xdigit":
		return digit || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F', true
	}
	return false, false
}
