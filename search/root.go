package search

import (
	"time"

	"github.com/zumba-dev/zumba/internal/project"
)

// Root is a project searched directly: the sandbox every file is read
// through ([project.Root]: paths, the walk, the ignore rules, reads), and
// the time limits of the searches that read its files afresh at each call.
type Root struct {
	*project.Root
	// SymbolTimeLimit bounds a search for definitions over the files;
	// zero is 3.5 s, well inside the 5 seconds clients wait.
	SymbolTimeLimit time.Duration
	// CodeCache makes Code build its index with the disk cache in its
	// usual place (the server's), so that a second call on a large
	// project reads one file instead of parsing every file again; unset,
	// Code keeps nothing.
	CodeCache bool
	// SiteTimeLimit and CountTimeLimit bound find_references with
	// options (see [Root.Sites]): the parsing, and the counting of the
	// hits left out; zero is the package's default (3 s and
	// [CountTimeLimit]). Tests whose answers must not depend on the
	// machine's load set them long.
	SiteTimeLimit, CountTimeLimit time.Duration
}

// OpenRoot opens the project folder dir for searching.
func OpenRoot(dir string) (*Root, error) {
	r, err := project.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Root{Root: r}, nil
}
