package parsecache

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/filestat"
)

// old is a stat whose file was last modified long before it was read.
var old = filestat.Stat{Size: 10, MTime: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano(), Inode: 1}

// TestGet: a value serves while the file's stat is unchanged and was not
// racy when it was read; another stat, a racy one, or keep=false
// computes it again.
func TestGet(t *testing.T) {
	var c Cache[int]
	ctx := context.Background()
	now := time.Now().UnixNano()
	n := 0
	compute := func(keep bool) func() (int, bool) {
		return func() (int, bool) { n++; return n, keep }
	}
	get := func(st filestat.Stat, keep bool) int {
		v, err := c.Get(ctx, "a.go", st, now, compute(keep))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := get(old, true); v != 1 {
		t.Fatalf("first Get = %d; want 1", v)
	}
	if v := get(old, true); v != 1 {
		t.Errorf("unchanged file: Get = %d; want the kept 1", v)
	}
	changed := old
	changed.CTime++
	if v := get(changed, true); v != 2 {
		t.Errorf("changed file: Get = %d; want 2", v)
	}
	racy := old
	racy.MTime = now
	get(racy, true)
	if v := get(racy, true); v != 4 {
		t.Errorf("racy file: Get = %d; want it computed again (4)", v)
	}
	if v := get(old, false); v != 5 {
		t.Errorf("after a changed stat: Get = %d; want 5", v)
	}
	if v := get(old, true); v != 6 {
		t.Errorf("after keep=false: Get = %d; want 6 (nothing was kept)", v)
	}
	var none *Cache[int]
	if v, _ := none.Get(ctx, "a.go", old, now, compute(true)); v != 7 {
		t.Errorf("nil cache: Get = %d; want 7", v)
	}
	small := Cache[int]{Max: 2}
	for _, p := range []string{"a", "b", "c"} {
		small.Get(ctx, p, old, now, compute(true))
	}
	if small.Len() > 2 {
		t.Errorf("Max 2: %d files kept", small.Len())
	}
}

// TestGetOnce: concurrent calls for one file at one stat compute it once
// (a call that starts late finds it kept);
// when the computing call's own client cancels it, the others compute
// their own.
func TestGetOnce(t *testing.T) {
	var c Cache[int]
	var n atomic.Int32
	release := make(chan struct{})
	compute := func() (int, bool) {
		<-release
		return int(n.Add(1)), true
	}
	var wg sync.WaitGroup
	got := make([]int, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = c.Get(context.Background(), "a.go", old, time.Now().UnixNano(), compute)
		}()
	}
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	if n.Load() != 1 {
		t.Errorf("computed %d times for 8 concurrent calls; want once", n.Load())
	}

	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	block := make(chan struct{})
	go c.Get(ctx, "b.go", old, time.Now().UnixNano(), func() (int, bool) {
		close(started)
		<-block
		return -1, false
	})
	<-started
	done := make(chan int)
	go func() {
		v, _ := c.Get(context.Background(), "b.go", old, time.Now().UnixNano(), func() (int, bool) { return 42, false })
		done <- v
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	close(block)
	if v := <-done; v != 42 {
		t.Errorf("after the computing call was cancelled, Get = %d; want its own 42", v)
	}

	// A waiting call whose own context ends gets its error.
	block2 := make(chan struct{})
	started2 := make(chan struct{})
	go c.Get(context.Background(), "c.go", old, time.Now().UnixNano(), func() (int, bool) {
		close(started2)
		<-block2
		return 0, false
	})
	<-started2
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer wcancel()
	if _, err := c.Get(wctx, "c.go", old, time.Now().UnixNano(), func() (int, bool) { return 0, false }); err == nil {
		t.Error("a waiting call past its deadline: no error")
	}
	close(block2)
}
