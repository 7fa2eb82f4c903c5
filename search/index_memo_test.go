package search

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/index"
)

// TestSymbolsMemo: while the index is built, find_symbol's complete answer
// is kept for the same question until a file changes (issue 42: an agent
// asking again every 50 ms cost the build a fallback over every name
// parsed each time); a file added since is in the next answer; once the
// index is complete, nothing is kept.
func TestSymbolsMemo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package p\n\nfunc Retry() {}\n")
	write("b.go", "package p\n\nvar x = 1\n")
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	root.SymbolTimeLimit = time.Hour
	ix := NewIndex(root, index.Options{CacheFile: "-", NoWatch: true, SyncTimeout: testSyncTimeout})
	ix.HoldSymbols = make(chan struct{})
	ix.Start(context.Background())
	defer ix.Close()
	for !ix.WordsReady.Load() {
		time.Sleep(5 * time.Millisecond)
	}
	const key = "0 false retr"
	names := func(what string, want ...string) {
		t.Helper()
		res, err := ix.Symbols(context.Background(), ParseSymbolQuery("retr"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range res.Defs {
			got = append(got, d.Name)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) || res.Building {
			t.Errorf("%s: %v (building %v); want %v, complete", what, got, res.Building, want)
		}
	}
	names("first", "Retry")
	if _, ok := ix.symbolMemo.Get(ix.Index, key); !ok {
		t.Errorf("the complete answer is not kept while the index is built")
	}
	names("again", "Retry")
	write("c.go", "package p\n\nfunc Retrieve() {}\n")
	names("a file added", "Retrieve", "Retry")
	close(ix.HoldSymbols)
	<-ix.Ready()
	names("complete", "Retrieve", "Retry")
	if _, ok := ix.symbolMemo.Get(ix.Index, key); ok {
		t.Errorf("an answer is kept once the index is complete")
	}
}
