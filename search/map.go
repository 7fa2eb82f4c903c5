package search

import (
	"context"
	"errors"

	"github.com/zumba-dev/zumba/search/projmap"
)

// Map returns the ranked definitions of the files under the folder dir
// (a clean project path, "." for the whole project), from the files read
// now. Parsing stops at the root's time limit for a search of
// definitions: the map is then ranked from the files read so far
// (projmap.Map.Building).
func (r *Root) Map(ctx context.Context, dir string) (*projmap.Map, error) {
	deadline := StopBy(ctx, r.symbolTimeLimit())
	files, err := r.Walk(ctx)
	if err != nil {
		return nil, err
	}
	return projmap.FromFiles(ctx, r, files, dir, deadline)
}

// Map answers like [Root.Map], from the index (see
// [projmap.Index.Answer]). Before the word index is built it reads the
// files, as Root.Map does.
func (ix *Index) Map(ctx context.Context, dir string) (*projmap.Map, error) {
	deadline := StopBy(ctx, ix.symbolTimeLimit())
	defer ix.Call()()
	if !ix.WordsReady.Load() {
		files, err := ix.coldFiles(ctx, deadline)
		switch {
		case errors.Is(err, errWordsReady):
		case errors.Is(err, errStillListing):
			return &projmap.Map{Dir: dir, Building: true}, nil
		case err != nil:
			return nil, err
		default:
			m, err := projmap.FromFiles(ctx, ix.root, files, dir, deadline)
			if m != nil {
				// Cut short by the index being built, not by a direct
				// search's limit: a later call will have it.
				m.Stopped = false
			}
			return m, err
		}
	}
	if err := ix.Sync(ctx); err != nil {
		return nil, err
	}
	return ix.folderMap.Answer(ctx, dir, deadline)
}
