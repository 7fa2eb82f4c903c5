package impact

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/project"
)

// TestChangesConflict: a file left with conflict markers by a merge is
// read as it is: the function holding them is modified.
func TestChangesConflict(t *testing.T) {
	t.Parallel()
	dir := changeRepo(t, map[string]string{"a.go": "package a\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() {}\n"})
	git(t, dir, "branch", "-q", "-M", "main")
	git(t, dir, "checkout", "-q", "-b", "topic")
	fixture.WriteFile(t, dir, "a.go", "package a\n\nfunc A() int {\n\treturn 2\n}\n\nfunc B() {}\n")
	git(t, dir, "commit", "-q", "-am", "topic")
	git(t, dir, "checkout", "-q", "main")
	fixture.WriteFile(t, dir, "a.go", "package a\n\nfunc A() int {\n\treturn 3\n}\n\nfunc B() {}\n")
	git(t, dir, "commit", "-q", "-am", "main")
	cmd := gitCmd(dir, "merge", "-q", "topic")
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("git merge did not conflict:\n%s", out)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "a.go"))
	if !strings.Contains(string(data), "<<<<<<<") {
		t.Fatalf("a.go has no conflict markers:\n%s", data)
	}
	got := changeLines(changes(t, dir, ""))
	want := []string{"modified a.go:3 A +4 -0", "file a.go<-a.go top +0 -0 nodefs=false"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Changes in a conflicted merge (-want +got):\n%s", diff)
	}
}

// TestChangesSubmodule: a submodule whose commit moved is one changed
// path with no definitions read; its own files are not the project's
// change.
func TestChangesSubmodule(t *testing.T) {
	t.Parallel()
	sub := changeRepo(t, map[string]string{"s.go": "package s\n\nfunc S() {}\n"})
	dir := changeRepo(t, map[string]string{"a.go": "package a\n"})
	git(t, dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "sub")
	git(t, dir, "commit", "-q", "-m", "sub")
	fixture.WriteFile(t, filepath.Join(dir, "sub"), "s.go", "package s\n\nfunc S() {}\n\nfunc T() {}\n")
	git(t, filepath.Join(dir, "sub"), "commit", "-q", "-am", "T")
	fixture.WriteFile(t, filepath.Join(dir, "sub"), "s.go", "package s\n\nfunc S() {}\n\nfunc T() {}\n\nfunc U() {}\n")
	got := changeLines(changes(t, dir, ""))
	want := []string{"file sub<-sub top +0 -0 nodefs=true"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Changes with a submodule moved and dirty (-want +got):\n%s", diff)
	}
}

// TestChangesWorktree: in a linked work tree (git worktree add), the
// change is that work tree's, against its own HEAD.
func TestChangesWorktree(t *testing.T) {
	t.Parallel()
	dir := changeRepo(t, map[string]string{"a.go": "package a\n\nfunc A() {}\n"})
	git(t, dir, "branch", "-q", "-M", "main")
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, dir, "worktree", "add", "-q", "-b", "other", wt)
	fixture.WriteFile(t, wt, "a.go", "package a\n\nfunc A() {}\n\nfunc W() {}\n")
	if got, want := changeLines(changes(t, wt, "")), []string{"added a.go:5 W +1 -0", "file a.go<-a.go top +1 -0 nodefs=false"}; !slices.Equal(got, want) {
		t.Errorf("Changes in the linked work tree = %q; want %q", got, want)
	}
	if cs := changes(t, dir, ""); len(cs.Files) != 0 {
		t.Errorf("Changes in the main work tree = %q; want none", changeLines(cs))
	}
	fixture.WriteFile(t, dir, "a.go", "package a\n\nfunc A() {}\n\nfunc M() {}\n")
	git(t, dir, "commit", "-q", "-am", "main")
	if got, want := changeLines(changes(t, wt, "main")), []string{"added a.go:5 W +1 -0", "file a.go<-a.go top +1 -0 nodefs=false"}; !slices.Equal(got, want) {
		t.Errorf("Changes in the linked work tree since main = %q; want %q", got, want)
	}
}

// TestChangesShallow: a shallow clone that lacks the merge base of the
// base and HEAD answers with one line saying so.
func TestChangesShallow(t *testing.T) {
	t.Parallel()
	origin := changeRepo(t, map[string]string{"a.go": "package a\n"})
	git(t, origin, "branch", "-q", "-M", "main")
	git(t, origin, "checkout", "-q", "-b", "topic")
	for _, name := range []string{"t1.go", "t2.go"} {
		fixture.WriteFile(t, origin, name, "package a\n")
		git(t, origin, "add", name)
		git(t, origin, "commit", "-q", "-m", name)
	}
	git(t, origin, "checkout", "-q", "main")
	for _, name := range []string{"m1.go", "m2.go"} {
		fixture.WriteFile(t, origin, name, "package a\n")
		git(t, origin, "add", name)
		git(t, origin, "commit", "-q", "-m", name)
	}
	dir := filepath.Join(t.TempDir(), "clone")
	git(t, origin, "clone", "-q", "--depth", "1", "--no-single-branch", "-b", "topic", "file://"+origin, dir)
	root, err := project.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Changes(context.Background(), root, "origin/main", nil, nil)
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "no merge base of origin/main and HEAD: a shallow clone") {
		t.Errorf("Changes in a shallow clone = %v; want one line saying there is no merge base", err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Changes in a shallow clone timed out")
	}
}

// TestChangesSubfolder: a project that is a folder inside a repository
// sees the changes under it, named from it, against the repository's
// HEAD; the rest of the repository's changes are not its own.
func TestChangesSubfolder(t *testing.T) {
	t.Parallel()
	dir := changeRepo(t, map[string]string{
		"a/x.go":         "package a\n\nfunc X() {}\n",
		"a/old.go":       "package a\n\nfunc Old() {}\n",
		"b/y.go":         "package b\n\nfunc Y() {}\n",
		".gitattributes": "a/*.go filter=lfs\n",
	})
	fixture.WriteFile(t, dir, "a/x.go", "package a\n\nfunc X() { println() }\n")
	fixture.WriteFile(t, dir, "b/y.go", "package b\n\nfunc Y() { println() }\n")
	fixture.WriteFile(t, dir, "a/new.go", "package a\n\nfunc N() {}\n")
	git(t, dir, "mv", "a/old.go", "a/renamed.go")
	got := changeLines(changes(t, filepath.Join(dir, "a"), ""))
	want := []string{
		"modified x.go:3 X +1 -1",
		"added new.go:3 N +1 -0",
		"file new.go<- top +2 -0 nodefs=false",
		"file renamed.go<-old.go top +0 -0 nodefs=false",
		"file x.go<-x.go top +0 -0 nodefs=false",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Changes in a subfolder (-want +got):\n%s", diff)
	}
}
