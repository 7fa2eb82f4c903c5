// native.h declares the native half of outline (native_*.c), which walks a
// tree and matches queries with tree-sitter's C API, and the records it
// shares with the Go half (plan.go, chains.go, run.go); the compiler
// checks the Go twins of those records (layout.go).
#ifndef ZUMBA_OUTLINE_NATIVE_H_
#define ZUMBA_OUTLINE_NATIVE_H_

#include <stdint.h>
#include <stdbool.h>

// tree-sitter's own API header, as the pinned go-tree-sitter ships it
// (see internal/tsapi/README.md); go-tree-sitter compiles the functions
// into the program.
#include "internal/tsapi/api.h"

// zRec is one captured node of a match.
typedef struct {
	TSNode node;
	uint32_t end_byte, end_row, end_col;
	uint32_t capture; // the capture's index in the query
	uint32_t match;   // the match's ordinal in the run
	uint16_t pattern;
	uint16_t symbol;
	// For a capture flagged in zumba_run's whole: zumba_code_end's answer.
	uint32_t code_row, code_end_row, code_end_col;
	uint8_t code_known, code_skipped;
} zRec;

// zRecs are a run's captures; kinds (C memory) flags by symbol the types
// holding "comment" (4), for zumba_code_end, which moves cursor.
typedef struct {
	zRec *recs;
	uint32_t len, cap;
	uint32_t matches;
	const uint8_t *kinds;
	uint32_t nkinds;
	TSTreeCursor cursor;
	bool made;
} zRecs;

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
	TSNode node;
	uint16_t symbol, field;
	bool named;
} zKid;

// zListed records where the children of the node id are in the run's
// kids (an entry whose gen is not the run's is empty).
typedef struct {
	const void *id;
	uint32_t first, n, gen;
} zListed;

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
	TSTreeCursor cursor;
	bool made, oom;
	zKid *kids;
	uint32_t nkids, capkids;
	zListed *listed;
	uint32_t nlisted, caplisted, gen;
	TSQueryCapture caps[zMaxChainCaps];
	uint32_t ncaps;
} zChainRun;

// Flags of zumba_run's symbol table.
enum { zRoot = 1, zOpaque = 2, zInert = 4, zBlock = 8, zChain = 16 };

// zMaxNest is the bracket nesting past which a block is searched whatever
// its text: real code stays far under it, and hostile nesting must still
// meet maxDepth (see zumba_js_may_define).
enum { zMaxNest = 256 };

// zSib is one child of a node, as extentStarts reads it.
typedef struct {
	TSNode node;
	uint32_t end_byte, end_row, end_col;
	uint16_t symbol;
	uint8_t named, extra;
} zSib;

// native_run.c
bool zumba_push(zRecs *out, const TSQueryMatch *m, const uint8_t *whole, uint32_t nwhole);
bool zumba_code_end(const uint8_t *kinds, uint32_t nkinds, TSTreeCursor *c, bool *made, TSNode n, uint32_t *start_row,
		TSPoint *end);
bool zumba_code_end_alone(const uint8_t *kinds, uint32_t nkinds, TSNode n, uint32_t *start_row, TSPoint *end);
int zumba_run(TSNode root, const TSQuery *query, const uint8_t *syms, uint32_t nsyms, uint32_t max_children,
		uint32_t max_depth, uint32_t *deep_row, uint32_t *stop_row, const uint8_t *src, uint32_t nsrc, const uint8_t *whole, uint32_t nwhole,
		const zChains *chains, volatile int32_t *stop, int64_t budget, zRecs *out, zChainRun **keep);
const TSLanguage *zumba_language(TSNode n);
int32_t zumba_prev_symbol(TSNode n);

// native_scan.c
bool zumba_c_may_define(const uint8_t *s, uint32_t n);
uint32_t zumba_js_may_define(const uint8_t *s, uint32_t n, int32_t max_nest);

// native_chain.c
bool zumba_chain(zChainRun *r, const zStep *st, TSNode n);
bool zumba_listed_find(const zChainRun *r, TSNode n, uint32_t *first, uint32_t *count);
void zumba_chain_free(zChainRun *r);

// native_extents.c
uint32_t zumba_children(TSNode n, zSib *out, uint32_t cap);
bool zumba_extents(TSNode root, const zRec *recs, uint32_t n, const uint8_t *src, uint32_t nsrc,
		const uint8_t *kinds, uint32_t nkinds, int32_t *starts, const zChainRun *listed);

#endif
