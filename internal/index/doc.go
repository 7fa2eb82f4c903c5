// Package index is the project index's engine: it stores, shares, saves
// and brings up to date each file's words and records, and the postings
// that find them, and answers narrow questions (the files holding a word
// or a key, a file's records, whether every file is parsed). It knows no
// search and writes no answer: package search asks it.
//
// Each kind of per-file record (a file's definitions, find_code's words)
// is declared by the search that owns it and handed to the engine
// ([RecordKind]: make a parsed file's record, list its keys, re-encode it
// for the store), so a new kind is added without touching the engine.
//
// The pieces, each in its own file:
//
//   - index.go: Index, the build (the word pass, then the parse at low
//     priority), the memory policy; index_work.go: the workers that give
//     way to calls.
//   - index_sync.go: reading a file for its words and records, parsing,
//     and bringing the index up to date from the watcher or a sweep.
//   - index_kind.go: the record kinds, and a file's records (Records).
//   - index_postings.go: postings in shared blocks; index_vocab.go: the
//     vocabulary every key numbers; shared.go: what the indexes of one
//     process share.
//   - index_cache.go and index_store.go: the disk cache (the project's
//     snapshot, and the store of records by content; the format is
//     package internal/diskcache); index_image.go: the project's image,
//     the whole index as its completion saved it, and index_restart.go:
//     a restart from it.
//   - index_files.go: which files hold a word, which are live and parsed.
//   - index_walk.go: the build's walk and word pass as they go, for the
//     calls answered before the word index; index_ahead.go: the records
//     of files those calls parsed.
//   - index_words.go: the word rule; spare*.go: how many cores the
//     background parse may take.
package index
