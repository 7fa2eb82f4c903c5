package mcpserver

import (
	"context"

	"github.com/zumba-dev/zumba/search"
)

// startIndex starts indexing the project in the background; the server
// answers initialize and every other request meanwhile.
func (s *Server) startIndex(ctx context.Context) *search.Index {
	opts := *s.cfg.Index
	if opts.Log == nil {
		opts.Log = s.log.Printf
	}
	ix := search.NewIndex(s.cfg.Root, opts)
	ix.Start(ctx)
	return ix
}

// findSymbol answers find_symbol from the index when there is one.
func (s *Server) findSymbol(ctx context.Context, name string) (string, bool) {
	if s.index == nil {
		return FindSymbol(ctx, s.cfg.Root, name)
	}
	text, err := s.index.FindSymbol(ctx, name)
	if err != nil {
		return toolError(err), true
	}
	return text, false
}

// findReferences answers find_references from the index when there is one.
func (s *Server) findReferences(ctx context.Context, name, path string) (string, bool) {
	if s.index == nil {
		return FindReferences(ctx, s.cfg.Root, name, path)
	}
	text, err := s.index.FindReferences(ctx, name, path)
	if err != nil {
		return toolError(err), true
	}
	return text, false
}
