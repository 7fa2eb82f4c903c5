package search

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/zumba-dev/zumba/internal/filestat"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/internal/watch"
)

// buildWalk is the list of files the build's walk made, for the calls
// answered before the word index.
type buildWalk struct {
	once  sync.Once
	done  chan struct{}
	files []project.Entry
	ok    bool
}

func (b *buildWalk) wait() chan struct{} {
	b.once.Do(func() { b.done = make(chan struct{}) })
	return b.done
}

// set is called once, when the walk ends (ok: it was not stopped).
func (b *buildWalk) set(files []project.Entry, ok bool) {
	b.files, b.ok = files, ok
	close(b.wait())
}

// maxColdChanges is how many changed paths coldFiles applies to the
// build's walk; past it, a walk of its own is quicker.
const maxColdChanges = 1000

// coldFiles lists the project's files, as Walk would now, for a call
// answered before the word index. On a large project a walk takes
// seconds, and the build is walking already: the call waits for the
// build's walk and applies what the watcher saw change since (the watcher
// starts before the walk, and its changes are not taken until the word
// index is in), instead of walking beside it. Without a watcher, or when
// the watcher lost events, it walks.
func (ix *Index) coldFiles(ctx context.Context) ([]project.Entry, error) {
	walk := func() ([]project.Entry, error) {
		files, err := ix.root.Walk(ctx)
		if err != nil {
			return nil, fmt.Errorf("walk %s: %w", ix.root.Dir, err)
		}
		return files, nil
	}
	if !ix.started.Load() {
		return walk()
	}
	select {
	case <-ix.walk.wait():
	case <-ix.ready:
		return walk()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if !ix.walk.ok || ix.watcher == nil {
		return walk()
	}
	// The index's first sync takes the changes, under syncMu, once the
	// word index is in; the build drops its walk then, under syncMu too.
	ix.syncMu.Lock()
	var ch watch.Changes
	files, words := ix.walk.files, ix.wordsReady.Load()
	if !words {
		ch = ix.watcher.Peek(ctx)
	}
	ix.syncMu.Unlock()
	if words || ch.Rescan || ch.IgnoreChanged || len(ch.Paths) > maxColdChanges {
		return walk()
	}
	return ix.applyChanges(files, ch.Paths), nil
}

// dropWalk forgets the build's walk once the word index answers (on
// the Linux kernel its entries hold 10 MB).
func (ix *Index) dropWalk() {
	ix.syncMu.Lock()
	ix.walk.files = nil
	ix.syncMu.Unlock()
}

// applyChanges returns files (in path order, not modified) with the paths
// the watcher reported (files or folders) listed as they are now.
func (ix *Index) applyChanges(files []project.Entry, paths []string) []project.Entry {
	if len(paths) == 0 {
		return files
	}
	// A path names a file, or a folder and everything under it.
	gone := make([]bool, len(files))
	for _, c := range paths {
		i, _ := slices.BinarySearchFunc(files, c, func(e project.Entry, p string) int { return strings.Compare(e.Path, p) })
		if i < len(files) && files[i].Path == c {
			gone[i] = true
		}
		dir := c + "/"
		i, _ = slices.BinarySearchFunc(files, dir, func(e project.Entry, p string) int { return strings.Compare(e.Path, p) })
		for ; i < len(files) && strings.HasPrefix(files[i].Path, dir); i++ {
			gone[i] = true
		}
	}
	out := make([]project.Entry, 0, len(files)+len(paths))
	for i, e := range files {
		if !gone[i] {
			out = append(out, e)
		}
	}
	for _, p := range paths {
		if e, ok := ix.rules.Entry(p); ok {
			out = append(out, e)
		}
	}
	return sortByPath(out)
}

// coldSymbols remembers, for the last find_symbol query answered before
// the word index was built, the files found unable to answer it, with
// their stat when read. On a large project a direct search does not get
// through every file within a call's time limit, and a client asks again
// while the answer is partial: the next call for the same query searches
// only the files not known, and the files changed since (a different
// stat, or one too close to the read to prove the file unchanged), so
// that repeated calls complete instead of each starting over.
type coldSymbols struct {
	mu    sync.Mutex
	key   coldKey
	files map[string]coldFile
}

// coldKey is what decides whether a file can answer a query.
type coldKey struct{ needle, fold string }

type coldFile struct {
	st     filestat.Stat
	readAt int64
}

func (c *coldSymbols) symbols(ctx context.Context, files []project.Entry, src project.Source, q SymbolQuery, deadline time.Time) (*SymbolResult, error) {
	key := coldKey{string(q.needle), string(q.foldNeedle)}
	c.mu.Lock()
	if c.files == nil || c.key != key {
		c.key, c.files = key, map[string]coldFile{}
	}
	known := c.files
	rest := make([]project.Entry, 0, len(files))
	for _, e := range files {
		if f, ok := known[e.Path]; ok && e.Stat().Unchanged(f.st, f.readAt) {
			continue
		}
		rest = append(rest, e)
	}
	c.mu.Unlock()
	res, err := symbolsNoting(ctx, rest, src, q, q.limit(), deadline, func(e project.Entry, readAt int64) {
		c.mu.Lock()
		known[e.Path] = coldFile{e.Stat(), readAt}
		c.mu.Unlock()
	})
	if err != nil {
		return nil, err
	}
	res.Searched += len(files) - len(rest)
	res.Files = len(files)
	return res, nil
}

// drop forgets the files once the word index answers.
func (c *coldSymbols) drop() {
	c.mu.Lock()
	c.files = nil
	c.mu.Unlock()
}
