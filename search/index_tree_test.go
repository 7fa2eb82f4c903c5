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

// TestIndexTree times the warm find_references and find_symbol of the
// project ZUMBA_INDEX_TREE names (the Linux kernel's sources: issue 42's
// item 4) from a complete index, kept between runs in the cache file
// ZUMBA_INDEX_CACHE, asking each name of ZUMBA_INDEX_NAMES (default
// "ret,dev,tcp_v4_connect") ZUMBA_INDEX_ROUNDS times (default 7); with
// ZUMBA_INDEX_WANT naming a file, it checks that the answers are those the
// file holds (written there when it does not exist). Run it with
// -cpuprofile to see where the calls' time goes. With ZUMBA_INDEX_PRODUCER
// set, the cache is that producer's (see cacheProducer): test binaries that
// change no format share it.
func TestIndexTree(t *testing.T) {
	dir := os.Getenv("ZUMBA_INDEX_TREE")
	if dir == "" {
		t.Skip("ZUMBA_INDEX_TREE is not set")
	}
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	cache := os.Getenv("ZUMBA_INDEX_CACHE")
	if cache == "" {
		cache = "-"
	}
	names := strings.Split(cmp.Or(os.Getenv("ZUMBA_INDEX_NAMES"), "ret,dev,tcp_v4_connect"), ",")
	if p := os.Getenv("ZUMBA_INDEX_PRODUCER"); p != "" {
		// Builds of the same formats share the cache (see cacheProducer).
		defer func(f func() string) { index.CacheProducer = f }(index.CacheProducer)
		index.CacheProducer = func() string { return p }
	}
	rounds := 7
	if v := os.Getenv("ZUMBA_INDEX_ROUNDS"); v != "" {
		fmt.Sscan(v, &rounds)
	}
	ix := NewIndex(root, index.Options{CacheFile: cache, NoWatch: os.Getenv("ZUMBA_INDEX_WATCH") == ""})
	defer ix.Close()
	t0 := time.Now()
	ix.Build(context.Background())
	t.Logf("index built in %v", time.Since(t0))
	// The names' text is made in the background once the index is
	// complete: waited for, so that the calls below do not time it.
	ix.names.prepare(ix)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("heap in use %d MiB; %s", ms.HeapInuse>>20, procStatus("VmRSS", "VmHWM"))
	ctx := context.Background()
	var answers strings.Builder
	timed := func(what, name string, call func() error) {
		var ds []time.Duration
		for range rounds {
			t0 := time.Now()
			if err := call(); err != nil {
				t.Fatal(err)
			}
			ds = append(ds, time.Since(t0))
		}
		slices.Sort(ds)
		t.Logf("%s %s: median %v, slowest %v", what, name, ds[len(ds)/2], ds[len(ds)-1])
	}
	for _, n := range names {
		var res *RefResult
		timed("find_references", n, func() (err error) {
			res, err = ix.References(ctx, n, nil)
			return err
		})
		fmt.Fprintf(&answers, "refs %s more=%v\n", n, res.More)
		for _, r := range res.Refs {
			fmt.Fprintf(&answers, "  %s:%d %s\n", r.Path, r.Line, r.Text)
		}
	}
	for _, n := range names {
		var res *SymbolResult
		timed("find_symbol", n, func() (err error) {
			res, err = ix.Symbols(ctx, ParseSymbolQuery(n))
			return err
		})
		fmt.Fprintf(&answers, "symbols %s fuzzy=%v more=%v building=%v\n", n, res.Fuzzy, res.More, res.Building)
		for _, d := range res.Defs {
			fmt.Fprintf(&answers, "  %s:%d %v %s %s\n", d.Path, d.Line, d.Kind, d.QualifiedName(), d.Text)
		}
	}
	if want := os.Getenv("ZUMBA_INDEX_WANT"); want != "" {
		b, err := os.ReadFile(want)
		if os.IsNotExist(err) {
			if err := os.WriteFile(want, []byte(answers.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != answers.String() {
			t.Errorf("answers differ from %s", want)
		}
	}
}

// procStatus returns the lines of /proc/self/status named, on one line.
func procStatus(names ...string) string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return ""
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		for _, n := range names {
			if strings.HasPrefix(l, n+":") {
				out = append(out, strings.Join(strings.Fields(l), " "))
			}
		}
	}
	return strings.Join(out, ", ")
}
