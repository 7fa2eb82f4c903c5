package search

// Shared is what the indexes of one process share, so that a second root
// whose files are mostly the first's (a git worktree, a copy) costs
// little memory (issue 31): the table of the words and names that their
// records and postings number, so that a string is held once and has one
// id in every index. Give the same Shared to every index of a process
// (IndexOptions.Shared); it is safe for concurrent use. Its table only
// grows: the words of an index closed stay until the Shared is dropped.
type Shared struct {
	words *wordTable
}

// NewShared returns an empty Shared.
func NewShared() *Shared { return &Shared{words: newWordTable()} }
