package search

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/google/go-cmp/cmp"
)

// watchDir makes a project folder and starts watching it.
func watchDir(t *testing.T, files map[string]string, skip func(string) bool) (string, *Watcher) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for rel, body := range files {
		writeFile(t, root, rel, body)
	}
	w, err := WatchProject(root, skip)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return root, w
}

func writeFile(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// changes is one call of Changes, which must see everything done before
// it, with nothing lost.
func changes(t *testing.T, w *Watcher) Changes {
	t.Helper()
	ch := w.Changes(context.Background())
	if ch.Rescan {
		t.Fatalf("Changes() asked for a rescan: %+v", ch)
	}
	return ch
}

// wantPaths checks that got holds every path of want (a rename or a write
// may legitimately add a folder or repeat a path; nothing may be missing).
func wantPaths(t *testing.T, what string, got Changes, want ...string) {
	t.Helper()
	var missing []string
	for _, p := range want {
		if !slices.Contains(got.Paths, p) {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%s: Changes() = %q; missing %q", what, got.Paths, missing)
	}
}

func TestWatcherFileChanges(t *testing.T) {
	root, w := watchDir(t, map[string]string{"a.go": "a", "dir/b.go": "b", "dir/sub/c.go": "c"}, nil)
	if ch := changes(t, w); len(ch.Paths) != 0 || ch.IgnoreChanged {
		t.Fatalf("before any change: %+v", ch)
	}

	writeFile(t, root, "new.go", "x")
	wantPaths(t, "create", changes(t, w), "new.go")

	writeFile(t, root, "dir/sub/c.go", "changed")
	wantPaths(t, "modify", changes(t, w), "dir/sub/c.go")

	os.Remove(filepath.Join(root, "dir/b.go"))
	wantPaths(t, "delete", changes(t, w), "dir/b.go")

	os.Rename(filepath.Join(root, "a.go"), filepath.Join(root, "dir/sub/a2.go"))
	wantPaths(t, "rename across folders", changes(t, w), "a.go", "dir/sub/a2.go")

	// A folder renamed: its old path goes, the new one and its files come,
	// and later writes inside it are reported under the new path.
	os.Rename(filepath.Join(root, "dir"), filepath.Join(root, "moved"))
	wantPaths(t, "folder rename", changes(t, w), "dir", "moved", "moved/sub/c.go", "moved/sub/a2.go")
	writeFile(t, root, "moved/sub/c.go", "again")
	ch := changes(t, w)
	wantPaths(t, "write in a renamed folder", ch, "moved/sub/c.go")
	for _, p := range ch.Paths {
		if strings.HasPrefix(p, "dir/") {
			t.Errorf("write in a renamed folder reported under its old path: %q", ch.Paths)
		}
	}

	// A folder moved out of the project and deleted.
	outside := filepath.Join(t.TempDir(), "gone")
	os.Rename(filepath.Join(root, "moved"), outside)
	wantPaths(t, "folder moved out", changes(t, w), "moved")
	writeFile(t, outside, "sub/c.go", "not ours")
	if ch := changes(t, w); len(ch.Paths) != 0 {
		t.Errorf("a write outside the project was reported: %q", ch.Paths)
	}

	// Nothing is reported twice.
	if ch := changes(t, w); len(ch.Paths) != 0 {
		t.Errorf("second call repeated changes: %q", ch.Paths)
	}
}

func TestWatcherNewNestedFolders(t *testing.T) {
	root, w := watchDir(t, map[string]string{"a.go": "a"}, nil)
	// Made as fast as possible, so that most of it exists before the
	// watcher sees the first folder.
	var want []string
	for i := range 5 {
		for j := range 4 {
			rel := fmt.Sprintf("new/d%d/e%d/f.go", i, j)
			writeFile(t, root, rel, "x")
			want = append(want, rel)
		}
	}
	writeFile(t, root, "new/d0/.gitignore", "*.tmp\n")
	ch := changes(t, w)
	wantPaths(t, "new nested folders", ch, append(want, "new", "new/d3/e2", "new/d0/.gitignore")...)
	if !ch.IgnoreChanged {
		t.Error("a .gitignore in a new folder did not flag IgnoreChanged")
	}
	// The new folders are watched.
	writeFile(t, root, "new/d4/e3/f.go", "changed")
	writeFile(t, root, "new/d4/e3/g.go", "new")
	wantPaths(t, "writes in new folders", changes(t, w), "new/d4/e3/f.go", "new/d4/e3/g.go")
}

func TestWatcherIgnoreFiles(t *testing.T) {
	root, w := watchDir(t, map[string]string{
		".gitignore":        "*.log\n",
		"sub/.gitignore":    "x\n",
		"keep/a.go":         "a",
		".git/HEAD":         "ref: refs/heads/main\n",
		".git/info/exclude": "",
	}, nil)
	for _, tc := range []struct {
		name   string
		do     func()
		ignore bool
	}{
		{"edit a file", func() { writeFile(t, root, "keep/a.go", "b") }, false},
		{"edit .gitignore", func() { writeFile(t, root, ".gitignore", "*.log\n*.tmp\n") }, true},
		{"edit a nested .gitignore", func() { writeFile(t, root, "sub/.gitignore", "y\n") }, true},
		{"edit .git/info/exclude", func() { writeFile(t, root, ".git/info/exclude", "secret\n") }, true},
		{"git internals", func() {
			writeFile(t, root, ".git/HEAD", "ref: refs/heads/other\n")
			writeFile(t, root, ".git/objects/ab/cd", "x")
		}, false},
		{"remove a folder holding a .gitignore", func() { os.RemoveAll(filepath.Join(root, "sub")) }, true},
		{"remove .git/info", func() { os.RemoveAll(filepath.Join(root, ".git/info")) }, true},
		{"make .git/info again", func() { writeFile(t, root, ".git/info/exclude", "a\n") }, true},
		{"then edit exclude", func() { writeFile(t, root, ".git/info/exclude", "b\n") }, true},
	} {
		tc.do()
		ch := changes(t, w)
		if ch.IgnoreChanged != tc.ignore {
			t.Errorf("%s: IgnoreChanged = %v; want %v (%+v)", tc.name, ch.IgnoreChanged, tc.ignore, ch)
		}
		for _, p := range ch.Paths {
			if p == ".git" || strings.HasPrefix(p, ".git/") {
				t.Errorf("%s: reported %q inside .git", tc.name, p)
			}
		}
	}
}

func TestWatcherSkip(t *testing.T) {
	skip := func(rel string) bool { return rel == "node_modules" || strings.HasSuffix(rel, "/build") }
	root, w := watchDir(t, map[string]string{"node_modules/x/a.js": "a", "src/build/o.txt": "o", "src/a.go": "a"}, skip)
	writeFile(t, root, "node_modules/x/a.js", "b")
	writeFile(t, root, "src/build/o.txt", "p")
	writeFile(t, root, "src/a.go", "b")
	ch := changes(t, w)
	if d := cmp.Diff([]string{"src/a.go"}, ch.Paths); d != "" {
		t.Errorf("skipped folders (-want +got):\n%s", d)
	}
	// A new skipped folder is reported (its own path) but not watched.
	writeFile(t, root, "lib/build/gen.txt", "x")
	ch = changes(t, w)
	wantPaths(t, "new folder with a skipped one", ch, "lib", "lib/build")
	if slices.Contains(ch.Paths, "lib/build/gen.txt") {
		t.Errorf("a file in a skipped folder was reported: %q", ch.Paths)
	}
}

// TestWatcherGitCheckout switches a repository between branches that
// differ in hundreds of files, new folders and deleted ones: one call
// after the checkout sees every path git changed.
func TestWatcherGitCheckout(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1", "HOME="+root)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q", "-b", "main")
	for i := range 400 {
		writeFile(t, root, fmt.Sprintf("pkg%d/sub%d/f%d.go", i%10, i%3, i), fmt.Sprintf("package p%d\n", i))
	}
	git("add", "-A")
	git("commit", "-q", "-m", "main")
	git("checkout", "-q", "-b", "other")
	for i := range 400 {
		rel := fmt.Sprintf("pkg%d/sub%d/f%d.go", i%10, i%3, i)
		switch i % 4 {
		case 0:
			writeFile(t, root, rel, fmt.Sprintf("package p%d // changed\n", i))
		case 1:
			os.Remove(filepath.Join(root, rel))
		}
	}
	for i := range 150 {
		writeFile(t, root, fmt.Sprintf("newpkg%d/deep/er/n%d.go", i%7, i), "package n\n")
	}
	os.RemoveAll(filepath.Join(root, "pkg9"))
	git("add", "-A")
	git("commit", "-q", "-m", "other")
	git("checkout", "-q", "main")

	w, err := WatchProject(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, branch := range []string{"other", "main", "other"} {
		prev := strings.TrimSpace(git("rev-parse", "HEAD"))
		git("checkout", "-q", branch)
		diff := strings.Fields(git("diff", "--name-only", prev, "HEAD"))
		if len(diff) < 300 {
			t.Fatalf("only %d files differ", len(diff))
		}
		ch := changes(t, w)
		wantPaths(t, "checkout "+branch, ch, diff...)
		t.Logf("checkout %s: %d files differ, %d paths reported", branch, len(diff), len(ch.Paths))
	}
}

// TestWatcherOverflow simulates a lost event queue: the next call asks
// for one sweep, the one after trusts events again.
func TestWatcherOverflow(t *testing.T) {
	root, w := watchDir(t, map[string]string{"a.go": "a"}, nil)
	w.handleError(fsnotify.ErrEventOverflow)
	select {
	case <-w.Notify():
	case <-time.After(5 * time.Second):
		t.Fatal("no notification after an overflow")
	}
	if ch := w.Changes(context.Background()); !ch.Rescan {
		t.Errorf("after an overflow: Rescan = false")
	}
	writeFile(t, root, "a.go", "b")
	wantPaths(t, "after the rescan", changes(t, w), "a.go")
}

// TestWatcherDegraded fails to watch a new folder (as when the system's
// watch limit is reached): every call asks for a sweep until a Resync
// watches everything.
func TestWatcherDegraded(t *testing.T) {
	root, w := watchDir(t, map[string]string{"a.go": "a"}, nil)
	w.mu.Lock()
	w.addWatch = func(string) error { return syscall.ENOSPC }
	w.mu.Unlock()
	writeFile(t, root, "new/b.go", "b")
	for range 2 {
		if ch := w.Changes(context.Background()); !ch.Rescan {
			t.Fatal("a folder could not be watched and Rescan = false")
		}
	}
	w.mu.Lock()
	w.addWatch = w.fw.Add
	w.mu.Unlock()
	if err := w.Resync(); err != nil {
		t.Fatal(err)
	}
	changes(t, w)
	writeFile(t, root, "new/b.go", "c")
	wantPaths(t, "after Resync", changes(t, w), "new/b.go")
}

func TestWatcherNoBarrier(t *testing.T) {
	_, w := watchDir(t, nil, nil)
	w.Close()
	w.barrier = ""
	if ch := w.Changes(context.Background()); !ch.Rescan {
		t.Error("without a barrier Changes cannot vouch for its paths; Rescan = false")
	}
}

func TestWatcherMissingRoot(t *testing.T) {
	if _, err := WatchProject(filepath.Join(t.TempDir(), "none"), nil); err == nil {
		t.Error("WatchProject of a missing folder succeeded")
	}
}

func TestSweep(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"a.go", "b.go", "c.go", "d/e.go", "skip/x.go", ".git/HEAD"} {
		writeFile(t, root, rel, "1")
	}
	skip := func(rel string) bool { return rel == "skip" }
	first := Sweep(nil, StatTree(root, skip))
	if d := cmp.Diff([]string{"a.go", "b.go", "c.go", "d/e.go"}, first.Created); d != "" {
		t.Errorf("first sweep Created (-want +got):\n%s", d)
	}

	writeFile(t, root, "a.go", "22")                                       // size
	os.Chtimes(filepath.Join(root, "b.go"), time.Now(), time.Unix(1e9, 0)) // mtime
	// Same size and time, another inode: a checkout's write-and-rename.
	fi, _ := os.Stat(filepath.Join(root, "c.go"))
	writeFile(t, root, "c.go.new", "1")
	os.Chtimes(filepath.Join(root, "c.go.new"), fi.ModTime(), fi.ModTime())
	os.Rename(filepath.Join(root, "c.go.new"), filepath.Join(root, "c.go"))
	os.RemoveAll(filepath.Join(root, "d"))
	writeFile(t, root, "f.go", "1")

	got := Sweep(first.Stats, StatTree(root, skip))
	want := SweepResult{Created: []string{"f.go"}, Changed: []string{"a.go", "b.go", "c.go"}, Deleted: []string{"d/e.go"}}
	got.Stats = nil
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("second sweep (-want +got):\n%s", d)
	}
}

// TestWatcherLatency measures how long a change takes to be reported:
// to the Notify channel, and through Changes (which syncs with the
// event queue).
func TestWatcherLatency(t *testing.T) {
	root, w := watchDir(t, map[string]string{"a.go": "a"}, nil)
	var notify, call []time.Duration
	for i := range 50 {
		start := time.Now()
		writeFile(t, root, "a.go", fmt.Sprint(i))
		select {
		case <-w.Notify():
		case <-time.After(5 * time.Second):
			t.Fatal("no notification")
		}
		notify = append(notify, time.Since(start))
		changes(t, w)
		start = time.Now()
		writeFile(t, root, "a.go", fmt.Sprint(i))
		wantPaths(t, "latency", changes(t, w), "a.go")
		call = append(call, time.Since(start))
		select {
		case <-w.Notify():
		default:
		}
	}
	med := func(d []time.Duration) (time.Duration, time.Duration) {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d[len(d)/2], d[len(d)*99/100]
	}
	nm, np := med(notify)
	cm, cp := med(call)
	t.Logf("write to Notify: median %v, p99 %v; write + Changes: median %v, p99 %v", nm, np, cm, cp)
}
