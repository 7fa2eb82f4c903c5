package impact

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/project"
)

// git runs git in dir for a test, as a user would.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitCmd(dir, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// gitCmd is the git command git runs.
func gitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = fixture.GitEnv(dir)
	return cmd
}

// changeRepo makes a repository holding files, committed.
func changeRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	fixture.NeedGit(t)
	dir := t.TempDir()
	fixture.GitInit(t, dir)
	for name, text := range files {
		fixture.WriteFile(t, dir, name, text)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "base")
	return dir
}

// changeLines is a change set as "KIND PATH:LINE NAME +A -D" lines, and
// the files' lines.
func changeLines(cs *ChangeSet) []string {
	var out []string
	for _, d := range cs.Defs {
		kind := [...]string{Modified: "modified", Added: "added", Removed: "removed"}[d.Kind]
		out = append(out, fmt.Sprintf("%s %s:%d %s +%d -%d", kind, d.Def.Path, d.Def.Line, d.Def.QualifiedName(), d.Added, d.Deleted))
	}
	for _, f := range cs.Files {
		out = append(out, fmt.Sprintf("file %s<-%s top +%d -%d nodefs=%v", f.Path, f.OldPath, f.TopAdded, f.TopDeleted, f.NoDefinitions))
	}
	return out
}

func changes(t *testing.T, dir, base string) *ChangeSet {
	t.Helper()
	root, err := project.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := Changes(context.Background(), root, base, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestChanges: an edit inside a function, a function removed, one added,
// a file renamed and edited, a file deleted, an untracked file, CRLF
// lines, and a file without a grammar; each definition in the innermost
// definition holding its changed lines.
func TestChanges(t *testing.T) {
	t.Parallel()
	dir := changeRepo(t, map[string]string{
		"a.go":      "package a\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 2\n}\n\nfunc C() {}\n",
		"old.py":    "class K:\n    def m(self):\n        return 1\n\n    def n(self):\n        return 2\n",
		"gone.go":   "package a\n\nfunc Gone() {}\n",
		"crlf.ts":   "function f() {\r\n  return 1;\r\n}\r\n",
		"notes.txt": "one\n",
	})
	fixture.WriteFile(t, dir, "a.go", "package a\n\nimport \"fmt\"\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\tfmt.Println()\n\treturn 2\n}\n\nfunc D() {}\n")
	git(t, dir, "mv", "old.py", "new.py")
	fixture.WriteFile(t, dir, "new.py", "class K:\n    def m(self):\n        return 1\n\n    def n(self):\n        return 3\n")
	os.Remove(filepath.Join(dir, "gone.go"))
	fixture.WriteFile(t, dir, "crlf.ts", "function f() {\r\n  return 2;\r\n}\r\n")
	fixture.WriteFile(t, dir, "untracked.rs", "fn u() {}\n\nstruct S {\n    x: i32,\n}\n")
	fixture.WriteFile(t, dir, "notes.txt", "two\n")
	got := changeLines(changes(t, dir, ""))
	want := []string{
		"removed a.go:11 C +0 -1",
		"removed gone.go:3 Gone +0 -1",
		"modified a.go:9 B +1 -0",
		"modified crlf.ts:1 f +1 -1",
		"modified new.py:5 K.n +1 -1",
		"added a.go:14 D +1 -0",
		"added untracked.rs:1 u +1 -0",
		"added untracked.rs:3 S +3 -0",
		"file a.go<-a.go top +2 -0 nodefs=false",
		"file crlf.ts<-crlf.ts top +0 -0 nodefs=false",
		"file <-gone.go top +0 -2 nodefs=false",
		"file new.py<-old.py top +0 -0 nodefs=false",
		"file notes.txt<-notes.txt top +0 -0 nodefs=true",
		"file untracked.rs<- top +1 -0 nodefs=false",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Changes (-want +got):\n%s", diff)
	}
}

// TestChangesBase: with a base, the work tree against the merge base of
// the base and HEAD, as a pull request shows it.
func TestChangesBase(t *testing.T) {
	t.Parallel()
	dir := changeRepo(t, map[string]string{"a.go": "package a\n\nfunc A() {}\n"})
	git(t, dir, "branch", "-q", "-M", "main")
	git(t, dir, "checkout", "-q", "-b", "topic")
	fixture.WriteFile(t, dir, "a.go", "package a\n\nfunc A() {}\n\nfunc T() {}\n")
	git(t, dir, "commit", "-q", "-am", "topic")
	git(t, dir, "checkout", "-q", "main")
	fixture.WriteFile(t, dir, "b.go", "package a\n\nfunc M() {}\n")
	git(t, dir, "add", "b.go")
	git(t, dir, "commit", "-q", "-m", "main moves on")
	git(t, dir, "checkout", "-q", "topic")
	if got, want := changeLines(changes(t, dir, "main")), []string{"added a.go:5 T +1 -0", "file a.go<-a.go top +1 -0 nodefs=false"}; !slices.Equal(got, want) {
		t.Errorf("Changes(main) = %q; want %q (M is main's, not the branch's)", got, want)
	}
	if cs := changes(t, dir, ""); len(cs.Files) != 0 {
		t.Errorf("Changes(HEAD) of a clean tree = %q; want none", changeLines(cs))
	}
}

// TestChangesErrors: each way the repository cannot answer is one line
// that says which; no git binary is needed.
func TestChangesErrors(t *testing.T) {
	dir := changeRepo(t, map[string]string{"a.go": "package a\n"})
	plain := t.TempDir()
	for _, c := range []struct {
		dir, base, want string
	}{
		{plain, "", "not in a git repository"},
		{dir, "no-such-branch", "unknown base no-such-branch"},
		{dir, "--output=/tmp/x", "unknown base --output=/tmp/x"},
	} {
		root, err := project.OpenRoot(c.dir)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Changes(context.Background(), root, c.base, nil, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Changes(%s, %q) error = %v; want one saying %q", filepath.Base(c.dir), c.base, err, c.want)
		}
	}
	root, err := project.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	// git itself is never run: without it on PATH the answer is the same.
	fixture.WriteFile(t, dir, "a.go", "package a\n\nfunc A() {}\n")
	t.Setenv("PATH", t.TempDir())
	cs, err := Changes(context.Background(), root, "", nil, nil)
	if err != nil || !slices.Equal(changeLines(cs), []string{"added a.go:3 A +1 -0", "file a.go<-a.go top +1 -0 nodefs=false"}) {
		t.Errorf("Changes without git on PATH = %v, %v; want A added", changeLines(cs), err)
	}
}

// TestChangesRunsNothing: a repository whose configuration names programs
// (a file system monitor, an external diff, a text conversion, a clean
// filter, a pager, hooks, an ssh command) gets none of them run.
func TestChangesRunsNothing(t *testing.T) {
	t.Parallel()
	dir := changeRepo(t, map[string]string{"a.go": "package a\n\nfunc A() {}\n", "b.txt": "b\n"})
	marks := t.TempDir()
	mark := func(name string) string {
		script := filepath.Join(marks, name+".sh")
		if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch "+filepath.Join(marks, name)+"\ncat\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return script
	}
	hooks := filepath.Join(dir, "hooks")
	os.MkdirAll(hooks, 0o755)
	for _, h := range []string{"post-checkout", "pre-commit", "post-index-change", "reference-transaction", "fsmonitor-watchman"} {
		os.WriteFile(filepath.Join(hooks, h), []byte("#!/bin/sh\ntouch "+filepath.Join(marks, "hook-"+h)+"\n"), 0o755)
	}
	config := fmt.Sprintf(`[core]
	fsmonitor = %s
	pager = %s
	hooksPath = %s
	sshCommand = %s
	attributesFile = %s
[diff]
	external = %s
[diff "tc"]
	textconv = %s
	command = %s
[filter "evil"]
	clean = %s
	smudge = %s
	process = %s
	required = true
[pager]
	diff = %s
`, mark("fsmonitor"), mark("pager"), hooks, mark("ssh"), filepath.Join(dir, "attrs"),
		mark("external"), mark("textconv"), mark("diffcommand"), mark("clean"), mark("smudge"), mark("process"), mark("pagerdiff"))
	f, err := os.OpenFile(filepath.Join(dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(config)
	f.Close()
	fixture.WriteFile(t, dir, ".gitattributes", "* filter=evil diff=tc\n")
	fixture.WriteFile(t, dir, "attrs", "* filter=evil diff=tc\n")
	fixture.WriteFile(t, dir, "a.go", "package a\n\nfunc A() { println() }\n")
	fixture.WriteFile(t, dir, "b.txt", "c\n")
	got := changeLines(changes(t, dir, ""))
	if !slices.Contains(got, "modified a.go:3 A +1 -1") {
		t.Errorf("Changes = %q; want A modified", got)
	}
	ran, _ := filepath.Glob(filepath.Join(marks, "*"))
	ran = slices.DeleteFunc(ran, func(p string) bool { return strings.HasSuffix(p, ".sh") })
	if len(ran) > 0 {
		t.Errorf("git ran programs the repository names: %q", ran)
	}
}

// TestChangesMovedText: a definition moved within its file, its text
// unchanged, is not listed even though git's hunks delete and add its
// lines; one moved and edited is.
func TestChangesMovedText(t *testing.T) {
	t.Parallel()
	dir := changeRepo(t, map[string]string{
		"a.go": "package a\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 2\n}\n",
		"b.go": "package a\n\nfunc C() int {\n\treturn 1\n}\n\nfunc D() int {\n\treturn 2\n}\n",
	})
	fixture.WriteFile(t, dir, "a.go", "package a\n\nfunc B() int {\n\treturn 2\n}\n\nfunc A() int {\n\treturn 1\n}\n")
	fixture.WriteFile(t, dir, "b.go", "package a\n\nfunc D() int {\n\treturn 2\n}\n\nfunc C() int {\n\treturn 3\n}\n")
	got := changeLines(changes(t, dir, ""))
	var defs []string
	for _, l := range got {
		if !strings.HasPrefix(l, "file ") {
			defs = append(defs, l)
		}
	}
	if len(defs) != 1 || !strings.HasPrefix(defs[0], "modified b.go:7 C ") {
		t.Errorf("Changes = %q; want only C modified", got)
	}
}

// TestChangesSameNames: definitions of one name are told apart by their
// order, the third as well as the second.
func TestChangesSameNames(t *testing.T) {
	t.Parallel()
	dir := changeRepo(t, map[string]string{
		"a.go": "package a\n\nfunc init() {}\n\nfunc init() {}\n\nfunc init() {}\n\nfunc init() {}\n",
	})
	fixture.WriteFile(t, dir, "a.go", "package a\n\nfunc init() {}\n\nfunc init() {}\n")
	got := changeLines(changes(t, dir, ""))
	want := []string{"removed a.go:7 init +0 -1", "removed a.go:9 init +0 -1", "file a.go<-a.go top +0 -2 nodefs=false"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Changes (-want +got):\n%s", diff)
	}
}
