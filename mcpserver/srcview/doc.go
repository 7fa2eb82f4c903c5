// Package srcview shows a definition's source as read_symbol answers
// with it: the file read under outline's large-file policy and located
// again when it changed since the index saw it (Reader), its lines with
// the bodies of nested definitions folded to fit a budget and a long doc
// comment or a licence folded (WriteDefinition), its place
// (WritePlace), and the line naming the definitions of its file it uses
// (UsesLine). mcpserver's read_symbol and changes print with it.
package srcview
