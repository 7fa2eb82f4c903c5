package gitread

import (
	"cmp"
	"context"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/zumba-dev/zumba/internal/filestat"
	"github.com/zumba-dev/zumba/internal/project"
)

// FileDiff is one file a diff changes.
type FileDiff struct {
	// Old and New are the file's paths before and after, relative to the
	// folder the repository was opened at; Old is "" for a file added,
	// New "" for one deleted. They differ for a rename.
	Old, New string
	// Added and Deleted count its lines added and deleted.
	Added, Deleted int
	// Binary: compared as a binary file (a NUL byte in its first 8000
	// bytes, the diff or binary attribute, or over MaxDiffSize): no line
	// counts, no hunks.
	Binary bool
	// Untracked: a file git does not track yet (and does not ignore).
	Untracked bool
	// Submodule: a submodule whose checked-out commit differs.
	Submodule bool
	// Filter is the filter driver the attributes name for the file (Git
	// LFS's "lfs", …): its stored bytes are compared with the work
	// tree's as they are, no filter run.
	Filter string
	Hunks  []Hunk
	// Before and After are the two versions' bytes where they were read
	// (text files up to MaxDiffSize), nil otherwise.
	Before, After []byte
}

// MaxDiffSize bounds the bytes of a file version that are read and
// compared line by line; a larger file counts as binary.
const MaxDiffSize = 16 << 20

// binaryProbe is how many leading bytes git looks at for a NUL.
const binaryProbe = 8000

func isBinary(data []byte) bool {
	return slices.Contains(data[:min(len(data), binaryProbe)], 0)
}

// entry is a file of a tree or of the index: its mode and blob.
type entry struct {
	mode filemode.FileMode
	id   plumbing.Hash
}

// side is a path's state in the work tree.
type side struct {
	mode filemode.FileMode
	id   plumbing.Hash // zero when not known without reading
	data []byte        // read, when read
	big  bool          // over MaxDiffSize
	gone bool
}

// Diff lists the files of the work tree under the folder the repository
// was opened at (wt, the same folder) that differ from commit base:
// tracked files changed (staged or not), renamed or deleted, as git diff
// -M BASE finds them, and untracked files that the ignore rules keep
// (wt's rules, as the project search reads them), each with its hunks.
func (r *Repo) Diff(ctx context.Context, base string, wt *project.Root) ([]FileDiff, error) {
	idx, err := r.store.Index()
	if err != nil {
		if errors.Is(err, index.ErrUnknownExtension) || errors.Is(err, index.ErrUnsupportedVersion) {
			return nil, fmt.Errorf("the repository's index is in a form zumba does not read (a split or sparse index?): %w", err)
		}
		return nil, fmt.Errorf("read the index: %w", err)
	}
	commit, err := r.commit(plumbing.NewHash(base))
	if err != nil {
		return nil, err
	}
	baseFiles, err := r.baseFiles(commit.tree, idx)
	if err != nil {
		return nil, err
	}
	work, untracked, err := r.scan(ctx, idx, wt)
	if err != nil {
		return nil, err
	}
	// A file the base has and the index no longer tracks (git rm
	// --cached) is compared with the work tree's file, not listed as
	// deleted and again as untracked.
	untracked = slices.DeleteFunc(untracked, func(p string) bool {
		full := r.Prefix + p
		if _, ok := baseFiles[full]; !ok {
			return false
		}
		if s, err := r.untrackedSide(wt, p); err == nil {
			work[full] = s
			return true
		}
		return false
	})
	mods, deleted, added := changedPaths(baseFiles, work)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Contents: the base's blobs of modified and deleted files, the work
	// tree's of added ones not read yet.
	old := map[string]*side{}
	for _, p := range append(slices.Clone(mods), deleted...) {
		b := baseFiles[p]
		s, err := r.blob(b, p)
		if err != nil {
			return nil, err
		}
		old[p] = s
	}
	for _, p := range append(slices.Clone(mods), added...) {
		if err := r.readWork(wt, p, work[p]); err != nil {
			return nil, err
		}
	}
	pairs := detectRenames(deleted, added, old, work, baseFiles)
	var jobs []diffJob
	for _, p := range mods {
		jobs = append(jobs, diffJob{p, p, old[p], work[p]})
	}
	renamed := map[string]bool{}
	for _, pr := range pairs {
		renamed[pr.src], renamed[pr.dst] = true, true
		jobs = append(jobs, diffJob{pr.src, pr.dst, old[pr.src], work[pr.dst]})
	}
	for _, p := range deleted {
		if !renamed[p] {
			jobs = append(jobs, diffJob{p, "", old[p], nil})
		}
	}
	for _, p := range added {
		if !renamed[p] {
			jobs = append(jobs, diffJob{"", p, nil, work[p]})
		}
	}
	out := r.compareAll(ctx, jobs, newAttrReader(r, wt), len(untracked))
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, p := range untracked {
		out = append(out, FileDiff{New: p, Untracked: true})
	}
	slices.SortStableFunc(out, func(a, b FileDiff) int { return cmp.Compare(cmp.Or(a.New, a.Old), cmp.Or(b.New, b.Old)) })
	return out, ctx.Err()
}

// changedPaths lists the paths whose two sides differ, each list sorted:
// modified, deleted (or gone from the work tree) and added.
func changedPaths(baseFiles map[string]entry, work map[string]*side) (mods, deleted, added []string) {
	for p, b := range baseFiles {
		w, ok := work[p]
		switch {
		case !ok || w.gone:
			deleted = append(deleted, p)
		case w.mode != b.mode || w.id != b.id:
			mods = append(mods, p)
		}
	}
	for p, w := range work {
		if _, ok := baseFiles[p]; !ok && !w.gone {
			added = append(added, p)
		}
	}
	slices.Sort(mods)
	slices.Sort(deleted)
	slices.Sort(added)
	return mods, deleted, added
}

// A diffJob is one file to compare: its paths and sides before and
// after (nil: none).
type diffJob struct {
	oldPath, newPath string
	o, n             *side
}

// compareAll compares the files of jobs side by side, with room for more
// beyond them in the slice it returns.
func (r *Repo) compareAll(ctx context.Context, jobs []diffJob, attrs *attrReader, more int) []FileDiff {
	out := make([]FileDiff, len(jobs), len(jobs)+more)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(len(jobs), max(2, runtime.GOMAXPROCS(0))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(jobs) || ctx.Err() != nil {
					return
				}
				out[i] = r.compare(jobs[i], attrs)
			}
		}()
	}
	wg.Wait()
	return out
}

// compare is one file's comparison.
func (r *Repo) compare(j diffJob, attrs *attrReader) FileDiff {
	d := FileDiff{Old: r.strip(j.oldPath), New: r.strip(j.newPath)}
	o, n := j.o, j.n
	if (o != nil && o.mode == filemode.Submodule) || (n != nil && n.mode == filemode.Submodule) {
		d.Submodule = true
		return d
	}
	a := attrs.of(r.strip(cmp.Or(j.newPath, j.oldPath)))
	d.Filter = a.filter
	var before, after []byte
	big := false
	if o != nil {
		before, big = o.data, o.big
	}
	if n != nil {
		after, big = n.data, big || n.big
	}
	if big || a.binary || isBinary(before) || isBinary(after) {
		d.Binary = true
		return d
	}
	d.Hunks, d.Added, d.Deleted = LineDiff(before, after)
	if o != nil && o.mode != filemode.Symlink {
		d.Before = before
	}
	if n != nil && n.mode != filemode.Symlink {
		d.After = after
	}
	return d
}

// strip is a path of the work tree relative to the folder the repository
// was opened at ("" stays "").
func (r *Repo) strip(p string) string { return strings.TrimPrefix(p, r.Prefix) }

// under reports whether the work tree's path p lies under the folder the
// repository was opened at.
func (r *Repo) under(p string) bool { return strings.HasPrefix(p, r.Prefix) }

// blob reads the base's version of path.
func (r *Repo) blob(e entry, p string) (*side, error) {
	s := &side{mode: e.mode, id: e.id}
	if e.mode == filemode.Submodule {
		return s, nil
	}
	o, err := r.object(plumbing.BlobObject, e.id)
	if err != nil {
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return nil, &MissingError{ID: e.id, What: "the base version of " + r.strip(p)}
		}
		return nil, err
	}
	if o.Size() > MaxDiffSize {
		s.big = true
		return s, nil
	}
	rd, err := o.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	if s.data, err = io.ReadAll(io.LimitReader(rd, MaxDiffSize+1)); err != nil {
		return nil, fmt.Errorf("read the base version of %s: %w", r.strip(p), err)
	}
	if s.data == nil {
		s.data = []byte{}
	}
	return s, nil
}

// baseFiles lists the files of the tree under the folder the repository
// was opened at. A folder whose tree the index's cached trees hold
// unchanged is taken from the index instead of read.
func (r *Repo) baseFiles(tree plumbing.Hash, idx *index.Index) (map[string]entry, error) {
	cached := cachedTrees(idx)
	files := map[string]entry{}
	var walk func(dir string, id plumbing.Hash) error
	walk = func(dir string, id plumbing.Hash) error {
		if cached[dir] == id {
			prefix := dir
			if prefix != "" {
				prefix += "/"
			}
			// The index is sorted by path: a folder's files are a run.
			i, _ := slices.BinarySearchFunc(idx.Entries, prefix, func(e *index.Entry, p string) int { return strings.Compare(e.Name, p) })
			for _, e := range idx.Entries[i:] {
				if !strings.HasPrefix(e.Name, prefix) {
					break
				}
				if e.Stage == 0 && r.under(e.Name) {
					files[e.Name] = entry{mode: e.Mode, id: e.Hash}
				}
			}
			return nil
		}
		o, err := r.object(plumbing.TreeObject, id)
		if err != nil {
			if errors.Is(err, plumbing.ErrObjectNotFound) {
				return &MissingError{ID: id, What: "the base's tree of " + cmp.Or(dir, "the top folder")}
			}
			return err
		}
		entries, err := parseTree(o)
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := path.Join(dir, e.name)
			if e.mode == filemode.Dir {
				// Enter folders on the way to the prefix, and under it.
				if strings.HasPrefix(r.Prefix, p+"/") || r.under(p+"/") {
					if err := walk(p, e.id); err != nil {
						return err
					}
				}
				continue
			}
			if r.under(p) {
				files[p] = entry{mode: e.mode, id: e.id}
			}
		}
		return nil
	}
	return files, walk("", tree)
}

// cachedTrees is the index's cache of trees (its TREE extension) by
// folder, when it is whole: a folder changed in the index since its tree
// was written has no entry, and then neither have the folders holding
// it, so the cache is used only when the top folder's tree is there.
func cachedTrees(idx *index.Index) map[string]plumbing.Hash {
	out := map[string]plumbing.Hash{}
	if idx.Cache == nil || len(idx.Cache.Entries) == 0 || idx.Cache.Entries[0].Path != "" {
		return out
	}
	entries := idx.Cache.Entries
	i := 0
	var read func(dir string) bool
	read = func(dir string) bool {
		if i >= len(entries) {
			return false
		}
		e := entries[i]
		i++
		out[dir] = e.Hash
		for range e.Trees {
			if i >= len(entries) {
				return false
			}
			if !read(path.Join(dir, entries[i].Path)) {
				return false
			}
		}
		return true
	}
	if !read("") || i != len(entries) {
		return map[string]plumbing.Hash{}
	}
	return out
}

// workSide is the work tree's side of the index entry e, whose file's
// lstat gave fi and err.
func (r *Repo) workSide(wt *project.Root, e *index.Entry, indexTime int64, fi fs.FileInfo, err error) (*side, error) {
	rel := r.strip(e.Name)
	if err != nil || (!fi.Mode().IsRegular() && fi.Mode()&fs.ModeSymlink == 0) {
		return &side{gone: true}, nil
	}
	s := &side{mode: filemode.Regular}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		s.mode = filemode.Symlink
	case fi.Mode()&0o100 != 0:
		s.mode = filemode.Executable
	}
	if s.mode == e.Mode && !e.IntentToAdd && statClean(e, fi, indexTime) {
		s.id = e.Hash
		return s, nil
	}
	if s.mode == filemode.Symlink {
		target, err := os.Readlink(filepath.Join(wt.Real, filepath.FromSlash(rel)))
		if err != nil {
			return &side{gone: true}, nil
		}
		s.data = []byte(target)
		s.id = plumbing.ComputeHash(plumbing.BlobObject, s.data)
		return s, nil
	}
	if fi.Size() > MaxDiffSize {
		s.big = true
		s.id, err = hashFile(wt, rel)
		if err != nil {
			return &side{gone: true}, nil
		}
		return s, nil
	}
	data, _, err := wt.ReadFile(rel, MaxDiffSize)
	if err != nil {
		return &side{gone: true}, nil
	}
	s.id = blobID(data)
	// Keep the bytes only when they differ from the index's (the base
	// usually has those): most files whose stat changed did not change.
	if s.id != e.Hash {
		s.data = data
	}
	return s, nil
}

// untrackedSide is the work tree's side of the untracked file rel.
func (r *Repo) untrackedSide(wt *project.Root, rel string) (*side, error) {
	fi, err := os.Lstat(filepath.Join(wt.Real, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	s := &side{mode: filemode.Regular}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		s.mode = filemode.Symlink
	case fi.Mode()&0o100 != 0:
		s.mode = filemode.Executable
	}
	if err := r.readWork(wt, r.Prefix+rel, s); err != nil {
		return nil, err
	}
	if s.big {
		s.id, err = hashFile(wt, rel)
		return s, err
	}
	s.id = blobID(s.data)
	return s, nil
}

// readWork reads the work tree's file p (a path of the work tree) into
// its side, if it is not read yet.
func (r *Repo) readWork(wt *project.Root, p string, s *side) error {
	if s == nil || s.data != nil || s.big || s.gone || s.mode == filemode.Submodule {
		return nil
	}
	rel := r.strip(p)
	if s.mode == filemode.Symlink {
		target, err := os.Readlink(filepath.Join(wt.Real, filepath.FromSlash(rel)))
		if err != nil {
			return fmt.Errorf("read %s: %w", rel, err)
		}
		s.data = []byte(target)
		return nil
	}
	data, _, err := wt.ReadFile(rel, MaxDiffSize)
	if err != nil {
		var pe *project.PathError
		if errors.As(err, &pe) && strings.Contains(pe.Msg, "too large") {
			s.big = true
			return nil
		}
		return err
	}
	s.data = data
	return nil
}

// statClean reports whether fi is the stat the index recorded for e, and
// the file was written before the index was (else, as git says, it is
// racily clean: changed within the same tick, its bytes must be read).
func statClean(e *index.Entry, fi fs.FileInfo, indexTime int64) bool {
	mtime := fi.ModTime()
	if !sameTime(mtime.UnixNano(), e.ModifiedAt) || uint32(fi.Size()) != e.Size {
		return false
	}
	if ct := filestat.CTime(fi); ct != 0 && !sameTime(ct, e.CreatedAt) {
		return false
	}
	if !sameOwner(e, fi) {
		return false
	}
	return indexTime == 0 || mtime.UnixNano() < indexTime
}

// sameTime compares a stat time (Unix nanoseconds) with an index entry's:
// to the nanosecond, or to the second where the index holds none (a git
// built without them writes 0).
func sameTime(ns int64, t time.Time) bool {
	if t.Nanosecond() == 0 {
		return ns/1e9 == t.Unix()
	}
	return ns == t.UnixNano()
}

// blobID is git's name of a blob holding data.
func blobID(data []byte) plumbing.Hash {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	var id plumbing.Hash
	copy(id[:], h.Sum(nil))
	return id
}

// hashFile is blobID of a large file, read as a stream.
func hashFile(wt *project.Root, rel string) (plumbing.Hash, error) {
	f, _, err := wt.Open(rel)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	h := sha1.New()
	h.Write([]byte("blob " + strconv.FormatInt(fi.Size(), 10) + "\x00"))
	if _, err := io.Copy(h, io.LimitReader(f, fi.Size())); err != nil {
		return plumbing.ZeroHash, err
	}
	var id plumbing.Hash
	copy(id[:], h.Sum(nil))
	return id, nil
}

// submoduleHead is the commit the submodule at rel has checked out: its
// HEAD, read from its repository without entering its work tree; the
// index's commit when it cannot be read (not checked out, or its
// repository is not one zumba reads).
func (r *Repo) submoduleHead(wt *project.Root, rel string, recorded plumbing.Hash) plumbing.Hash {
	sub, err := Open(filepath.Join(wt.Real, filepath.FromSlash(rel)))
	if err != nil {
		return recorded
	}
	defer sub.Close()
	if sub.Top != filepath.Join(wt.Real, filepath.FromSlash(rel)) {
		return recorded
	}
	id, ok := sub.ref("HEAD")
	if !ok {
		return recorded
	}
	return id
}

// scan walks the work tree under the folder the repository was opened
// at, once: each file the index tracks gets its work tree side (its
// lstat compared with the index's, its bytes read when they differ), and
// the files the index does not track and the ignore rules keep are listed
// as untracked, as git ls-files --others --exclude-standard lists them
// (with wt's rules). Every folder the rules keep, and every folder that
// holds tracked files, is entered, without following links; nested
// repositories are left out. Each folder is opened from its parent
// (os.Root, so that no link leads out), listed by name, and its files
// stat'ed by name, folders side by side; only names the index does not
// know are stat'ed to be told apart.
func (r *Repo) scan(ctx context.Context, idx *index.Index, wt *project.Root) (map[string]*side, []string, error) {
	w := &workScan{r: r, ctx: ctx, wt: wt, byPath: map[string]int{}, trackedDirs: map[string]bool{},
		indexTime: idx.ModTime.UnixNano(), rules: wt.Rules(), sem: make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))}
	for _, e := range idx.Entries {
		if !r.under(e.Name) {
			continue
		}
		if e.Stage != 0 {
			// A conflict: the path's work tree file is what there is.
			if n := len(w.entries); n > 0 && w.entries[n-1].Name == e.Name {
				continue
			}
			c := *e
			c.Hash = plumbing.ZeroHash
			c.Size = ^uint32(0)
			e = &c
		}
		w.byPath[r.strip(e.Name)] = len(w.entries)
		w.entries = append(w.entries, e)
	}
	// The folders that hold tracked files: an ignored one is still
	// entered for them, and they need no stat to be known as folders.
	for p := range w.byPath {
		for d := path.Dir(p); d != "." && !w.trackedDirs[d]; d = path.Dir(d) {
			w.trackedDirs[d] = true
		}
	}
	w.sides = make([]*side, len(w.entries))
	top, err := wt.FS().OpenRoot(".")
	if err != nil {
		return nil, nil, err
	}
	w.wg.Add(1)
	w.visit(top, ".")
	w.wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if w.firstErr != nil {
		return nil, nil, w.firstErr
	}
	work := make(map[string]*side, len(w.entries))
	for i, e := range w.entries {
		s := w.sides[i]
		switch {
		case e.SkipWorktree:
			// Not checked out (a sparse checkout): as the index has it.
			s = &side{mode: e.Mode, id: e.Hash}
		case e.Mode == filemode.Submodule:
			s = &side{mode: e.Mode, id: r.submoduleHead(wt, r.strip(e.Name), e.Hash)}
		case s == nil:
			// Not found in its folder: deleted, or its folder is.
			s = &side{gone: true}
		}
		work[e.Name] = s
	}
	slices.Sort(w.untracked)
	return work, w.untracked, nil
}

// workScan is scan's walk: the index's entries under the folder (by
// path, relative to it), the folders holding them, each entry's work
// tree side as found, the untracked files, and the first error.
type workScan struct {
	r           *Repo
	ctx         context.Context
	wt          *project.Root
	entries     []*index.Entry
	byPath      map[string]int
	trackedDirs map[string]bool
	sides       []*side
	indexTime   int64
	rules       *project.Rules
	mu          sync.Mutex
	untracked   []string
	firstErr    error
	wg          sync.WaitGroup
	sem         chan struct{}
}

func (w *workScan) fail(err error) {
	w.mu.Lock()
	if w.firstErr == nil {
		w.firstErr = err
	}
	w.mu.Unlock()
}

// visit lists the folder dir (rel, relative to the repository's folder)
// and its subfolders, each in a goroutine of its own, at most sem's
// capacity listing at once. It closes dir.
func (w *workScan) visit(dir *os.Root, rel string) {
	defer w.wg.Done()
	defer dir.Close()
	w.sem <- struct{}{}
	subdirs := func() []string {
		defer func() { <-w.sem }()
		return w.list(dir, rel)
	}()
	for _, name := range subdirs {
		sub, err := dir.OpenRoot(name)
		if err != nil {
			continue
		}
		p := name
		if rel != "." {
			p = rel + "/" + name
		}
		w.wg.Add(1)
		go w.visit(sub, p)
	}
}

// list reads the folder dir: the sides of its tracked files, its
// untracked ones; it returns the subfolders to enter.
func (w *workScan) list(dir *os.Root, rel string) (subdirs []string) {
	if w.ctx.Err() != nil {
		return nil
	}
	f, err := dir.Open(".")
	if err != nil {
		return nil
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return nil
	}
	var found []string
	for _, name := range names {
		if name == ".git" {
			continue
		}
		p := name
		if rel != "." {
			p = rel + "/" + name
		}
		if i, ok := w.byPath[p]; ok {
			e := w.entries[i]
			if e.SkipWorktree || e.Mode == filemode.Submodule {
				continue // after the walk
			}
			fi, err := dir.Lstat(name)
			s, err := w.r.workSide(w.wt, e, w.indexTime, fi, err)
			if err != nil {
				w.fail(err)
				return nil
			}
			w.sides[i] = s
			continue
		}
		if w.trackedDirs[p] {
			subdirs = append(subdirs, name)
			continue
		}
		fi, err := dir.Lstat(name)
		if err != nil {
			continue
		}
		switch {
		case fi.IsDir():
			if _, err := dir.Lstat(name + "/.git"); err == nil {
				continue // another repository: not this one's files
			}
			if !w.rules.DirIgnored(p) {
				subdirs = append(subdirs, name)
			}
		case fi.Mode().IsRegular() || fi.Mode()&fs.ModeSymlink != 0:
			if w.rules.FileCovered(p) {
				found = append(found, p)
			}
		}
	}
	if len(found) > 0 {
		w.mu.Lock()
		w.untracked = append(w.untracked, found...)
		w.mu.Unlock()
	}
	return subdirs
}
