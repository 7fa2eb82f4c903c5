package projmap

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/index"
)

// TestMapTree times the map of the folder ZUMBA_MAP_TREE names (the Linux
// kernel's sources, say) from a complete index, five times, and logs the
// median (issue 28: the Linux tree's map within 1 s). ZUMBA_MAP_CACHE
// names a cache file to keep the index between runs.
func TestMapTree(t *testing.T) {
	dir := os.Getenv("ZUMBA_MAP_TREE")
	if dir == "" {
		t.Skip("ZUMBA_MAP_TREE is not set")
	}
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	cache := os.Getenv("ZUMBA_MAP_CACHE")
	if cache == "" {
		cache = "-"
	}
	ix := newIndex(root, index.Options{CacheFile: cache, NoWatch: true})
	defer ix.Close()
	t0 := time.Now()
	ix.Build(context.Background())
	t.Logf("index built in %v", time.Since(t0))
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	a0, c0 := ms.TotalAlloc, fixture.CPUTime()
	time.Sleep(time.Second)
	runtime.ReadMemStats(&ms)
	t.Logf("heap after GC %.0f MB; in 1 s idle: allocated %.1f MB, CPU %v", float64(ms.HeapAlloc)/1e6, float64(ms.TotalAlloc-a0)/1e6, fixture.CPUTime()-c0)
	// Map syncs first: without a watcher (NoWatch) it sweeps the tree,
	// which a server's watcher spares it; the map itself is timed apart.
	time5(t, "Map(.) (a sweep of the tree included) and Select", func() *Map {
		m, err := ix.Map(context.Background(), ".")
		if err != nil {
			t.Fatal(err)
		}
		if m.Building {
			t.Fatal("map of a complete index says it is building")
		}
		return m
	})
	time5(t, "the map of . from the index and Select", func() *Map {
		ix.Mu.RLock()
		defer ix.Mu.RUnlock()
		return ix.mapLocked(".", mapStreamAbove, mapKeep)
	})
}

// time5 times the map made by mk and its selection five times and logs
// the medians of the time, the CPU time and the memory allocated.
func time5(t *testing.T, what string, mk func() *Map) {
	var ms runtime.MemStats
	var ds, cs []time.Duration
	var allocs, mapAllocs []uint64
	for range 5 {
		runtime.ReadMemStats(&ms)
		a0 := ms.TotalAlloc
		t0, c0 := time.Now(), fixture.CPUTime()
		m := mk()
		runtime.ReadMemStats(&ms)
		mapAllocs = append(mapAllocs, ms.TotalAlloc-a0)
		if _, err := m.Select(context.Background(), 8000, 400, treeSizer{}); err != nil {
			t.Fatal(err)
		}
		ds, cs = append(ds, time.Since(t0)), append(cs, fixture.CPUTime()-c0)
		runtime.ReadMemStats(&ms)
		allocs = append(allocs, ms.TotalAlloc-a0)
		if len(ds) == 1 {
			t.Logf("%d definitions kept: %s", len(m.defs), m.keptStats())
		}
	}
	for _, s := range [][]time.Duration{ds, cs} {
		slices.Sort(s)
	}
	for _, s := range [][]uint64{allocs, mapAllocs} {
		slices.Sort(s)
	}
	t.Logf("%s: median %v, CPU time median %v (all %v); allocated median %.1f MB (the map %.1f MB)",
		what, ds[2], cs[2], ds, float64(allocs[2])/1e6, float64(mapAllocs[2])/1e6)
}

// treeSizer sizes the map's lines roughly as the server writes them.
type treeSizer struct{}

func (treeSizer) FileLine(p string) int { return len(p) + 1 }
func (treeSizer) DefLine(d *Def, depth int, sig bool) int {
	return 2*depth + 20 + len(d.Name) + len(d.Text)
}
func (treeSizer) FolderLine(f Folder) int { return len(f.Path) + 30 }

func (m *Map) keptStats() string {
	scores := make([]float32, 0, len(m.defs))
	for _, d := range m.defs {
		if !d.again {
			scores = append(scores, d.score)
		}
	}
	slices.Sort(scores)
	slices.Reverse(scores)
	floor := scores[min(len(scores)-1, mapKeep-1)]
	above := 0
	for _, s := range scores {
		if s >= floor {
			above++
		}
	}
	return fmt.Sprintf("floor %.2f, %d at or above it, %d files with entries, cap %d", floor, above, len(m.entries), cap(m.defs))
}
