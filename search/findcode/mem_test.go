package findcode

import (
	"context"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/diskcache"
	"github.com/zumba-dev/zumba/internal/index"
)

// TestCodeMem logs what find_code's records and postings hold in memory
// for the project ZUMBA_CODE_MEM names (a folder of the Linux kernel's
// sources, say), and checks a few queries' bound (TestCodeBound).
func TestCodeMem(t *testing.T) {
	dir := os.Getenv("ZUMBA_CODE_MEM")
	if dir == "" {
		t.Skip("ZUMBA_CODE_MEM is not set")
	}
	ix := newIndex(t, dir, index.Options{CacheFile: "-", NoWatch: true})
	defer ix.Close()
	ix.Build(context.Background())
	queries := []string{"allocate memory for page tables", "parse mount options", "read the data of a page", "free the memory of a buffer", "handle an interrupt from the device", "lock the inode before writing data", "send a packet over the network", "verify the checksum of the header"}
	codeBoundSame(t, ix, queries, false)
	for _, q := range queries {
		var ds []time.Duration
		for range 5 {
			t0 := time.Now()
			if _, err := ix.codeSearch(context.Background(), parseCodeQuery(q), nil, defaultCodeWeights, &Result{}); err != nil {
				t.Fatal(err)
			}
			ds = append(ds, time.Since(t0))
		}
		slices.Sort(ds)
		t.Logf("%q: median %v", q, ds[2])
	}
	ix.Mu.RLock()
	var files, defsLen, defsCap, codeLen, codeCap, ndefs int
	var st codeListStats
	for _, r := range ix.Files {
		if r == nil {
			continue
		}
		files++
		defsLen += len(r.Recs.Get(ix.DefsKind))
		defsCap += cap(r.Recs.Get(ix.DefsKind))
		codeLen += len(r.Recs.Get(ix.CodeKind))
		codeCap += cap(r.Recs.Get(ix.CodeKind))
		ndefs += st.add(r.Recs.Get(ix.CodeKind))
	}
	t.Logf("head+lens %d, word tables %d (%d words), lists %d: %d entries, %d with a mask byte, %d deltas >= 64", st.head, st.table, st.words, st.lists, st.entries, st.masked, st.wide)
	p := func(name string, q *index.Postings) {
		blocks := 0
		for _, blk := range q.Blocks {
			blocks += cap(blk)
		}
		t.Logf("%s: %d blocks of %d bytes (%d B of slices) head %d pool %d (bytes)", name, len(q.Blocks), blocks, 24*cap(q.Blocks), 8*cap(q.Head.Slots), 4*cap(q.Pool))
	}
	t.Logf("files %d defs %d; defs records %d (cap %d); code records %d (cap %d) = %.1f B/def", files, ndefs, defsLen, defsCap, codeLen, codeCap, float64(codeLen)/float64(ndefs))
	p("wordPost", &ix.WordPost)
	p("defines", (&ix.KindPost[ix.DefsKind]))
	p("codePost", ix.Post)
	only, onlyBytes := 0, 0
	var b1, b2, b3 []uint32
	for id := range ix.Words.Len() {
		b1 = ix.Post.List(uint32(id), b1[:0])
		b2 = ix.WordPost.List(uint32(id), b2[:0])
		b3 = (&ix.KindPost[ix.DefsKind]).List(uint32(id), b3[:0])
		if len(b1) > 0 && len(b2) == 0 && len(b3) == 0 {
			only++
			onlyBytes += len(ix.Words.View().Str(uint32(id)))
		}
	}
	t.Logf("code-only strings %d (%d bytes)", only, onlyBytes)
	strs := ix.Words.View()
	t.Logf("vocab %d strings, refs %d B, chunks %d", strs.Len(), 5*len(strs.Pages)<<index.RefPageBits+8*len(strs.Big), len(strs.Chunks))
	ix.Mu.RUnlock()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("heap in use %d MiB, sys %d MiB", ms.HeapInuse>>20, ms.Sys>>20)
}

// codeListStats sums up what find_code's records are made of.
type codeListStats struct {
	head, table, lists, words int
	entries, masked, wide     int
}

// add counts rec in and returns its definitions.
func (st *codeListStats) add(rec []byte) int {
	if len(rec) == 0 {
		return 0
	}
	rd := diskcache.NewReader(rec)
	nd := readCodeHead(rd).defs
	at, _ := codeTerms(rec, func(uint32, int, bool) { st.words++ })
	st.head += rd.Offset() + 2*nd
	st.table += at - rd.Offset() - 2*nd
	st.lists += len(rec) - at
	lr := diskcache.NewReader(rec[at:])
	for !lr.Done() && lr.Err() == nil {
		e := lr.Uvarint()
		if e&1 != 0 {
			lr.Byte()
			st.masked++
		}
		if e>>1 >= 64 {
			st.wide++
		}
		st.entries++
	}
	return nd
}
