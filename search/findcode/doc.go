// Package findcode is find_code: the definitions whose words match a
// description, best first. It declares its own kind of record in the
// index (Kind: each file's definitions' words, field by field, and their
// sums), which package search hands the engine of internal/index, and
// answers from the engine's records and postings (Index.Answer).
//
// The pieces, each in its own file:
//
//   - words.go: the words of code and of a query (identifiers split,
//     lower-cased, stemmed; stop words left out), forms.go the other
//     forms of a query word (the Snowball English stemmer).
//   - record.go: a file's record of its definitions' words, and kind.go
//     the record kind the engine keeps, saves and remaps.
//   - query.go: the BM25F ranking over the records, exact and quick (the
//     files holding the most of the rarest words first, stopping where
//     none left can pass the best found); prose.go the rule that puts
//     code before documentation; cut.go how many results are shown.
//   - text.go: the doc comment's first line and the name's line shown
//     beside each definition.
//
// Package search answers find_code's calls before the word index is in
// (from the files) and builds an index for the command line
// (search.Root.Code).
package findcode
