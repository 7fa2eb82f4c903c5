// Package projmap is the map of a folder (outline of a folder): its
// definitions ranked by how much the rest of the project uses them, and
// those that fit a budget. The rule is written once in projmap.go.
//
// The counts come from the index (Index.Answer: the engine of package
// internal/index counts the files holding a word and, through the
// definitions' kind of record, those defining a name; a large map keeps
// only what may rank among its best, keep.go) or from the files read
// afresh (FromFiles, root.go); rank.go weighs the definitions,
// select.go picks those that fit (Map.Select).
//
// It keeps no record of its own in the index. Package search answers the
// map's calls before the word index is in (from the files) and hands it
// the engine (search.Index.Map).
package projmap
