// native_extents.c finds where each definition's extent starts, with the
// comments, decorators and attributes above it (zumba_extents), in one walk.

#include <stdlib.h>
#include <string.h>

#include "native.h"

// zumba_children lists the children of n the tree cursor visits, at most
// cap of them into out, and returns how many there are.
uint32_t zumba_children(TSNode n, zSib *out, uint32_t cap) {
	TSTreeCursor c = ts_tree_cursor_new(n);
	uint32_t k = 0;
	if (ts_tree_cursor_goto_first_child(&c)) {
		do {
			if (k < cap) {
				TSNode m = ts_tree_cursor_current_node(&c);
				TSPoint end = ts_node_end_point(m);
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
	TSNode node;
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
	TSTreeCursor cursor;
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
static uint32_t zumba_last_row(uint32_t start, TSPoint end) {
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
static void zumba_extents_walk(zXRun *x, TSNode n, uint32_t level) {
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
		TSNode m;
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
			TSNode child = k->node; // frames[level] may not move, but be plain
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
bool zumba_extents(TSNode root, const zRec *recs, uint32_t n, const uint8_t *src, uint32_t nsrc,
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
