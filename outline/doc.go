// Package outline turns a language's query captures into a file's outline:
// definitions ordered by position and nested by containment, printed as
// "LINE KIND NAME" lines, and flattened into [Definition] records, the one
// definition type the rest of zumba uses: name, kind, qualified name, the
// name's line and the definition's extent (from the doc comments,
// decorators and attributes above it to its last line).
//
// Queries only mark definitions; all nesting is computed here from the
// matched byte ranges, so a query never needs to know what contains what.
// Definitions with equal ranges (Go's const A, B = 1, 2) are siblings.
// Headings are the one exception to pure containment: a heading is marked
// alone and stretched here to span its section, up to the next heading of
// the same or a shallower level, so that headings nest by level.
//
// The queries run natively (see plan.go): a plan per query says at which
// node types its patterns start and which nodes may be left unsearched;
// chains.go matches the plainest patterns without tree-sitter's query
// cursor; run.go walks the tree in C (native_*.c, over tree-sitter's own
// api.h) and collect.go turns the matches into definitions. layout.go
// holds every read of go-tree-sitter's private fields and the checks of
// their layout.
package outline
