package projmap

import (
	"context"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/internal/defrec"
	"github.com/zumba-dev/zumba/search/internal/filetier"
)

// testRoot is a project searched directly, as search.Root maps it.
type testRoot struct {
	*project.Root
	// SymbolTimeLimit bounds the reading; zero is an hour (answers must
	// not depend on the machine's load).
	SymbolTimeLimit time.Duration
}

func openRoot(dir string) (*testRoot, error) {
	r, err := project.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &testRoot{Root: r}, nil
}

// Map maps dir from the files read now, as search.Root.Map does.
func (r *testRoot) Map(ctx context.Context, dir string) (*Map, error) {
	limit := r.SymbolTimeLimit
	if limit == 0 {
		limit = time.Hour
	}
	deadline := time.Now().Add(limit)
	files, err := r.Walk(ctx)
	if err != nil {
		return nil, err
	}
	return FromFiles(ctx, r, files, dir, deadline)
}

// newIndex returns the index of root with the definitions' kind of
// record and the tiers search.NewIndex hands the engine; Build or Start
// fills it.
func newIndex(root *testRoot, opts index.Options) *Index {
	eng := index.NewEngine(root.Root, opts, []index.RecordKind{defrec.Kind{}})
	eng.TierOf = filetier.Record
	return &Index{Index: eng, Src: root, DefsKind: 0, Defines: &eng.KindPost[0]}
}

// testIndex builds the index of dir with the definitions' kind of
// record and the tiers search.NewIndex hands the engine, and waits for
// every file's definitions; cache is the disk cache file ("-" for none).
func testIndex(t testing.TB, dir, cache string, noWatch bool) (*Index, *testRoot, struct{}) {
	t.Helper()
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix := newIndex(root, index.Options{CacheFile: cache, NoWatch: noWatch, SyncTimeout: 10 * time.Second})
	ix.Start(context.Background())
	t.Cleanup(ix.Close)
	select {
	case <-ix.Ready():
	case <-time.After(60 * time.Second):
		t.Fatal("index not built in 60 s")
	}
	if _, symbols, _ := ix.Progress(); !symbols {
		t.Fatal("index incomplete")
	}
	return ix, root, struct{}{}
}

// Map answers as search.Index.Map does once the word index is in, the
// files not parsed yet parsed first for an hour at most.
func (ix *Index) Map(ctx context.Context, dir string) (*Map, error) {
	if err := ix.Sync(ctx); err != nil {
		return nil, err
	}
	return ix.Answer(ctx, dir, time.Now().Add(time.Hour))
}
