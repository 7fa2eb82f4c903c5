package search

import (
	"context"
	"io"
	"io/fs"
	"runtime"
	"slices"
	"sync"
	"time"
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
	ID FileID
}

// Stat is the entry's size, modification time and inode, the key of its
// cached records.
func (e Entry) Stat() FileStat {
	return FileStat{Size: e.Size, MTime: e.ModTime.UnixNano(), Inode: e.ID.Ino}
}

// FileID is a file's device and inode number.
type FileID struct{ Dev, Ino uint64 }

// walkParallel is how many folders are read at once; reading folders is
// mostly waiting on the kernel, so a few more than the cores helps.
var walkParallel = max(4, 2*runtime.GOMAXPROCS(0))

// Walk lists the files the project search covers, sorted by path: every
// regular file under the project except what the ignore rules exclude (see
// the package documentation), files over MaxFileSize, and anything behind a
// symbolic link that leaves the project. Binary files are listed; readers
// skip them (see Root.Contents). Folders it cannot read are skipped.
func (r *Root) Walk(ctx context.Context) ([]Entry, error) {
	w := &walker{root: r, sem: make(chan struct{}, walkParallel)}
	base := (*ignoreStack)(nil).push(r.readIgnore(".git/info/exclude", ""))
	w.wg.Add(1)
	w.dir(ctx, ".", base, nil)
	w.wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(w.files, func(a, b Entry) int {
		switch {
		case a.Path < b.Path:
			return -1
		case a.Path > b.Path:
			return 1
		}
		return 0
	})
	return w.files, nil
}

type walker struct {
	root *Root
	sem  chan struct{}
	wg   sync.WaitGroup

	mu    sync.Mutex
	files []Entry
}

// ancestor is one folder on the way down, to stop symbolic link loops.
type ancestor struct {
	id     FileID
	parent *ancestor
}

func (a *ancestor) has(id FileID) bool {
	for ; a != nil; a = a.parent {
		if a.id == id {
			return true
		}
	}
	return false
}

// dir reads the folder rel (already known not to be ignored) and starts
// the walk of its subfolders; wg was incremented for it.
func (w *walker) dir(ctx context.Context, rel string, ign *ignoreStack, up *ancestor) {
	defer w.wg.Done()
	if ctx.Err() != nil {
		return
	}
	w.sem <- struct{}{}
	ents, self, ok := w.readDir(rel)
	<-w.sem
	if !ok {
		return
	}
	if self != (FileID{}) {
		if up.has(self) {
			return
		}
		up = &ancestor{id: self, parent: up}
	}
	prefix := rel + "/"
	if rel == "." {
		prefix = ""
	}
	for _, d := range ents {
		if d.Name() == ".gitignore" && d.Type().IsRegular() {
			ign = ign.push(w.root.readIgnore(prefix+".gitignore", rel))
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
		if typ&fs.ModeSymlink != 0 {
			// os.Root refuses a link that leaves the project, and a link
			// loop fails with ELOOP: both are skipped.
			fi, err := w.root.fs.Stat(child)
			if err != nil {
				continue
			}
			info, typ = fi, fi.Mode().Type()
		}
		switch {
		case typ.IsDir():
			if ign.ignored(child, true) {
				continue
			}
			w.wg.Add(1)
			go w.dir(ctx, child, ign, up)
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
			files = append(files, Entry{Path: child, Size: info.Size(), ModTime: info.ModTime(), ID: fileID(info)})
		}
	}
	if len(files) > 0 {
		w.mu.Lock()
		w.files = append(w.files, files...)
		w.mu.Unlock()
	}
}

// readDir lists the folder rel and returns its identity.
func (w *walker) readDir(rel string) ([]fs.DirEntry, FileID, bool) {
	f, err := w.root.openDir(rel)
	if err != nil {
		return nil, FileID{}, false
	}
	defer f.Close()
	var id FileID
	if fi, err := f.Stat(); err == nil {
		if !fi.IsDir() {
			return nil, FileID{}, false
		}
		id = fileID(fi)
	}
	ents, err := f.ReadDir(-1)
	if err != nil && len(ents) == 0 {
		return nil, FileID{}, false
	}
	return ents, id, true
}

// readIgnore reads the ignore file at rel, whose patterns are relative to
// the folder dir; nil if there is none. As git does, a .gitignore that is
// a symbolic link is not read (.git/info/exclude is), and the walk and the
// index's per-path rules both come here, so they cannot disagree.
func (r *Root) readIgnore(rel, dir string) *ignoreFile {
	if pathBase(rel) == ".gitignore" {
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
