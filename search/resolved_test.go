package search

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/search/resolve"
)

// TestResolvedIndexAndRoot: find_references of a definition answers
// "still building" before the word index (resolving needs the facts),
// and once built the same as the direct search: only the uses of the
// definition asked.
func TestResolvedIndexAndRoot(t *testing.T) {
	dir := t.TempDir()
	fixture.WriteFile(t, dir, "go.mod", "module example.com/m\n\ngo 1.22\n")
	fixture.WriteFile(t, dir, "a/a.go", "package a\n\ntype File struct{}\n\nfunc (f *File) Close() error { return nil }\n\nfunc Open() *File { return &File{} }\n")
	fixture.WriteFile(t, dir, "b/b.go", "package b\n\ntype Conn struct{}\n\nfunc (c Conn) Close() error { return nil }\n")
	for i := range 6 {
		fixture.WriteFile(t, dir, fmt.Sprintf("c/c%d.go", i), fmt.Sprintf(`package c

import (
	"example.com/m/a"
	"example.com/m/b"
)

func use%d(x interface{ Close() error }) {
	a.Open().Close()
	var c b.Conn
	c.Close()
	x.Close()
}
`, i))
	}
	touchPast(t, dir)
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(root, index.Options{CacheFile: "-", NoWatch: true, SyncTimeout: testSyncTimeout})
	ix.HoldWords, ix.HoldWordsAt = make(chan struct{}), 1
	ix.Start(t.Context())
	t.Cleanup(ix.Close)
	q := ResolveQuery{Name: "File.Close"}
	res, err := ix.Resolved(t.Context(), q, nil)
	if err != nil || !res.Building {
		t.Fatalf("Resolved before the word index = %+v, %v; want Building", res, err)
	}
	close(ix.HoldWords)
	select {
	case <-ix.Ready():
	case <-time.After(time.Minute):
		t.Fatal("the index was not built in a minute")
	}
	want, err := root.Resolved(t.Context(), q, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ix.Resolved(t.Context(), q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(Def{})); d != "" {
		t.Errorf("Resolved File.Close (-direct +index):\n%s", d)
	}
	// The method's declaration and the six calls: not Conn.Close's,
	// nor x.Close (through no named interface).
	if got.Uses != 7 || got.Through != 0 || got.Unresolved != 0 || len(got.Others) != 0 {
		t.Errorf("Resolved File.Close: %d uses, %d through, %d not resolved, others %v; want 7, 0, 0, none", got.Uses, got.Through, got.Unresolved, got.Others)
	}
	for _, s := range got.Sites {
		if s.Class != resolve.Match || s.Path != "a/a.go" && s.Text != "a.Open().Close()" {
			t.Errorf("listed %s:%d: %s (class %d)", s.Path, s.Line, s.Text, s.Class)
		}
	}

	// Past their budget, the resolvers are dropped at the next call,
	// which answers the same.
	defer func(b int64) { resolverBudget = b }(resolverBudget)
	resolverBudget = 0
	if ix.resolve.decoded.Load() == 0 {
		t.Error("the resolver decoded no record")
	}
	again, err := ix.Resolved(t.Context(), q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, again, cmp.AllowUnexported(Def{})); d != "" {
		t.Errorf("Resolved File.Close, resolvers dropped (-direct +index):\n%s", d)
	}

	// The facts are kept in the index's spill file (index.SpillKind):
	// once it is gone (here closed with the index), a file's facts are
	// parsed again.
	src := &indexFacts{ix}
	f := src.Facts("a/a.go")
	ix.Close()
	if g := src.Facts("a/a.go"); f == nil || g == nil || len(g.Funcs) != len(f.Funcs) || len(g.Types) != len(f.Types) {
		t.Errorf("facts of a/a.go read back %+v, then parsed %+v; want the same", f, g)
	}
}
