package search

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/index"
)

// testSyncTimeout is the indexes' IndexOptions.SyncTimeout in tests: they
// share two cores with other packages' tests, and a slow watcher there is
// load, not a fault, and would only turn an answer's sync into a sweep.
const testSyncTimeout = 10 * time.Second

// testIndex builds the index of dir and waits for it; cache is the disk
// cache file ("-" for none).
func testIndex(t *testing.T, dir, cache string, noWatch bool) (*Index, *Root, *logLines) {
	t.Helper()
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Answers must not depend on the machine's load.
	root.SymbolTimeLimit = time.Hour
	logs := &logLines{}
	ix := NewIndex(root, index.Options{CacheFile: cache, NoWatch: noWatch, SyncTimeout: testSyncTimeout, Log: logs.printf})
	ix.Start(context.Background())
	t.Cleanup(ix.Close)
	select {
	case <-ix.Ready():
	case <-time.After(60 * time.Second):
		t.Fatal("index not built in 60 s")
	}
	if _, symbols, _ := ix.Progress(); !symbols {
		t.Fatalf("index incomplete; log:\n%s", logs)
	}
	return ix, root, logs
}

// The index of this repository (Go, Markdown and the outline corpus in
// every language), built once for the tests that only query it; it lives
// until the test binary exits. -short indexes this package's folder only
// (Go): the corpus made the build compile every language's query and parse
// every language (2 s of CPU), and mcpserver's -short tests compare the
// index with the direct search in every language (testdata/refs).
var repo struct {
	once sync.Once
	ix   *Index
	root *Root
	err  string
}

// repoIndex returns the shared index of this repository.
func repoIndex(t *testing.T) (*Index, *Root) {
	t.Helper()
	repo.once.Do(func() {
		tree := ".."
		if testing.Short() {
			tree = "."
		}
		dir, err := filepath.Abs(tree)
		if err == nil {
			repo.root, err = OpenRoot(dir)
		}
		if err != nil {
			repo.err = err.Error()
			return
		}
		// Answers must not depend on the machine's load.
		repo.root.SymbolTimeLimit = time.Hour
		logs := &logLines{}
		// Its words are shared with an index of another folder, built at
		// the same time, as a server's roots share theirs: answers must
		// not depend on the ids.
		shared := index.NewShared()
		otherDir, _ := filepath.Abs(filepath.Join("..", "internal"))
		if other, err := OpenRoot(otherDir); err == nil {
			oix := NewIndex(other, index.Options{CacheFile: "-", NoWatch: true, Shared: shared})
			oix.Start(context.Background())
			defer oix.Close()
		}
		ix := NewIndex(repo.root, index.Options{CacheFile: "-", NoWatch: true, SyncTimeout: testSyncTimeout, Log: logs.printf, Shared: shared})
		ix.Start(context.Background())
		select {
		case <-ix.Ready():
		case <-time.After(60 * time.Second):
			repo.err = "index not built in 60 s"
			return
		}
		if _, symbols, _ := ix.Progress(); !symbols {
			repo.err = "index incomplete; log:\n" + logs.String()
			return
		}
		repo.ix = ix
	})
	if repo.ix == nil {
		t.Fatalf("index of the repository: %s", repo.err)
	}
	return repo.ix, repo.root
}

type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) printf(format string, args ...any) {
	l.mu.Lock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// sameAnswers checks that the index finds what the direct search finds
// for each name, as find_symbol and find_references ask.
func sameAnswers(t *testing.T, what string, ix *Index, root *Root, names []string) {
	t.Helper()
	for _, name := range names {
		sameSymbols(t, what, ix, root, name)
		sameRefs(t, what, ix, root, name)
	}
}

// resultOpts compare results by what they say: a definition's ranking
// notes are the engine's.
var resultOpts = cmp.Options{cmpopts.IgnoreUnexported(Def{}), cmpopts.EquateEmpty()}

func sameSymbols(t *testing.T, what string, ix *Index, root *Root, name string) {
	t.Helper()
	ctx := context.Background()
	q := ParseSymbolQuery(name)
	want, werr := root.Symbols(ctx, q)
	got, gerr := ix.Symbols(ctx, q)
	if (werr == nil) != (gerr == nil) {
		t.Errorf("%s: symbols %q: error from the index %v, without %v", what, name, gerr, werr)
	} else if d := cmp.Diff(want, got, resultOpts); d != "" {
		t.Errorf("%s: symbols %q (-without +from the index):\n%s", what, name, d)
	}
}

func sameRefs(t *testing.T, what string, ix *Index, root *Root, name string) {
	t.Helper()
	ctx := context.Background()
	want, werr := root.References(ctx, name, nil)
	got, gerr := ix.References(ctx, name, nil)
	if (werr == nil) != (gerr == nil) {
		t.Errorf("%s: references %q: error from the index %v, without %v", what, name, gerr, werr)
	} else if d := cmp.Diff(want, got, resultOpts); d != "" {
		t.Errorf("%s: references %q (-without +from the index):\n%s", what, name, d)
	}
}

// TestIndexSameAnswers compares the index's answers with the direct
// search over this repository (Go, Markdown and the outline corpus in
// every language), for names of every kind: common, rare, qualified,
// case-folded fallbacks, several words, no words, absent.
func TestIndexSameAnswers(t *testing.T) {
	t.Parallel()
	ix, root := repoIndex(t)
	names := []string{
		"err", "ctx", "Walk", "Root.Walk", "search.Root.Walk", "Serve", "Server.Serve", "mcpserver.Server.Serve",
		"ParseSymbolQuery", "Symbols", "Parse", "outline.Parse", "main", "new", "init", "Len", "String", "Error",
		"walk", "WALK", "erv", "symbolrec", "ymbol", "zzzNoSuchName", "fmt.Sprintf", "t.Fatal", "a b",
		"++", "::", "Rpc::spawn", "Rpc.spawn", "spawn", "Display", "self", "__init__", "impl", "Point",
		"README", "Cache and freshness", "résumé", "x",
	}
	// Names the index itself holds, a sample (smaller under the race
	// detector, which makes the direct search slow).
	step := 997
	switch {
	case raceEnabled:
		names, step = names[:12], 1<<30
	case testing.Short():
		// A name the index cannot narrow (a fallback, an absent name)
		// has the direct search parse the whole repository: -short keeps
		// one name of each kind ("Cache and freshness" for names with
		// spaces: "a b", whose words are in most files, took 0.6 s; "String"
		// for common names: "err" is in most files and took 0.5 s).
		// The tree is this package (see repoIndex): names of it, and some
		// it does not hold.
		names = []string{"Root.Walk", "search.Root.Walk", "mcpserver.Server.Serve", "String", "erv", "::", "Rpc::spawn", "Cache and freshness", "résumé", "x"}
		step = 499
	}
	ix.Mu.RLock()
	strs := ix.Words.View()
	for i := range strs.Len() {
		w := strs.Str(uint32(i))
		if i%step == 0 {
			names = append(names, w)
		}
	}
	ix.Mu.RUnlock()
	// In parallel: the direct search of a name parses every file that
	// holds it, a second or so for the common ones.
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sameAnswers(t, "repository", ix, root, []string{name})
		})
	}
}

// touchPast sets every file under dir an hour back, so that records made
// now are not racy and go to the disk cache.
func touchPast(t *testing.T, dir string) {
	t.Helper()
	past := time.Now().Add(-time.Hour)
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			os.Chtimes(p, past, past)
		}
		return nil
	})
}

func freshProject(t *testing.T) string {
	dir := t.TempDir()
	for i := range 20 {
		fixture.WriteFile(t, dir, fmt.Sprintf("pkg%d/f%02d.go", i%3, i), fmt.Sprintf("package pkg\n\nfunc Old%02d() { shared() }\n\ntype T%02d struct{}\n\nfunc (T%02d) Method() {}\n", i, i, i))
	}
	fixture.WriteFile(t, dir, "README.md", "# Project\n\n## Usage\n\nCall shared.\n")
	fixture.WriteFile(t, dir, ".gitignore", "*.log\n")
	fixture.WriteFile(t, dir, "keep.log", "func shared() {}\n")
	return dir
}

var freshNames = []string{"shared", "Old03", "New", "Fresh", "Method", "T05.Method", "Usage", "gone", "Renamed", "Racy", "Hidden", "x"}

// TestIndexFreshness: a file created, changed, deleted or un-ignored
// just before a call is reflected in that call, watching and sweeping.
func TestIndexFreshness(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"watch", "sweep"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			dir := freshProject(t)
			ix, root, _ := testIndex(t, dir, "-", mode == "sweep")
			check := func(what string) { t.Helper(); sameAnswers(t, what, ix, root, freshNames) }
			check("start")
			// Written again as it was: the record keeps its id (and so
			// the postings their bytes).
			const same = "pkg0/f03.go"
			ix.Mu.RLock()
			before := ix.ByPath[same]
			ix.Mu.RUnlock()
			data, err := os.ReadFile(filepath.Join(dir, same))
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(10 * time.Millisecond)
			fixture.WriteFile(t, dir, same, string(data))
			check("written again")
			ix.Mu.RLock()
			if after := ix.ByPath[same]; after.ID != before.ID || after.Dead {
				t.Errorf("%s written again with its bytes: a new id", same)
			}
			ix.Mu.RUnlock()
			fixture.WriteFile(t, dir, "pkg9/new.go", "package pkg\n\nfunc New() { shared() }\n")
			check("created")
			fixture.WriteFile(t, dir, "pkg0/f00.go", "package pkg\n\nfunc Fresh() {}\n")
			check("changed")
			os.Remove(filepath.Join(dir, "pkg1/f01.go"))
			check("deleted")
			os.RemoveAll(filepath.Join(dir, "pkg2"))
			check("folder deleted")
			os.Rename(filepath.Join(dir, "pkg9"), filepath.Join(dir, "moved"))
			check("folder renamed")
			fixture.WriteFile(t, dir, ".gitignore", "*.md\n")
			check("ignore rules changed")
			fixture.WriteFile(t, dir, "sub/.gitignore", "hidden.go\n")
			fixture.WriteFile(t, dir, "sub/hidden.go", "package sub\n\nfunc Hidden() {}\n")
			check("nested ignore file")
			os.Remove(filepath.Join(dir, "sub/.gitignore"))
			check("nested ignore file removed")
			// Same size, same modification time: only the racy rule (or
			// the watcher) tells.
			p := filepath.Join(dir, "racy.go")
			fixture.WriteFile(t, dir, "racy.go", "package r\n\nfunc Racy() {}\n")
			check("racy written")
			fi, _ := os.Stat(p)
			fixture.WriteFile(t, dir, "racy.go", "package r\n\nfunc Rxcy() {}\n")
			os.Chtimes(p, fi.ModTime(), fi.ModTime())
			check("racy rewritten")
		})
	}
}

// TestIndexGitCheckout: a checkout rewriting hundreds of files is
// reflected in the next call.
func TestIndexGitCheckout(t *testing.T) {
	t.Parallel()
	fixture.NeedGit(t)
	dir := t.TempDir()
	fixture.GitInit(t, dir)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(fixture.GitEnv(dir), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	// -short: 120 files, still a checkout rewriting over a hundred at once.
	n := 300
	if testing.Short() {
		n = 120
	}
	for i := range n {
		fixture.WriteFile(t, dir, fmt.Sprintf("d%d/f%03d.go", i%7, i), fmt.Sprintf("package d\n\nfunc Before%03d() { common() }\n", i))
	}
	git("add", "-A")
	git("commit", "-q", "-m", "one")
	git("branch", "-M", "one")
	git("checkout", "-q", "-b", "two")
	for i := range n {
		name := fmt.Sprintf("d%d/f%03d.go", i%7, i)
		if i%10 == 0 {
			os.Remove(filepath.Join(dir, name))
			continue
		}
		fixture.WriteFile(t, dir, name, fmt.Sprintf("package d\n\nfunc After%03d() { other() }\n", i))
	}
	git("add", "-A")
	git("commit", "-q", "-m", "two")
	git("checkout", "-q", "one")
	ix, root, _ := testIndex(t, dir, "-", false)
	names := []string{"common", "other", "Before001", "After001", "Before010", "After", "Before"}
	sameAnswers(t, "before checkout", ix, root, names)
	git("checkout", "-q", "two")
	sameAnswers(t, "after checkout", ix, root, names)
	git("checkout", "-q", "one")
	sameAnswers(t, "checked out back", ix, root, names)
}

var fromCacheRE = regexp.MustCompile(`index complete: (\d+) files \((\d+) from cache\)`)

// TestIndexCacheRestart: a restart serves unchanged files from the disk
// cache, never a changed one, and discards a corrupt cache.
func TestIndexCacheRestart(t *testing.T) {
	t.Parallel()
	dir := freshProject(t)
	touchPast(t, dir)
	cache := filepath.Join(t.TempDir(), "files")
	ix, _, logs := testIndex(t, dir, cache, true)
	ix.Close()
	if _, err := os.Stat(cache); err != nil {
		t.Fatalf("no cache file after Close: %v; log:\n%s", err, logs)
	}

	// Same size, same time, other contents and inode: a replaced file.
	fixture.WriteFile(t, dir, "pkg0/f00.tmp", "package pkg\n\nfunc Xld00() { shared() }\n\ntype T00 struct{}\n\nfunc (T00) Method() {}\n")
	fi, _ := os.Stat(filepath.Join(dir, "pkg0/f00.go"))
	os.Chtimes(filepath.Join(dir, "pkg0/f00.tmp"), fi.ModTime(), fi.ModTime())
	os.Rename(filepath.Join(dir, "pkg0/f00.tmp"), filepath.Join(dir, "pkg0/f00.go"))
	// Changed in place with a new time.
	fixture.WriteFile(t, dir, "pkg0/f03.go", "package pkg\n\nfunc Changed() {}\n")

	ix2, root, logs2 := testIndex(t, dir, cache, true)
	m := fromCacheRE.FindStringSubmatch(logs2.String())
	if m == nil || m[2] == "0" {
		t.Fatalf("restart used no cache; log:\n%s", logs2)
	}
	sameAnswers(t, "restart", ix2, root, []string{"Old00", "Xld00", "Changed", "Old03", "shared", "Method", "Usage"})
	ix2.Close()

	if err := os.WriteFile(cache, []byte("zumbaFC\x00 not a cache at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Without the store too, which would serve the files by their bytes.
	os.RemoveAll(filepath.Join(filepath.Dir(filepath.Dir(cache)), "store"))
	ix3, root, logs3 := testIndex(t, dir, cache, true)
	if !strings.Contains(logs3.String(), "discarded") {
		t.Errorf("corrupt cache not reported; log:\n%s", logs3)
	}
	if m := fromCacheRE.FindStringSubmatch(logs3.String()); m == nil || m[2] != "0" {
		t.Errorf("corrupt cache used; log:\n%s", logs3)
	}
	sameAnswers(t, "corrupt cache", ix3, root, []string{"Xld00", "Changed", "shared"})
}

// TestIndexPartialBeforeReady: before the index is built, an answer cut
// short by the time limit says so, and how much it covered.
func TestIndexPartialBeforeReady(t *testing.T) {
	dir := freshProject(t)
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(root, index.Options{CacheFile: "-", NoWatch: true})
	ix.symbolLimit = -time.Second
	res, err := ix.Symbols(context.Background(), ParseSymbolQuery("shared"))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Building || res.Indexed >= res.Files || res.Files != 22 {
		t.Errorf("partial answer: building %v, %d of %d files indexed; want part of 22", res.Building, res.Indexed, res.Files)
	}
}

// TestIndexCancel: a cancelled call stops with the context's error.
func TestIndexCancel(t *testing.T) {
	t.Parallel()
	ix, _, _ := testIndex(t, freshProject(t), "-", false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ix.References(ctx, "shared", nil); err == nil {
		t.Error("find_references ran under a cancelled context")
	}
	if _, err := ix.Symbols(ctx, ParseSymbolQuery("shared")); err == nil {
		t.Error("find_symbol ran under a cancelled context")
	}
}

// TestIndexWordsOnly: with the word index built and the symbols not yet,
// find_references answers from the word index and find_symbol from the
// few files holding the name, as the tools do without an index; a name
// with no definition waits for the symbol pass and, at the time limit,
// says how much it covered. Once the symbols are in, answers are complete.
// It indexes this repository; -short indexes this package's folder (a
// tenth of the files; Rpc::spawn, from the Rust corpus, is then a name
// found nowhere).
func TestIndexWordsOnly(t *testing.T) {
	t.Parallel()
	tree := ".."
	if testing.Short() {
		tree = "."
	}
	dir, err := filepath.Abs(tree)
	if err != nil {
		t.Fatal(err)
	}
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	root.SymbolTimeLimit = time.Hour
	ix := NewIndex(root, index.Options{CacheFile: "-", SyncTimeout: testSyncTimeout})
	ix.HoldSymbols = make(chan struct{})
	ix.Start(context.Background())
	defer ix.Close()
	for {
		if words, _, _ := ix.Progress(); words {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	exact := []string{"Walk", "Root.Walk", "Rpc::spawn", "ParseSymbolQuery"}
	sameAnswers(t, "words only", ix, root, exact)
	for _, name := range []string{"err", "erv", "zzzNoSuchName"} {
		sameRefs(t, "word index", ix, root, name)
	}
	func() {
		// A limit the scan of every file cannot meet (this package's
		// folder alone takes longer than a millisecond), for a name
		// nearly every file holds as a word and none defines: the files
		// the earlier calls parsed cannot answer it.
		ix.symbolLimit = 50 * time.Millisecond
		if testing.Short() {
			ix.symbolLimit = time.Millisecond
		}
		defer func() { ix.symbolLimit = 0 }()
		res, err := ix.Symbols(context.Background(), ParseSymbolQuery("err"))
		if err != nil {
			t.Fatal(err)
		}
		if !res.Building || res.Indexed >= res.Files {
			t.Errorf("symbols before the symbol pass: building %v, %d of %d files indexed; want part", res.Building, res.Indexed, res.Files)
		}
	}()
	close(ix.HoldSymbols)
	<-ix.Ready()
	sameAnswers(t, "complete", ix, root, append(exact, "err", "erv", "zzzNoSuchName"))
}

// TestIndexLinksFresh: a file reached through links is fresh at every
// path that reaches it, watching and sweeping: a link to a file, a link
// into an ignored folder, links made after the start, and an absolute
// one (issue 11, defect 1).
func TestIndexLinksFresh(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"watch", "sweep"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			fixture.WriteFile(t, dir, "p/real.go", "package p\n\nfunc Old() {}\n")
			fixture.WriteFile(t, dir, ".gitignore", "gen/\ngen2/\n")
			fixture.WriteFile(t, dir, "gen/g.go", "package gen\n\nconst OLDC = 1\n")
			fixture.WriteFile(t, dir, "gen2/h.go", "package gen\n\nconst LATE = 1\n")
			link := func(target, name string) {
				t.Helper()
				if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
			}
			link("real.go", "p/alias.go")
			link("gen", "genlink")
			link(filepath.Join(dir, "p/real.go"), "abs.go")
			ix, root, _ := testIndex(t, dir, "-", mode == "sweep")
			names := []string{"Old", "New", "Newer", "OLDC", "NEWC", "LATE", "gen", "p"}
			check := func(what string) { t.Helper(); sameAnswers(t, what, ix, root, names) }
			check("start")
			time.Sleep(50 * time.Millisecond)
			fixture.WriteFile(t, dir, "p/real.go", "package p\n\nfunc New() {}\n")
			check("file behind links rewritten")
			fixture.WriteFile(t, dir, "gen/g.go", "package gen\n\nconst NEWC = 1\n")
			check("file in an ignored folder behind a link rewritten")
			fixture.WriteFile(t, dir, "gen/sub/new.go", "package sub\n\nconst NEWC = 2\n")
			check("file created in an ignored folder behind a link")
			link("gen2", "late")
			check("folder link made after the start")
			fixture.WriteFile(t, dir, "gen2/h.go", "package gen\n\nconst NEWC = 3\n")
			check("file behind the late link rewritten")
			link("real.go", "p/alias2.go")
			fixture.WriteFile(t, dir, "p/real.go", "package p\n\nfunc Newer() {}\n")
			check("file link made after the start, target rewritten")
			os.Remove(filepath.Join(dir, "genlink"))
			check("link removed")
		})
	}
}

// TestIndexCacheSameSizeOldTime: a file rewritten in place with the same
// size, then given its old modification time back, is read again after a
// restart: its status change time differs from the cached one (issue 11,
// defect 8).
func TestIndexCacheSameSizeOldTime(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fixture.WriteFile(t, dir, "a.go", "package a\n\nfunc AAA() {}\n")
	p := filepath.Join(dir, "a.go")
	old := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(t.TempDir(), "files")
	ix, _, _ := testIndex(t, dir, cache, true)
	ix.Close()
	time.Sleep(20 * time.Millisecond) // past the kernel's coarse clock tick
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("BBB"), int64(len("package a\n\nfunc "))); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	ix2, root, _ := testIndex(t, dir, cache, true)
	sameAnswers(t, "rewritten in place", ix2, root, []string{"AAA", "BBB"})
	ix2.Close()
}
