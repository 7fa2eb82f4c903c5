// Package search finds definitions and references in a project: the
// direct search, which reads the files at each call, and the Index the
// server answers from. It reads the project through internal/project (the
// paths, the walk, the ignore rules, the globs, the reads; what the search
// covers is written there) and returns results (definitions, lines, how
// many files were searched); mcpserver's tools print them.
//
// The pieces, each in its own file:
//
//   - word.go: WordScanner, whole-word matching over bytes.
//   - refs.go and symbol.go: References and Symbols take a file list
//     ([]project.Entry) and a project.Source, so an index can narrow the
//     candidate files and a cache can stand in for the disk.
//   - rank.go: how results are ranked, in one place: the project's own
//     files, then tests, then vendored and generated code.
//   - sites.go and sites_limit.go: find_references with options (the
//     definition holding each hit, code only, a limit, the totals).
//   - searcher.go: Searcher, the searches the tools ask for, answered by
//     Root (root.go: a project searched directly) from the files and by
//     Index from what it keeps.
//   - searcher_index.go: Index, the project index the server answers
//     from: the engine (package internal/index) with the record kinds
//     the searches hand it (the definitions, index_defs.go; find_code's
//     words, code_kind.go), and the searches' own state; index_query.go,
//     index_exact.go, index_fuzzy.go, index_names.go, index_lines.go and
//     index_cold*.go answer from it.
//   - projmap.go, projmap_select.go: the map of a folder (ProjectMap):
//     its definitions ranked by how much the rest of the project uses
//     them (projmap_rank.go), and those that fit a budget; from the
//     index (projmap_index.go; a large map keeps only what may rank
//     among its best, projmap_keep.go) or from the files
//     (projmap_root.go).
//   - code_*.go: find_code, the definitions whose words match a
//     description: the words (code_words.go), each file's record of its
//     definitions' words (code_record.go), the BM25F ranking over them
//     (code_query.go), and the direct search's answer (code_root.go).
//
// # The index
//
// Root.Symbols and Root.References walk and read the files at each call
// (the command line searches so). The server uses an Index instead
// (searcher_index.go): the engine of package internal/index keeps a word
// index and each file's records, built in the background from the walk
// and the disk cache (internal/diskcache), and brought up to date before
// every answer from the watcher's changes (internal/watch) or, without
// one, a stat of every file, so that its answers are the tools' answers
// for the files as they are at that moment. The searches hand it the
// kinds of records they need (internal/index's RecordKind) and read it
// through them; it calls no search.
package search
