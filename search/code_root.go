package search

import (
	"context"

	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
)

// Code answers like [Index.Code], from the files as they are: it builds
// an index of the project (without a watcher, and without a disk cache
// unless r.CodeCache is set), waits for every file's definitions, and
// asks it. The command line's `zumba code` comes here, so that it prints
// what the server would.
func (r *Root) Code(ctx context.Context, query string, filter *project.PathFilter) (*CodeResult, error) {
	if _, err := checkCodeQuery(query); err != nil {
		return nil, err
	}
	cache := "-"
	if r.CodeCache {
		cache = ""
	}
	ix := NewIndex(r, index.Options{CacheFile: cache, NoWatch: true})
	defer ix.Close()
	ix.Build(ctx)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return ix.Code(ctx, query, filter)
}
