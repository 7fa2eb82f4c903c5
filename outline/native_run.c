// native_run.c is the native run of a query over a tree (zumba_run) and
// the code end of a definition (zumba_code_end).

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "native.h"

bool zumba_push(zRecs *out, const TSQueryMatch *m, const uint8_t *whole, uint32_t nwhole) {
	if (out->len + m->capture_count > out->cap) {
		uint32_t cap = out->cap ? out->cap * 2 : 256;
		while (cap < out->len + m->capture_count) cap *= 2;
		zRec *r = realloc(out->recs, (size_t)cap * sizeof(zRec));
		if (!r) return false;
		out->recs = r;
		out->cap = cap;
	}
	for (uint16_t i = 0; i < m->capture_count; i++) {
		TSNode n = m->captures[i].node;
		TSPoint end = ts_node_end_point(n);
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
			TSPoint last;
			r->code_skipped = zumba_code_end(out->kinds, out->nkinds, &out->cursor, &out->made, n, &r->code_row, &last);
			r->code_end_row = last.row;
			r->code_end_col = last.column;
		}
	}
	out->matches++;
	return true;
}

// zumba_past reports whether the monotonic clock is past deadline.
static bool zumba_past(const struct timespec *deadline) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > deadline->tv_sec || (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

// zScan is the last block scan of a run: from from, it found a place at
// to (hit), or none up to to.
typedef struct {
	uint32_t from, to;
	bool hit;
} zScan;

// zumba_enter reports whether zumba_run searches n, whose flags are
// flags: not a zOpaque or zBlock node without errors whose text (in src)
// holds no place where a definition may start.
static bool zumba_enter(zScan *scan, TSNode n, uint8_t flags, const uint8_t *src, uint32_t nsrc) {
	if ((flags & zOpaque) && !ts_node_has_error(n)) {
		uint32_t start = n.context[0], end = ts_node_end_byte(n);
		return !(start <= end && end <= nsrc) || zumba_c_may_define(src + start, end - start);
	}
	if ((flags & zBlock) && !ts_node_has_error(n)) {
		uint32_t start = n.context[0], end = ts_node_end_byte(n);
		if (!(start <= end && end <= nsrc)) return true;
		if (scan->from <= start && start <= scan->to && (scan->hit || end <= scan->to)) {
			// A scan from further back already read this block's text:
			// what it found there stands (it reads more before each place,
			// so it finds as much; only its bracket count may differ, which
			// bears on depth, not definitions).
			return scan->hit && scan->to < end;
		}
		uint32_t k = zumba_js_may_define(src + start, end - start, zMaxNest);
		scan->from = start;
		scan->hit = k < end - start;
		scan->to = start + k;
		return scan->hit;
	}
	return true;
}

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
int zumba_run(TSNode root, const TSQuery *query, const uint8_t *syms, uint32_t nsyms, uint32_t max_children,
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
	TSQueryCursor *qc = NULL; // made for the first node a chain does not match
	TSTreeCursor c = ts_tree_cursor_new(root);
	int ret = 0;
	uint32_t steps = 0, depth = 0;
	zScan scan = { UINT32_MAX, 0, false };
	*deep_row = UINT32_MAX;
	*stop_row = UINT32_MAX;
	for (;;) {
		TSNode n = ts_tree_cursor_current_node(&c);
		*stop_row = n.context[1];
		// Checked before n is run: the nodes before it are searched.
		if ((++steps & 1023) == 0 && (__atomic_load_n(stop, __ATOMIC_RELAXED) || (budget > 0 && zumba_past(&deadline)))) {
			ret = 1;
			break;
		}
		uint16_t sym = ts_node_symbol(n);
		uint8_t flags = sym < nsyms ? syms[sym] : 0;
		bool enter = zumba_enter(&scan, n, flags, src, nsrc);
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
			TSQueryMatch m;
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

const TSLanguage *zumba_language(TSNode n) { return ts_tree_language(n.tree); }

// zumba_prev_symbol is the symbol of n's previous sibling, or -1.
int32_t zumba_prev_symbol(TSNode n) {
	TSNode p = ts_node_prev_sibling(n);
	if (!p.id) return -1;
	return ts_node_symbol(p);
}

// zumba_code_end finds the node codeEndLine ends n at: the last child,
// repeatedly, skipping children whose type holds "comment" (kinds flags
// them by symbol: 4). It returns whether any were skipped and that node's
// start row and end point. It lists children with the cursor c (made
// when *made is not set yet), one pass a level.
bool zumba_code_end(const uint8_t *kinds, uint32_t nkinds, TSTreeCursor *c, bool *made, TSNode n, uint32_t *start_row,
		TSPoint *end) {
	TSNode m = n;
	bool skipped = false;
	for (;;) {
		if (*made) {
			ts_tree_cursor_reset(c, m);
		} else {
			*c = ts_tree_cursor_new(m);
			*made = true;
		}
		if (!ts_tree_cursor_goto_first_child(c)) break;
		TSNode last = m;
		bool found = false, trailing = false;
		do {
			TSNode k = ts_tree_cursor_current_node(c);
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
bool zumba_code_end_alone(const uint8_t *kinds, uint32_t nkinds, TSNode n, uint32_t *start_row, TSPoint *end) {
	TSTreeCursor c;
	bool made = false;
	bool skipped = zumba_code_end(kinds, nkinds, &c, &made, n, start_row, end);
	if (made) ts_tree_cursor_delete(&c);
	return skipped;
}
