package gitread

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/internal/fixture"
)

// gitOut runs git in dir for a test.
func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return gitEnvOut(t, dir, nil, args...)
}

// gitEnvOut is gitOut with more environment.
func gitEnvOut(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
	cmd.Dir, cmd.Env = dir, append(fixture.GitEnv(dir), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// historyRepo makes a repository with branches, merges (a criss-cross
// among them), an annotated tag, commits a second apart, packed refs for
// half of it and a commit-graph file when graph is true.
func historyRepo(t *testing.T, graph bool) string {
	t.Helper()
	fixture.NeedGit(t)
	dir := t.TempDir()
	fixture.GitInit(t, dir)
	n := 0
	// Each commit a second after the one before, the merges too.
	git := func(args ...string) {
		n++
		date := fmt.Sprintf("2020-01-01T00:00:%02d", n)
		gitEnvOut(t, dir, []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}, args...)
	}
	commit := func(msg string) {
		fixture.WriteFile(t, dir, "f.txt", strings.Repeat("x\n", n+1))
		gitOut(t, dir, "add", "f.txt")
		git("commit", "-q", "-m", msg)
	}
	commit("root")
	git("branch", "-M", "main")
	commit("m1")
	git("checkout", "-q", "-b", "a")
	commit("a1")
	git("checkout", "-q", "-b", "b", "main")
	commit("b1")
	git("checkout", "-q", "a")
	git("merge", "-q", "--no-edit", "-s", "ours", "b")
	git("checkout", "-q", "b")
	git("merge", "-q", "--no-edit", "-s", "ours", "a~1")
	commit("b2")
	git("checkout", "-q", "a")
	commit("a2")
	git("tag", "-a", "-m", "v1", "v1", "main")
	git("checkout", "-q", "main")
	commit("m2")
	git("pack-refs", "--all")
	git("checkout", "-q", "-b", "c")
	commit("c1")
	if graph {
		git("commit-graph", "write", "--reachable")
	}
	return dir
}

// TestResolveAndMergeBase compares Resolve with git rev-parse and
// MergeBase with git merge-base on a history with merges, a criss-cross,
// packed and loose refs and an annotated tag, with and without a
// commit-graph file.
func TestResolveAndMergeBase(t *testing.T) {
	for _, graph := range []bool{false, true} {
		dir := historyRepo(t, graph)
		r, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		revs := []string{"HEAD", "main", "a", "b", "c", "v1", "HEAD~1", "a^", "a~1^2", "b~2", "b~1^2~1", "refs/heads/a", "heads/b", "v1^{commit}", "HEAD^0", "@"}
		short := gitOut(t, dir, "rev-parse", "--short=7", "a")
		revs = append(revs, short)
		for _, rev := range revs {
			want := gitOut(t, dir, "rev-parse", "--verify", rev+"^{commit}")
			got, err := r.Resolve(rev)
			if err != nil || got != want {
				t.Errorf("graph=%v: Resolve(%q) = %s, %v; want %s", graph, rev, got, err, want)
			}
		}
		for _, bad := range []string{"nope", "--output=x", "a..b", "a:f.txt", "HEAD~99", "a^3", "ffffffff"} {
			if got, err := r.Resolve(bad); err == nil {
				t.Errorf("Resolve(%q) = %s; want an error", bad, got)
			}
		}
		for _, a := range []string{"main", "a", "b", "c", "v1"} {
			for _, b := range []string{"main", "a", "b", "c"} {
				ia, _ := r.Resolve(a)
				ib, _ := r.Resolve(b)
				want := gitOut(t, dir, "merge-base", a, b)
				got, err := r.MergeBase(ia, ib)
				if err != nil || got != want {
					t.Errorf("graph=%v: MergeBase(%s, %s) = %s, %v; want %s", graph, a, b, got, err, want)
				}
			}
		}
	}
}

// TestAlternatesInside: a repository that borrows its objects from a
// folder inside the work tree (objects/info/alternates) is read through
// it; one that borrows from outside is refused.
func TestAlternatesInside(t *testing.T) {
	src := historyRepo(t, false)
	head := gitOut(t, src, "rev-parse", "HEAD")
	dir := t.TempDir()
	fixture.GitInit(t, dir)
	store := filepath.Join(dir, "store")
	if err := os.CopyFS(filepath.Join(store, "objects"), os.DirFS(filepath.Join(src, ".git", "objects"))); err != nil {
		t.Fatal(err)
	}
	fixture.WriteFile(t, dir, ".git/objects/info/alternates", filepath.Join(store, "objects")+"\n")
	fixture.WriteFile(t, dir, ".git/refs/heads/main", head+"\n")
	fixture.WriteFile(t, dir, ".git/HEAD", "ref: refs/heads/main\n")
	r, err := Open(dir)
	if err != nil {
		t.Fatalf("Open with alternates inside the work tree: %v", err)
	}
	defer r.Close()
	got, err := r.Resolve("HEAD~1")
	if want := gitOut(t, src, "rev-parse", "HEAD~1"); err != nil || got != want {
		t.Errorf("Resolve(HEAD~1) through alternates = %s, %v; want %s", got, err, want)
	}
	fixture.WriteFile(t, dir, ".git/objects/info/alternates", filepath.Join(src, ".git", "objects")+"\n")
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "outside the project") {
		t.Errorf("Open with alternates outside = %v; want a refusal", err)
	}
}
