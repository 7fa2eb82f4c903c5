package findcode

import (
	"unicode"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/internal/index"
)

// find_code's words. A definition is found by the words of its name, its
// qualifier, its doc comment and its body, and a description by its own
// words; both go through the same steps, so that they meet:
//
//   - identifiers are split at "_" and at case boundaries
//     ("ParseMediaType" is parse, media, type; "HTTPServer" is http,
//     server), digits staying with the letters before them ("utf8",
//     "base64"); runs starting with a digit (numbers) are left out;
//   - the parts are lowercased and lightly stemmed (codeStem: "parses",
//     "parsing", "parsed" and "parse" are one word);
//   - one-letter parts and stop words (codeStopWords: English function
//     words and the keywords most languages share) are left out.

// maxCodeWord is the longest part kept; longer ones are mostly encoded
// data.
const maxCodeWord = 40

// forCodeWords calls f with every word of text, as find_code keeps them
// (lowercased and stemmed, in buf's memory: valid during the call only).
func forCodeWords(text []byte, buf []byte, f func(w []byte)) []byte {
	index.ForWords(text, func(w []byte) {
		if '0' <= w[0] && w[0] <= '9' {
			return
		}
		buf = splitIdent(w, buf, f)
	})
	return buf
}

// splitIdent calls f with each part of the identifier w, lowercased and
// stemmed, unless it is left out.
func splitIdent(w []byte, buf []byte, f func(w []byte)) []byte {
	emit := func(part []byte) {
		if len(part) < 2 || len(part) > maxCodeWord || '0' <= part[0] && part[0] <= '9' {
			return
		}
		buf = appendLowerBytes(buf[:0], part)
		s := codeStem(buf)
		if !isCodeStopWord(s) {
			f(s)
		}
	}
	start := 0
	// prev is the class of the rune before i: 0 none or "_", 1 lower,
	// 2 upper, 3 digit, 4 other letter.
	prev := 0
	for i := 0; i < len(w); {
		r, n := rune(w[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(w[i:])
		}
		cls := runeClass(r)
		switch {
		case cls == 0:
			emit(w[start:i])
			start = i + n
		case cls == 2 && (prev == 1 || prev == 3):
			// "parseMedia", "utf8Reader"
			emit(w[start:i])
			start = i
		case cls == 1 && prev == 2 && i-start > 1:
			// "HTTPServer": the last upper letter starts the next part.
			j := i - 1
			for j > start && w[j]&0xC0 == 0x80 {
				j--
			}
			emit(w[start:j])
			start = j
		}
		prev = cls
		i += n
	}
	emit(w[start:])
	return buf
}

func runeClass(r rune) int {
	switch {
	case r == '_':
		return 0
	case 'a' <= r && r <= 'z':
		return 1
	case 'A' <= r && r <= 'Z':
		return 2
	case '0' <= r && r <= '9':
		return 3
	case r < utf8.RuneSelf:
		return 0
	case unicode.IsUpper(r):
		return 2
	case unicode.IsLower(r):
		return 1
	case unicode.IsDigit(r):
		return 3
	}
	return 4
}

// appendLowerBytes appends w lowercased to b.
func appendLowerBytes(b, w []byte) []byte {
	for i := 0; i < len(w); {
		c := w[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(w[i:])
		b = utf8.AppendRune(b, unicode.ToLower(r))
		i += n
	}
	return b
}

// codeStem strips w's common English endings in place and returns what
// is left: plurals and verb forms meet their stem ("parses", "parsing",
// "parsed" and "parse" are all "pars"; "entries" and "entry" are
// "entry"). It is light on purpose: a stem is only ever compared with
// another stem, never shown.
func codeStem(w []byte) []byte {
	n := len(w)
	ends := func(s string) bool { return n > len(s) && string(w[n-len(s):]) == s }
	switch {
	case n >= 5 && ends("ies"):
		w[n-3] = 'y'
		return w[:n-2]
	case ends("sses"):
		return w[:n-2]
	case ends("ss"), ends("us"), ends("is"):
		return w
	case n >= 4 && ends("s"):
		w = w[:n-1]
	case n > 6 && ends("ing"):
		w = undouble(w[:n-3])
	case n >= 5 && ends("ed"):
		w = undouble(w[:n-2])
	}
	if n := len(w); n > 3 && w[n-1] == 'e' {
		w = w[:n-1]
	}
	return w
}

// undouble drops the last letter of a stem ending in a doubled consonant
// ("mapp" of "mapped", "runn" of "running"), but not of "ll", "ss", "zz"
// ("called", "passing").
func undouble(w []byte) []byte {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] {
		switch w[n-1] {
		case 'a', 'e', 'i', 'o', 'u', 'l', 's', 'z':
			return w
		}
		return w[:n-1]
	}
	return w
}

// codeStopWords are left out of definitions and queries: English function
// words and the keywords most languages share, in their stemmed form.
var codeStopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{
		// English
		"a", "an", "the", "of", "to", "in", "on", "at", "by", "for", "from", "with", "into", "onto", "as", "and", "or", "but",
		"is", "are", "was", "were", "be", "been", "being", "it", "its", "this", "that", "these", "those", "there", "here",
		"which", "who", "whom", "whose", "what", "when", "where", "how", "why", "do", "does", "did", "has", "have", "had",
		"will", "would", "can", "could", "should", "may", "might", "must", "shall", "so", "than", "then", "such", "some",
		"any", "each", "every", "all", "both", "either", "neither", "not", "no", "nor", "only", "also", "just", "very",
		"we", "you", "he", "she", "they", "them", "their", "our", "your", "his", "her", "my", "me", "us", "i", "one",
		"about", "after", "before", "over", "under", "between", "through", "during", "without", "within", "upon", "via",
		"if", "else", "while", "until", "unless", "because", "whether", "like", "etc", "eg", "ie",
		// keywords
		"func", "function", "fn", "def", "return", "returns", "var", "let", "const", "nil", "null", "none", "undefined",
		"true", "false", "self", "this", "new", "import", "package", "export", "default", "case", "switch", "break",
		"continue", "goto", "elif", "try", "catch", "except", "finally", "throw", "throws", "raise", "pass", "public",
		"private", "protected", "static", "void", "err", "ok", "range", "go", "defer", "chan", "select", "struct",
		"interface", "class", "extends", "implements", "async", "await", "yield", "lambda", "typeof", "instanceof",
	} {
		b := codeStem([]byte(w))
		m[string(b)] = true
	}
	return m
}()

func isCodeStopWord(w []byte) bool { return codeStopWords[string(w)] }

// ForWords calls f with every word of text as find_code indexes and
// searches it (split, lowercased, stemmed, stop words left out; w is
// valid during the call only): what a corpus for find_code's vocabulary
// (scripts/vocab) is made of.
func ForWords(text []byte, f func(w []byte)) {
	forCodeWords(text, nil, f)
}
