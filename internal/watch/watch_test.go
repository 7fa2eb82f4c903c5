package watch

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/google/go-cmp/cmp"
)

// testSync is the tests' Options.SyncTimeout: they share two cores with
// other packages' tests, and a slow sync there is load, not a fault of the
// watcher, and would only ask for a rescan.
const testSync = 10 * time.Second

// newWatchedDir makes a project folder and starts watching it.
func newWatchedDir(t *testing.T, files map[string]string, skip func(string) bool) (string, *Watcher) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for rel, body := range files {
		watchWrite(t, root, rel, body)
	}
	w, err := Start(root, Options{Skip: skip, SyncTimeout: testSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return root, w
}

func watchWrite(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// watchChanges is one call of Changes, which must see everything done before
// it, with nothing lost.
func watchChanges(t *testing.T, w *Watcher) Changes {
	t.Helper()
	ch := w.Changes(context.Background())
	if ch.Rescan {
		t.Fatalf("Changes() asked for a rescan: %+v", ch)
	}
	return ch
}

// wantChanged checks that got holds every path of want (a rename or a write
// may legitimately add a folder or repeat a path; nothing may be missing).
func wantChanged(t *testing.T, what string, got Changes, want ...string) {
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
	t.Parallel()
	root, w := newWatchedDir(t, map[string]string{"a.go": "a", "dir/b.go": "b", "dir/sub/c.go": "c"}, nil)
	if ch := watchChanges(t, w); len(ch.Paths) != 0 || ch.IgnoreChanged {
		t.Fatalf("before any change: %+v", ch)
	}

	watchWrite(t, root, "new.go", "x")
	wantChanged(t, "create", watchChanges(t, w), "new.go")

	watchWrite(t, root, "dir/sub/c.go", "changed")
	wantChanged(t, "modify", watchChanges(t, w), "dir/sub/c.go")

	os.Remove(filepath.Join(root, "dir/b.go"))
	wantChanged(t, "delete", watchChanges(t, w), "dir/b.go")

	os.Rename(filepath.Join(root, "a.go"), filepath.Join(root, "dir/sub/a2.go"))
	wantChanged(t, "rename across folders", watchChanges(t, w), "a.go", "dir/sub/a2.go")

	// A folder renamed: its old path goes, the new one and its files come,
	// and later writes inside it are reported under the new path.
	os.Rename(filepath.Join(root, "dir"), filepath.Join(root, "moved"))
	wantChanged(t, "folder rename", watchChanges(t, w), "dir", "moved", "moved/sub/c.go", "moved/sub/a2.go")
	watchWrite(t, root, "moved/sub/c.go", "again")
	ch := watchChanges(t, w)
	wantChanged(t, "write in a renamed folder", ch, "moved/sub/c.go")
	for _, p := range ch.Paths {
		if strings.HasPrefix(p, "dir/") {
			t.Errorf("write in a renamed folder reported under its old path: %q", ch.Paths)
		}
	}

	// A folder moved out of the project and deleted.
	outside := filepath.Join(t.TempDir(), "gone")
	os.Rename(filepath.Join(root, "moved"), outside)
	wantChanged(t, "folder moved out", watchChanges(t, w), "moved")
	watchWrite(t, outside, "sub/c.go", "not ours")
	if ch := watchChanges(t, w); len(ch.Paths) != 0 {
		t.Errorf("a write outside the project was reported: %q", ch.Paths)
	}

	// Nothing is reported twice.
	if ch := watchChanges(t, w); len(ch.Paths) != 0 {
		t.Errorf("second call repeated changes: %q", ch.Paths)
	}
}

func TestWatcherNewNestedFolders(t *testing.T) {
	t.Parallel()
	root, w := newWatchedDir(t, map[string]string{"a.go": "a"}, nil)
	// Made as fast as possible, so that most of it exists before the
	// watcher sees the first folder.
	var want []string
	for i := range 5 {
		for j := range 4 {
			rel := fmt.Sprintf("new/d%d/e%d/f.go", i, j)
			watchWrite(t, root, rel, "x")
			want = append(want, rel)
		}
	}
	watchWrite(t, root, "new/d0/.gitignore", "*.tmp\n")
	ch := watchChanges(t, w)
	wantChanged(t, "new nested folders", ch, append(want, "new", "new/d3/e2", "new/d0/.gitignore")...)
	if !ch.IgnoreChanged {
		t.Error("a .gitignore in a new folder did not flag IgnoreChanged")
	}
	// The new folders are watched.
	watchWrite(t, root, "new/d4/e3/f.go", "changed")
	watchWrite(t, root, "new/d4/e3/g.go", "new")
	wantChanged(t, "writes in new folders", watchChanges(t, w), "new/d4/e3/f.go", "new/d4/e3/g.go")
}

func TestWatcherIgnoreFiles(t *testing.T) {
	t.Parallel()
	root, w := newWatchedDir(t, map[string]string{
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
		{"edit a file", func() { watchWrite(t, root, "keep/a.go", "b") }, false},
		{"edit .gitignore", func() { watchWrite(t, root, ".gitignore", "*.log\n*.tmp\n") }, true},
		{"edit a nested .gitignore", func() { watchWrite(t, root, "sub/.gitignore", "y\n") }, true},
		{"edit .git/info/exclude", func() { watchWrite(t, root, ".git/info/exclude", "secret\n") }, true},
		{"git internals", func() {
			watchWrite(t, root, ".git/HEAD", "ref: refs/heads/other\n")
			watchWrite(t, root, ".git/objects/ab/cd", "x")
		}, false},
		{"remove a folder holding a .gitignore", func() { os.RemoveAll(filepath.Join(root, "sub")) }, true},
		{"remove .git/info", func() { os.RemoveAll(filepath.Join(root, ".git/info")) }, true},
		{"make .git/info again", func() { watchWrite(t, root, ".git/info/exclude", "a\n") }, true},
		{"then edit exclude", func() { watchWrite(t, root, ".git/info/exclude", "b\n") }, true},
	} {
		tc.do()
		ch := watchChanges(t, w)
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
	t.Parallel()
	skip := func(rel string) bool { return rel == "node_modules" || strings.HasSuffix(rel, "/build") }
	root, w := newWatchedDir(t, map[string]string{"node_modules/x/a.js": "a", "src/build/o.txt": "o", "src/a.go": "a"}, skip)
	watchWrite(t, root, "node_modules/x/a.js", "b")
	watchWrite(t, root, "src/build/o.txt", "p")
	watchWrite(t, root, "src/a.go", "b")
	ch := watchChanges(t, w)
	if d := cmp.Diff([]string{"src/a.go"}, ch.Paths); d != "" {
		t.Errorf("skipped folders (-want +got):\n%s", d)
	}
	// A new skipped folder is reported (its own path) but not watched.
	watchWrite(t, root, "lib/build/gen.txt", "x")
	ch = watchChanges(t, w)
	wantChanged(t, "new folder with a skipped one", ch, "lib", "lib/build")
	if slices.Contains(ch.Paths, "lib/build/gen.txt") {
		t.Errorf("a file in a skipped folder was reported: %q", ch.Paths)
	}
}

// TestWatcherGitCheckout switches a repository between branches that
// differ in hundreds of files, new folders and deleted ones: one call
// after the checkout sees every path git changed.
func TestWatcherGitCheckout(t *testing.T) {
	t.Parallel()
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
	// -short keeps a third of the files: still far more paths than one
	// read of the event queue returns.
	n := 400
	if testing.Short() {
		n = 150
	}
	git("init", "-q", "-b", "main")
	for i := range n {
		watchWrite(t, root, fmt.Sprintf("pkg%d/sub%d/f%d.go", i%10, i%3, i), fmt.Sprintf("package p%d\n", i))
	}
	git("add", "-A")
	git("commit", "-q", "-m", "main")
	git("checkout", "-q", "-b", "other")
	for i := range n {
		rel := fmt.Sprintf("pkg%d/sub%d/f%d.go", i%10, i%3, i)
		switch i % 4 {
		case 0:
			watchWrite(t, root, rel, fmt.Sprintf("package p%d // changed\n", i))
		case 1:
			os.Remove(filepath.Join(root, rel))
		}
	}
	for i := range n * 3 / 8 {
		watchWrite(t, root, fmt.Sprintf("newpkg%d/deep/er/n%d.go", i%7, i), "package n\n")
	}
	os.RemoveAll(filepath.Join(root, "pkg9"))
	git("add", "-A")
	git("commit", "-q", "-m", "other")
	git("checkout", "-q", "main")

	w, err := Start(root, Options{SyncTimeout: testSync})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, branch := range []string{"other", "main", "other"} {
		prev := strings.TrimSpace(git("rev-parse", "HEAD"))
		git("checkout", "-q", branch)
		diff := strings.Fields(git("diff", "--name-only", prev, "HEAD"))
		if len(diff) < n*3/4 {
			t.Fatalf("only %d files differ", len(diff))
		}
		ch := watchChanges(t, w)
		wantChanged(t, "checkout "+branch, ch, diff...)
		t.Logf("checkout %s: %d files differ, %d paths reported", branch, len(diff), len(ch.Paths))
	}
}

// TestWatcherOverflow simulates a lost event queue: the next call asks
// for one sweep, the one after trusts events again.
func TestWatcherOverflow(t *testing.T) {
	t.Parallel()
	root, w := newWatchedDir(t, map[string]string{"a.go": "a"}, nil)
	w.handleError(fsnotify.ErrEventOverflow)
	select {
	case <-w.Notify():
	case <-time.After(5 * time.Second):
		t.Fatal("no notification after an overflow")
	}
	if ch := w.Changes(context.Background()); !ch.Rescan {
		t.Errorf("after an overflow: Rescan = false")
	}
	watchWrite(t, root, "a.go", "b")
	wantChanged(t, "after the rescan", watchChanges(t, w), "a.go")
}

// TestWatcherDegraded fails to watch a new folder (as when the system's
// watch limit is reached): every call asks for a sweep until a Resync
// watches everything.
func TestWatcherDegraded(t *testing.T) {
	t.Parallel()
	root, w := newWatchedDir(t, map[string]string{"a.go": "a"}, nil)
	w.mu.Lock()
	w.addWatch = func(string) error { return syscall.ENOSPC }
	w.mu.Unlock()
	watchWrite(t, root, "new/b.go", "b")
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
	watchChanges(t, w)
	watchWrite(t, root, "new/b.go", "c")
	wantChanged(t, "after Resync", watchChanges(t, w), "new/b.go")
}

func TestWatcherNoBarrier(t *testing.T) {
	t.Parallel()
	_, w := newWatchedDir(t, nil, nil)
	w.Close()
	w.barrier = ""
	if ch := w.Changes(context.Background()); !ch.Rescan {
		t.Error("without a barrier Changes cannot vouch for its paths; Rescan = false")
	}
}

func TestWatcherMissingRoot(t *testing.T) {
	t.Parallel()
	if _, err := Start(filepath.Join(t.TempDir(), "none"), Options{}); err == nil {
		t.Error("Start of a missing folder succeeded")
	}
}

// TestWatcherLatency measures how long a change takes to be reported:
// to the Notify channel, and through Changes (which syncs with the
// event queue).
func TestWatcherLatency(t *testing.T) {
	t.Parallel()
	root, w := newWatchedDir(t, map[string]string{"a.go": "a"}, nil)
	var notify, call []time.Duration
	for i := range 50 {
		start := time.Now()
		watchWrite(t, root, "a.go", fmt.Sprint(i))
		select {
		case <-w.Notify():
		case <-time.After(5 * time.Second):
			t.Fatal("no notification")
		}
		notify = append(notify, time.Since(start))
		watchChanges(t, w)
		start = time.Now()
		watchWrite(t, root, "a.go", fmt.Sprint(i))
		wantChanged(t, "latency", watchChanges(t, w), "a.go")
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

// TestWatcherPeek checks that Peek reports the changes without taking
// them: Changes still returns them, and takes them.
func TestWatcherPeek(t *testing.T) {
	t.Parallel()
	root, w := newWatchedDir(t, map[string]string{"a.go": "a"}, nil)
	watchWrite(t, root, "new.go", "x")
	ctx := context.Background()
	first := w.Peek(ctx)
	wantChanged(t, "peek", first, "new.go")
	if again := w.Peek(ctx); !slices.Equal(again.Paths, first.Paths) {
		t.Errorf("second Peek() = %q; want %q again", again.Paths, first.Paths)
	}
	wantChanged(t, "changes after peeking", watchChanges(t, w), "new.go")
	if ch := w.Peek(ctx); len(ch.Paths) != 0 {
		t.Errorf("Peek() after Changes() = %q; want nothing", ch.Paths)
	}
}

// TestBarrierRenamed: each sync renames the one barrier file (no new
// file per call), comes back through the event queue, and concurrent
// syncs all return.
func TestBarrierRenamed(t *testing.T) {
	t.Parallel()
	_, w := newWatchedDir(t, map[string]string{"a.go": "a"}, nil)
	if w.barrier == "" {
		t.Skip("no barrier folder")
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if !w.sync(ctx) {
					t.Error("sync did not see its barrier")
					return
				}
			}
		}()
	}
	wg.Wait()
	entries, err := os.ReadDir(w.barrier)
	if err != nil || len(entries) != 1 || entries[0].Name() != "b200" {
		t.Errorf("barrier folder after 200 syncs: %v, %v; want the one file b200", entries, err)
	}
}
