package mcpserver

import (
	"context"

	"github.com/zumba-dev/zumba/search"
)

var findSymbolTool = &Tool{
	Name:        "find_symbol",
	Title:       "Find a definition",
	Description: "Where a function, method, type, constant or heading is defined in the project. Accepts Type.method and Type::method.",
	Params: []Param{
		{Name: "name", Description: "The name to find.", Required: true},
	},
	Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
		return s.findSymbol(ctx, args["name"])
	},
}

// FindSymbol answers the find_symbol tool for name in the project root.
func FindSymbol(ctx context.Context, root *search.Root, name string) (string, bool) {
	text, err := search.FindSymbol(ctx, root, name)
	if err != nil {
		return toolError(err), true
	}
	return text, false
}
