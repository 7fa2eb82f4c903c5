package index

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
)

// TestMergeOutside: while a kind's postings are merged outside the lock,
// readers see every file, the frozen overlay's and those added since; the
// merge's result replaces the frozen overlay, drops the files dead when it
// began and keeps those added since in the overlay. A merge under the lock
// in between folds everything itself, and the outside one's result is
// dropped.
func TestMergeOutside(t *testing.T) {
	for _, under := range []bool{false, true} {
		t.Run(fmt.Sprintf("under=%v", under), func(t *testing.T) { testMergeOutside(t, under) })
	}
}

func testMergeOutside(t *testing.T, under bool) {
	rng := rand.New(rand.NewPCG(3, 4))
	const nkeys = 700
	ix := &Index{KindPost: make([]Postings, 1), deadKind: make([]int, 1), Words: newWordTable(), mergeAt: maxOverlay}
	ix.mergeDone = sync.NewCond(&ix.Mu)
	ix.Words.Write(func(v *Vocab) {
		for i := range nkeys {
			v.InternString(fmt.Sprint("w", i))
		}
	})
	p := &ix.KindPost[0]
	want := map[uint32][]uint32{}
	addFile := func() {
		f := uint32(len(ix.Files))
		ix.Files = append(ix.Files, &FileRec{ID: f, Parsed: true})
		ix.Live++
		var keys []uint32
		for range 1 + rng.IntN(8) {
			keys = append(keys, uint32(rng.IntN(nkeys)))
		}
		slices.Sort(keys)
		for _, k := range slices.Compact(keys) {
			p.add(k, f)
			want[k] = append(want[k], f)
		}
	}
	check := func(what string) {
		t.Helper()
		var buf []uint32
		for k := range uint32(nkeys) {
			buf = p.List(k, buf[:0])
			buf = slices.DeleteFunc(buf, func(f uint32) bool { return ix.Files[f] == nil })
			if !slices.Equal(buf, want[k]) {
				t.Fatalf("%s: list(%d) = %v; want %v", what, k, buf, want[k])
			}
			if p.InOverlay(k) != (p.Head.get(k) != 0 || p.frozen.Head.get(k) != 0) || p.Empty(k) != (len(p.List(k, nil)) == 0) {
				t.Fatalf("%s: key %d: in the overlay %v, empty %v", what, k, p.InOverlay(k), p.Empty(k))
			}
		}
	}
	kill := func(f uint32) {
		ix.Files[f] = nil
		ix.Live--
		ix.deadKind[0]++
		for k, fs := range want {
			want[k] = slices.DeleteFunc(fs, func(g uint32) bool { return g == f })
		}
	}
	for range 100 {
		addFile()
	}
	ix.MergeLocked(true)
	for range 60 {
		addFile()
	}
	kill(10)
	kill(120)
	ix.Mu.Lock()
	finish := ix.startMergeLocked(0)
	if finish == nil || ix.startMergeLocked(0) != nil {
		t.Fatal("startMergeLocked: no merge, or a second one at once")
	}
	frozen := p.frozen.Head.n
	ix.Mu.Unlock()
	if frozen == 0 || p.Head.n != 0 {
		t.Fatalf("started: %d keys frozen, %d in the new overlay", frozen, p.Head.n)
	}
	check("frozen")
	for range 30 {
		addFile()
	}
	kill(130)
	check("frozen, then more files")
	if under {
		ix.MergeLocked(true)
		check("merged under the lock")
	}
	gen := p.Gen
	finish()
	check("merged outside")
	switch {
	case p.merging || ix.merging != 0 || p.frozen.Head.n != 0:
		t.Errorf("after the merge: merging %v, %d under way, %d keys frozen", p.merging, ix.merging, p.frozen.Head.n)
	case under && (p.Gen != gen || p.Overlay() != 0 || ix.deadKind[0] != 0):
		t.Errorf("after a merge under the lock: gen %d -> %d, overlay %d, dead %d; want the same gen, none", gen, p.Gen, p.Overlay(), ix.deadKind[0])
	case !under && (p.Gen != gen+1 || p.Overlay() == 0 || ix.deadKind[0] != 1):
		t.Errorf("after the merge: gen %d -> %d, overlay %d, dead %d; want a new base, the 30 new files, the one that died since", gen, p.Gen, p.Overlay(), ix.deadKind[0])
	}
	ix.Mu.Lock()
	ix.waitMergesLocked()
	ix.Mu.Unlock()
	ix.mergeAll()
	check("all merged")
	if p.Overlay() != 0 || ix.deadKind[0] != 0 {
		t.Errorf("all merged: overlay %d, dead %d", p.Overlay(), ix.deadKind[0])
	}
}

// namesKind's record is the ids of a file's definition names, as uvarint
// differences; its keys are those ids.
type namesKind struct{}

func (namesKind) Make(_ string, _ []byte, defs []outline.Definition, v *Vocab) []byte {
	var ids []uint32
	for _, d := range defs {
		ids = append(ids, v.InternString(d.Name))
	}
	slices.Sort(ids)
	var rec []byte
	prev := uint32(0)
	for _, id := range slices.Compact(ids) {
		rec = binary.AppendUvarint(rec, uint64(id-prev))
		prev = id
	}
	return rec
}

func (namesKind) Keys(rec []byte, dst []uint32) []uint32 {
	prev := uint32(0)
	for len(rec) > 0 {
		d, n := binary.Uvarint(rec)
		rec = rec[n:]
		prev += uint32(d)
		dst = append(dst, prev)
	}
	return dst
}

func (namesKind) Export(dst, rec []byte, _ uint64, _ func(uint32) uint32) ([]byte, error) {
	return nil, errors.New("not stored")
}
func (namesKind) PathStrings(_ string, dst [][]byte) [][]byte { return dst }
func (namesKind) Import(dst, rec []byte, _ uint64, _ func(uint32) uint32, _ []uint32) ([]byte, error) {
	return nil, errors.New("not stored")
}

// TestMergeDuringBuild: a build whose kind's postings are merged outside
// the lock many times over (every 16 entries) while readers list them
// ends with every name's files listed, as its definitions say.
func TestMergeDuringBuild(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	want := map[string][]string{}
	for i := range 120 {
		path := fmt.Sprintf("p%d/f%d.go", i%7, i)
		src := fmt.Sprintf("package p\n\nfunc F%d() {}\n\nfunc G%d() {}\n\ntype T%d struct{}\n", i, i%13, i%5)
		writeFile(t, filepath.Join(dir, path), src)
		for _, name := range []string{fmt.Sprint("F", i), fmt.Sprint("G", i%13), fmt.Sprint("T", i%5)} {
			want[name] = append(want[name], path)
		}
	}
	proj, err := project.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix := NewEngine(proj, Options{NoWatch: true}, []RecordKind{namesKind{}})
	defer ix.Close()
	ix.mergeAt = 16
	ctx, stop := context.WithCancel(context.Background())
	reads := make(chan int)
	go func() {
		n := 0
		for ctx.Err() == nil {
			ix.Mu.RLock()
			p := &ix.KindPost[0]
			for k := range uint32(ix.Words.Len()) {
				n += len(p.List(k, nil))
			}
			ix.Mu.RUnlock()
		}
		reads <- n
	}()
	ix.Build(context.Background())
	stop()
	<-reads
	p := &ix.KindPost[0]
	if p.Gen < 4 || p.Overlay() != 0 || p.merging {
		t.Errorf("%d bases made, overlay %d, merging %v; want merges, no overlay left", p.Gen, p.Overlay(), p.merging)
	}
	got := map[string][]string{}
	strs := ix.Words.View()
	for k := range uint32(ix.Words.Len()) {
		for _, f := range p.List(k, nil) {
			if r := ix.Files[f]; r != nil {
				got[strs.Str(k)] = append(got[strs.Str(k)], r.Path)
			}
		}
	}
	for name := range want {
		slices.Sort(want[name])
		slices.Sort(got[name])
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("names' files (-want +got):\n%s", diff)
	}
}
