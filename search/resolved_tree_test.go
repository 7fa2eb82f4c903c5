package search

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/index"
)

// TestResolvedTree times find_references of one definition (issue 45,
// item 5) on the project ZUMBA_RESOLVE_TREE (the Go tree's src), warm,
// from a complete index: each qualified name of ZUMBA_RESOLVE_NAMES
// ZUMBA_RESOLVE_ROUNDS times (default 9), the median and p99 over all
// calls; and the index's memory with and without the resolver's facts
// (ZUMBA_RESOLVE_MEM=1 builds it twice). scripts/resolve_bench.sh runs it.
func TestResolvedTree(t *testing.T) {
	dir := os.Getenv("ZUMBA_RESOLVE_TREE")
	if dir == "" {
		t.Skip("ZUMBA_RESOLVE_TREE is not set")
	}
	names := strings.Split(cmp.Or(os.Getenv("ZUMBA_RESOLVE_NAMES"),
		"File.Close,os.Open,Client.Do,json.Marshal,Decoder.Decode,Buffer.Write,bufio.Reader.ReadString,Request.Context,Server.Serve,strings.Builder.String,Value.Interface,Time.Before"), ",")
	rounds := 9
	if v := os.Getenv("ZUMBA_RESOLVE_ROUNDS"); v != "" {
		fmt.Sscan(v, &rounds)
	}
	if os.Getenv("ZUMBA_RESOLVE_MEM") != "" {
		without := treeHeap(t, dir, false)
		with := treeHeap(t, dir, true)
		t.Logf("index heap: %d MiB without the facts, %d MiB with them (+%.1f%%)", without>>20, with>>20, 100*float64(with-without)/float64(without))
	}
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(root, index.Options{CacheFile: "-", NoWatch: os.Getenv("ZUMBA_RESOLVE_WATCH") == ""})
	defer ix.Close()
	t0 := time.Now()
	ix.Build(context.Background())
	t.Logf("index built in %v", time.Since(t0))
	ctx := context.Background()
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapInuse
	}
	before := heap()
	var all []time.Duration
	cache := &ParseCache{}
	for _, n := range names {
		var ds []time.Duration
		var res *Resolved
		for range rounds {
			t0 := time.Now()
			res, err = ix.Resolved(ctx, ResolveQuery{Name: n}, cache)
			if err != nil {
				t.Fatal(err)
			}
			ds = append(ds, time.Since(t0))
		}
		all = append(all, ds[1:]...)
		slices.Sort(ds)
		where := ""
		if len(res.Targets) > 0 {
			where = fmt.Sprintf("%s:%d", res.Targets[0].Path, res.Targets[0].Line)
		}
		t.Logf("%-24s %-40s %5d uses %5d through %4d not resolved; first %v, median %v", n, where, res.Uses, res.Through, res.Unresolved, ds[len(ds)-1], ds[len(ds)/2])
	}
	t.Logf("heap in use %d MiB before the calls, %d MiB after (the resolver's decoded facts and memos, of %d KiB of records); %s",
		before>>20, heap()>>20, ix.resolve.decoded.Load()>>10, procStatus("VmRSS", "VmHWM"))
	slices.Sort(all)
	t.Logf("warm resolved find_references, %d calls: median %v (goal 20 ms), p99 %v (goal 100 ms)", len(all), all[len(all)/2], all[len(all)*99/100])
}

// treeHeap builds the index of dir, with or without the resolver's
// record kind, and returns the heap it holds once complete.
func treeHeap(t *testing.T, dir string, facts bool) uint64 {
	defer func(v bool) { noFacts = v }(noFacts)
	noFacts = !facts
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(root, index.Options{CacheFile: "-", NoWatch: true})
	t0 := time.Now()
	ix.Build(context.Background())
	built := time.Since(t0)
	ix.names.prepare(ix)
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("facts %v: built in %v, heap in use %d MiB", facts, built.Round(time.Millisecond), ms.HeapInuse>>20)
	runtime.KeepAlive(ix)
	ix.Close()
	return ms.HeapInuse
}
