package index

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/zumba-dev/zumba/internal/fixture"
)

// vocabSample has strings of every size a reference treats apart: empty,
// short, sharing a chunk, filling chunks, past a sixteenth of a chunk (a
// chunk of their own), and past what a reference's length holds.
func vocabSample() []string {
	out := []string{"", "main", "Ünïcode", "x"}
	for i := range 3000 {
		out = append(out, strings.Repeat(string(rune('a'+i%26)), 1+i%700)+string(rune('A'+i/26%26))+string(rune('A'+i/676)))
	}
	return append(out, strings.Repeat("b", vocabChunk/16+1), strings.Repeat("c", refLong), strings.Repeat("d", refLong+5), "after")
}

// TestVocab: every string comes back by its id and is found by lookup,
// when interned one by one and when loaded from a disk cache's table
// (used where it lies) or from a list (copied); a view taken before more
// strings are added still reads the ids it had.
func TestVocab(t *testing.T) {
	t.Parallel()
	want := vocabSample()
	check := func(name string, v *Vocab) {
		t.Helper()
		if v.Len() != len(want) {
			t.Fatalf("%s: %d strings; want %d", name, v.Len(), len(want))
		}
		for id, s := range want {
			if got := v.Str(uint32(id)); got != s {
				t.Fatalf("%s: str(%d) = %.20q… (%d bytes); want %.20q… (%d bytes)", name, id, got, len(got), s, len(s))
			}
			if got, ok := v.LookupString(s); !ok || got != uint32(id) {
				t.Fatalf("%s: lookup(%.20q…) = %d, %v; want %d", name, s, got, ok, id)
			}
		}
		if _, ok := v.LookupString("absent"); ok {
			t.Errorf("%s: lookup(absent) found", name)
		}
	}
	v := NewVocab()
	var views []*StrTable
	for i, s := range want {
		if id := v.InternString(s); id != uint32(i) {
			t.Fatalf("intern(%.20q…) = %d; want %d", s, id, i)
		}
		if v.InternString(s) != uint32(i) {
			t.Fatalf("intern(%.20q…) again: another id", s)
		}
		if i%500 == 0 {
			views = append(views, v.View())
		}
	}
	check("interned", v)
	for _, view := range views {
		for id := range view.Len() {
			if got := view.Str(uint32(id)); got != want[id] {
				t.Fatalf("old view: str(%d) = %.20q…; want %.20q…", id, got, want[id])
			}
		}
	}
}

// BenchmarkVocabGoSrc interns the words of every Go file of the standard
// library, each file's distinct words in turn as an index does, into a
// new vocab ("intern"), and looks them all up in the full one ("lookup").
func BenchmarkVocabGoSrc(b *testing.B) {
	var words [][]byte
	err := filepath.WalkDir(fixture.GoSrc(b), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, w := range bytes.FieldsFunc(data, func(r rune) bool {
			return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))
		}) {
			if !seen[string(w)] {
				seen[string(w)] = true
				words = append(words, w)
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("intern", func(b *testing.B) {
		for b.Loop() {
			v := NewVocab()
			for _, w := range words {
				v.intern(w)
			}
		}
	})
	b.Run("lookup", func(b *testing.B) {
		v := NewVocab()
		for _, w := range words {
			v.intern(w)
		}
		b.ReportMetric(float64(v.Len()), "strings")
		for b.Loop() {
			for _, w := range words {
				if _, ok := v.lookup(w); !ok {
					b.Fatal("not found")
				}
			}
		}
	})
}

// BenchmarkVocabLarge: lookups in a vocab as large as the kernel's (4
// million strings), in batches of a file's distinct words, one by one
// and by lookupAll.
func BenchmarkVocabLarge(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 4 << 20
	v := NewVocab()
	words := make([][]byte, n)
	for i := range words {
		w := make([]byte, 6+rng.IntN(16))
		for j := range w {
			w[j] = "abcdefghijklmnopqrstuvwxyz_0123456789"[rng.IntN(37)]
		}
		words[i] = w
		v.intern(w)
	}
	batch := make([][]byte, 300)
	b.Run("lookup", func(b *testing.B) {
		for b.Loop() {
			for i := range batch {
				batch[i] = words[rng.IntN(n)]
			}
			for _, w := range batch {
				if _, ok := v.lookup(w); !ok {
					b.Fatal("not found")
				}
			}
		}
	})
	b.Run("lookupAll", func(b *testing.B) {
		ids := make([]uint32, len(batch))
		var hs, refs []uint64
		for b.Loop() {
			for i := range batch {
				batch[i] = words[rng.IntN(n)]
			}
			hs, refs = v.lookupAll(batch, ids, hs, refs)
			if slices.Contains(ids, notFound) {
				b.Fatal("not found")
			}
		}
	})
}

// TestLookupAll: lookupAll gives what lookup gives for every string of a
// batch, present or not, repeated, empty or long, in a vocab full enough
// that many strings are not in their first slot.
func TestLookupAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	word := func() []byte {
		w := make([]byte, rng.IntN(8))
		for j := range w {
			w[j] = "abcxyz_01"[rng.IntN(9)]
		}
		return w
	}
	v := NewVocab()
	for range 20000 {
		v.intern(word())
	}
	long := bytes.Repeat([]byte("x"), refLong) // kept apart (see copyRef)
	v.intern(long)
	var hs, refs []uint64
	for range 200 {
		batch := make([][]byte, rng.IntN(300))
		for i := range batch {
			switch rng.IntN(10) {
			case 0:
				if rng.IntN(20) == 0 {
					batch[i] = long
				}
			case 1:
				batch[i] = append(word(), "absent"...)
			default:
				batch[i] = word()
			}
		}
		ids := make([]uint32, len(batch))
		hs, refs = v.lookupAll(batch, ids, hs, refs)
		for i, w := range batch {
			want, ok := v.lookup(w)
			if !ok {
				want = notFound
			}
			if ids[i] != want {
				t.Fatalf("%q: lookupAll %d, lookup %d", w, ids[i], want)
			}
		}
	}
}
