// native_scan.c holds the text scans that tell the native run which blocks
// may hold a definition (see zumba_run's zOpaque and zBlock).

#include <stdlib.h>
#include <string.h>

#include "native.h"

static bool zumba_word_byte(uint8_t c) {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool zumba_word_at(const uint8_t *s, uint32_t i, uint32_t n, const char *w) {
	uint32_t k = (uint32_t)strlen(w);
	return i + k <= n && memcmp(s + i, w, k) == 0 && (i + k == n || !zumba_word_byte(s[i + k]));
}

// zumba_c_may_define reports whether a piece of C text may hold a
// definition the outline lists: a preprocessor line, a typedef, or struct,
// union or enum followed, past names, comments and parenthesized
// attributes, by "{". Comments and strings count too: a node is searched
// when in doubt.
bool zumba_c_may_define(const uint8_t *s, uint32_t n) {
	for (uint32_t i = 0; i < n; i++) {
		uint8_t c = s[i];
		if (c == '#') return true;
		if ((c != 't' && c != 's' && c != 'u' && c != 'e') || (i > 0 && zumba_word_byte(s[i - 1]))) continue;
		if (zumba_word_at(s, i, n, "typedef")) return true;
		uint32_t k;
		if (zumba_word_at(s, i, n, "struct")) k = 6;
		else if (zumba_word_at(s, i, n, "union")) k = 5;
		else if (zumba_word_at(s, i, n, "enum")) k = 4;
		else continue;
		uint32_t j = i + k;
		while (j < n) {
			uint8_t d = s[j];
			if (d == '{') return true;
			if (d == ' ' || d == '\t' || d == '\n' || d == '\r' || d == '\f' || d == '\v' || d == '\\') {
				j++;
			} else if (zumba_word_byte(d)) {
				while (j < n && zumba_word_byte(s[j])) j++;
			} else if (d == '/' && j + 1 < n && s[j + 1] == '*') {
				for (j += 2; j < n && !(s[j - 1] == '*' && s[j] == '/'); j++) {}
				j++;
			} else if (d == '/' && j + 1 < n && s[j + 1] == '/') {
				while (j < n && s[j] != '\n') j++;
			} else if (d == '(') {
				uint32_t depth = 0;
				for (; j < n; j++) {
					if (s[j] == '(') depth++;
					else if (s[j] == ')' && --depth == 0) { j++; break; }
				}
			} else {
				break;
			}
		}
	}
	return false;
}

static bool zumba_js_word_byte(uint8_t c) {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

static bool zumba_js_space(uint8_t c) {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// zumba_js_word reports whether the k bytes at s are the word w.
static bool zumba_js_word(const uint8_t *s, uint32_t k, const char *w) {
	return strlen(w) == k && memcmp(s, w, k) == 0;
}

// zumba_js_back is the index of the last byte before i that is not white
// space, or -1 when the text before it is unknown to this scan: a line
// comment may end between them (white space crossing a line break back
// to a line holding "//"), or it is the end of a block comment or of the
// text.
static int64_t zumba_js_back(const uint8_t *s, int64_t i) {
	bool crossed = false;
	int64_t j = i - 1;
	for (; j >= 0 && zumba_js_space(s[j]); j--) {
		if (s[j] == '\n') crossed = true;
	}
	if (j < 0 || s[j] == '/') return -1;
	if (crossed) {
		for (int64_t k = j; k > 0 && s[k] != '\n'; k--) {
			if (s[k] == '/' && s[k - 1] == '/') return -1;
		}
	}
	return j;
}

// zumba_js_assign reports whether the "=" at i (not the first byte) may
// be a variable declarator's: not part of ==, =>, !=, <=, +=, and the
// like. ">=" and "/=" may be: a type argument or a comment may end just
// before it.
static bool zumba_js_assign(const uint8_t *s, uint32_t i, uint32_t n) {
	if (i + 1 < n && (s[i + 1] == '=' || s[i + 1] == '>')) return false;
	return !strchr("=!<+-*%&|^?", s[i - 1]);
}

// zumba_js_may_define returns the offset of the first place in the text
// of a TypeScript block (its braces included) where a definition the
// outline lists may start, or n when there is none. Such a definition is
// a declaration named by a keyword (class, function, interface, enum,
// export; type, namespace, module, global or declare followed by a name,
// a string or a brace), a name bound to a function by a declarator
// ("= (", "= <", "= async", "= name =>"), or an object literal whose
// members may be listed: bound to a name ("= {") or returned ("return
// {", "=> ({"). "require" counts too: a const bound to require() is not
// listed, which hides the same name from the namespace constants pattern.
// Comments and strings are read as code, so a node is searched when in
// doubt. Brackets nested deeper than max_nest count as a place too, so
// that a deep tree's walk still finds where it is cut (maxDepth).
uint32_t zumba_js_may_define(const uint8_t *s, uint32_t n, int32_t max_nest) {
	int32_t nest = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t c = s[i];
		switch (c) {
		case '(': case '[':
			if (++nest > max_nest) return i;
			break;
		case ')': case ']': case '}':
			nest--;
			break;
		case '{': {
			if (++nest > max_nest) return i;
			if (i == 0) break;
			int64_t j = zumba_js_back(s, i);
			if (j < 0) return i;
			uint8_t p = s[j];
			if (p == '=' && j > 0 && zumba_js_assign(s, (uint32_t)j, n)) return i;
			if (p == '(') {
				int64_t k = zumba_js_back(s, j);
				if (k < 0 || (s[k] == '>' && k > 0 && s[k - 1] == '=')) return i;
			}
			if (zumba_js_word_byte(p)) {
				int64_t k = j;
				while (k > 0 && zumba_js_word_byte(s[k - 1])) k--;
				if (zumba_js_word(s + k, (uint32_t)(j - k + 1), "return")) return i;
			}
			break;
		}
		case '=': {
			if (i == 0 || !zumba_js_assign(s, i, n)) break;
			uint32_t k = i + 1;
			while (k < n && zumba_js_space(s[k])) k++;
			if (k >= n) break;
			if (s[k] == '(' || s[k] == '<' || s[k] == '/') return i;
			if (zumba_js_word_byte(s[k])) {
				uint32_t w = k;
				while (k < n && zumba_js_word_byte(s[k])) k++;
				if (zumba_js_word(s + w, k - w, "async")) return i;
				while (k < n && zumba_js_space(s[k])) k++;
				if (k + 1 < n && s[k] == '=' && s[k + 1] == '>') return i;
				if (k < n && s[k] == '/') return i;
			}
			break;
		}
		default:
			if (!zumba_js_word_byte(c) || (i > 0 && zumba_js_word_byte(s[i - 1]))) break;
			uint32_t k = i;
			while (k < n && zumba_js_word_byte(s[k])) k++;
			const uint8_t *w = s + i;
			uint32_t len = k - i;
			if (zumba_js_word(w, len, "class") || zumba_js_word(w, len, "function") || zumba_js_word(w, len, "interface") ||
					zumba_js_word(w, len, "enum") || zumba_js_word(w, len, "export") || zumba_js_word(w, len, "require")) {
				return i;
			}
			if ((zumba_js_word(w, len, "type") || zumba_js_word(w, len, "namespace") || zumba_js_word(w, len, "module") ||
					zumba_js_word(w, len, "global") || zumba_js_word(w, len, "declare")) && !(i > 0 && s[i - 1] == '.')) {
				uint32_t m = k;
				while (m < n && zumba_js_space(s[m])) m++;
				if (m < n && (zumba_js_word_byte(s[m]) || s[m] == '"' || s[m] == '\'' || s[m] == '`' || s[m] == '{' || s[m] == '/')) return i;
			}
			i = k - 1;
		}
	}
	return n;
}
