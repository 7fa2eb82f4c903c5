// native_chain.c matches chain patterns (see chainStep in Go) without
// tree-sitter's query cursor.

#include <stdlib.h>
#include <string.h>

#include "native.h"

// zCont is what is left to match once a step has matched: the positions
// from pos of step st among the children kids[first, first+n) from
// index from, then next.
typedef struct zCont {
	const zStep *st;
	uint32_t first, n, pos, from;
	const struct zCont *next;
} zCont;

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

static bool zumba_kids(zChainRun *r, TSNode n, uint32_t *first, uint32_t *count) {
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
bool zumba_listed_find(const zChainRun *r, TSNode n, uint32_t *first, uint32_t *count) {
	if (!r || !r->caplisted) return false;
	uint32_t i = zumba_listed_slot(r->listed, r->caplisted, r->gen, n.id);
	if (r->listed[i].gen != r->gen) return false;
	*first = r->listed[i].first;
	*count = r->listed[i].n;
	return true;
}

void zumba_chain_free(zChainRun *r) {
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

static bool zumba_chain_has_neg(const zStep *st, TSNode n) {
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
static bool zumba_chain_exists(zChainRun *r, const zStep *st, TSNode n) {
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

static bool zumba_chain_step(zChainRun *r, const zStep *st, TSNode n, const zCont *next);

static bool zumba_chain_positions(zChainRun *r, const zStep *st, uint32_t first, uint32_t n, uint32_t pos, uint32_t from,
		const zCont *next) {
	if (pos == st->pos_count) {
		if (!next) {
			TSQueryMatch m = { 0, r->pattern, (uint16_t)r->ncaps, r->caps };
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
static bool zumba_chain_step(zChainRun *r, const zStep *st, TSNode n, const zCont *next) {
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
bool zumba_chain(zChainRun *r, const zStep *st, TSNode n) {
	r->pattern = st->pattern;
	return zumba_chain_step(r, st, n, NULL);
}
