package outline

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// The few types of tree-sitter's C API (api.h) used here, with the same
// layout. The functions are the ones go-tree-sitter compiles into the
// program; api.h itself is not on this package's include path.
typedef struct { uint32_t row, column; } zPoint;
typedef struct { uint32_t context[4]; const void *id; const void *tree; } zNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } zCursor;
typedef struct { zNode node; uint32_t index; } zCapture;
typedef struct { uint32_t id; uint16_t pattern_index; uint16_t capture_count; const zCapture *captures; } zMatch;

extern void *ts_query_cursor_new(void);
extern void ts_query_cursor_delete(void *);
extern void ts_query_cursor_exec(void *, const void *, zNode);
extern bool ts_query_cursor_next_match(void *, zMatch *);
extern void ts_query_cursor_set_max_start_depth(void *, uint32_t);
extern uint32_t ts_query_pattern_count(const void *);
extern uint32_t ts_query_start_byte_for_pattern(const void *, uint32_t);
extern bool ts_query_is_pattern_rooted(const void *, uint32_t);
extern bool ts_query_is_pattern_non_local(const void *, uint32_t);
extern uint32_t ts_language_symbol_count(const void *);
extern const char *ts_language_symbol_name(const void *, uint16_t);
extern int ts_language_symbol_type(const void *, uint16_t);
extern const void *ts_tree_language(const void *);
extern uint16_t ts_node_symbol(zNode);
extern const char *ts_node_type(zNode);
extern uint32_t ts_node_end_byte(zNode);
extern zPoint ts_node_end_point(zNode);
extern bool ts_node_is_named(zNode);
extern bool ts_node_is_extra(zNode);
extern bool ts_node_has_error(zNode);
extern uint32_t ts_node_child_count(zNode);
extern zNode ts_node_child(zNode, uint32_t);
extern zNode ts_node_prev_sibling(zNode);
extern zNode ts_node_child_by_field_id(zNode, uint16_t);
extern zCursor ts_tree_cursor_new(zNode);
extern void ts_tree_cursor_delete(zCursor *);
extern uint16_t ts_tree_cursor_current_field_id(const zCursor *);
extern uint16_t ts_language_symbol_for_name(const void *, const char *, uint32_t, bool);
extern uint16_t ts_language_field_id_for_name(const void *, const char *, uint32_t);
extern void ts_tree_cursor_reset(zCursor *, zNode);
extern zNode ts_tree_cursor_current_node(const zCursor *);
extern bool ts_tree_cursor_goto_first_child(zCursor *);
extern bool ts_tree_cursor_goto_next_sibling(zCursor *);
extern bool ts_tree_cursor_goto_parent(zCursor *);

// zRec is one captured node of a match.
typedef struct {
	zNode node;
	uint32_t end_byte, end_row, end_col;
	uint32_t capture; // the capture's index in the query
	uint32_t match;   // the match's ordinal in the run
	uint16_t pattern;
	uint16_t symbol;
	// For a capture flagged in zumba_run's whole: zumba_code_end's answer.
	uint32_t code_row, code_end_row, code_end_col;
	uint8_t code_known, code_skipped;
} zRec;

static bool zumba_code_end(const uint8_t *kinds, uint32_t nkinds, zCursor *c, bool *made, zNode n, uint32_t *start_row,
		zPoint *end);

// zRecs are a run's captures; kinds (C memory) flags by symbol the types
// holding "comment" (4), for zumba_code_end, which moves cursor.
typedef struct {
	zRec *recs;
	uint32_t len, cap;
	uint32_t matches;
	const uint8_t *kinds;
	uint32_t nkinds;
	zCursor cursor;
	bool made;
} zRecs;

static bool zumba_push(zRecs *out, const zMatch *m, const uint8_t *whole, uint32_t nwhole) {
	if (out->len + m->capture_count > out->cap) {
		uint32_t cap = out->cap ? out->cap * 2 : 256;
		while (cap < out->len + m->capture_count) cap *= 2;
		zRec *r = realloc(out->recs, (size_t)cap * sizeof(zRec));
		if (!r) return false;
		out->recs = r;
		out->cap = cap;
	}
	for (uint16_t i = 0; i < m->capture_count; i++) {
		zNode n = m->captures[i].node;
		zPoint end = ts_node_end_point(n);
		zRec *r = &out->recs[out->len++];
		r->node = n;
		r->end_byte = ts_node_end_byte(n);
		r->end_row = end.row;
		r->end_col = end.column;
		r->capture = m->captures[i].index;
		r->match = out->matches;
		r->pattern = m->pattern_index;
		r->symbol = ts_node_symbol(n);
		r->code_known = r->capture < nwhole && whole[r->capture];
		r->code_skipped = 0;
		if (r->code_known) {
			zPoint last;
			r->code_skipped = zumba_code_end(out->kinds, out->nkinds, &out->cursor, &out->made, n, &r->code_row, &last);
			r->code_end_row = last.row;
			r->code_end_col = last.column;
		}
	}
	out->matches++;
	return true;
}

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
static bool zumba_c_may_define(const uint8_t *s, uint32_t n) {
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
static uint32_t zumba_js_may_define(const uint8_t *s, uint32_t n, int32_t max_nest) {
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

// zStep is one node of a chain pattern (see chainStep in Go): a node of
// type symbol (0: any named node but an error), in field of the node of
// the step above it (0: any), without the fields neg, with its captures;
// its children must match its positions in order, each a child after the
// one before, of one of the position's alternatives. free is set when
// neither it nor a step below it captures a node.
typedef struct {
	uint16_t symbol, field;
	uint16_t pos_start, pos_count;
	uint16_t pattern, ncap;
	uint16_t caps[4];
	uint16_t neg[2];
	uint16_t free;
} zStep;

// zPos is a position: the steps alts[alt_start] to
// alts[alt_start+alt_count-1].
typedef struct {
	uint16_t alt_start, alt_count;
} zPos;

// zChains are a query's chain patterns: for a root symbol s, the steps
// first[s] to first[s]+count[s]-1, in pattern order.
typedef struct {
	const zStep *steps;
	const zPos *pos;
	const uint16_t *alts, *first, *count;
	uint32_t nsyms;
} zChains;

// zMaxChain bounds a chain pattern's depth and captures.
enum { zMaxChain = 16, zMaxChainCaps = 64 };

// zKid is one child of a node, as zumba_chain reads it.
typedef struct {
	zNode node;
	uint16_t symbol, field;
	bool named;
} zKid;

// zListed records where the children of the node id are in the run's
// kids (an entry whose gen is not the run's is empty).
typedef struct {
	const void *id;
	uint32_t first, n, gen;
} zListed;

// zCont is what is left to match once a step has matched: the positions
// from pos of step st among the children kids[first, first+n) from
// index from, then next.
typedef struct zCont {
	const zStep *st;
	uint32_t first, n, pos, from;
	const struct zCont *next;
} zCont;

// zChainRun is the state of zumba_chain: a cursor, the children of the
// nodes the patterns have read in the run (each node's listed once, found
// by id in a hash table: a node is read by the patterns of its own type
// and by those of the nodes above it), the captures on the path.
typedef struct {
	const zChains *ch;
	zRecs *out;
	const uint8_t *whole;
	uint32_t nwhole;
	uint16_t pattern;
	zCursor cursor;
	bool made, oom;
	zKid *kids;
	uint32_t nkids, capkids;
	zListed *listed;
	uint32_t nlisted, caplisted, gen;
	zCapture caps[zMaxChainCaps];
	uint32_t ncaps;
} zChainRun;

static uint32_t zumba_listed_slot(const zListed *t, uint32_t cap, uint32_t gen, const void *id) {
	uintptr_t h = (uintptr_t)id;
	h ^= h >> 17;
	h *= 0x9E3779B97F4A7C15ull;
	uint32_t i = (uint32_t)(h >> 32) & (cap - 1);
	while (t[i].gen == gen && t[i].id != id) i = (i + 1) & (cap - 1);
	return i;
}

// zumba_kids finds the children of n, listing them the first time; it
// sets r->oom and returns false when memory runs out.
static bool zumba_listed_find(const zChainRun *r, zNode n, uint32_t *first, uint32_t *count);

static bool zumba_kids(zChainRun *r, zNode n, uint32_t *first, uint32_t *count) {
	if (zumba_listed_find(r, n, first, count)) return true;
	if (2 * (r->nlisted + 1) > r->caplisted) {
		uint32_t cap = r->caplisted ? r->caplisted * 2 : 64;
		zListed *t = calloc(cap, sizeof(zListed));
		if (!t) { r->oom = true; return false; }
		for (uint32_t i = 0; i < r->caplisted; i++) {
			if (r->listed[i].gen == r->gen) t[zumba_listed_slot(t, cap, r->gen, r->listed[i].id)] = r->listed[i];
		}
		free(r->listed);
		r->listed = t;
		r->caplisted = cap;
	}
	uint32_t start = r->nkids;
	if (r->made) {
		ts_tree_cursor_reset(&r->cursor, n);
	} else {
		r->cursor = ts_tree_cursor_new(n);
		r->made = true;
	}
	if (ts_tree_cursor_goto_first_child(&r->cursor)) {
		do {
			if (r->nkids == r->capkids) {
				uint32_t cap = r->capkids ? r->capkids * 2 : 64;
				zKid *m = realloc(r->kids, (size_t)cap * sizeof(zKid));
				if (!m) { r->oom = true; return false; }
				r->kids = m;
				r->capkids = cap;
			}
			zKid *k = &r->kids[r->nkids++];
			k->node = ts_tree_cursor_current_node(&r->cursor);
			k->symbol = ts_node_symbol(k->node);
			k->field = ts_tree_cursor_current_field_id(&r->cursor);
			k->named = ts_node_is_named(k->node);
		} while (ts_tree_cursor_goto_next_sibling(&r->cursor));
	}
	zListed *l = &r->listed[zumba_listed_slot(r->listed, r->caplisted, r->gen, n.id)];
	*l = (zListed){ n.id, start, r->nkids - start, r->gen };
	r->nlisted++;
	*first = start;
	*count = r->nkids - start;
	return true;
}

// zumba_listed_find finds the children of n the patterns listed, if they
// did.
static bool zumba_listed_find(const zChainRun *r, zNode n, uint32_t *first, uint32_t *count) {
	if (!r || !r->caplisted) return false;
	uint32_t i = zumba_listed_slot(r->listed, r->caplisted, r->gen, n.id);
	if (r->listed[i].gen != r->gen) return false;
	*first = r->listed[i].first;
	*count = r->listed[i].n;
	return true;
}

static void zumba_chain_free(zChainRun *r) {
	if (!r) return;
	if (r->made) ts_tree_cursor_delete(&r->cursor);
	free(r->kids);
	free(r->listed);
	free(r);
}

// zumba_kid_fits reports whether the child k may be step alt's node, by
// its type and field.
static bool zumba_kid_fits(const zStep *alt, const zKid *k) {
	if (alt->symbol ? k->symbol != alt->symbol : !k->named || k->symbol == 0xFFFF) return false;
	return !alt->field || alt->field == k->field;
}

static bool zumba_chain_has_neg(const zStep *st, zNode n) {
	for (int k = 0; k < 2; k++) {
		if (st->neg[k] && ts_node_child_by_field_id(n, st->neg[k]).id) return true;
	}
	return false;
}

// zumba_chain_exists reports whether the free step st matches at n (whose
// type and field are st's). A step that captures nothing adds nothing to
// a match but its existence, and the first child in order that matches a
// position leaves the most children to the positions after it, so each
// position takes the first one: linear in the children, however many
// could match.
static bool zumba_chain_exists(zChainRun *r, const zStep *st, zNode n) {
	if (zumba_chain_has_neg(st, n)) return false;
	if (st->pos_count == 0) return true;
	uint32_t first, count;
	if (!zumba_kids(r, n, &first, &count)) return false;
	uint32_t from = 0;
	for (uint16_t pos = 0; pos < st->pos_count; pos++) {
		zPos p = r->ch->pos[st->pos_start + pos];
		bool found = false;
		for (uint32_t j = from; j < count && !found; j++) {
			for (uint16_t a = 0; a < p.alt_count && !found; a++) {
				const zStep *alt = &r->ch->steps[r->ch->alts[p.alt_start + a]];
				zKid k = r->kids[first + j]; // r->kids moves as it grows
				if (!zumba_kid_fits(alt, &k)) continue;
				if (zumba_chain_exists(r, alt, k.node)) {
					found = true;
					from = j + 1;
				} else if (r->oom) {
					return false;
				}
			}
		}
		if (!found) return false;
	}
	return true;
}

static bool zumba_chain_step(zChainRun *r, const zStep *st, zNode n, const zCont *next);

static bool zumba_chain_positions(zChainRun *r, const zStep *st, uint32_t first, uint32_t n, uint32_t pos, uint32_t from,
		const zCont *next) {
	if (pos == st->pos_count) {
		if (!next) {
			zMatch m = { 0, r->pattern, (uint16_t)r->ncaps, r->caps };
			return m.capture_count == 0 || zumba_push(r->out, &m, r->whole, r->nwhole);
		}
		return zumba_chain_positions(r, next->st, next->first, next->n, next->pos, next->from, next->next);
	}
	zPos p = r->ch->pos[st->pos_start + pos];
	// A free alternative matched at one child gives every match it would
	// give at a later one (see zumba_chain_exists): it is taken once.
	bool free_done = false;
	for (uint32_t j = from; j < n; j++) {
		for (uint16_t a = 0; a < p.alt_count; a++) {
			const zStep *alt = &r->ch->steps[r->ch->alts[p.alt_start + a]];
			zKid k = r->kids[first + j]; // r->kids moves as it grows
			if (!zumba_kid_fits(alt, &k)) continue;
			if (alt->free) {
				if (free_done) continue;
				if (!zumba_chain_exists(r, alt, k.node)) {
					if (r->oom) return false;
					continue;
				}
				free_done = true;
				if (!zumba_chain_positions(r, st, first, n, pos + 1, j + 1, next)) return false;
				continue;
			}
			zCont c = { st, first, n, pos + 1, j + 1, next };
			if (!zumba_chain_step(r, alt, k.node, &c)) return false;
		}
	}
	return true;
}

// zumba_chain_step finds the matches of step st at n (whose type and
// field are st's) followed by next, as tree-sitter's query cursor finds
// them (every choice of children, in order; one for a step that captures
// nothing), though not in its order. It returns false when memory runs
// out.
static bool zumba_chain_step(zChainRun *r, const zStep *st, zNode n, const zCont *next) {
	if (zumba_chain_has_neg(st, n)) return true;
	uint32_t caps = r->ncaps;
	for (uint16_t k = 0; k < st->ncap; k++) {
		r->caps[r->ncaps].node = n;
		r->caps[r->ncaps].index = st->caps[k];
		r->ncaps++;
	}
	uint32_t first = 0, count = 0;
	if (st->pos_count > 0 && !zumba_kids(r, n, &first, &count)) return false;
	bool ok = zumba_chain_positions(r, st, first, count, 0, 0, next);
	r->ncaps = caps;
	return ok;
}

// zumba_chain finds the matches of the chain pattern whose root step is
// st at n.
static bool zumba_chain(zChainRun *r, const zStep *st, zNode n) {
	r->pattern = st->pattern;
	return zumba_chain_step(r, st, n, NULL);
}

// zumba_past reports whether the monotonic clock is past deadline.
static bool zumba_past(const struct timespec *deadline) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > deadline->tv_sec || (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

// Flags of zumba_run's symbol table.
enum { zRoot = 1, zOpaque = 2, zInert = 4, zBlock = 8, zChain = 16 };

// zMaxNest is the bracket nesting past which a block is searched whatever
// its text: real code stays far under it, and hostile nesting must still
// meet maxDepth (see zumba_js_may_define).
enum { zMaxNest = 256 };

// zumba_run walks the tree under root and runs the query at every node
// whose symbol is flagged zRoot in syms (the symbols the query's patterns
// start at), each run starting patterns at that node only: a run follows
// a pattern's states only as deep as the pattern reaches, so the work
// stays linear in a deep tree. It does not enter the nodes max_depth
// levels below root, and sets *deep_row to the first row of those that
// have children (UINT32_MAX when none has). A zOpaque node without errors
// (a C function's body, an initializer) is neither run nor walked when
// its text, in src, holds nothing a definition starts with
// (zumba_c_may_define); a run rooted above it still follows its states
// into it. A zBlock node without errors (a TypeScript block) is the
// same, with zumba_js_may_define for the test; each scan reads on to the
// first place it finds, and blocks inside that stretch are decided by it,
// so the scans read a file's text about once. A zInert node without
// errors (a TypeScript type) is run but not walked: no pattern starts
// below it. It stops early, returning 1, when *stop becomes non-zero
// or, when budget is not 0, budget nanoseconds after it started,
// and returns 2 when memory runs out;
// *stop_row is then the row of the node it stopped at (the nodes before
// it in the file are searched), else UINT32_MAX.
static int zumba_run(zNode root, const void *query, const uint8_t *syms, uint32_t nsyms, uint32_t max_children,
		uint32_t max_depth, uint32_t *deep_row, uint32_t *stop_row, const uint8_t *src, uint32_t nsrc, const uint8_t *whole, uint32_t nwhole,
		const zChains *chains, volatile int32_t *stop, int64_t budget, zRecs *out, zChainRun **keep) {
	zChainRun *chain_run = NULL;
	*keep = NULL;
	struct timespec deadline = {0, 0};
	if (budget > 0) {
		clock_gettime(CLOCK_MONOTONIC, &deadline);
		deadline.tv_sec += budget / 1000000000 + (deadline.tv_nsec + budget % 1000000000) / 1000000000;
		deadline.tv_nsec = (deadline.tv_nsec + budget % 1000000000) % 1000000000;
	}
	void *qc = NULL; // made for the first node a chain does not match
	zCursor c = ts_tree_cursor_new(root);
	int ret = 0;
	uint32_t steps = 0, depth = 0;
	// The last block scan: from scan_from, it found a place at scan_to
	// (scan_hit), or none up to scan_to.
	uint32_t scan_from = UINT32_MAX, scan_to = 0;
	bool scan_hit = false;
	*deep_row = UINT32_MAX;
	*stop_row = UINT32_MAX;
	for (;;) {
		zNode n = ts_tree_cursor_current_node(&c);
		*stop_row = n.context[1];
		// Checked before n is run: the nodes before it are searched.
		if ((++steps & 1023) == 0 && (__atomic_load_n(stop, __ATOMIC_RELAXED) || (budget > 0 && zumba_past(&deadline)))) {
			ret = 1;
			break;
		}
		uint16_t sym = ts_node_symbol(n);
		uint8_t flags = sym < nsyms ? syms[sym] : 0;
		bool enter = true;
		if ((flags & zOpaque) && !ts_node_has_error(n)) {
			uint32_t start = n.context[0], end = ts_node_end_byte(n);
			enter = !(start <= end && end <= nsrc) || zumba_c_may_define(src + start, end - start);
		} else if ((flags & zBlock) && !ts_node_has_error(n)) {
			uint32_t start = n.context[0], end = ts_node_end_byte(n);
			if (!(start <= end && end <= nsrc)) {
				enter = true;
			} else if (scan_from <= start && start <= scan_to && (scan_hit || end <= scan_to)) {
				// A scan from further back already read this block's
				// text: what it found there stands (it reads more before
				// each place, so it finds as much; only its bracket count
				// may differ, which bears on depth, not definitions).
				enter = scan_hit && scan_to < end;
			} else {
				uint32_t k = zumba_js_may_define(src + start, end - start, zMaxNest);
				scan_from = start;
				scan_hit = k < end - start;
				scan_to = start + k;
				enter = scan_hit;
			}
		}
		// A wide error node is not run: its children are, one by one (see
		// maxChildren).
		if (enter && (flags & zRoot) && !(sym == 0xFFFF && ts_node_child_count(n) > max_children)) {
			if (__atomic_load_n(stop, __ATOMIC_RELAXED)) { ret = 1; break; }
			if ((flags & zChain) && sym < chains->nsyms) {
				if (!chain_run) {
					if (!(chain_run = calloc(1, sizeof(zChainRun)))) { ret = 2; goto done; }
					chain_run->ch = chains;
					chain_run->out = out;
					chain_run->whole = whole;
					chain_run->nwhole = nwhole;
					chain_run->gen = 1;
				}
				for (uint16_t k = 0; k < chains->count[sym]; k++) {
					if (!zumba_chain(chain_run, &chains->steps[chains->first[sym] + k], n)) { ret = 2; goto done; }
				}
				goto walk;
			}
			if (!qc) {
				qc = ts_query_cursor_new();
				ts_query_cursor_set_max_start_depth(qc, 0);
			}
			ts_query_cursor_exec(qc, query, n);
			zMatch m;
			while (ts_query_cursor_next_match(qc, &m)) {
				if (m.capture_count > 0 && !zumba_push(out, &m, whole, nwhole)) { ret = 2; goto done; }
			}
		}
	walk:
		if ((flags & zInert) && !ts_node_has_error(n)) enter = false;
		if (enter && depth < max_depth) {
			if (ts_tree_cursor_goto_first_child(&c)) { depth++; continue; }
		} else if (enter && ts_node_child_count(n) > 0 && n.context[1] < *deep_row) {
			*deep_row = n.context[1];
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) goto done;
			depth--;
		}
	}
done:
	if (ret == 0) *stop_row = UINT32_MAX;
	ts_tree_cursor_delete(&c);
	if (qc) ts_query_cursor_delete(qc);
	if (out->made) {
		ts_tree_cursor_delete(&out->cursor);
		out->made = false;
	}
	if (chain_run && ret == 0) {
		// The children the chains listed are kept for zumba_extents,
		// without the run's Go memory.
		chain_run->out = NULL;
		chain_run->whole = NULL;
		*keep = chain_run;
	} else {
		zumba_chain_free(chain_run);
	}
	return ret;
}

// zSib is one child of a node, as extentStarts reads it.
typedef struct {
	zNode node;
	uint32_t end_byte, end_row, end_col;
	uint16_t symbol;
	uint8_t named, extra;
} zSib;

// zumba_children lists the children of n the tree cursor visits, at most
// cap of them into out, and returns how many there are.
static uint32_t zumba_children(zNode n, zSib *out, uint32_t cap) {
	zCursor c = ts_tree_cursor_new(n);
	uint32_t k = 0;
	if (ts_tree_cursor_goto_first_child(&c)) {
		do {
			if (k < cap) {
				zNode m = ts_tree_cursor_current_node(&c);
				zPoint end = ts_node_end_point(m);
				zSib *s = &out[k];
				s->node = m;
				s->end_byte = ts_node_end_byte(m);
				s->end_row = end.row;
				s->end_col = end.column;
				s->symbol = ts_node_symbol(m);
				s->named = ts_node_is_named(m);
				s->extra = ts_node_is_extra(m);
			}
			k++;
		} while (ts_tree_cursor_goto_next_sibling(&c));
	}
	ts_tree_cursor_delete(&c);
	return k;
}

// zXSib is one child of a node, as zumba_extents reads it (see sibling
// in Go).
typedef struct {
	zNode node;
	uint32_t start, end; // bytes
	uint32_t row, last;  // first and last rows
	bool named, deco, keyword;
} zXSib;

// zXTarget is a definition node of zumba_extents: its bytes, id and index.
typedef struct {
	uint32_t start, end;
	const void *id;
	uint32_t i;
} zXTarget;

// zXRun is the state of zumba_extents: the definition nodes by start,
// the children of the nodes on the path (frames[k], and at[k] the index
// in frames[k] of the node frames[k+1] lists), one cursor.
typedef struct {
	const zXTarget *targets;
	uint32_t ntargets;
	const uint8_t *src;
	uint32_t nsrc;
	const uint8_t *kinds;
	uint32_t nkinds;
	int32_t *starts;
	zXSib **frames;
	uint32_t *lens, *caps, *at;
	uint32_t nlevels, caplevels;
	zCursor cursor;
	bool oom;
	const zChainRun *listed; // the children the run's chains listed, or NULL
} zXRun;

// zumba_first_row is firstRow in Go: the row of the first byte that is
// not white space of the text [start, end), which starts on row.
static uint32_t zumba_first_row(const uint8_t *src, uint32_t nsrc, uint32_t row, uint32_t start, uint32_t end) {
	uint32_t first = row;
	for (uint32_t i = start; i < end && i < nsrc; i++) {
		switch (src[i]) {
		case '\n': row++; break;
		case ' ': case '\t': case '\r': case '\f': case '\v': break;
		default: return row;
		}
	}
	return first;
}

// zumba_last_row is lastRow in Go.
static uint32_t zumba_last_row(uint32_t start, zPoint end) {
	return end.column == 0 && end.row > start ? end.row - 1 : end.row;
}

// zumba_lower_target is the index of the first target starting at or
// after start.
static uint32_t zumba_lower_target(const zXRun *x, uint32_t start) {
	uint32_t lo = 0, hi = x->ntargets;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (x->targets[mid].start < start) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

// zumba_is_def reports whether s is a definition's node.
static bool zumba_is_def(const zXRun *x, const zXSib *s) {
	for (uint32_t k = zumba_lower_target(x, s->start); k < x->ntargets && x->targets[k].start == s->start; k++) {
		if (x->targets[k].id == s->node.id && x->targets[k].end == s->end) return true;
	}
	return false;
}

// zumba_wraps is wraps in Go.
static bool zumba_wraps(const zXSib *kids, uint32_t n, uint32_t j) {
	const zXSib *d = &kids[j];
	for (uint32_t k = 0; k < j; k++) {
		const zXSib *c = &kids[k];
		if (c->row < d->row && !c->deco && (c->named || !c->keyword)) return false;
	}
	for (uint32_t k = j + 1; k < n; k++) {
		if (kids[k].named || kids[k].row > d->last) return false;
	}
	return true;
}

// zumba_lead_start is leadStart in Go.
static int32_t zumba_lead_start(const zXRun *x, uint32_t level, uint32_t j) {
	for (int w = 0; w < 3; w++) { // maxWrappers
		if (level == 0 || !zumba_wraps(x->frames[level], x->lens[level], j) ||
				zumba_is_def(x, &x->frames[level - 1][x->at[level - 1]])) {
			break;
		}
		level--;
		j = x->at[level];
	}
	const zXSib *kids = x->frames[level];
	uint32_t start = kids[j].row;
	if (j == 0 && level > 0) {
		const zXSib *up = &x->frames[level - 1][x->at[level - 1]];
		if (!zumba_is_def(x, up) && up->row == start) {
			level--;
			kids = x->frames[level];
			j = x->at[level];
		}
	}
	for (int64_t k = (int64_t)j - 1; k >= 0 && kids[k].deco; k--) {
		if (kids[k].last + 1 < start) break;
		if (k > 0 && !kids[k - 1].deco && kids[k - 1].last == kids[k].row) break;
		start = kids[k].row;
	}
	return (int32_t)start + 1;
}

// zumba_extents_walk lists the children of n as frame level and finds
// the definitions among them and inside them.
static void zumba_extents_walk(zXRun *x, zNode n, uint32_t level) {
	if (level == x->caplevels) {
		uint32_t cap = x->caplevels ? x->caplevels * 2 : 16;
		zXSib **f = realloc(x->frames, cap * sizeof(zXSib *));
		if (f) x->frames = f;
		uint32_t *l = realloc(x->lens, cap * sizeof(uint32_t));
		if (l) x->lens = l;
		uint32_t *c = realloc(x->caps, cap * sizeof(uint32_t));
		if (c) x->caps = c;
		uint32_t *a = realloc(x->at, cap * sizeof(uint32_t));
		if (a) x->at = a;
		if (!f || !l || !c || !a) { x->oom = true; return; }
		for (uint32_t k = x->caplevels; k < cap; k++) {
			x->frames[k] = NULL;
			x->caps[k] = 0;
		}
		x->caplevels = cap;
	}
	uint32_t count = 0, lfirst, lcount;
	// The children the chains listed are the tree cursor's too.
	bool listed = zumba_listed_find(x->listed, n, &lfirst, &lcount);
	bool more = listed ? lcount > 0 : (ts_tree_cursor_reset(&x->cursor, n), ts_tree_cursor_goto_first_child(&x->cursor));
	while (more) {
		if (count == x->caps[level]) {
			uint32_t cap = x->caps[level] ? x->caps[level] * 2 : 16;
			zXSib *m = realloc(x->frames[level], (size_t)cap * sizeof(zXSib));
			if (!m) { x->oom = true; return; }
			x->frames[level] = m;
			x->caps[level] = cap;
		}
		zXSib *s = &x->frames[level][count];
		zNode m;
		uint16_t sym;
		if (listed) {
			const zKid *k = &x->listed->kids[lfirst + count];
			m = k->node;
			sym = k->symbol;
			s->named = k->named;
		} else {
			m = ts_tree_cursor_current_node(&x->cursor);
			sym = ts_node_symbol(m);
			s->named = ts_node_is_named(m);
		}
		count++;
		uint8_t kind = sym < x->nkinds ? x->kinds[sym] : 0;
		s->node = m;
		s->start = m.context[0];
		s->end = ts_node_end_byte(m);
		s->row = zumba_first_row(x->src, x->nsrc, m.context[1], s->start, s->end);
		s->last = zumba_last_row(m.context[1], ts_node_end_point(m));
		// A named extra is a comment: the tree cursor reports the type
		// of an extra node inside some aliased nodes
		// (tree-sitter-typescript's interface_body) as its parent's.
		s->deco = (kind & 1) || (s->named && ts_node_is_extra(m));
		s->keyword = (kind & 2) != 0;
		more = listed ? count < lcount : ts_tree_cursor_goto_next_sibling(&x->cursor);
	}
	if (count == 0) return;
	x->lens[level] = count;
	if (level + 1 > x->nlevels) x->nlevels = level + 1;
	for (uint32_t j = 0; j < count; j++) {
		const zXSib *k = &x->frames[level][j];
		bool inner = false;
		for (uint32_t i = zumba_lower_target(x, k->start); i < x->ntargets; i++) {
			const zXTarget *t = &x->targets[i];
			if (t->start > k->end || (t->start == k->end && k->end > k->start)) break;
			if (t->id == k->node.id && t->end == k->end && t->start == k->start) {
				x->starts[t->i] = zumba_lead_start(x, level, j);
			} else if (t->end <= k->end) {
				inner = true;
			}
		}
		if (inner) {
			x->at[level] = j;
			zNode child = k->node; // frames[level] may not move, but be plain
			zumba_extents_walk(x, child, level + 1);
			if (x->oom) return;
		}
	}
}

static int zumba_target_cmp(const void *a, const void *b) {
	const zXTarget *x = a, *y = b;
	if (x->start != y->start) return x->start < y->start ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

// zumba_extents is extentStarts in Go, in one call: it sets starts[i] to
// the first line (1-based) of the definition node recs[i], with the doc
// comments, decorators and attributes above it. kinds flags by symbol a
// decoration (1) and a declaring keyword (2). It returns false when
// memory runs out.
static bool zumba_extents(zNode root, const zRec *recs, uint32_t n, const uint8_t *src, uint32_t nsrc,
		const uint8_t *kinds, uint32_t nkinds, int32_t *starts, const zChainRun *listed) {
	zXTarget *targets = malloc((size_t)(n ? n : 1) * sizeof(zXTarget));
	if (!targets) return false;
	for (uint32_t i = 0; i < n; i++) {
		const zRec *r = &recs[i];
		targets[i] = (zXTarget){ r->node.context[0], r->end_byte, r->node.id, i };
		starts[i] = (int32_t)zumba_first_row(src, nsrc, r->node.context[1], r->node.context[0], r->end_byte) + 1;
	}
	qsort(targets, n, sizeof(zXTarget), zumba_target_cmp);
	zXRun x = { .targets = targets, .ntargets = n, .src = src, .nsrc = nsrc, .kinds = kinds, .nkinds = nkinds, .starts = starts,
		.listed = listed };
	x.cursor = ts_tree_cursor_new(root);
	if (n > 0) zumba_extents_walk(&x, root, 0);
	ts_tree_cursor_delete(&x.cursor);
	for (uint32_t k = 0; k < x.caplevels; k++) free(x.frames[k]);
	free(x.frames);
	free(x.lens);
	free(x.caps);
	free(x.at);
	free(targets);
	return !x.oom;
}

static const void *zumba_language(zNode n) { return ts_tree_language(n.tree); }

// zumba_prev_symbol is the symbol of n's previous sibling, or -1.
static int32_t zumba_prev_symbol(zNode n) {
	zNode p = ts_node_prev_sibling(n);
	if (!p.id) return -1;
	return ts_node_symbol(p);
}

// zumba_code_end finds the node codeEndLine ends n at: the last child,
// repeatedly, skipping children whose type holds "comment" (kinds flags
// them by symbol: 4). It returns whether any were skipped and that node's
// start row and end point. It lists children with the cursor c (made
// when *made is not set yet), one pass a level.
static bool zumba_code_end(const uint8_t *kinds, uint32_t nkinds, zCursor *c, bool *made, zNode n, uint32_t *start_row,
		zPoint *end) {
	zNode m = n;
	bool skipped = false;
	for (;;) {
		if (*made) {
			ts_tree_cursor_reset(c, m);
		} else {
			*c = ts_tree_cursor_new(m);
			*made = true;
		}
		if (!ts_tree_cursor_goto_first_child(c)) break;
		zNode last = m;
		bool found = false, trailing = false;
		do {
			zNode k = ts_tree_cursor_current_node(c);
			uint16_t sym = ts_node_symbol(k);
			bool comment = sym < nkinds ? (kinds[sym] & 4) != 0 : strstr(ts_node_type(k), "comment") != NULL;
			if (comment) {
				trailing = true;
			} else {
				last = k;
				found = true;
				trailing = false;
			}
		} while (ts_tree_cursor_goto_next_sibling(c));
		if (trailing) skipped = true;
		if (!found) break;
		m = last;
	}
	*start_row = m.context[1];
	*end = ts_node_end_point(m);
	return skipped;
}

// zumba_code_end_alone is zumba_code_end with a cursor of its own.
static bool zumba_code_end_alone(const uint8_t *kinds, uint32_t nkinds, zNode n, uint32_t *start_row, zPoint *end) {
	zCursor c;
	bool made = false;
	bool skipped = zumba_code_end(kinds, nkinds, &c, &made, n, start_row, end);
	if (made) ts_tree_cursor_delete(&c);
	return skipped;
}
*/
import "C"

import (
	"context"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
)

// tsNode is tree-sitter's TSNode, laid out as C's: go-tree-sitter's Node
// holds one as its first field. Its start byte and point are read from it
// without a call.
type tsNode struct {
	context  [4]uint32
	id, tree uintptr
}

func (n *tsNode) c() C.zNode                  { return *(*C.zNode)(unsafe.Pointer(n)) }
func (n *tsNode) startByte() uint32           { return n.context[0] }
func (n *tsNode) startRow() uint32            { return n.context[1] }
func (n *tsNode) language() *C.void           { return (*C.void)(C.zumba_language(n.c())) }
func nodeOf(n *sitter.Node) tsNode            { return *(*tsNode)(unsafe.Pointer(n)) }
func queryPtr(q *sitter.Query) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(q)) }

// capRec is C's zRec: one node a match captured.
type capRec struct {
	n                       tsNode
	endByte, endRow, endCol uint32
	capture, match          uint32
	pattern, symbol         uint16
	// codeRow, codeEndRow, codeEndCol and codeSkipped are zumba_code_end's
	// answer for the node, when codeKnown.
	codeRow, codeEndRow, codeEndCol uint32
	codeKnown, codeSkipped          uint8
}

// sib is C's zSib.
type sib struct {
	n                       tsNode
	endByte, endRow, endCol uint32
	symbol                  uint16
	named, extra            uint8
}

// parserFields is go-tree-sitter's Parser, laid out: cancel is the flag
// tree-sitter polls while it parses.
type parserFields struct {
	isClosed bool
	c        unsafe.Pointer
	cancel   *uintptr
}

// cancelFlag is the cancellation flag of p's parses.
func cancelFlag(p *sitter.Parser) *uintptr { return (*parserFields)(unsafe.Pointer(p)).cancel }

func init() {
	// The layouts above must be C's, or every read is garbage.
	if unsafe.Sizeof(tsNode{}) != C.sizeof_zNode || unsafe.Sizeof(capRec{}) != C.sizeof_zRec || unsafe.Sizeof(sib{}) != C.sizeof_zSib {
		panic("outline: tree-sitter node layout mismatch")
	}
	if unsafe.Sizeof(sitter.Node{}) < unsafe.Sizeof(tsNode{}) || unsafe.Sizeof(sitter.Parser{}) != unsafe.Sizeof(parserFields{}) {
		panic("outline: go-tree-sitter Node or Parser layout mismatch")
	}
}

// plan is how a language's definitions query runs: natively, starting
// patterns only at the nodes of the symbols they are rooted at, when
// every pattern is rooted at a named node type (see newPlan).
type plan struct {
	native bool
	roots  []byte   // flags by symbol: zRoot where a pattern starts, zBody…
	names  []string // node type names by symbol
	preds  [][]predicate
	roles  []capKind // what collect reads from each capture
	// decos and keywords are isDecoration and isKeyword of names; kinds
	// holds both as flags for zumba_extents (1 and 2), and one more byte,
	// so it is never empty.
	decos, keywords []bool
	kinds           []byte
	// ckinds is kinds in C memory, which a plan keeps for the life of the
	// program.
	ckinds *C.uint8_t
	// chains holds the chain patterns, by root symbol (those flagged
	// zChain), in C memory; nil when there are none.
	chains *C.zChains
	// whole flags the definition captures (1 for each), whose code end
	// the native run computes; one more byte, so it is never empty.
	whole []byte
}

// predicate is one of go-tree-sitter's FilterPredicates predicates,
// resolved once: eq?, not-eq?, match?, not-match? (others pass).
type predicate struct {
	positive    bool
	match       bool // match? / not-match?, else eq? / not-eq?
	left, right uint32
	byCapture   bool // eq? compares two captures, else a capture and value
	value       string
	re          *regexp.Regexp
}

var plans sync.Map // *sitter.Query -> *plan

// planFor returns the plan of q, the query of lang, over the tree of root.
func planFor(lang *grammar.Language, q *sitter.Query, root tsNode) *plan {
	if p, ok := plans.Load(q); ok {
		return p.(*plan)
	}
	p := newPlan(lang, q, root.language())
	actual, _ := plans.LoadOrStore(q, p)
	return actual.(*plan)
}

func newPlan(lang *grammar.Language, q *sitter.Query, tl *C.void) *plan {
	p := &plan{roles: make([]capKind, q.CaptureCount()), whole: make([]byte, q.CaptureCount()+1)}
	defer func() {
		for i, r := range p.roles {
			if r.role == "definition" {
				p.whole[i] = 1
			}
		}
	}()
	for i := range p.roles {
		switch capName := q.CaptureNameForId(uint32(i)); capName {
		case "name", "scope", "trait", "member", "listed", "skip":
			p.roles[i].role = capName
		default:
			if k, ok := strings.CutPrefix(capName, "definition."); ok {
				if kk, ok := grammar.ParseKind(k); ok {
					p.roles[i] = capKind{"definition", kk}
				}
			}
		}
	}
	count := uint32(C.ts_language_symbol_count(unsafe.Pointer(tl)))
	p.names = make([]string, count)
	for s := range count {
		p.names[s] = C.GoString(C.ts_language_symbol_name(unsafe.Pointer(tl), C.uint16_t(s)))
	}
	p.decos, p.keywords, p.kinds = make([]bool, count), make([]bool, count), make([]byte, count+1)
	for s, n := range p.names {
		p.decos[s], p.keywords[s] = isDecoration(n), isKeyword(n)
		if p.decos[s] {
			p.kinds[s] |= 1
		}
		if p.keywords[s] {
			p.kinds[s] |= 2
		}
		if strings.Contains(n, "comment") {
			p.kinds[s] |= 4
		}
	}
	p.ckinds = (*C.uint8_t)(cCopy(unsafe.Pointer(&p.kinds[0]), len(p.kinds)))
	p.preds = make([][]predicate, q.PatternCount())
	for i := range p.preds {
		var ok bool
		if p.preds[i], ok = predicatesOf(q, uint32(i)); !ok {
			return p
		}
	}
	src, err := lang.Source()
	if err != nil {
		return p
	}
	roots := map[string]bool{}
	qp := queryPtr(q)
	starts := make([]int, q.PatternCount()+1)
	for i := range q.PatternCount() {
		if !C.ts_query_is_pattern_rooted(qp, C.uint32_t(i)) || C.ts_query_is_pattern_non_local(qp, C.uint32_t(i)) {
			return p
		}
		starts[i] = int(C.ts_query_start_byte_for_pattern(qp, C.uint32_t(i)))
		names, ok := rootNames(src, starts[i])
		if !ok {
			return p
		}
		for _, n := range names {
			roots[n] = true
		}
	}
	starts[q.PatternCount()] = len(src)
	// Every root must be a named node type: a supertype or hidden rule
	// would start at nodes of other names.
	found := map[string]bool{}
	p.roots = make([]byte, 1<<16)
	for s := range count {
		if roots[p.names[s]] && C.ts_language_symbol_type(unsafe.Pointer(tl), C.uint16_t(s)) == 0 {
			p.roots[s] = 1
			found[p.names[s]] = true
		}
	}
	if roots["ERROR"] {
		p.roots[errorSymbol] = 1
		found["ERROR"] = true
	}
	// In C, function bodies, initializers, struct bodies and argument
	// lists are most of a file's nodes, and the only definitions they can
	// hold start with a word zumba_c_may_define looks for: they are
	// searched only when their text holds one.
	if lang.Name == "c" {
		for s := range count {
			switch p.names[s] {
			case "compound_statement", "initializer_list", "field_declaration_list", "enumerator_list", "parameter_list", "argument_list":
				p.roots[s] |= C.zOpaque
			}
		}
	}
	// TypeScript's blocks (function bodies above all) are most of a
	// file's nodes, and the definitions they may hold start with words or
	// signs zumba_js_may_define looks for: they are searched only when
	// their text holds one. So are parameter and argument lists, which hold
	// definitions only inside the functions, classes and objects of their
	// expressions (default values, callbacks), whose text the scan reads as
	// a block's.
	if lang.Name == "typescript" || lang.Name == "tsx" {
		for s := range count {
			if jsBlocks[p.names[s]] && p.roots[s]&C.zRoot == 0 {
				p.roots[s] |= C.zBlock
			}
		}
	}
	// TypeScript's types hold no node a pattern starts at (an object
	// type's members are not entries; an interface's body is a node type
	// of its own), nor do imports, export lists and strings, and they are
	// a good part of a file's nodes.
	if lang.Name == "typescript" || lang.Name == "tsx" {
		for s := range count {
			if tsTypes[p.names[s]] && p.roots[s]&C.zRoot == 0 {
				p.roots[s] |= C.zInert
			}
		}
	}
	p.chains = newChains(q, p, tl, src, starts)
	p.native = true
	return p
}

// chainRoot flags, in plan.roots, the symbols whose patterns are all
// chain patterns.
const chainRoot = byte(C.zChain)

// chainStep is a node of a chain pattern: a pattern of the plain shapes
// definitions take, whose nodes are typed (or named wildcards, or
// strings), with fields, negated fields, captures and alternations, and
// no quantifiers or anchors (predicates are read in Go, as for any
// match):
//
//	(preproc_def name: (identifier) @name) @definition.macro
//	(function_definition declarator: [(function_declarator declarator: (identifier) @name) …]) @definition.function
//
// zumba_chain matches it at a node without tree-sitter's query cursor,
// whose states cost more than the few children such a pattern reads.
type chainStep struct {
	typ   string // "_": a named wildcard
	anon  bool   // typ is a string: an anonymous node
	field string
	neg   []string
	caps  []string
	// pos are the node's child steps, in order: each a choice of steps.
	pos [][]*chainStep
}

// parseChain reads the chain pattern in text (a pattern's source, comments
// included), or reports false.
func parseChain(text string) (*chainStep, bool) {
	i := 0
	var node func() (*chainStep, bool)
	word := func() string {
		j := i
		for i < len(text) && (text[i] == '_' || text[i] == '.' || text[i] == '-' || text[i] >= 'a' && text[i] <= 'z' || text[i] >= 'A' && text[i] <= 'Z' || text[i] >= '0' && text[i] <= '9') {
			i++
		}
		return text[j:i]
	}
	captures := func() []string {
		var caps []string
		for {
			i = skipSpace(text, i)
			if i >= len(text) || text[i] != '@' {
				return caps
			}
			i++
			caps = append(caps, word())
		}
	}
	str := func() (*chainStep, bool) {
		j := strings.IndexByte(text[i+1:], '"')
		if j < 0 || strings.ContainsRune(text[i+1:i+1+j], '\\') {
			return nil, false
		}
		n := &chainStep{typ: text[i+1 : i+1+j], anon: true}
		i += j + 2
		return n, n.typ != ""
	}
	// item reads a node or a string.
	item := func() (*chainStep, bool) {
		switch {
		case i < len(text) && text[i] == '(':
			return node()
		case i < len(text) && text[i] == '"':
			return str()
		}
		return nil, false
	}
	// position reads a child step: a field, then an item or an
	// alternation of items, then captures.
	position := func() ([]*chainStep, bool) {
		field := ""
		j := i
		if w := word(); w != "" && i < len(text) && text[i] == ':' {
			field = w
			i++
		} else {
			i = j
		}
		i = skipSpace(text, i)
		var alts []*chainStep
		if i < len(text) && text[i] == '[' {
			i++
			for {
				i = skipSpace(text, i)
				if i < len(text) && text[i] == ']' {
					i++
					break
				}
				n, ok := item()
				if !ok {
					return nil, false
				}
				n.caps = append(n.caps, captures()...)
				alts = append(alts, n)
			}
		} else {
			n, ok := item()
			if !ok {
				return nil, false
			}
			alts = []*chainStep{n}
		}
		caps := captures()
		for _, a := range alts {
			a.field = field
			a.caps = append(a.caps, caps...)
		}
		return alts, len(alts) > 0
	}
	node = func() (*chainStep, bool) {
		i++ // "("
		i = skipSpace(text, i)
		n := &chainStep{typ: word()}
		if n.typ == "" || strings.ContainsAny(n.typ, ".-") {
			return nil, false
		}
		for {
			i = skipSpace(text, i)
			if i >= len(text) {
				return nil, false
			}
			switch {
			case text[i] == ')':
				i++
				return n, true
			case text[i] == '!':
				i++
				f := word()
				if f == "" || strings.ContainsAny(f, ".-") {
					return nil, false
				}
				n.neg = append(n.neg, f)
			case text[i] == '(' && strings.HasPrefix(skipText(text, i+1), "#"):
				// A predicate: Go reads it.
				end, ok := matchBracket(text, i)
				if !ok {
					return nil, false
				}
				i = end + 1
			default:
				alts, ok := position()
				if !ok {
					return nil, false
				}
				n.pos = append(n.pos, alts)
			}
		}
	}
	i = skipSpace(text, i)
	if i >= len(text) || text[i] != '(' {
		return nil, false
	}
	root, ok := node()
	if !ok || root.typ == "_" {
		return nil, false
	}
	root.caps = captures()
	return root, skipSpace(text, i) == len(text)
}

// skipText is text from i on, past white space and comments.
func skipText(text string, i int) string { return text[skipSpace(text, i):] }

// depth is the number of steps on the longest path from n down, and caps
// the captures of n and the steps below it.
func (n *chainStep) size() (depth, caps int) {
	caps = len(n.caps)
	for _, alts := range n.pos {
		for _, a := range alts {
			d, c := a.size()
			depth = max(depth, d)
			caps += c
		}
	}
	return depth + 1, caps
}

// newChains reads q's chain patterns (src is q's source, starts[i] where
// pattern i starts), flags their root symbols zChain in p.roots when every
// pattern rooted there is one, and lays them out in C memory for
// zumba_chain.
func newChains(q *sitter.Query, p *plan, tl *C.void, src string, starts []int) *C.zChains {
	capIDs := map[string]uint16{}
	for i := range q.CaptureCount() {
		capIDs[q.CaptureNameForId(i)] = uint16(i)
	}
	symbol := func(name string, named bool) uint16 {
		cs := C.CString(name)
		defer C.free(unsafe.Pointer(cs))
		return uint16(C.ts_language_symbol_for_name(unsafe.Pointer(tl), cs, C.uint32_t(len(name)), C.bool(named)))
	}
	field := func(name string) uint16 {
		cs := C.CString(name)
		defer C.free(unsafe.Pointer(cs))
		return uint16(C.ts_language_field_id_for_name(unsafe.Pointer(tl), cs, C.uint32_t(len(name))))
	}
	var steps []C.zStep
	var pos []C.zPos
	var alts []uint16
	// add lays out n and the steps below it, and returns its index.
	var add func(n *chainStep, pattern int) (int, bool)
	add = func(n *chainStep, pattern int) (int, bool) {
		st := C.zStep{pattern: C.uint16_t(pattern), ncap: C.uint16_t(len(n.caps))}
		if _, caps := n.size(); caps == 0 {
			st.free = 1
		}
		if n.typ != "_" || n.anon {
			if st.symbol = C.uint16_t(symbol(n.typ, !n.anon)); st.symbol == 0 {
				return 0, false
			}
		}
		if len(n.caps) > len(st.caps) || len(n.neg) > len(st.neg) {
			return 0, false
		}
		if n.field != "" {
			if st.field = C.uint16_t(field(n.field)); st.field == 0 {
				return 0, false
			}
		}
		for k, f := range n.neg {
			if st.neg[k] = C.uint16_t(field(f)); st.neg[k] == 0 {
				return 0, false
			}
		}
		for k, c := range n.caps {
			id, ok := capIDs[c]
			if !ok {
				return 0, false
			}
			st.caps[k] = C.uint16_t(id)
		}
		at := len(steps)
		steps = append(steps, st)
		var kids [][]uint16
		for _, choice := range n.pos {
			var ks []uint16
			for _, a := range choice {
				k, ok := add(a, pattern)
				if !ok {
					return 0, false
				}
				ks = append(ks, uint16(k))
			}
			kids = append(kids, ks)
		}
		steps[at].pos_start, steps[at].pos_count = C.uint16_t(len(pos)), C.uint16_t(len(kids))
		for _, ks := range kids {
			pos = append(pos, C.zPos{alt_start: C.uint16_t(len(alts)), alt_count: C.uint16_t(len(ks))})
			alts = append(alts, ks...)
		}
		return at, true
	}
	type rooted struct {
		pattern int
		chain   *chainStep
	}
	bySym := map[uint16][]rooted{}
	bad := map[uint16]bool{}
	for i := 0; i+1 < len(starts); i++ {
		names, _ := rootNames(src, starts[i])
		c, ok := parseChain(src[starts[i]:starts[i+1]])
		if ok {
			depth, caps := c.size()
			ok = depth < C.zMaxChain && caps <= C.zMaxChainCaps
		}
		for _, name := range names {
			sym := symbol(name, true)
			if !ok || sym == 0 {
				bad[sym] = true
				continue
			}
			bySym[sym] = append(bySym[sym], rooted{i, c})
		}
	}
	var syms []uint16
	for sym := range bySym {
		if !bad[sym] && int(sym) < len(p.names) && p.roots[sym]&C.zRoot != 0 {
			syms = append(syms, sym)
		}
	}
	if len(syms) == 0 {
		return nil
	}
	slices.Sort(syms)
	n := 0
	for _, sym := range syms {
		n += len(bySym[sym])
	}
	// The root steps come first, grouped by root symbol in pattern order;
	// add appends each one's copy and the steps below it after them.
	steps = make([]C.zStep, n)
	first, count := make([]uint16, len(p.names)), make([]uint16, len(p.names))
	k := 0
	for _, sym := range syms {
		first[sym], count[sym] = uint16(k), uint16(len(bySym[sym]))
		for _, r := range bySym[sym] {
			at, ok := add(r.chain, r.pattern)
			if !ok {
				return nil
			}
			steps[k] = steps[at]
			k++
		}
	}
	if len(steps) > 1<<16 || len(pos) > 1<<16 || len(alts) > 1<<16 {
		return nil
	}
	for _, sym := range syms {
		p.roots[sym] |= chainRoot
	}
	ch := (*C.zChains)(C.malloc(C.sizeof_zChains))
	ch.steps = (*C.zStep)(cCopy(unsafe.Pointer(&steps[0]), len(steps)*C.sizeof_zStep))
	ch.pos = (*C.zPos)(cCopy(unsafe.Pointer(unsafe.SliceData(pos)), len(pos)*C.sizeof_zPos))
	ch.alts = (*C.uint16_t)(cCopy(unsafe.Pointer(unsafe.SliceData(alts)), len(alts)*2))
	ch.first = (*C.uint16_t)(cCopy(unsafe.Pointer(&first[0]), len(first)*2))
	ch.count = (*C.uint16_t)(cCopy(unsafe.Pointer(&count[0]), len(count)*2))
	ch.nsyms = C.uint32_t(len(p.names))
	return ch
}

// cCopy copies n bytes at b into C memory, which a plan keeps for the
// life of the program.
func cCopy(b unsafe.Pointer, n int) unsafe.Pointer {
	m := C.malloc(C.size_t(max(n, 1)))
	if n > 0 {
		C.memcpy(m, b, C.size_t(n))
	}
	return m
}

// tsTypes are tree-sitter-typescript's type nodes, and the other nodes
// that hold no node a pattern starts at: imports, the names an export
// lists, strings (see newPlan).
var tsTypes = map[string]bool{
	"import_statement": true, "export_clause": true, "string": true, "regex": true,
	"type_annotation": true, "opting_type_annotation": true, "omitting_type_annotation": true, "adding_type_annotation": true,
	"type_arguments": true, "type_parameters": true, "union_type": true, "intersection_type": true, "function_type": true,
	"constructor_type": true, "generic_type": true, "conditional_type": true, "lookup_type": true, "index_type_query": true,
	"mapped_type_clause": true, "tuple_type": true, "array_type": true, "readonly_type": true, "literal_type": true,
	"parenthesized_type": true, "type_predicate": true, "type_predicate_annotation": true, "asserts": true,
	"asserts_annotation": true, "template_literal_type": true, "infer_type": true, "type_query": true, "object_type": true,
	"optional_type": true, "rest_type": true,
}

// jsBlocks are the TypeScript nodes searched only when their text holds a
// place where a definition may start (see newPlan).
var jsBlocks = map[string]bool{"statement_block": true, "formal_parameters": true, "arguments": true}

// rootNames reads the node types a pattern of src starting at byte i is
// rooted at: "(type …)", "((type …) …)" or an alternation of those. It
// reports false for any other start (a wildcard, a field, a string).
func rootNames(src string, i int) ([]string, bool) {
	i = skipSpace(src, i)
	if i >= len(src) {
		return nil, false
	}
	switch src[i] {
	case '[':
		end, ok := matchBracket(src, i)
		if !ok {
			return nil, false
		}
		var all []string
		for j := i + 1; ; {
			j = skipSpace(src, j)
			if j >= end {
				return all, len(all) > 0
			}
			switch c := src[j]; {
			case c == '(' || c == '[':
				names, ok := rootNames(src, j)
				if !ok {
					return nil, false
				}
				all = append(all, names...)
				e, ok := matchBracket(src, j)
				if !ok {
					return nil, false
				}
				j = e + 1
			case c == '@':
				for j < end && !strings.ContainsRune(" \t\r\n()[]", rune(src[j])) {
					j++
				}
			case c == '?' || c == '*' || c == '+':
				j++
			default:
				return nil, false
			}
		}
	case '(':
		j := skipSpace(src, i+1)
		if j < len(src) && (src[j] == '(' || src[j] == '[') {
			return rootNames(src, j)
		}
		start := j
		for j < len(src) && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9') {
			j++
		}
		name := src[start:j]
		if name == "" || name == "_" || j < len(src) && src[j] == ':' {
			return nil, false
		}
		return []string{name}, true
	}
	return nil, false
}

// skipSpace skips white space and ; comments from i.
func skipSpace(src string, i int) int {
	for i < len(src) {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			i++
		case ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// matchBracket returns the index of the bracket closing the one at i.
func matchBracket(src string, i int) (int, bool) {
	depth := 0
	for k := i; k < len(src); k++ {
		switch src[k] {
		case '"':
			for k++; k < len(src) && src[k] != '"'; k++ {
				if src[k] == '\\' {
					k++
				}
			}
		case ';':
			for k < len(src) && src[k] != '\n' {
				k++
			}
		case '(', '[':
			depth++
		case ')', ']':
			depth--
			if depth == 0 {
				return k, true
			}
		}
	}
	return 0, false
}

// predicatesOf resolves the predicates of a pattern; false when one
// cannot be (a bad regular expression).
func predicatesOf(q *sitter.Query, pattern uint32) ([]predicate, bool) {
	var out []predicate
	for _, steps := range q.PredicatesForPattern(pattern) {
		if len(steps) < 3 {
			continue
		}
		switch op := q.StringValueForId(steps[0].ValueId); op {
		case "eq?", "not-eq?":
			p := predicate{positive: op == "eq?", left: steps[1].ValueId}
			if steps[2].Type == sitter.QueryPredicateStepTypeCapture {
				p.byCapture, p.right = true, steps[2].ValueId
			} else {
				p.value = q.StringValueForId(steps[2].ValueId)
			}
			out = append(out, p)
		case "match?", "not-match?":
			re, err := regexp.Compile(q.StringValueForId(steps[2].ValueId))
			if err != nil {
				return nil, false
			}
			out = append(out, predicate{positive: op == "match?", match: true, left: steps[1].ValueId, re: re})
		}
	}
	return out, true
}

// keep reports whether a match passes its pattern's predicates, as
// go-tree-sitter's FilterPredicates decides: eq? between two captures
// compares the first pair found, other predicates hold for every capture
// of their name.
func (p *plan) keep(caps []capRec, src []byte) bool {
	text := func(c *capRec) []byte { return src[c.n.startByte():c.endByte] }
	for _, pr := range p.preds[caps[0].pattern] {
		switch {
		case pr.match:
			for k := range caps {
				if caps[k].capture == pr.left && pr.re.Match(text(&caps[k])) != pr.positive {
					return false
				}
			}
		case pr.byCapture:
			var l, r *capRec
			for k := range caps {
				if caps[k].capture == pr.left {
					l = &caps[k]
				}
				if caps[k].capture == pr.right {
					r = &caps[k]
				}
				if l != nil && r != nil {
					if (string(text(l)) == string(text(r))) != pr.positive {
						return false
					}
					break
				}
			}
		default:
			for k := range caps {
				if caps[k].capture == pr.left && (string(text(&caps[k])) == pr.value) != pr.positive {
					return false
				}
			}
		}
	}
	return true
}

// listing holds the children of the nodes a run's chains listed, which
// extentStarts reads instead of listing them again; free releases it.
type listing struct{ r *C.zChainRun }

func (l listing) free() { C.zumba_chain_free(l.r) }

// run runs q natively over the tree under root (see zumba_run) and calls
// f with the captures of each match that passes its predicates, in the
// order found. It stops when ctx ends. Nodes deeper than maxDepth are not
// searched; deep records the first line they start on. parsed is the text
// the tree was parsed from (src prepared). The caller frees the listing
// it returns.
func (p *plan) run(ctx context.Context, q *sitter.Query, root tsNode, src, parsed []byte, deep *deepCut, f func([]capRec)) listing {
	var l listing
	if ctx.Err() != nil {
		return l
	}
	flag := new(int32)
	stop := noStop
	if ctx.Done() != nil {
		stop = context.AfterFunc(ctx, func() { atomic.StoreInt32(flag, 1) })
	}
	// A deadline no timer watches is kept by the run's clock.
	var budget int64
	if dc, ok := ctx.(*deadlineCtx); ok {
		budget = max(time.Until(dc.deadline).Nanoseconds(), 1)
	}
	out := C.zRecs{kinds: p.ckinds, nkinds: C.uint32_t(len(p.kinds) - 1)}
	var text *C.uint8_t
	if len(parsed) > 0 {
		text = (*C.uint8_t)(unsafe.Pointer(&parsed[0]))
	}
	var deepRow, stopRow C.uint32_t
	C.zumba_run(root.c(), queryPtr(q), (*C.uint8_t)(unsafe.Pointer(&p.roots[0])), C.uint32_t(len(p.roots)), maxChildren,
		maxDepth, &deepRow, &stopRow, text, C.uint32_t(len(parsed)), (*C.uint8_t)(unsafe.Pointer(&p.whole[0])), C.uint32_t(len(p.whole)),
		p.chains, (*C.int32_t)(unsafe.Pointer(flag)), C.int64_t(budget), &out, &l.r)
	stop()
	if deepRow != math.MaxUint32 && deep != nil {
		deep.Line = int(deepRow) + 1
	}
	if stopRow != math.MaxUint32 && deep != nil {
		deep.Stop = int(stopRow) + 1
	}
	if out.recs == nil {
		return l
	}
	defer C.free(unsafe.Pointer(out.recs))
	recs := unsafe.Slice((*capRec)(unsafe.Pointer(out.recs)), int(out.len))
	for i := 0; i < len(recs); {
		j := i + 1
		for j < len(recs) && recs[j].match == recs[i].match {
			j++
		}
		if p.keep(recs[i:j], src) {
			f(recs[i:j])
		}
		i = j
	}
	return l
}

// errorSymbol is tree-sitter's symbol of ERROR nodes.
const errorSymbol = 1<<16 - 1

// name is the node type of symbol s.
func (p *plan) name(s uint16, tl *C.void) string {
	if int(s) < len(p.names) {
		return p.names[s]
	}
	return C.GoString(C.ts_language_symbol_name(unsafe.Pointer(tl), C.uint16_t(s)))
}

// tokenKinds is isDecoration and isKeyword of the type of symbol s.
func (p *plan) tokenKinds(s uint16, tl *C.void) (deco, keyword bool) {
	if int(s) < len(p.decos) {
		return p.decos[s], p.keywords[s]
	}
	t := p.name(s, tl)
	return isDecoration(t), isKeyword(t)
}

// prevType is the type of the sibling before n, or "".
func (p *plan) prevType(n *tsNode) string {
	s := C.zumba_prev_symbol(n.c())
	if s < 0 {
		return ""
	}
	return p.name(uint16(s), n.language())
}

// codeEndLine is endLine without the comments that end n:
// tree-sitter-python's block keeps the comment lines after a body's last
// statement, which belong to no definition (Python's ast ends the
// definition at that statement).
func (p *plan) codeEndLine(n *capRec) int {
	end := rowsEnd(n.n.startRow(), n.endRow, n.endCol)
	if n.codeKnown == 0 {
		var row C.uint32_t
		var last C.zPoint
		skipped := C.zumba_code_end_alone(p.ckinds, C.uint32_t(len(p.kinds)-1), n.n.c(), &row, &last)
		n.codeRow, n.codeEndRow, n.codeEndCol, n.codeKnown = uint32(row), uint32(last.row), uint32(last.column), 1
		if skipped {
			n.codeSkipped = 1
		}
	}
	if n.codeSkipped == 0 {
		return end
	}
	return max(min(end, rowsEnd(n.codeRow, n.codeEndRow, n.codeEndCol)), int(n.n.startRow())+1)
}

// rowsEnd is endLine of a node starting on row start and ending at
// (row, col).
func rowsEnd(start, row, col uint32) int {
	if col == 0 && row > start {
		return int(row)
	}
	return int(row) + 1
}

// extentStarts finds the first line (1-based) of each definition node of
// nodes (whole nodes of the tree under root): the first line of the doc
// comments, decorators and attributes right above it, or else its own.
// What counts is read from the tree, for every language alike:
//   - a node that only wraps the definition (Python's decorated_definition,
//     an export_statement, a declaration whose other children are keywords
//     or on the definition's first line) stands for it, unless it is
//     another definition's node;
//   - comment, decorator and attribute siblings directly before it, with no
//     blank line between them and it, belong to it; a comment that ends a
//     line of code (x = 1 // note) does not.
//
// Finding a node's parent or siblings through the tree costs a walk from
// the root each time, so the tree is walked once with a cursor instead,
// into the nodes that hold definitions only, in one C call
// (zumba_extents; extents_test.go holds the same rules in Go, which the
// tests compare it with), reading the children l holds from it.
func extentStarts(p *plan, root tsNode, nodes []capRec, src []byte, l listing) []int {
	starts := make([]int, len(nodes))
	if len(nodes) == 0 {
		return starts
	}
	lines := make([]int32, len(nodes))
	var text *C.uint8_t
	if len(src) > 0 {
		text = (*C.uint8_t)(unsafe.Pointer(&src[0]))
	}
	if !C.zumba_extents(root.c(), (*C.zRec)(unsafe.Pointer(&nodes[0])), C.uint32_t(len(nodes)), text, C.uint32_t(len(src)),
		(*C.uint8_t)(unsafe.Pointer(&p.kinds[0])), C.uint32_t(len(p.kinds)-1), (*C.int32_t)(unsafe.Pointer(&lines[0])), l.r) {
		// Out of memory: each definition starts at its own first line.
		for i := range nodes {
			starts[i] = int(firstRow(nodes[i].n.startRow(), nodes[i].n.startByte(), nodes[i].endByte, src)) + 1
		}
		return starts
	}
	for i, l := range lines {
		starts[i] = int(l)
	}
	return starts
}

// children lists the children of n the tree cursor visits into buf.
func children(n *tsNode, buf []sib) []sib {
	for {
		var first *C.zSib
		if cap(buf) > 0 {
			first = (*C.zSib)(unsafe.Pointer(&buf[:1][0]))
		}
		k := int(C.zumba_children(n.c(), first, C.uint32_t(cap(buf))))
		if k <= cap(buf) {
			return buf[:k]
		}
		buf = make([]sib, 0, k)
	}
}
