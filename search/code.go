package search

import (
	"context"
	"errors"

	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/findcode"
)

// Code answers like [Index.Code], from the files as they are: it builds
// an index of the project (without a watcher, and without a disk cache
// unless r.CodeCache is set), waits for every file's definitions, and
// asks it. The command line's `zumba code` comes here, so that it prints
// what the server would.
func (r *Root) Code(ctx context.Context, query string, filter *project.PathFilter) (*findcode.Result, error) {
	if _, _, err := findcode.Parse(query); err != nil {
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

// Code finds the definitions whose words match the description query, in
// the files filter keeps (nil: all): at most findcode.Limit, best first
// (see [findcode.Index.Answer]). Before every file's definitions are
// known it parses the files not parsed yet until the find_symbol time
// limit, and says how far it got.
func (ix *Index) Code(ctx context.Context, query string, filter *project.PathFilter) (*findcode.Result, error) {
	deadline := StopBy(ctx, ix.symbolTimeLimit())
	q, res, err := findcode.Parse(query)
	if err != nil || q.Empty() {
		return res, err
	}
	defer ix.Call()()
	if !ix.WordsReady.Load() {
		files, err := ix.coldFiles(ctx, deadline)
		switch {
		case errors.Is(err, errWordsReady):
		case err != nil && !errors.Is(err, errStillListing):
			return nil, err
		default:
			res.Building, res.Files = true, len(files)
			return res, nil
		}
	}
	if err := ix.Sync(ctx); err != nil {
		return nil, err
	}
	return ix.code.Answer(ctx, q, filter, res, deadline)
}
