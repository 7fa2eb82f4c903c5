package search

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/index"
)

var (
	goSrcIndexOnce sync.Once
	goSrcIndex     *Index
)

// indexGoSrc builds (once per test binary) the index of the Go standard
// library, watched as the server does, without a disk cache.
func indexGoSrc(b *testing.B) *Index {
	dir := fixture.GoSrc(b)
	goSrcIndexOnce.Do(func() {
		root, err := OpenRoot(dir)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		ix := NewIndex(root, index.Options{CacheFile: "-"})
		ix.Start(context.Background())
		<-ix.Ready()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		_, _, n := ix.Progress()
		fmt.Printf("index of %s: %d files in %v, heap in use %d MB\n", dir, n, time.Since(start).Round(time.Millisecond), ms.HeapInuse>>20)
		goSrcIndex = ix
	})
	if goSrcIndex == nil {
		b.Skip("no index")
	}
	return goSrcIndex
}

var benchNames = []string{"err", "String", "Reader", "Errorf", "Mutex", "TrimSpace", "ServeHTTP", "ParseFloat", "ReadMemStats", "gcMarkDone", "readvarint", "ParseMediaType"}

// BenchmarkIndexFindSymbolGoSrc is find_symbol on the index of the Go
// standard library, once complete: one op asks every name of benchNames.
func BenchmarkIndexFindSymbolGoSrc(b *testing.B) {
	ix := indexGoSrc(b)
	ctx := context.Background()
	for b.Loop() {
		for _, n := range benchNames {
			if _, err := ix.Symbols(ctx, ParseSymbolQuery(n)); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(benchNames)), "µs/call")
}

// BenchmarkIndexFindReferencesGoSrc is find_references on the same index.
func BenchmarkIndexFindReferencesGoSrc(b *testing.B) {
	ix := indexGoSrc(b)
	ctx := context.Background()
	for b.Loop() {
		for _, n := range benchNames {
			if _, err := ix.References(ctx, n, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(benchNames)), "µs/call")
}

var benchCodeQueries = []string{"parse a floating point number", "read the header of a gzip stream", "format an error message", "compare two strings ignoring case", "serve an http request", "wait for a goroutine to finish"}

// BenchmarkIndexFindCodeGoSrc is find_code on the same index: one op
// asks every query of benchCodeQueries.
func BenchmarkIndexFindCodeGoSrc(b *testing.B) {
	ix := indexGoSrc(b)
	ctx := context.Background()
	for b.Loop() {
		for _, q := range benchCodeQueries {
			if _, err := ix.Code(ctx, q, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(benchCodeQueries)), "µs/call")
}

// BenchmarkPostingsGoSrc lists every key's files of the same index's
// three postings: one op reads every list once.
func BenchmarkPostingsGoSrc(b *testing.B) {
	ix := indexGoSrc(b)
	ix.Mu.RLock()
	defer ix.Mu.RUnlock()
	n := uint32(ix.Words.Len())
	var buf []uint32
	for b.Loop() {
		for _, p := range []*index.Postings{&ix.WordPost, ix.defines, ix.code.Post} {
			for k := range n {
				buf = p.List(k, buf[:0])
			}
		}
	}
}
