package search

import (
	"fmt"

	"github.com/zumba-dev/zumba/internal/project"
)

// MaxName is the longest name find_symbol and find_references accept, in
// bytes: far longer than any identifier, and short enough that no answer
// repeats a megabyte a model sent.
const MaxName = 1000

// checkName refuses an empty name (ErrEmptyName) or an overlong one.
func checkName(name string) error {
	if name == "" {
		return ErrEmptyName
	}
	if len(name) > MaxName {
		return &project.PathError{Msg: fmt.Sprintf("name too long (%d bytes; the limit is %d): %s", len(name), MaxName, project.Echo(name))}
	}
	return nil
}
