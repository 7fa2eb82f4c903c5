package mcpserver

import (
	"context"

	"github.com/zumba-dev/zumba/search"
)

var findReferencesTool = &Tool{
	Name:        "find_references",
	Title:       "Find uses of a name",
	Description: "Lines that use a name as a whole word, case-sensitive, across the project's text files. At most 80 lines.",
	Params: []Param{
		{Name: "name", Description: "The name to find.", Required: true},
		{Name: "path", Description: "Only files matching these comma-separated globs, e.g. src/**, *.rs.", Required: false},
	},
	Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
		return s.findReferences(ctx, args["name"], args["path"])
	},
}

// FindReferences answers the find_references tool for name in the project
// root, in the files the globs of path keep ("" for all).
func FindReferences(ctx context.Context, root *search.Root, name, path string) (string, bool) {
	text, err := search.FindReferences(ctx, root, name, path)
	if err != nil {
		return toolError(err), true
	}
	return text, false
}
