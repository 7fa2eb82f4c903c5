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
//     files, then tests, then vendored and generated code (the tiers are
//     package search/internal/filetier's).
//   - sites.go and sites_limit.go: find_references with options (the
//     definition holding each hit, code only, a limit, the totals).
//   - searcher.go: Searcher, the searches the tools ask for, answered by
//     Root (root.go: a project searched directly) from the files and by
//     Index from what it keeps.
//   - searcher_index.go: Index, the project index the server answers
//     from: the engine (package internal/index) with the record kinds
//     the searches hand it (the definitions, package
//     search/internal/defrec; find_code's words, package
//     search/findcode), and the searches' own state; index_query.go,
//     index_exact.go, index_fuzzy.go, index_names.go, index_lines.go and
//     index_cold*.go answer from it.
//   - map.go and code.go: the map of a folder (package search/projmap)
//     and find_code (package search/findcode), asked of the index once
//     its word index is in, and of the files before (and by Root).
//
// What the searches and their sub-packages share is under internal/: the
// tiers of files (filetier), the definitions' record (defrec), a file's
// lines as answers show them (lines), and the reading of many files at
// once, in order, under a deadline (scan). Their differential tests
// share a language server client and gopls' workspace (lsptest).
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
