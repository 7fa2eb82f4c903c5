// Package parsecache keeps what parsing a file gave, keyed on the file's
// path and stat, under the one rule every cache of file contents follows
// (filestat.Stat.Unchanged): an entry serves while the file's stat is the
// one it was computed at and the file was not modified within
// filestat.RacyWindow of that. The outline tool keeps its answers in one,
// and find_references and read_symbol share another's parses.
//
// Calls for a file that is being computed wait for that computation
// instead of parsing the file again: a client that retries after its
// timeout, or several agents asking for one file, add no work to a busy
// server.
package parsecache

import (
	"cmp"
	"context"
	"errors"
	"sync"

	"github.com/zumba-dev/zumba/internal/filestat"
)

// DefaultMax is how many files a Cache keeps when its Max is 0.
const DefaultMax = 2048

// Cache keeps values of type V by file. The zero value is ready to use;
// a nil *Cache keeps nothing and computes every value. It is safe for
// concurrent use.
type Cache[V any] struct {
	// Max bounds the files kept (0: DefaultMax); past it the cache starts
	// again.
	Max int

	mu      sync.Mutex
	m       map[string]entry[V]
	running map[key]*call[V]
}

type entry[V any] struct {
	st filestat.Stat
	at int64
	v  V
}

// key is a file as it was when its value's computation started.
type key struct {
	path string
	st   filestat.Stat
}

// call is a value being computed; done is closed when v and cancelled
// are set.
type call[V any] struct {
	done chan struct{}
	v    V
	// cancelled: the computing call's own client cancelled it, so its
	// value is not the file's.
	cancelled bool
}

// Get returns the value of the file at path, whose stat st was taken at
// time at (Unix nanoseconds) before its bytes were read: the cached one
// while the file is unchanged, else compute's. compute runs once for
// concurrent calls of one file at one stat (unless its own context was
// cancelled, when each waiting call computes its own); keep=false leaves
// its value out of the cache (a failure, an answer cut short by the
// time it had). A file modified within the racy window is computed by
// each call. err is ctx's when it ended while waiting for another call.
func (c *Cache[V]) Get(ctx context.Context, path string, st filestat.Stat, at int64, compute func() (v V, keep bool)) (V, error) {
	if c == nil {
		v, _ := compute()
		return v, nil
	}
	c.mu.Lock()
	e, ok := c.m[path]
	c.mu.Unlock()
	if ok && st.Unchanged(e.st, e.at) {
		return e.v, nil
	}
	if st.RacyAt(at) {
		// A file modified within the racy window may change again without
		// its stat changing: it is computed by each call (and its entry,
		// kept, serves no later one).
		v, _ := c.compute(path, st, at, compute)
		return v, nil
	}
	k := key{path, st}
	c.mu.Lock()
	if running, ok := c.running[k]; ok {
		c.mu.Unlock()
		select {
		case <-running.done:
			if !running.cancelled {
				return running.v, nil
			}
			v, _ := c.compute(path, st, at, compute)
			return v, nil
		case <-ctx.Done():
			var zero V
			return zero, ctx.Err()
		}
	}
	running := &call[V]{done: make(chan struct{})}
	if c.running == nil {
		c.running = map[key]*call[V]{}
	}
	c.running[k] = running
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.running, k)
		c.mu.Unlock()
		close(running.done)
	}()
	running.v, _ = c.compute(path, st, at, compute)
	running.cancelled = errors.Is(ctx.Err(), context.Canceled)
	return running.v, nil
}

// compute runs compute and caches its value when it says to keep it.
func (c *Cache[V]) compute(path string, st filestat.Stat, at int64, compute func() (V, bool)) (V, bool) {
	v, keep := compute()
	if keep {
		c.mu.Lock()
		if c.m == nil || len(c.m) >= cmp.Or(c.Max, DefaultMax) {
			c.m = map[string]entry[V]{}
		}
		c.m[path] = entry[V]{st: st, at: at, v: v}
		c.mu.Unlock()
	}
	return v, keep
}

// Len is how many files the cache keeps.
func (c *Cache[V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Peek is the value kept for path, fresh or not: for tests.
func (c *Cache[V]) Peek(path string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[path]
	return e.v, ok
}
