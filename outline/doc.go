// Package outline turns a language's query captures into a file's outline:
// definitions ordered by position and nested by containment, printed as
// "LINE KIND NAME" lines, and flattened into symbol records for the
// project index.
//
// Queries only mark definitions; all nesting is computed here from the
// matched byte ranges, so a query never needs to know what contains what.
package outline
