// Package outline turns a language's query captures into a file's outline:
// definitions ordered by position and nested by containment, printed as
// "LINE KIND NAME" lines, and flattened into symbol records for the
// project index.
//
// Queries only mark definitions; all nesting is computed here from the
// matched byte ranges, so a query never needs to know what contains what.
// Definitions with equal ranges (Go's const A, B = 1, 2) are siblings.
// Headings are the one exception to pure containment: a heading is marked
// alone and stretched here to span its section, up to the next heading of
// the same or a shallower level, so that headings nest by level.
package outline
