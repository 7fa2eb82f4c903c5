package findcode

import (
	"context"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/internal/defrec"
	"github.com/zumba-dev/zumba/search/internal/filetier"
)

// newIndex returns an index of the project folder dir with the kinds of
// records search.NewIndex hands the engine (the definitions, then
// find_code's words) and the tiers it ranks files by; Build or Start
// fills it.
func newIndex(t testing.TB, dir string, opts index.Options) *Index {
	t.Helper()
	root, err := project.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	kind := &Kind{}
	eng := index.NewEngine(root, opts, []index.RecordKind{0: defrec.Kind{}, 1: kind})
	eng.TierOf = filetier.Record
	return &Index{Index: eng, Src: root, Kind: kind, DefsKind: 0, CodeKind: 1, Post: &eng.KindPost[1]}
}

// Code answers as search.Index.Code does once the word index is in: in
// sync, the files not parsed yet parsed first (for an hour at most).
func (ix *Index) Code(ctx context.Context, query string, filter *project.PathFilter) (*Result, error) {
	q, res, err := Parse(query)
	if err != nil || q.Empty() {
		return res, err
	}
	if err := ix.Sync(ctx); err != nil {
		return nil, err
	}
	return ix.Answer(ctx, q, filter, res, time.Now().Add(time.Hour))
}

// dirCode answers query over the project folder dir as search.Root.Code
// does: an index without a disk cache or watcher, built, then asked.
func dirCode(t testing.TB, dir, query string, filter *project.PathFilter) (*Result, error) {
	t.Helper()
	ix := newIndex(t, dir, index.Options{CacheFile: "-", NoWatch: true})
	defer ix.Close()
	ix.Build(context.Background())
	return ix.Code(context.Background(), query, filter)
}
