package project

import (
	"context"
	"io"
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/zumba-dev/zumba/internal/filestat"
	"github.com/zumba-dev/zumba/internal/watch"
)

// MaxFileSize is the largest file the project search covers; bigger files
// are usually generated.
const MaxFileSize = 512 << 10

// Entry is one file the walk found.
type Entry struct {
	// Path is relative to the project, with "/" separators.
	Path    string
	Size    int64
	ModTime time.Time
	// ID identifies the file on its device (inode); zero where unknown.
	ID filestat.ID
	// CTime is the status change time, Unix nanoseconds; 0 where unknown.
	CTime int64
}

// Base is the last element of the project path p (a file's name), ""
// for "".
func Base(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// Stat is the entry's size, modification time, inode and status change
// time, the key of its cached records.
func (e Entry) Stat() filestat.Stat {
	return filestat.Stat{Size: e.Size, MTime: e.ModTime.UnixNano(), Inode: e.ID.Ino, CTime: e.CTime}
}

// walkParallel is how many folders are read at once; reading folders is
// mostly waiting on the kernel, so a few more than the cores helps.
var walkParallel = max(4, 2*runtime.GOMAXPROCS(0))

// Walk lists the files the project search covers, sorted by path: every
// regular file under the project except what the ignore rules exclude (see
// the package documentation), files over MaxFileSize, and anything behind a
// symbolic link that leaves the project. Binary files are listed; readers
// skip them (see Root.Contents). Folders it cannot read are skipped.
func (r *Root) Walk(ctx context.Context) ([]Entry, error) {
	files, _, err := r.WalkLinks(ctx)
	return files, err
}

// Link is a symbolic link the walk followed: Path is where it is listed,
// Real the project-relative path it resolves to. Files under a followed
// folder link are listed under Path, and change under Real. It is the
// watcher's type, so that the walk's links go to it as they are.
type Link = watch.Link

// WalkLinks is Walk, and also returns the links it followed, sorted by
// path.
//
// Each real folder is entered once, by device and inode, so that links
// cannot multiply the tree (a chain of folders each linking several times
// to the next is exponential in paths, not in folders) and link loops end
// at once. A folder is listed under its own path when the walk reaches it
// without a link, else under the first link to it in path order: the walk
// goes in waves, first the folders reached without links, then those
// behind the links found so far, in path order. A link to a file is a file
// of its own, as git lists it.
func (r *Root) WalkLinks(ctx context.Context) ([]Entry, []Link, error) {
	return r.WalkLinksHooked(ctx, nil)
}

// A WalkHook is told of each folder a walk is about to read, but those
// it reaches through a link, and of each that holds a .gitignore: a
// watcher that watches the project as the walk goes (a *watch.Watcher
// started Deferred), so that the project is walked once.
type WalkHook interface {
	Entering(rel string)
	HoldsIgnore(rel string)
}

// WalkLinksHooked is WalkLinks telling hook (nil for none) of the folders
// as it reads them.
func (r *Root) WalkLinksHooked(ctx context.Context, hook WalkHook) ([]Entry, []Link, error) {
	w := &walker{root: r, hook: hook, sem: make(chan struct{}, walkParallel), seen: map[filestat.ID]bool{}}
	base := r.excludeRules()
	if fi, err := r.fs.Stat("."); err == nil {
		w.claim(filestat.IDOf(fi))
	}
	wave := []pendingDir{{rel: ".", ign: base}}
	for linked := false; len(wave) > 0 && ctx.Err() == nil; linked = true {
		for _, d := range wave {
			w.wg.Add(1)
			go w.dir(ctx, d.rel, d.ign, linked)
		}
		w.wg.Wait()
		// The links found in this wave, in path order: each enters its
		// folder unless a path before it did.
		links := w.folderLinks
		w.folderLinks = nil
		slices.SortFunc(links, func(a, b pendingDir) int { return strings.Compare(a.rel, b.rel) })
		wave = wave[:0]
		for _, l := range links {
			if w.claim(l.id) {
				wave = append(wave, l)
				w.links = append(w.links, Link{Path: l.rel, Real: l.real})
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	slices.SortFunc(w.files, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(w.links, func(a, b Link) int { return strings.Compare(a.Path, b.Path) })
	return w.files, w.links, nil
}

type walker struct {
	root *Root
	hook WalkHook
	sem  chan struct{}
	wg   sync.WaitGroup

	mu    sync.Mutex
	files []Entry
	// seen holds the folders entered or about to be, by device and inode.
	seen map[filestat.ID]bool
	// folderLinks are the links to folders found in the current wave.
	folderLinks []pendingDir
	links       []Link
}

// pendingDir is a folder to walk: its listed path, the ignore rules that
// apply in it, and for one behind a link, its identity and real path.
type pendingDir struct {
	rel, real string
	ign       *ignoreStack
	id        filestat.ID
}

// claim marks the folder id as entered; false if it was already. An
// unknown identity (no inodes here) is always new, and os.Root's limit on
// link resolution ends loops.
func (w *walker) claim(id filestat.ID) bool {
	if id == (filestat.ID{}) {
		return true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seen[id] {
		return false
	}
	w.seen[id] = true
	return true
}

// dir reads the folder rel (already known not to be ignored, and claimed;
// linked: reached through a link) and starts the walk of its subfolders;
// wg was incremented for it.
func (w *walker) dir(ctx context.Context, rel string, ign *ignoreStack, linked bool) {
	defer w.wg.Done()
	if ctx.Err() != nil {
		return
	}
	hook := w.hook
	if linked {
		hook = nil
	}
	w.sem <- struct{}{}
	if hook != nil {
		hook.Entering(rel)
	}
	ents, ok := w.readDir(rel)
	<-w.sem
	if !ok {
		return
	}
	prefix := rel + "/"
	if rel == "." {
		prefix = ""
	}
	for _, d := range ents {
		if d.Name() == ".gitignore" && d.Type().IsRegular() {
			ign = w.root.enterRules(ign, rel)
			if hook != nil {
				hook.HoldsIgnore(rel)
			}
			break
		}
	}
	var files []Entry
	for _, d := range ents {
		name := d.Name()
		if name == ".git" {
			continue
		}
		child := prefix + name
		typ := d.Type()
		var info fs.FileInfo
		real := ""
		if typ&fs.ModeSymlink != 0 {
			// A link that leaves the project, dangles or loops is
			// skipped; one that stays inside is followed, absolute or
			// not.
			target, ok := w.root.resolve(child)
			if !ok {
				continue
			}
			fi, err := w.root.fs.Stat(target)
			if err != nil {
				continue
			}
			info, typ, real = fi, fi.Mode().Type(), target
		}
		switch {
		case typ.IsDir():
			if ign.ignored(child, true) {
				continue
			}
			if real != "" {
				w.mu.Lock()
				w.folderLinks = append(w.folderLinks, pendingDir{rel: child, real: real, ign: ign, id: filestat.IDOf(info)})
				w.mu.Unlock()
				continue
			}
			if fi, err := d.Info(); err != nil || !w.claim(filestat.IDOf(fi)) {
				continue
			}
			w.wg.Add(1)
			go w.dir(ctx, child, ign, linked)
		case typ.IsRegular():
			if ign.ignored(child, false) {
				continue
			}
			if info == nil {
				fi, err := d.Info()
				if err != nil {
					continue
				}
				info = fi
			}
			if info.Size() > MaxFileSize {
				continue
			}
			files = append(files, entryOf(child, info))
			if real != "" {
				w.mu.Lock()
				w.links = append(w.links, Link{Path: child, Real: real})
				w.mu.Unlock()
			}
		}
	}
	if len(files) > 0 {
		w.mu.Lock()
		w.files = append(w.files, files...)
		w.mu.Unlock()
	}
}

// readDir lists the folder rel.
func (w *walker) readDir(rel string) ([]fs.DirEntry, bool) {
	f, err := w.root.openDir(rel)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && !fi.IsDir() {
		return nil, false
	}
	ents, err := f.ReadDir(-1)
	if err != nil && len(ents) == 0 {
		return nil, false
	}
	return ents, true
}

// readIgnore reads the ignore file at rel, whose patterns are relative to
// the folder dir; nil if there is none. As git does, a .gitignore that is
// a symbolic link is not read (.git/info/exclude is), and the walk and the
// index's per-path rules both come here, so they cannot disagree.
func (r *Root) readIgnore(rel, dir string) *ignoreFile {
	if rel[strings.LastIndexByte(rel, '/')+1:] == ".gitignore" {
		if fi, err := r.fs.Lstat(rel); err != nil || !fi.Mode().IsRegular() {
			return nil
		}
	}
	f, err := r.openRegular(rel)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 4<<20))
	if err != nil {
		return nil
	}
	if dir == "." {
		dir = ""
	}
	return parseIgnore(dir, data)
}
