package mcpserver

import (
	"context"

	"github.com/zumba-dev/zumba/search"
)

// searcherBox holds the server's search.Searcher, for an atomic pointer.
type searcherBox struct{ search.Searcher }

// serveIndex starts indexing the project in the background and has the
// tools search the index; the server answers initialize and every other
// request meanwhile. The function it returns stops the index, and the
// tools search the files again.
func (s *Server) serveIndex(ctx context.Context) (stop func()) {
	if s.multi {
		return s.serveRootIndexes(ctx)
	}
	opts := *s.cfg.Index
	if opts.Log == nil {
		opts.Log = s.log.Printf
	}
	ix := search.NewIndex(s.cfg.Root, opts)
	ix.Start(ctx)
	s.search.Store(&searcherBox{ix})
	return func() {
		s.search.Store(&searcherBox{s.cfg.Root})
		ix.Close()
	}
}

// searcher is what find_symbol and find_references search; in a server
// of several roots, with the paths it finds shown after the root's name.
func (s *Server) searcher() search.Searcher {
	if s.cfg.name != "" {
		return prefixed{s.engine(), s}
	}
	return s.engine()
}

// engine is what the tools search, with the paths as the root has them.
func (s *Server) engine() search.Searcher { return s.search.Load().Searcher }
