package search

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/index"
)

// TestShareRecords: the parts come back as they went in, and equal
// records are one copy.
func TestShareRecords(t *testing.T) {
	cases := []struct{ defs, code []byte }{
		{[]byte("defs"), []byte("code")},
		{[]byte("defs only"), nil},
		{nil, []byte("code only")},
		{nil, nil},
	}
	for _, c := range cases {
		recs := index.PackRecords([][]byte{c.defs, c.code})
		h1, s1 := index.ShareRecords(recs)
		h2, s2 := index.ShareRecords(bytes.Clone(recs))
		d1, c1 := s1.Get(0), s1.Get(1)
		if !bytes.Equal(d1, c.defs) || !bytes.Equal(c1, c.code) || (d1 == nil) != (c.defs == nil) || (c1 == nil) != (c.code == nil) {
			t.Errorf("shareRecords(%q, %q) = %q, %q", c.defs, c.code, d1, c1)
		}
		if h1 != h2 || unsafe.SliceData(s1) != unsafe.SliceData(s2) {
			t.Errorf("shareRecords(%q, %q) twice: two copies", c.defs, c.code)
		}
		if cap(d1) != len(d1) || cap(c1) != len(c1) || cap(s1) != len(s1) {
			t.Errorf("shareRecords(%q, %q): spare capacity", c.defs, c.code)
		}
	}
}

// TestSharedRoots: two indexes of one process over two checkouts of a
// project, one from its snapshot and one from the store, hold one copy of
// each record of the files they have in common, and of each block of
// their postings; an edit in one leaves the other's records, postings and
// answers as they were.
func TestSharedRoots(t *testing.T) {
	t.Parallel()
	dir, cache, _ := savedProject(t)
	second := t.TempDir()
	if err := os.CopyFS(second, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	shared := index.NewShared()
	open := func(dir, cache string) (*Index, *Root) {
		root, err := OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		root.SymbolTimeLimit = time.Hour
		ix := NewIndex(root, index.Options{CacheFile: cache, StoreDir: storeOf(cache), NoWatch: true, Shared: shared})
		ix.Start(t.Context())
		t.Cleanup(ix.Close)
		<-ix.Ready()
		return ix, root
	}
	a, rootA := open(dir, cache)
	b, rootB := open(second, filepath.Join(t.TempDir(), "files"))
	names := []string{"shared", "Old03", "Old04", "Changed", "T05.Method", "Usage", "Method"}
	sameAnswers(t, "first", a, rootA, names)
	sameAnswers(t, "second", b, rootB, names)
	const edited = "pkg1/f04.go"
	var before []byte
	a.Mu.RLock()
	b.Mu.RLock()
	for path, ra := range a.ByPath {
		rb := b.ByPath[path]
		if rb == nil || !ra.Parsed || !rb.Parsed {
			t.Errorf("%s: not in both, parsed", path)
			continue
		}
		if unsafe.SliceData(ra.Recs.Get(kindDefs)) != unsafe.SliceData(rb.Recs.Get(kindDefs)) || unsafe.SliceData(ra.Recs.Get(kindCode)) != unsafe.SliceData(rb.Recs.Get(kindCode)) {
			t.Errorf("%s: two copies of its records", path)
		}
		if path == edited {
			before = bytes.Clone(ra.Recs.Get(kindDefs))
		}
	}
	blocksA := sharedBlocks(t, a, b)
	b.Mu.RUnlock()
	a.Mu.RUnlock()
	fixture.WriteFile(t, second, edited, "package pkg\n\nfunc Changed() { shared() }\n")
	sameAnswers(t, "second, edited", b, rootB, names)
	sameAnswers(t, "first, the second edited", a, rootA, names)
	a.Mu.RLock()
	after := a.ByPath[edited].Recs.Get(kindDefs)
	a.Mu.RUnlock()
	if !bytes.Equal(before, after) {
		t.Errorf("%s: the first's record changed with the second's file", edited)
	}
	a.Mu.RLock()
	for i, p := range a.postings() {
		if !slices.EqualFunc(p.Blocks, blocksA[i], func(x, y []byte) bool { return unsafe.SliceData(x) == unsafe.SliceData(y) }) {
			t.Errorf("postings %d: the first's blocks changed with the second's file", i)
		}
	}
	a.Mu.RUnlock()
	if res, err := a.Symbols(context.Background(), ParseSymbolQuery("Old04")); err != nil || len(res.Defs) == 0 || res.Fuzzy {
		t.Errorf("first: Old04 not found after the second's edit")
	}
}

// postings are the index's three postings.
func (ix *Index) postings() []*index.Postings {
	return []*index.Postings{&ix.WordPost, ix.defines, ix.code.Post}
}

// sharedBlocks checks that the postings of a and b (whose locks the
// caller holds) have one copy of each block, and returns a's blocks.
func sharedBlocks(t *testing.T, a, b *Index) [][][]byte {
	t.Helper()
	var out [][][]byte
	pb := b.postings()
	for i, p := range a.postings() {
		out = append(out, slices.Clone(p.Blocks))
		n := 0
		for j, blk := range p.Blocks {
			if len(blk) == 0 {
				continue
			}
			n++
			if j >= len(pb[i].Blocks) || unsafe.SliceData(blk) != unsafe.SliceData(pb[i].Blocks[j]) {
				t.Errorf("postings %d, block %d: two copies (of %d)", i, j, len(p.Blocks))
			}
		}
		if n == 0 {
			t.Errorf("postings %d: no blocks", i)
		}
	}
	return out
}

// TestSharedKeep: a root whose postings' blocks are shared keeps an edit
// of one of its many files in the overlay at a save, so that its blocks
// stay one copy with the other root's; its answers and the other's are
// right, and the save puts the edited file's words in the store: a third
// checkout served from the store answers as a search does.
func TestSharedKeep(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := range 400 {
		var b strings.Builder
		b.WriteString("package pkg\n")
		for d := range 8 {
			fmt.Fprintf(&b, "\n// F%03d%d reads", i, d)
			for j := range 12 {
				fmt.Fprintf(&b, " w%03d", (i*7+d*31+j*13)%900)
			}
			fmt.Fprintf(&b, ".\nfunc F%03d%d() { shared() }\n", i, d)
		}
		fixture.WriteFile(t, dir, fmt.Sprintf("pkg%d/f%03d.go", i%5, i), b.String())
	}
	touchPast(t, dir)
	second, third := t.TempDir(), t.TempDir()
	if err := os.CopyFS(second, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(t.TempDir(), "store")
	shared := index.NewShared()
	open := func(dir string, shared *index.Shared) (*Index, *Root) {
		root, err := OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		root.SymbolTimeLimit = time.Hour
		ix := NewIndex(root, index.Options{CacheFile: filepath.Join(t.TempDir(), "files"), StoreDir: store, NoWatch: true, Shared: shared})
		ix.Start(t.Context())
		t.Cleanup(ix.Close)
		<-ix.Ready()
		return ix, root
	}
	a, rootA := open(dir, shared)
	b, rootB := open(second, shared)
	a.Mu.RLock()
	b.Mu.RLock()
	sharedBlocks(t, a, b)
	b.Mu.RUnlock()
	a.Mu.RUnlock()
	const edited, touched = "pkg1/f001.go", "pkg1/f006.go"
	b.Mu.RLock()
	kept := b.ByPath[touched]
	b.Mu.RUnlock()
	fixture.WriteFile(t, second, edited, "package pkg\n\n// Fresh reads zzfresh w001.\nfunc Fresh() { shared() }\n")
	// Not racy, so that the save keeps it (the copy's other files are:
	// re-read, they keep their records).
	touchPast(t, filepath.Join(second, "pkg1"))
	names := []string{"Fresh", "zzfresh", "w001", "F0010", "F0020", "shared"}
	sameAnswers(t, "second, edited", b, rootB, names)
	b.Mu.RLock()
	if r := b.ByPath[touched]; r.ID != kept.ID || r.Dead || r.Stat.MTime > time.Now().Add(-time.Minute).UnixNano() {
		t.Errorf("%s, re-read with the same bytes: a new id, or the old stat", touched)
	}
	b.Mu.RUnlock()
	if !b.Save() {
		t.Fatal("second: no save after the edit")
	}
	a.Mu.RLock()
	b.Mu.RLock()
	sharedBlocks(t, a, b)
	for i, p := range b.postings() {
		if p.Overlay() == 0 {
			t.Errorf("postings %d: the edit was merged", i)
		}
	}
	b.Mu.RUnlock()
	a.Mu.RUnlock()
	sameAnswers(t, "second, saved", b, rootB, names)
	sameAnswers(t, "first", a, rootA, names)
	if err := os.CopyFS(third, os.DirFS(second)); err != nil {
		t.Fatal(err)
	}
	touchPast(t, third)
	c, rootC := open(third, nil)
	c.Mu.RLock()
	r := c.ByPath[edited]
	fromStore := r != nil && r.FromStore
	c.Mu.RUnlock()
	if !fromStore {
		t.Errorf("third: %s not from the store", edited)
	}
	sameAnswers(t, "third", c, rootC, names)
}
