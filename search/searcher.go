package search

import (
	"context"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/findcode"
	"github.com/zumba-dev/zumba/search/projmap"
)

// Searcher answers the project searches: the [Index] from what it keeps,
// a [Root] from the files read afresh. Both give the same results.
type Searcher interface {
	// Symbols finds the definitions q names: exact matches, else names
	// containing it (see [Symbols]).
	Symbols(ctx context.Context, q SymbolQuery) (*SymbolResult, error)
	// References finds the lines that use name as a whole word in the
	// files filter keeps (nil: all).
	References(ctx context.Context, name string, filter *project.PathFilter) (*RefResult, error)
	// Sites is References with options: the lines, told apart as code or
	// not, with the definitions that hold them.
	Sites(ctx context.Context, name string, filter *project.PathFilter, opts RefOptions, cache *ParseCache) (*Sites, error)
	// Resolved finds the uses of one definition, resolved (see
	// [ResolveQuery]).
	Resolved(ctx context.Context, q ResolveQuery, cache *ParseCache) (*Resolved, error)
	// Map ranks the definitions of the files under the folder dir (see
	// [projmap.Map]).
	Map(ctx context.Context, dir string) (*projmap.Map, error)
	// Code finds the definitions whose words match a description, in
	// the files filter keeps (nil: all), best first (see [Index.Code]).
	Code(ctx context.Context, query string, filter *project.PathFilter) (*findcode.Result, error)
}

var (
	_ Searcher = (*Root)(nil)
	_ Searcher = (*Index)(nil)
)
