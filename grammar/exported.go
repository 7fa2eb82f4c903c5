package grammar

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Decl is what decides whether a definition is visible outside its file
// or package: its name, its kind, the words written before its name, and
// the definition holding it.
type Decl struct {
	// Name is the name as the outline shows it ("Server.Serve", a Go
	// method; "Display for Rpc", a Rust impl).
	Name string
	Kind Kind
	// Head is the declaration's text before its name, from the start of
	// its line: "export async function", "pub(crate) fn", "public static
	// void", "func (s *Server)".
	Head string
	// In is the kind of the definition holding it, 0 at top level; InName
	// its name.
	In     Kind
	InName string
}

// exportRules says, per language, whether a definition is visible
// outside its file or package, as the language marks it. A definition
// held by another is visible only when that one is, which the caller
// checks; a definition inside a function or method never is. Languages
// without a row mark nothing (Exported's known is false).
var exportRules = map[string]func(d Decl) bool{
	// Go: every part of the name starts with a capital letter (Server.Serve).
	"go": func(d Decl) bool {
		for _, s := range strings.Split(d.Name, ".") {
			if !capitalized(s) {
				return false
			}
		}
		return true
	},
	// Python: no leading underscore; special methods (__init__) are
	// public.
	"python": func(d Decl) bool { return !underscored(d.Name) },
	// Dart: a leading underscore makes a name private to its library.
	"dart":       func(d Decl) bool { return !strings.HasPrefix(lastName(d.Name), "_") },
	"javascript": exportedJS,
	"typescript": exportedJS,
	"tsx":        exportedJS,
	// Rust: pub (not pub(crate), pub(super), pub(in …)); an impl is as
	// visible as its type, and the items of a trait or of a trait's impl
	// as the trait.
	"rust": func(d Decl) bool {
		switch {
		case d.Kind == Impl:
			return true
		case d.In == Trait, d.In == Impl && strings.Contains(d.InName, " for "):
			return true
		}
		return hasPub(d.Head)
	},
	// Java and C#: public; an interface's members are public unless
	// marked private.
	"java":   publicOrInterface,
	"csharp": publicOrInterface,
	// Kotlin, Scala and PHP: public unless marked otherwise.
	"kotlin": notMarked("private", "protected", "internal"),
	"scala":  notMarked("private", "protected"),
	"php":    notMarked("private", "protected"),
	// Swift: public or open.
	"swift": func(d Decl) bool { return hasWord(d.Head, "public") || hasWord(d.Head, "open") },
}

// Exported reports whether d, a definition of a file of language l, is
// visible outside its file or package as the language marks it (Go's
// capitals, export, pub, public, Python's leading underscore); known is
// false for a language that marks none.
func (l *Language) Exported(d Decl) (exported, known bool) {
	rule, ok := exportRules[l.Name]
	if !ok {
		return false, false
	}
	if d.In == Function || d.In == Method {
		return false, true
	}
	return rule(d), true
}

// MarksExported reports whether l marks the definitions visible outside
// a file or package (see [Language.Exported]).
func (l *Language) MarksExported() bool {
	_, ok := exportRules[l.Name]
	return ok
}

// exportedJS: at top level and in a namespace, export; a class's,
// interface's or object's members unless private, protected or #named.
func exportedJS(d Decl) bool {
	switch d.In {
	case 0, Namespace, Module:
		return hasWord(d.Head, "export") || d.In == Module && strings.Contains(d.Head, "declare")
	}
	return !hasWord(d.Head, "private") && !hasWord(d.Head, "protected") && !strings.HasPrefix(lastName(d.Name), "#")
}

// publicOrInterface: public, or a member of an interface not marked
// private.
func publicOrInterface(d Decl) bool {
	if d.In == Interface {
		return !hasWord(d.Head, "private")
	}
	return hasWord(d.Head, "public")
}

// notMarked: visible unless one of the words is in the head.
func notMarked(words ...string) func(Decl) bool {
	return func(d Decl) bool {
		for _, w := range words {
			if hasWord(d.Head, w) {
				return false
			}
		}
		return true
	}
}

// hasPub reports whether head holds Rust's pub, not restricted by a
// parenthesis after it.
func hasPub(head string) bool {
	for i := 0; ; {
		k := wordIndex(head[i:], "pub")
		if k < 0 {
			return false
		}
		rest := strings.TrimLeft(head[i+k+3:], " \t\r\n")
		if !strings.HasPrefix(rest, "(") {
			return true
		}
		i += k + 3
	}
}

// hasWord reports whether w is a whole word of s.
func hasWord(s, w string) bool { return wordIndex(s, w) >= 0 }

// wordIndex is where w first stands as a whole word in s, or -1.
func wordIndex(s, w string) int {
	for i := 0; ; {
		k := strings.Index(s[i:], w)
		if k < 0 {
			return -1
		}
		k += i
		before := k == 0 || !wordByte(s[k-1])
		after := k+len(w) == len(s) || !wordByte(s[k+len(w)])
		if before && after {
			return k
		}
		i = k + 1
	}
}

func wordByte(b byte) bool { return isIdentByte(b) || b == '$' || b >= 0x80 }

// lastName is the last part of a dotted name.
func lastName(s string) string { return s[strings.LastIndexByte(s, '.')+1:] }

// capitalized reports whether s starts with an upper-case letter.
func capitalized(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// underscored reports whether a part of the dotted name s starts with
// "_" without being a special name (__init__).
func underscored(s string) bool {
	for _, p := range strings.Split(s, ".") {
		if strings.HasPrefix(p, "_") && !(len(p) > 4 && strings.HasPrefix(p, "__") && strings.HasSuffix(p, "__")) {
			return true
		}
	}
	return false
}
