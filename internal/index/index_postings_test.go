package index

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// TestPostings: a base built from files' keys, an overlay added to it and
// a merge that drops some files list, for every key, the files a map of
// them lists; most keys have no file, as in the definitions' postings.
// The same with the blocks shared.
func TestPostings(t *testing.T) {
	t.Run("own", func(t *testing.T) { testPostings(t, false) })
	t.Run("shared", func(t *testing.T) { testPostings(t, true) })
}

func testPostings(t *testing.T, shared bool) {
	rng := rand.New(rand.NewPCG(1, 2))
	const nkeys, nfiles = 1000, 300
	want := map[uint32][]uint32{}
	fileKeys := make([][]uint32, nfiles)
	for f := range nfiles {
		for range rng.IntN(12) {
			k := uint32(rng.IntN(nkeys/7)) * 7 // one key in seven is used
			if !slices.Contains(fileKeys[f], k) {
				fileKeys[f] = append(fileKeys[f], k)
			}
		}
		slices.Sort(fileKeys[f])
	}
	p := Postings{shared: shared}
	const first = 5
	p.build(nkeys, first, packKeys(fileKeys))
	for f, keys := range fileKeys {
		for _, k := range keys {
			want[k] = append(want[k], uint32(first+f))
		}
	}
	check := func(what string, n int) {
		t.Helper()
		var buf []uint32
		for k := range uint32(n) {
			buf = p.List(k, buf[:0])
			if !slices.Equal(buf, want[k]) {
				t.Fatalf("%s: list(%d) = %v; want %v", what, k, buf, want[k])
			}
			if p.Empty(k) != (len(want[k]) == 0) {
				t.Fatalf("%s: empty(%d) = %v; want %v", what, k, p.Empty(k), len(want[k]) == 0)
			}
		}
		var inBase []uint32
		p.ForBase(func(k uint32) { inBase = append(inBase, k) })
		for _, k := range inBase {
			if b := p.BaseList(k); len(b) == 0 || !p.InBase(k) {
				t.Fatalf("%s: key %d in the base with bytes %v", what, k, b)
			}
		}
	}
	check("built", nkeys+10)
	// The overlay: new files, with keys past the base's too.
	for f := uint32(first + nfiles); f < first+nfiles+20; f++ {
		for _, k := range []uint32{f % nkeys, nkeys + f%5} {
			p.add(k, f)
			want[k] = append(want[k], f)
		}
	}
	check("with an overlay", nkeys+10)
	dead := func(f uint32) bool { return f%3 == 0 }
	p.merge(nkeys+5, func(f uint32) bool { return !dead(f) })
	for k, fs := range want {
		want[k] = slices.DeleteFunc(fs, dead)
	}
	check("merged", nkeys+10)
	if p.Overlay() != 0 || p.NKeys != nkeys+5 {
		t.Errorf("merged: overlay %d, keys %d", p.Overlay(), p.NKeys)
	}
}

// TestShareBlocks: two shared postings built from the same files' keys
// hold one copy of each block; after one of them changes a file (a new
// id for it, the old one dropped by a merge), the blocks of the keys the
// change leaves alone are still one copy, and the other's lists are as
// they were.
func TestShareBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const nkeys, nfiles = 20 * blockKeys, 400
	fileKeys := make([][]uint32, nfiles)
	for f := range fileKeys {
		for range 1 + rng.IntN(30) {
			k := uint32(rng.IntN(nkeys))
			if !slices.Contains(fileKeys[f], k) {
				fileKeys[f] = append(fileKeys[f], k)
			}
		}
		slices.Sort(fileKeys[f])
	}
	// The changed file: its keys in the first and last blocks only.
	const changed = 17
	fileKeys[changed] = []uint32{3, nkeys - 2}
	build := func() *Postings {
		p := &Postings{shared: true}
		p.build(nkeys, 0, packKeys(fileKeys))
		return p
	}
	a, b := build(), build()
	lists := func(p *Postings) [][]uint32 {
		out := make([][]uint32, nkeys)
		for k := range out {
			out[k] = p.List(uint32(k), nil)
		}
		return out
	}
	before := lists(a)
	same := func(what string, want func(blk int) bool) {
		t.Helper()
		for i := range a.Blocks {
			one := unsafe.SliceData(a.Blocks[i]) == unsafe.SliceData(b.Blocks[i])
			if len(a.Blocks[i]) > 0 && one != want(i) {
				t.Errorf("%s: block %d: one copy %v; want %v", what, i, one, want(i))
			}
		}
	}
	same("built", func(int) bool { return true })
	// The changed file's new record: a new id, a new key in the first
	// block, its key of the last block dropped.
	for _, k := range []uint32{3, 5} {
		b.add(k, nfiles)
	}
	b.merge(nkeys, func(f uint32) bool { return f != changed })
	last := len(a.Blocks) - 1
	same("one file changed", func(i int) bool { return i != 0 && i != last })
	if d := cmp.Diff(before, lists(a)); d != "" {
		t.Errorf("the first's lists after the second's change (-before +after):\n%s", d)
	}
	got := lists(b)
	for _, k := range []uint32{3, 5} {
		if !slices.Contains(got[k], nfiles) || slices.Contains(got[k], changed) {
			t.Errorf("second, key %d: %v; want %d in it, not %d", k, got[k], nfiles, changed)
		}
	}
	if slices.Contains(got[nkeys-2], changed) {
		t.Errorf("second, key %d: %v; want no %d", nkeys-2, got[nkeys-2], changed)
	}
	// Unshared postings of the same keys share nothing.
	own := Postings{}
	own.build(nkeys, 0, packKeys(fileKeys))
	for i := range own.Blocks {
		if len(own.Blocks[i]) > 0 && unsafe.SliceData(own.Blocks[i]) == unsafe.SliceData(a.Blocks[i]) {
			t.Errorf("block %d of postings not shared is a shared one", i)
		}
	}
}

// TestHeads: the overlay's table of heads gives back what was pushed
// last for each key, as a map does, through its growths.
func TestHeads(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var h heads
	want := map[uint32]uint32{}
	for e := uint32(1); e <= 5000; e++ {
		k := uint32(rng.IntN(3000))
		if k%5 == 0 {
			k = 1<<31 + k // far keys too
		}
		if prev := h.push(k, e); prev != want[k] {
			t.Fatalf("push(%d, %d) = %d; want %d", k, e, prev, want[k])
		}
		want[k] = e
	}
	for k := range uint32(3000) {
		for _, k := range []uint32{k, 1<<31 + k} {
			if got := h.get(k); got != want[k] {
				t.Fatalf("get(%d) = %d; want %d", k, got, want[k])
			}
		}
	}
	n := 0
	h.Each(func(k uint32) {
		n++
		if want[k] == 0 {
			t.Errorf("each: %d has no entry", k)
		}
	})
	if n != len(want) {
		t.Errorf("each: %d keys; want %d", n, len(want))
	}
}

// TestPackIDs: lists packed into one arena by several goroutines at once,
// small ones sharing chunks and large ones on their own, each unpack to
// their ids in order, and no list overlaps another.
func TestPackIDs(t *testing.T) {
	var a packArena
	const lists = 400
	in := make([][]uint32, lists)
	out := make([][]byte, lists)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range in {
		n := rng.IntN(300)
		if i%100 == 7 {
			n = packChunk / 4 // over packChunk/8 bytes: a list of its own
		}
		for range n {
			in[i] = append(in[i], rng.Uint32N(1<<22))
		}
		in[i] = slices.Compact(slices.Sorted(slices.Values(in[i])))
		rng.Shuffle(len(in[i]), func(a, b int) { in[i][a], in[i][b] = in[i][b], in[i][a] })
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < lists; i += 4 {
				out[i] = packIDs(&a, slices.Clone(in[i]))
			}
		}()
	}
	wg.Wait()
	for i := range in {
		var got []uint32
		unpackIDs(out[i], func(id uint32) { got = append(got, id) })
		if want := slices.Sorted(slices.Values(in[i])); !slices.Equal(got, want) {
			t.Fatalf("list %d: unpacked %d ids, want %d (%v...)", i, len(got), len(want), got[:min(len(got), 5)])
		}
		if cap(out[i]) != len(out[i]) {
			t.Errorf("list %d: cap %d, len %d: a list could write over the next", i, cap(out[i]), len(out[i]))
		}
	}
}

// TestBuildRanges: a base built over several ranges of keys lists, for
// every key, the files that hold it, shared or not, with keys at each
// range's first and last.
func TestBuildRanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const nkeys, nfiles, first = 2*buildRange + 300, 400, 5
	fileKeys := make([][]uint32, nfiles)
	for f := range fileKeys {
		for range rng.IntN(200) {
			k := uint32(rng.IntN(nkeys))
			switch rng.IntN(5) {
			case 0:
				k = uint32(rng.IntN(3)) * buildRange
			case 1:
				k = uint32(rng.IntN(3)+1)*buildRange - 1
			}
			k = min(k, nkeys-1)
			if !slices.Contains(fileKeys[f], k) {
				fileKeys[f] = append(fileKeys[f], k)
			}
		}
	}
	want := map[uint32][]uint32{}
	for f, keys := range fileKeys {
		for _, k := range keys {
			want[k] = append(want[k], first+uint32(f))
		}
	}
	for _, shared := range []bool{false, true} {
		p := &Postings{shared: shared}
		p.build(nkeys, first, packKeys(fileKeys))
		var buf []uint32
		for k := range uint32(nkeys) {
			buf = p.List(k, buf[:0])
			if !slices.Equal(buf, want[k]) {
				t.Fatalf("shared %v: key %d lists %v; want %v", shared, k, buf, want[k])
			}
		}
	}
}

// packKeys packs each file's keys (packIDs), as the word pass does.
func packKeys(fileKeys [][]uint32) [][]byte {
	var a packArena
	lists := make([][]byte, len(fileKeys))
	for f, keys := range fileKeys {
		lists[f] = packIDs(&a, slices.Clone(keys))
	}
	return lists
}

// unpackIDs calls f with each id packIDs encoded in b, in order.
func unpackIDs(b []byte, f func(id uint32)) {
	var id uint32
	for i := 0; i < len(b); {
		d, n := binary.Uvarint(b[i:])
		i += n
		id += uint32(d)
		f(id)
	}
}

// TestWideBlocks: a block of 64 KiB or more (a word in most files of a
// large project) has offsets of 4 bytes, the others of 2; both read back,
// built and merged.
func TestWideBlocks(t *testing.T) {
	const nfiles = 70000
	fileKeys := make([][]uint32, nfiles)
	want := map[uint32][]uint32{}
	for f := range nfiles {
		keys := []uint32{3} // in every file: its block is wide
		if f%1000 == 0 {
			keys = append(keys, 5, blockKeys+1) // beside it, and in a narrow block
		}
		fileKeys[f] = keys
		for _, k := range keys {
			want[k] = append(want[k], uint32(f))
		}
	}
	p := Postings{}
	p.build(2*blockKeys, 0, packKeys(fileKeys))
	if n := len(p.Blocks[0]); offWidth(n) != 4 {
		t.Fatalf("block of %d bytes has offsets of %d bytes; want 4", n, offWidth(n))
	}
	if n := len(p.Blocks[1]); offWidth(n) != 2 || n > 1000 {
		t.Fatalf("block of %d bytes has offsets of %d bytes; want 2, a few hundred bytes", n, offWidth(n))
	}
	check := func(what string) {
		t.Helper()
		for _, k := range []uint32{3, 5, blockKeys + 1, 4} {
			if got := p.List(k, nil); !slices.Equal(got, want[k]) {
				t.Fatalf("%s: list(%d) has %d files; want %d", what, k, len(got), len(want[k]))
			}
		}
	}
	check("built")
	p.add(4, nfiles)
	want[4] = []uint32{nfiles}
	p.merge(2*blockKeys, func(uint32) bool { return true })
	check("merged")
}
