//go:build unix

package search

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/outline"
)

// benchCache builds a cache shaped like the Go standard library's: 12,000
// files, each with 250 distinct identifiers drawn from a Zipf-distributed
// vocabulary of 340,000 (what a scan of GOROOT/src finds: 243 per file,
// 338k in all, 7 bytes long on average) and 20 definitions.
func benchCache(b *testing.B) (*DiskCache, map[string]FileStat) {
	b.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	zipf := rand.NewZipf(rng, 1.1, 8, 340_000-1)
	vocab := make([]string, 340_000)
	for i := range vocab {
		vocab[i] = "id" + strconv.FormatUint(uint64(i)*2654435761%1_000_003, 36)
	}
	c := OpenDiskCache(filepath.Join(b.TempDir(), "files"), "/proj", testProducer)
	stats := map[string]FileStat{}
	for f := range 12_000 {
		rel := fmt.Sprintf("pkg%03d/sub%d/file%05d.go", f/40, f%3, f)
		seen := map[string]bool{}
		var rec CacheRecord
		for len(rec.Words) < 250 {
			w := vocab[zipf.Uint64()]
			if !seen[w] {
				seen[w] = true
				rec.Words = append(rec.Words, w)
			}
		}
		for s := range 20 {
			name := rec.Words[50+s]
			rec.Definitions = append(rec.Definitions, outline.Definition{
				Name: name, Qualified: []string{"T", name}, Kind: grammar.Method,
				Line: 10 + s*30, Start: 8 + s*30, End: 30 + s*30,
			})
		}
		st := FileStat{Size: int64(5000 + f), MTime: oldTime + int64(f), Inode: uint64(f)}
		stats[rel] = st
		c.Put(rel, st, rec)
	}
	return c, stats
}

// cpuTimer reports the process's CPU time per operation beside the wall
// time, which on a machine shared with other work says more.
type cpuTimer struct{ start int64 }

func cpuNow() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func startCPU(b *testing.B) *cpuTimer {
	b.ResetTimer()
	return &cpuTimer{start: cpuNow()}
}

func (t *cpuTimer) report(b *testing.B) {
	b.ReportMetric(float64(cpuNow()-t.start)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkDiskCacheLoad12k measures a restart: reading, checking and
// indexing the cache file of 12,000 files.
func BenchmarkDiskCacheLoad12k(b *testing.B) {
	c, _ := benchCache(b)
	if err := c.Save(); err != nil {
		b.Fatal(err)
	}
	if fi, err := os.Stat(c.File()); err == nil {
		b.Logf("cache file: %d bytes", fi.Size())
	}
	cpu := startCPU(b)
	defer cpu.report(b)
	for b.Loop() {
		c2 := OpenDiskCache(c.File(), "/proj", testProducer)
		if c2.Discarded() != nil || c2.Len() != 12_000 {
			b.Fatal(c2.Discarded(), c2.Len())
		}
	}
}

// BenchmarkDiskCacheLoadLookupAll12k is a restart plus one Lookup (decode)
// of every record, what rebuilding the index from the cache costs.
func BenchmarkDiskCacheLoadLookupAll12k(b *testing.B) {
	c, stats := benchCache(b)
	if err := c.Save(); err != nil {
		b.Fatal(err)
	}
	cpu := startCPU(b)
	defer cpu.report(b)
	for b.Loop() {
		c2 := OpenDiskCache(c.File(), "/proj", testProducer)
		for rel, st := range stats {
			if _, ok := c2.Lookup(rel, st); !ok {
				b.Fatal("miss", rel)
			}
		}
	}
}

// BenchmarkDiskCacheLoadLookupIDs12k is the same with word ids, the way
// an index that interns words itself would rebuild.
func BenchmarkDiskCacheLoadLookupIDs12k(b *testing.B) {
	c, stats := benchCache(b)
	if err := c.Save(); err != nil {
		b.Fatal(err)
	}
	cpu := startCPU(b)
	defer cpu.report(b)
	for b.Loop() {
		c2 := OpenDiskCache(c.File(), "/proj", testProducer)
		for rel, st := range stats {
			if _, _, ok := c2.LookupIDs(rel, st); !ok {
				b.Fatal("miss", rel)
			}
		}
	}
}

// BenchmarkDiskCacheFirstSave12k is the first save: every record put.
func BenchmarkDiskCacheFirstSave12k(b *testing.B) {
	c, _ := benchCache(b)
	cpu := startCPU(b)
	defer cpu.report(b)
	for b.Loop() {
		c.gen++
		if err := c.Save(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDiskCacheResave12k is a later save: the cache loaded, 100
// files changed, saved again (with unused strings dropped).
func BenchmarkDiskCacheResave12k(b *testing.B) {
	c, stats := benchCache(b)
	if err := c.Save(); err != nil {
		b.Fatal(err)
	}
	c2 := OpenDiskCache(c.File(), "/proj", testProducer)
	n := 0
	for rel, st := range stats {
		rec, _ := c2.Lookup(rel, st)
		rec.Words = append(rec.Words[:len(rec.Words):len(rec.Words)], "changed_"+rel)
		st.Size++
		c2.Put(rel, st, rec)
		if n++; n == 100 {
			break
		}
	}
	cpu := startCPU(b)
	defer cpu.report(b)
	for b.Loop() {
		c2.gen++
		if err := c2.Save(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDiskCachePut12k is the cost of recording every file once, as
// the first full index does.
func BenchmarkDiskCachePut12k(b *testing.B) {
	c, stats := benchCache(b)
	recs := map[string]CacheRecord{}
	for rel, st := range stats {
		recs[rel], _ = c.Lookup(rel, st)
	}
	cpu := startCPU(b)
	defer cpu.report(b)
	for b.Loop() {
		c2 := OpenDiskCache(filepath.Join(b.TempDir(), "files"), "/proj", testProducer)
		for rel, st := range stats {
			c2.Put(rel, st, recs[rel])
		}
	}
}
