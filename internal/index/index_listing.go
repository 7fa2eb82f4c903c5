package index

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/internal/watch"
)

// ErrStillListing is Listing's error when the deadline came before the
// build's walk had listed the project's files.
var ErrStillListing = errors.New("the project's files are still being listed")

// ErrWordsReady is Listing's error when the word index came in after the
// caller found it missing: the caller answers from it instead (a listing
// then would be a walk and a direct search of every file: on the Go tree
// a call made as the word pass ended took 4.1 s, past the answer's
// bound).
var ErrWordsReady = errors.New("the word index is in")

// maxListChanges is how many changed paths a listing applies to the
// build's walk; past it, a walk of its own is quicker.
const maxListChanges = 1000

// A Listing is the project's files as a call answered before the word
// index sees them: as a walk would list them now, in path order, and for
// each the index of the same file in the build's walk when what the
// build learnt of it (its word pass, Pass) may still hold.
type Listing struct {
	Files []project.Entry
	// At[k] is Files[k]'s index in the build's walk, -1 when it is not
	// there or changed since; nil when Files is the build's walk itself.
	At []int32
	// Watched: the watcher vouches that the files at their walk's index
	// have not changed since the walk; else a file is trusted only while
	// its stat proves it unchanged (not racy).
	Watched bool
	// Pass is the build's word pass over its walk (nil: none), and WalkN
	// how many files the walk has (0: none to refer to).
	Pass  *WordPass
	WalkN int
}

// Listing lists the project's files for a call answered before the word
// index. On a large project a walk takes seconds, and the build is
// walking already: the call waits for the build's walk and applies what
// the watcher saw change since (the watcher starts before the walk, and
// its changes are not taken until the word index is in), instead of
// walking beside it. Without a watcher, or when the watcher lost events,
// it walks, and matches its files with the build's by path and stat.
//
// The wait for the build's walk ends at deadline (none when zero): on a
// large tree on a busy machine the walk alone can take longer than a
// call may (the Linux kernel's 86,000 files: 1.5 s quiet, over 4 s at a
// load of 10), and a call is answered in time rather than complete. The
// error is then ErrStillListing.
//
// walked, when set, is called with the build's walk while the build
// keeps it (before the word index is in), under the lock WordsDone is
// called under. Once the word index is in, the error is ErrWordsReady.
func (ix *Index) Listing(ctx context.Context, deadline time.Time, walked func([]project.Entry)) (*Listing, error) {
	walk := func(build []project.Entry, pass *WordPass) (*Listing, error) {
		files, err := ix.proj.Walk(ctx)
		if err != nil {
			return nil, fmt.Errorf("walk %s: %w", ix.proj.Dir, err)
		}
		l := &Listing{Files: files, At: make([]int32, len(files)), Pass: pass, WalkN: len(build)}
		j := 0
		for k := range files {
			for j < len(build) && build[j].Path < files[k].Path {
				j++
			}
			l.At[k] = -1
			if j < len(build) && build[j].Path == files[k].Path && build[j].Stat() == files[k].Stat() {
				l.At[k] = int32(j)
			}
		}
		return l, nil
	}
	if !ix.Started.Load() {
		return walk(nil, nil)
	}
	var timeUp <-chan time.Time
	select {
	case <-ix.Walk.wait():
		// Listed: no wait, even with the deadline past (a select of
		// several ready cases picks one at random).
	default:
		if !deadline.IsZero() {
			t := time.NewTimer(time.Until(deadline))
			defer t.Stop()
			timeUp = t.C
		}
	}
	select {
	case <-ix.Walk.wait():
	case <-ix.Ready():
		return walk(nil, nil)
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-timeUp:
		return nil, ErrStillListing
	}
	if !ix.Walk.OK {
		return walk(nil, nil)
	}
	// The index's first sync takes the changes, under syncMu, once the
	// word index is in; the build drops its walk then, under syncMu too.
	ix.syncMu.Lock()
	var ch watch.Changes
	files, words, pass := ix.Walk.Files, ix.WordsReady.Load(), ix.Pass.Load()
	if !words {
		if walked != nil {
			walked(files)
		}
		if ix.Watcher != nil {
			ch = ix.Watcher.Peek(ctx)
		}
	}
	ix.syncMu.Unlock()
	switch {
	case words:
		return nil, ErrWordsReady
	case ix.Watcher == nil || ch.Rescan || ch.IgnoreChanged || len(ch.Paths) > maxListChanges:
		return walk(files, pass)
	}
	l := ix.applyChanges(files, ch.Paths)
	l.Watched, l.Pass, l.WalkN = true, pass, len(files)
	return l, nil
}

// applyChanges returns the listing of files (the build's walk, in path
// order, not modified) with the paths the watcher reported (files or
// folders) listed as they are now: those at their walk's index, the
// changed ones at none.
func (ix *Index) applyChanges(files []project.Entry, paths []string) *Listing {
	if len(paths) == 0 {
		return &Listing{Files: files}
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
	type placed struct {
		e  project.Entry
		at int32
	}
	var added []placed
	for _, p := range paths {
		if e, ok := ix.Rules.Entry(p); ok {
			added = append(added, placed{e, -1})
		}
	}
	slices.SortFunc(added, func(a, b placed) int { return strings.Compare(a.e.Path, b.e.Path) })
	l := &Listing{Files: make([]project.Entry, 0, len(files)+len(added)), At: make([]int32, 0, len(files)+len(added))}
	push := func(e project.Entry, at int32) {
		if n := len(l.Files); n > 0 && l.Files[n-1].Path == e.Path {
			return
		}
		l.Files = append(l.Files, e)
		l.At = append(l.At, at)
	}
	for i := range files {
		for len(added) > 0 && added[0].e.Path < files[i].Path {
			push(added[0].e, -1)
			added = added[1:]
		}
		if !gone[i] {
			push(files[i], int32(i))
		}
	}
	for _, a := range added {
		push(a.e, -1)
	}
	return l
}
