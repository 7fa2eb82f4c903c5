package gitread

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// ErrNotRepo is returned for a folder outside any git work tree.
var ErrNotRepo = errors.New("not a git repository")

// RefusedError is a repository zumba will not read, and why: its files
// lie outside the work tree that holds them.
type RefusedError struct{ Msg string }

func (e *RefusedError) Error() string { return e.Msg }

func refused(format string, args ...any) error {
	return &RefusedError{Msg: fmt.Sprintf(format, args...)}
}

// Repo is a git repository read in process, reached from a folder of its
// work tree.
type Repo struct {
	// Top is the work tree's top folder (real path), the folder that
	// holds .git; Prefix is the folder the repository was opened at,
	// relative to Top, "" or ending in "/".
	Top, Prefix string
	// gitDir holds HEAD and the index; commonDir the objects and refs
	// (the same folder except in a linked work tree).
	gitDir, commonDir string
	store             *filesystem.Storage
	objects           []*filesystem.ObjectStorage // store's, then alternates'
	shallow           map[plumbing.Hash]bool
	fsys              []*rootFS
}

// maxSmallFile bounds the small files of a repository read whole
// (.git files, commondir, gitdir, alternates, shallow, config).
const maxSmallFile = 1 << 20

// readSmall reads a small file, at most maxSmallFile bytes.
func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSmallFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxSmallFile {
		return nil, fmt.Errorf("%s is over %d bytes", path, maxSmallFile)
	}
	return data, nil
}

// within reports whether path lies in dir (or is dir); both real paths.
func within(dir, path string) bool {
	r, err := filepath.Rel(dir, path)
	return err == nil && (r == "." || filepath.IsLocal(r))
}

// realPath resolves p, relative to base when not absolute.
func realPath(base, p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	return filepath.EvalSymlinks(p)
}

// Open returns the repository whose work tree holds dir: the nearest
// folder from dir upward that holds a .git, as git finds it.
//
// The repository's files must lie inside that work tree: a .git file
// (or link) naming a folder outside it, a commondir outside it and
// alternates outside it are refused (RefusedError), with one exception
// that git itself makes: a linked work tree (git worktree add), whose
// .git names <repository>/worktrees/NAME, is read when that folder names
// this work tree back (its gitdir file), and a submodule's, whose .git
// names a folder whose configuration gives this work tree as its
// core.worktree.
func Open(dir string) (*Repo, error) {
	start, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	top := start
	for {
		fi, err := os.Lstat(filepath.Join(top, ".git"))
		if err == nil && (fi.IsDir() || fi.Mode().IsRegular() || fi.Mode()&fs.ModeSymlink != 0) {
			break
		}
		parent := filepath.Dir(top)
		if parent == top {
			return nil, ErrNotRepo
		}
		top = parent
	}
	r := &Repo{Top: top}
	if rel, _ := filepath.Rel(top, start); rel != "." {
		r.Prefix = filepath.ToSlash(rel) + "/"
	}
	if err := r.locate(); err != nil {
		return nil, err
	}
	if err := r.openStore(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// locate finds the git dir and the common dir, and checks that they are
// the work tree's own.
func (r *Repo) locate() error {
	dotgitPath := filepath.Join(r.Top, ".git")
	fi, err := os.Lstat(dotgitPath)
	if err != nil {
		return err
	}
	var named string // what .git names, for messages
	switch {
	case fi.IsDir():
		r.gitDir = dotgitPath
	case fi.Mode().IsRegular():
		data, err := readSmall(dotgitPath)
		if err != nil {
			return fmt.Errorf("read .git: %w", err)
		}
		line, _, _ := bytes.Cut(data, []byte("\n"))
		p, ok := strings.CutPrefix(strings.TrimRight(string(line), "\r"), "gitdir: ")
		if !ok || p == "" {
			return ErrNotRepo
		}
		named = p
		if r.gitDir, err = realPath(r.Top, p); err != nil {
			return ErrNotRepo
		}
	default: // a link
		named, _ = os.Readlink(dotgitPath)
		if r.gitDir, err = filepath.EvalSymlinks(dotgitPath); err != nil {
			return ErrNotRepo
		}
	}
	if r.gitDir, err = filepath.EvalSymlinks(r.gitDir); err != nil {
		return ErrNotRepo
	}
	if st, err := os.Stat(filepath.Join(r.gitDir, "HEAD")); err != nil || !st.Mode().IsRegular() {
		return ErrNotRepo
	}
	linked := false
	if !within(r.Top, r.gitDir) {
		switch {
		case r.namesBack(filepath.Join(r.gitDir, "gitdir"), dotgitPath):
			linked = true
		case r.worktreeOf(r.gitDir):
		default:
			return refused("the project's .git names %s, outside the project: zumba reads only a repository inside the project, or the repository of a linked work tree (git worktree add) or submodule that names this folder back", named)
		}
	}
	r.commonDir = r.gitDir
	if data, err := readSmall(filepath.Join(r.gitDir, "commondir")); err == nil {
		p := strings.TrimSpace(string(data))
		common, err := realPath(r.gitDir, p)
		if err != nil {
			return fmt.Errorf("the repository's commondir %s: %w", p, err)
		}
		// A linked work tree's git dir is <common>/worktrees/NAME.
		ownCommon := linked && filepath.Dir(filepath.Dir(r.gitDir)) == common && filepath.Base(filepath.Dir(r.gitDir)) == "worktrees"
		if !within(r.Top, common) && !ownCommon {
			return refused("the repository's commondir names %s, outside the project: zumba does not read it", p)
		}
		r.commonDir = common
	}
	return nil
}

// namesBack reports whether the file at path (a linked work tree's
// gitdir file) names the .git file at dotgit.
func (r *Repo) namesBack(path, dotgit string) bool {
	data, err := readSmall(path)
	if err != nil {
		return false
	}
	named, err := realPath(filepath.Dir(path), strings.TrimSpace(string(data)))
	if err != nil {
		return false
	}
	own, err := filepath.EvalSymlinks(dotgit)
	return err == nil && named == own
}

// worktreeOf reports whether the git dir's configuration names the work
// tree as its core.worktree (a submodule's git dir does).
func (r *Repo) worktreeOf(gitDir string) bool {
	data, err := readSmall(filepath.Join(gitDir, "config"))
	if err != nil {
		return false
	}
	cfg := config.New()
	if err := config.NewDecoder(bytes.NewReader(data)).Decode(cfg); err != nil {
		return false
	}
	wt := cfg.Section("core").Option("worktree")
	if wt == "" {
		return false
	}
	real, err := realPath(gitDir, wt)
	return err == nil && real == r.Top
}

// openStore opens the object and reference storage, after checking the
// repository's format and its alternates.
func (r *Repo) openStore() error {
	if data, err := readSmall(filepath.Join(r.commonDir, "config")); err == nil {
		cfg := config.New()
		if err := config.NewDecoder(bytes.NewReader(data)).Decode(cfg); err == nil {
			ext := cfg.Section("extensions")
			if f := strings.ToLower(ext.Option("objectformat")); f != "" && f != "sha1" {
				return fmt.Errorf("the repository names its objects with %s, which zumba does not read", f)
			}
			if f := strings.ToLower(ext.Option("refstorage")); f != "" && f != "files" {
				return fmt.Errorf("the repository keeps its references as %s, which zumba does not read", f)
			}
		}
	}
	gitFS, err := openRootFS(r.gitDir)
	if err != nil {
		return err
	}
	r.fsys = append(r.fsys, gitFS)
	var fsys billy.Filesystem = gitFS
	if r.commonDir != r.gitDir {
		commonFS, err := openRootFS(r.commonDir)
		if err != nil {
			return err
		}
		r.fsys = append(r.fsys, commonFS)
		fsys = dotgit.NewRepositoryFilesystem(gitFS, commonFS)
	}
	objectCache := cache.NewObjectLRU(32 * cache.MiByte)
	r.store = filesystem.NewStorageWithOptions(fsys, objectCache, filesystem.Options{})
	r.objects = []*filesystem.ObjectStorage{&r.store.ObjectStorage}
	if err := r.openAlternates(objectCache); err != nil {
		return err
	}
	r.shallow = map[plumbing.Hash]bool{}
	if data, err := readSmall(filepath.Join(r.commonDir, "shallow")); err == nil {
		for _, line := range strings.Fields(string(data)) {
			r.shallow[plumbing.NewHash(line)] = true
		}
	}
	return nil
}

// openAlternates opens the object folders the repository borrows from
// (objects/info/alternates), each of which must lie inside the work tree
// or the repository's own folder; one level, as git reads them first.
func (r *Repo) openAlternates(objectCache cache.Object) error {
	objectsDir := filepath.Join(r.commonDir, "objects")
	data, err := readSmall(filepath.Join(objectsDir, "info", "alternates"))
	if err != nil {
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		dir, err := realPath(objectsDir, line)
		if err != nil {
			return fmt.Errorf("the repository borrows objects from %s (objects/info/alternates), which cannot be read: %w", line, err)
		}
		if !within(r.Top, dir) && !within(r.commonDir, dir) {
			return refused("the repository borrows objects from %s (objects/info/alternates), outside the project: zumba does not read it", line)
		}
		// dotgit reads objects/ under the folder it is given.
		parent, err := openRootFS(filepath.Dir(dir))
		if err != nil {
			return err
		}
		r.fsys = append(r.fsys, parent)
		sub, err := parent.Chroot(filepath.Base(dir))
		if err != nil {
			return err
		}
		// An alternates folder is an objects folder: give dotgit a
		// folder whose "objects" is it.
		dg := dotgit.New(&objectsAlias{rootFS: sub.(*rootFS)})
		r.objects = append(r.objects, filesystem.NewObjectStorage(dg, objectCache))
	}
	return nil
}

// objectsAlias shows an objects folder as the "objects" folder of a git
// dir, for dotgit.
type objectsAlias struct{ *rootFS }

func (a *objectsAlias) strip(name string) string {
	if rest, ok := strings.CutPrefix(filepath.ToSlash(filepath.Clean(name)), "objects"); ok && (rest == "" || rest[0] == '/') {
		return "." + rest
	}
	return filepath.Join("not-objects", name) // nothing else exists
}

func (a *objectsAlias) Open(name string) (billy.File, error)   { return a.rootFS.Open(a.strip(name)) }
func (a *objectsAlias) Stat(name string) (os.FileInfo, error)  { return a.rootFS.Stat(a.strip(name)) }
func (a *objectsAlias) Lstat(name string) (os.FileInfo, error) { return a.rootFS.Lstat(a.strip(name)) }
func (a *objectsAlias) ReadDir(name string) ([]os.FileInfo, error) {
	return a.rootFS.ReadDir(a.strip(name))
}
func (a *objectsAlias) OpenFile(name string, flag int, perm os.FileMode) (billy.File, error) {
	return a.rootFS.OpenFile(a.strip(name), flag, perm)
}

// Close releases the repository's open files.
func (r *Repo) Close() error {
	if r.store != nil {
		r.store.Close()
	}
	for _, f := range r.fsys {
		f.root.Close()
	}
	return nil
}
