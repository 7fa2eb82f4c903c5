package project

import (
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/zumba-dev/zumba/internal/filestat"
)

// The ignore rules that apply in a folder are assembled here alone, for
// the walk (which passes them down as it goes) and for Rules (which
// answers for one path at a time): .git/info/exclude, then each folder's
// .gitignore from the project folder down.

// excludeRules is the rules that apply in the whole project before any
// .gitignore: those of .git/info/exclude.
func (r *Root) excludeRules() *ignoreStack {
	return (*ignoreStack)(nil).push(r.readIgnore(".git/info/exclude", ""))
}

// enterRules returns the rules that apply inside the folder rel, given
// those of its parent folder (for the project folder, excludeRules): its
// own .gitignore is asked first.
func (r *Root) enterRules(parent *ignoreStack, rel string) *ignoreStack {
	return parent.push(r.readIgnore(path.Join(rel, ".gitignore"), rel))
}

// entryOf is the walk's entry for the file rel whose (followed) stat is fi.
func entryOf(rel string, fi fs.FileInfo) Entry {
	return Entry{Path: rel, Size: fi.Size(), ModTime: fi.ModTime(), ID: filestat.IDOf(fi), CTime: filestat.CTime(fi)}
}

// Rules answers whether a single path is covered, as the walk would
// decide, from the ignore files of its folders: an index asks it about
// the paths a watcher reports. It reads each ignore file once, until
// Reset. Safe for concurrent use.
type Rules struct {
	root   *Root
	mu     sync.Mutex
	stacks map[string]*dirRules
}

type dirRules struct {
	stack   *ignoreStack
	ignored bool
}

// Rules returns the project's ignore rules, read as they are asked for.
func (r *Root) Rules() *Rules { return &Rules{root: r} }

// Reset forgets the rules read, after an ignore file changed.
func (ir *Rules) Reset() {
	ir.mu.Lock()
	ir.stacks = nil
	ir.mu.Unlock()
}

// dirLocked returns the rules that apply inside the folder rel, and
// whether the walk skips the folder.
func (ir *Rules) dirLocked(rel string) *dirRules {
	if ir.stacks == nil {
		ir.stacks = map[string]*dirRules{}
	}
	if d := ir.stacks[rel]; d != nil {
		return d
	}
	var d *dirRules
	if rel == "." {
		d = &dirRules{stack: ir.root.enterRules(ir.root.excludeRules(), ".")}
	} else {
		parent, name := ".", rel
		if i := strings.LastIndexByte(rel, '/'); i >= 0 {
			parent, name = rel[:i], rel[i+1:]
		}
		p := ir.dirLocked(parent)
		switch {
		case p.ignored || name == ".git" || p.stack.ignored(rel, true):
			d = &dirRules{ignored: true}
		default:
			d = &dirRules{stack: ir.root.enterRules(p.stack, rel)}
		}
	}
	ir.stacks[rel] = d
	return d
}

// DirIgnored reports whether the walk skips the folder rel.
func (ir *Rules) DirIgnored(rel string) bool {
	ir.mu.Lock()
	defer ir.mu.Unlock()
	return ir.dirLocked(rel).ignored
}

// FileCovered reports whether the rules let the walk list the file rel.
func (ir *Rules) FileCovered(rel string) bool {
	dir, name := ".", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir, name = rel[:i], rel[i+1:]
	}
	if name == ".git" {
		return false
	}
	ir.mu.Lock()
	defer ir.mu.Unlock()
	d := ir.dirLocked(dir)
	return !d.ignored && !d.stack.ignored(rel, false)
}

// Entry returns the entry the walk would list for the project path rel as
// it is now, or false if the walk would not list it: gone, not a regular
// file, over MaxFileSize, or left out by the rules.
func (ir *Rules) Entry(rel string) (Entry, bool) {
	fi, err := ir.root.Stat(rel)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxFileSize || !ir.FileCovered(rel) {
		return Entry{}, false
	}
	return entryOf(rel, fi), true
}
