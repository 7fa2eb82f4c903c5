// Package watch reports what changed under a project folder, so that an
// index re-reads only those paths before an answer. It uses fsnotify
// (inotify on Linux) and needs nothing of the search but paths and stats.
package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// DefaultSyncTimeout bounds how long Changes waits for the watcher to
// catch up with the file system before it gives up and asks for a stat
// sweep, unless Options.SyncTimeout says otherwise.
const DefaultSyncTimeout = 250 * time.Millisecond

// Options tune a Watcher.
type Options struct {
	// Skip, called with a folder's project-relative path, says whether
	// the folder is ignored (left unwatched); nil watches every folder.
	// It is called from the watcher's goroutine, so it must be safe to
	// call concurrently with the caller's own use of the rules.
	Skip func(rel string) bool
	// SyncTimeout bounds each Changes call's wait for the event queue;
	// 0 means DefaultSyncTimeout. Tests on a loaded machine lengthen it,
	// since a rescan there says nothing about the watcher.
	SyncTimeout time.Duration
	// Deferred: Start watches no folder of the project; the caller's own
	// walk, which must follow at once, tells it each folder it is about
	// to read (Entering) and each that holds a .gitignore (HoldsIgnore).
	// The project is then walked once, not twice (on three Linux trees
	// the watcher's own walk took 0.45 s, before the walk a first call
	// waits for).
	Deferred bool
}

// Link is a symbolic link a walk of the project followed: Path is where
// it is listed, Real the project-relative path it resolves to. A change
// under Real is also a change under Path.
type Link struct{ Path, Real string }

// Watcher watches every folder of a project for changes, so that an index
// can bring itself up to date before each answer by re-reading only the
// paths that changed. It skips .git (but reports a change to
// .git/info/exclude) and the folders the caller's skip function names, and
// starts watching folders as they appear.
//
// Start the watcher before the first walk of the project: a change made
// during the walk is then reported, at worst twice.
type Watcher struct {
	root        string // real path of the project, absolute
	skip        func(rel string) bool
	syncTimeout time.Duration
	fw          *fsnotify.Watcher
	// addWatch is fw.Add; tests replace it to fail.
	addWatch func(abs string) error

	// barrier is a private folder watched with the project: a file created
	// there comes back through the same event queue after every event that
	// happened before it, which tells Changes that it has seen them all.
	// "" when it could not be made.
	barrier string
	// barrierMu orders the barrier's names; barrierFile is the one file
	// in it, renamed to b<seq> by each sync (a rename, unlike a new file,
	// allocates no inode: on ext4 that was most of a sync's cost).
	barrierMu   sync.Mutex
	barrierFile string

	mu          sync.Mutex
	dirty       map[string]struct{}
	rescan      bool // events were lost: the caller must sweep once
	degraded    bool // a folder is not watched: sweep until Resync mends it
	ignoreDirty bool
	dirs        map[string]bool // watched folders, "." for the root
	ignoreDirs  map[string]bool // folders holding a .gitignore
	// links are the links the last walk followed: a change at a link's
	// real path is also a change at every listed path that reaches it.
	links   []Link
	seq     uint64        // last barrier file made
	reached uint64        // last barrier file seen
	wake    chan struct{} // closed when reached moves

	notify chan struct{}
	done   chan struct{}
}

// Changes is what happened in the project since the previous call.
type Changes struct {
	// Paths are the project-relative paths ("/"-separated, sorted) created,
	// written, removed, renamed or re-permissioned. A path may name a
	// folder: a folder removed or renamed away takes everything under it,
	// and the files of a new folder are listed as well.
	Paths []string
	// Rescan means events may have been missed (the event queue
	// overflowed, a folder could not be watched, or the watcher did not
	// catch up in time): the caller must compare every file's stat with
	// what it knows (the index's sweep) instead of trusting Paths alone.
	Rescan bool
	// IgnoreChanged means a .gitignore or .git/info/exclude was created,
	// changed or removed (or a folder holding a .gitignore went away): the
	// ignore rules must be reloaded, and Resync called with them.
	IgnoreChanged bool
}

// Start starts watching the project folder root (its real path).
func Start(root string, opts Options) (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	skip := opts.Skip
	if skip == nil {
		skip = func(string) bool { return false }
	}
	timeout := opts.SyncTimeout
	if timeout <= 0 {
		timeout = DefaultSyncTimeout
	}
	w := &Watcher{
		root:        filepath.Clean(root),
		skip:        skip,
		syncTimeout: timeout,
		fw:          fw,
		addWatch:    fw.Add,
		dirty:       map[string]struct{}{},
		dirs:        map[string]bool{},
		ignoreDirs:  map[string]bool{},
		wake:        make(chan struct{}),
		notify:      make(chan struct{}, 1),
		done:        make(chan struct{}),
	}
	if dir, err := os.MkdirTemp("", "zumba-watch-"); err == nil {
		if fw.Add(dir) == nil {
			w.barrier = dir
		} else {
			os.Remove(dir)
		}
	}
	w.mu.Lock()
	if !opts.Deferred {
		err = w.addTree(".", false, false)
	}
	w.watchGit()
	w.mu.Unlock()
	if err != nil {
		fw.Close()
		if w.barrier != "" {
			os.RemoveAll(w.barrier)
		}
		return nil, err
	}
	go w.loop()
	return w, nil
}

// Close stops watching.
func (w *Watcher) Close() error {
	err := w.fw.Close()
	<-w.done
	if w.barrier != "" {
		os.RemoveAll(w.barrier)
	}
	return err
}

// Notify returns a channel that receives a value when changes are waiting,
// for a caller that wants to update ahead of the next request.
func (w *Watcher) Notify() <-chan struct{} { return w.notify }

// Changes returns what changed since the previous call, including every
// change made before this call began: it first waits (up to Options.SyncTimeout)
// for the watcher to have read all events the system has queued. When it
// cannot be sure of that, it sets Rescan.
func (w *Watcher) Changes(ctx context.Context) Changes {
	return w.changes(ctx, true)
}

// Peek is Changes without taking them: it returns the same, and leaves
// them for the next Changes call. A caller that holds an older listing
// of the project (a walk made after Start) can bring it up to date with
// it before its owner has taken any changes.
func (w *Watcher) Peek(ctx context.Context) Changes {
	return w.changes(ctx, false)
}

func (w *Watcher) changes(ctx context.Context, take bool) Changes {
	synced := w.sync(ctx)
	w.mu.Lock()
	defer w.mu.Unlock()
	ch := Changes{
		Rescan:        w.rescan || w.degraded || !synced,
		IgnoreChanged: w.ignoreDirty,
	}
	if len(w.dirty) > 0 {
		ch.Paths = make([]string, 0, len(w.dirty))
		for p := range w.dirty {
			ch.Paths = append(ch.Paths, p)
		}
		slices.Sort(ch.Paths)
		if take {
			w.dirty = map[string]struct{}{}
		}
	}
	if take {
		w.rescan, w.ignoreDirty = false, false
	}
	return ch
}

// sync names a file in the barrier folder anew and waits until the event
// loop has seen the name, and with it every event queued before it.
func (w *Watcher) sync(ctx context.Context) bool {
	if w.barrier == "" {
		return false
	}
	w.barrierMu.Lock()
	w.mu.Lock()
	w.seq++
	seq := w.seq
	w.mu.Unlock()
	name := filepath.Join(w.barrier, "b"+strconv.FormatUint(seq, 10))
	// The new name comes back as a Create event.
	if w.barrierFile == "" || os.Rename(w.barrierFile, name) != nil {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			w.barrierMu.Unlock()
			return false
		}
		f.Close()
		if w.barrierFile != "" {
			os.Remove(w.barrierFile)
		}
	}
	w.barrierFile = name
	w.barrierMu.Unlock()
	timer := time.NewTimer(w.syncTimeout)
	defer timer.Stop()
	for {
		w.mu.Lock()
		reached, wake := w.reached, w.wake
		w.mu.Unlock()
		if reached >= seq {
			return true
		}
		select {
		case <-wake:
		case <-timer.C:
			return false
		case <-ctx.Done():
			return false
		case <-w.done:
			return false
		}
	}
}

// Resync brings the set of watched folders in line with the skip function
// after the ignore rules changed, and retries folders that could not be
// watched. It clears the degraded state when every folder is watched.
func (w *Watcher) Resync() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for rel := range w.dirs {
		if rel != "." && w.skipDir(rel) && !w.behindLinkLocked(rel) {
			w.fw.Remove(w.abs(rel))
			delete(w.dirs, rel)
		}
	}
	w.degraded = false
	err := w.addTree(".", false, false)
	w.watchGit()
	w.watchLinksLocked(false)
	return err
}

// SetLinks tells the watcher the links the latest walk followed: from now on a change at a link's real path, or under
// it, is also reported at the link's path. The folders behind the links
// are watched even where the ignore rules skip their real path (a link
// into an ignored folder); a folder that was not watched yet has all its
// files reported once, since they may have changed since the walk.
func (w *Watcher) SetLinks(links []Link) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.links = slices.Clone(links)
	w.watchLinksLocked(true)
}

// watchLinksLocked watches the folders behind the links. The caller holds
// w.mu.
func (w *Watcher) watchLinksLocked(report bool) {
	for _, l := range w.links {
		if w.dirs[l.Real] {
			continue
		}
		if fi, err := os.Stat(w.abs(l.Real)); err != nil || !fi.IsDir() {
			continue
		}
		if err := w.addTree(l.Real, report, true); err != nil {
			w.degraded = true
		}
	}
}

// behindLinkLocked reports whether the folder rel is, or is under, the
// real path of a link. The caller holds w.mu.
func (w *Watcher) behindLinkLocked(rel string) bool {
	for _, l := range w.links {
		if rel == l.Real || strings.HasPrefix(rel, l.Real+"/") {
			return true
		}
	}
	return false
}

// markLocked records a change at rel, and at the paths that reach rel
// through links. The caller holds w.mu.
func (w *Watcher) markLocked(rel string) {
	w.dirty[rel] = struct{}{}
	for _, l := range w.links {
		switch {
		case rel == l.Real:
			w.dirty[l.Path] = struct{}{}
		case strings.HasPrefix(rel, l.Real+"/"):
			w.dirty[l.Path+rel[len(l.Real):]] = struct{}{}
		}
	}
}

func (w *Watcher) abs(rel string) string {
	if rel == "." {
		return w.root
	}
	return filepath.Join(w.root, filepath.FromSlash(rel))
}

// skipDir says whether the folder rel is left unwatched: any .git folder
// (a repository's internals, nested ones too), or one the caller ignores.
func (w *Watcher) skipDir(rel string) bool {
	return rel == ".git" || strings.HasSuffix(rel, "/.git") || w.skip(rel)
}

// Entering watches the folder rel, which a walk of a Deferred watcher's
// project is about to read: a change in it from now on is reported. The
// walk calls it for every folder it reads but those it reaches through a
// link (SetLinks watches their real paths). A folder that cannot be
// watched leaves the watcher degraded: Changes asks for sweeps until
// Resync mends it.
func (w *Watcher) Entering(rel string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.watchDirLocked(rel, w.abs(rel))
}

// watchDirLocked watches the folder rel, at p, unless it is watched
// already (ok). A folder gone or unreadable is left unwatched (not ok,
// no error); any other failure (out of watches or descriptors) leaves
// the watcher degraded, so that Changes asks for sweeps, and is
// returned. The caller holds w.mu.
func (w *Watcher) watchDirLocked(rel, p string) (ok bool, err error) {
	if w.dirs[rel] {
		return true, nil
	}
	if err := w.addWatch(p); err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return false, nil
		}
		w.degraded = true
		return false, fmt.Errorf("watch %s: %w", p, err)
	}
	w.dirs[rel] = true
	return true, nil
}

// HoldsIgnore tells a Deferred watcher that the walk found a .gitignore
// in the folder rel (which it entered).
func (w *Watcher) HoldsIgnore(rel string) {
	w.mu.Lock()
	w.ignoreDirs[rel] = true
	w.mu.Unlock()
}

// addTree watches the folder rel and every folder under it not yet
// watched. For a folder that appeared after the watcher started
// (report), everything in it is reported: files made in it before its
// watch was added produced no event. The watch on a folder is added
// before its entries are read, so nothing falls between the two. With
// all, folders the caller's skip function names are watched too (those
// behind a link, which the walk reaches by another path); .git never is.
// The caller holds w.mu.
func (w *Watcher) addTree(rel string, report, all bool) error {
	var failed error
	err := filepath.WalkDir(w.abs(rel), func(p string, d fs.DirEntry, err error) error {
		r := w.relOf(p)
		if err != nil {
			if p == w.abs(rel) && rel == "." {
				return fmt.Errorf("watch %s: %w", w.root, err)
			}
			// Gone or unreadable: nothing in it can be read or indexed.
			return nil
		}
		if report {
			w.markLocked(r)
		}
		if !d.IsDir() {
			if d.Name() == ".gitignore" {
				w.ignoreDirs[path2dir(r)] = true
				if report {
					w.ignoreDirty = true
				}
			}
			return nil
		}
		if r != "." && w.skipDir(r) && (!all || r == ".git" || strings.HasSuffix(r, "/.git")) {
			return filepath.SkipDir
		}
		// Not watched (gone, unreadable, out of watches): the folders
		// below it are not either; the caller sweeps a degraded watcher.
		ok, err := w.watchDirLocked(r, p)
		if err != nil {
			failed = err
		}
		if !ok {
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		return err
	}
	if failed != nil && rel == "." && len(w.dirs) == 0 {
		return failed
	}
	return nil
}

// watchGit watches .git and .git/info, for .git/info/exclude. The caller
// holds w.mu.
func (w *Watcher) watchGit() {
	for _, rel := range []string{".git", ".git/info"} {
		if w.dirs[rel] {
			continue
		}
		if fi, err := os.Lstat(w.abs(rel)); err == nil && fi.IsDir() {
			if w.addWatch(w.abs(rel)) == nil {
				w.dirs[rel] = true
			}
		}
	}
}

func path2dir(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return "."
}

// relOf turns an absolute path under the root into a project-relative
// one; "" if it is not under the root.
func (w *Watcher) relOf(p string) string {
	if p == w.root {
		return "."
	}
	rest, ok := strings.CutPrefix(p, w.root+string(filepath.Separator))
	if !ok {
		return ""
	}
	return filepath.ToSlash(rest)
}

func (w *Watcher) loop() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			w.handleEvent(ev)
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			w.handleError(err)
		}
	}
}

// handleError records a lost event: an overflowed queue
// (fsnotify.ErrEventOverflow) or a failed read.
func (w *Watcher) handleError(error) {
	w.mu.Lock()
	w.rescan = true
	w.mu.Unlock()
	w.signal()
}

func (w *Watcher) signal() {
	select {
	case w.notify <- struct{}{}:
	default:
	}
}

func (w *Watcher) handleEvent(ev fsnotify.Event) {
	if w.barrier != "" && filepath.Dir(ev.Name) == w.barrier {
		if ev.Has(fsnotify.Create) {
			if n, err := strconv.ParseUint(strings.TrimPrefix(filepath.Base(ev.Name), "b"), 10, 64); err == nil {
				w.mu.Lock()
				if n > w.reached {
					w.reached = n
					close(w.wake)
					w.wake = make(chan struct{})
				}
				w.mu.Unlock()
			}
		}
		return
	}
	rel := w.relOf(ev.Name)
	if rel == "" || rel == "." {
		return
	}
	w.mu.Lock()
	changed := w.handleLocked(rel, ev)
	w.mu.Unlock()
	if changed {
		w.signal()
	}
}

// handleLocked records one event; it reports whether the caller has
// anything new to hear about. The caller holds w.mu.
func (w *Watcher) handleLocked(rel string, ev fsnotify.Event) bool {
	gone := ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)
	if rel == ".git" || strings.HasPrefix(rel, ".git/") {
		switch {
		case rel == ".git/info/exclude":
			w.ignoreDirty = true
		case rel == ".git" || rel == ".git/info":
			if gone {
				w.forget(rel)
				w.ignoreDirty = true
			} else if ev.Has(fsnotify.Create) {
				w.watchGit()
				w.ignoreDirty = true
			}
		default:
			return false
		}
		return true
	}
	if strings.HasSuffix(rel, "/.git") || strings.Contains(rel, "/.git/") {
		return false
	}
	w.markLocked(rel)
	if rel == ".gitignore" || strings.HasSuffix(rel, "/.gitignore") {
		w.ignoreDirty = true
		if !gone {
			w.ignoreDirs[path2dir(rel)] = true
		}
	}
	if gone {
		w.forget(rel)
	}
	if ev.Has(fsnotify.Create) {
		fi, err := os.Lstat(ev.Name)
		switch {
		case err != nil:
		case fi.Mode()&os.ModeSymlink != 0:
			// A new link: which paths reach which real ones is for a walk
			// to say (the sweep's), and the watcher learns it from there.
			w.rescan = true
		case fi.IsDir() && (!w.skipDir(rel) || w.behindLinkLocked(rel)):
			if err := w.addTree(rel, true, w.behindLinkLocked(rel)); err != nil {
				w.degraded = true
			}
		}
	}
	return true
}

// forget drops the watches on the folder rel and those under it (a folder
// removed, or renamed: its watches would go on reporting the old paths).
// The caller holds w.mu.
func (w *Watcher) forget(rel string) {
	prefix := rel + "/"
	for d := range w.dirs {
		if d == rel || strings.HasPrefix(d, prefix) {
			// The system has dropped the watch of a removed folder already.
			w.fw.Remove(w.abs(d))
			delete(w.dirs, d)
		}
	}
	for d := range w.ignoreDirs {
		if d == rel || strings.HasPrefix(d, prefix) {
			delete(w.ignoreDirs, d)
			w.ignoreDirty = true
		}
	}
}
