package search

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPostings: a base built from files' keys, an overlay added to it and
// a merge that drops some files list, for every key, the files a map of
// them lists; most keys have no file, as in the definitions' postings.
func TestPostings(t *testing.T) {
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
	var p postings
	const first = 5
	p.build(nkeys, first, nfiles, func(i int, f func(k uint32)) {
		for _, k := range fileKeys[i] {
			f(k)
		}
	})
	for f, keys := range fileKeys {
		for _, k := range keys {
			want[k] = append(want[k], uint32(first+f))
		}
	}
	check := func(what string, n int) {
		t.Helper()
		var buf []uint32
		for k := range uint32(n) {
			buf = p.list(k, buf[:0])
			if !slices.Equal(buf, want[k]) {
				t.Fatalf("%s: list(%d) = %v; want %v", what, k, buf, want[k])
			}
			if p.empty(k) != (len(want[k]) == 0) {
				t.Fatalf("%s: empty(%d) = %v; want %v", what, k, p.empty(k), len(want[k]) == 0)
			}
		}
		var inBase []uint32
		p.forBase(func(k uint32) { inBase = append(inBase, k) })
		for _, k := range inBase {
			if lo, hi := p.span(k); hi <= lo || !p.inBase(k) {
				t.Fatalf("%s: key %d in the base with bytes %d..%d", what, k, lo, hi)
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
	if p.overlay() != 0 || p.nkeys != nkeys+5 {
		t.Errorf("merged: overlay %d, keys %d", p.overlay(), p.nkeys)
	}
}
