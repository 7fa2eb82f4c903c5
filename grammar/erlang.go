package grammar

import "strconv"

// erlangName names an Erlang function by its name and arity, "area/2",
// as Erlang's exports, docs and crash reports do: the arity is counted
// from the source from the name on (head), the arguments of the clause.
// Other kinds keep their captured name ("").
func erlangName(k Kind, head []byte) string {
	if k != Function && k != Method {
		return erlangAtom(head)
	}
	i := 0
	if i < len(head) && head[i] == '\'' {
		for i++; i < len(head) && head[i] != '\''; i++ {
			if head[i] == '\\' {
				i++
			}
		}
		i++
	} else {
		for i < len(head) && (isIdentByte(head[i]) || head[i] == '@' || head[i] >= 0x80) {
			i++
		}
	}
	if i == 0 || i > len(head) {
		return ""
	}
	name := string(head[:i])
	if plain := erlangAtom(head[:i]); plain != "" {
		name = plain
	}
	for i < len(head) && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r') {
		i++
	}
	if i >= len(head) || head[i] != '(' {
		return ""
	}
	n, ok := erlangArity(head[i:])
	if !ok {
		return ""
	}
	return name + "/" + strconv.Itoa(n)
}

// erlangAtom is the atom that head starts with in quotes when it needs
// none ('shapes' is shapes, the same atom), else "".
func erlangAtom(head []byte) string {
	if len(head) < 3 || head[0] != '\'' || head[1] < 'a' || head[1] > 'z' {
		return ""
	}
	for i := 2; i < len(head); i++ {
		switch c := head[i]; {
		case c == '\'':
			if erlangReserved[string(head[1:i])] {
				return ""
			}
			return string(head[1:i])
		case !isIdentByte(c) && c != '@':
			return ""
		}
	}
	return ""
}

// erlangReserved are the words that need quotes as atoms.
var erlangReserved = map[string]bool{
	"after": true, "and": true, "andalso": true, "band": true, "begin": true, "bnot": true, "bor": true,
	"bsl": true, "bsr": true, "bxor": true, "case": true, "catch": true, "cond": true, "div": true,
	"else": true, "end": true, "fun": true, "if": true, "let": true, "maybe": true, "not": true, "of": true,
	"or": true, "orelse": true, "receive": true, "rem": true, "try": true, "when": true, "xor": true,
}

// erlangArity counts the arguments of the parenthesised list that src
// starts with: its commas outside brackets, strings, characters and
// comments.
func erlangArity(src []byte) (int, bool) {
	depth, commas, empty := 0, 0, true
	for i := 0; i < len(src); i++ {
		c := src[i]
		if depth >= 1 && c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ')' && c != '%' {
			empty = false
		}
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				if empty {
					return 0, true
				}
				return commas + 1, true
			}
		case '<':
			if i+1 < len(src) && src[i+1] == '<' {
				depth++
				i++
			}
		case '>':
			if i+1 < len(src) && src[i+1] == '>' {
				depth--
				i++
			}
		case ',':
			if depth == 1 {
				commas++
			}
		case '"', '\'':
			for i++; i < len(src) && src[i] != c; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '$':
			i++ // a character: $, $( $\n
			if i < len(src) && src[i] == '\\' {
				i++
			}
		case '%':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		}
	}
	return 0, false
}
