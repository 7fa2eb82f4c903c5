package impact

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/project"
)

// The tests below are issue 43's reproductions: a repository that names
// programs (filter drivers, remotes) or another repository's files gets
// none of them run or read. Each failed with c4558b7, which ran git.

// marker returns a shell script that touches a marker file (and sleeps
// for sleep), and a function reporting whether it ran.
func marker(t *testing.T, name, sleep string) (script string, ran func() bool) {
	t.Helper()
	dir := t.TempDir()
	mark := filepath.Join(dir, name+".ran")
	script = filepath.Join(dir, name+".sh")
	body := "#!/bin/sh\ntouch " + mark + "\n"
	if sleep != "" {
		body += "sleep " + sleep + "\n"
	}
	body += "cat\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, func() bool { _, err := os.Stat(mark); return err == nil }
}

// appendConfig adds text to a repository's configuration file.
func appendConfig(t *testing.T, gitDir, text string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(gitDir, "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// changesErr runs Changes on dir against base, within a deadline.
func changesErr(t *testing.T, dir, base string, limit time.Duration) (*ChangeSet, error, time.Duration) {
	t.Helper()
	root, err := project.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	start := time.Now()
	cs, err := Changes(ctx, root, base, nil, nil)
	return cs, err, time.Since(start)
}

// TestChangesFilterNames (issue 43, 1a): filter drivers whose names hold
// "=" (git read an override of filter.x=y.clean as the key filter.x), in
// .gitattributes and in .git/info/attributes, never run; the file is
// compared as stored and says so.
func TestChangesFilterNames(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"x=y", "a=b=c"} {
		dir := changeRepo(t, map[string]string{"a.go": "package a\n\nfunc A() {}\n"})
		script, ran := marker(t, "clean", "")
		appendConfig(t, filepath.Join(dir, ".git"), fmt.Sprintf("[filter %q]\n\tclean = %s\n\tsmudge = %s\n\trequired = true\n", name, script, script))
		fixture.WriteFile(t, dir, ".gitattributes", "*.go filter="+name+"\n")
		fixture.WriteFile(t, dir, ".git/info/attributes", "*.go filter="+name+"\n")
		fixture.WriteFile(t, dir, "a.go", "package a\n\nfunc A() { println() }\n")
		cs, err, _ := changesErr(t, dir, "", 10*time.Second)
		if ran() {
			t.Errorf("filter %q: its clean command ran", name)
		}
		if err != nil {
			t.Fatalf("filter %q: %v", name, err)
		}
		got := changeLines(cs)
		if !slices.Contains(got, "modified a.go:3 A +1 -1") {
			t.Errorf("filter %q: Changes = %q; want A modified", name, got)
		}
		for _, f := range cs.Files {
			if f.Path == "a.go" && f.Filter != name {
				t.Errorf("filter %q: a.go's Filter = %q", name, f.Filter)
			}
		}
	}
}

// TestChangesManyFilters (issue 43, 1b): 100 filter drivers with 700 KB
// names (git's listing of them passed c4558b7's output cap, and none was
// emptied) and a real one: none runs.
func TestChangesManyFilters(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 70 MB configuration")
	}
	dir := changeRepo(t, map[string]string{"a.go": "package a\n\nfunc A() {}\n"})
	script, ran := marker(t, "clean", "")
	var cfg strings.Builder
	long := strings.Repeat("n", 700<<10)
	for i := range 100 {
		fmt.Fprintf(&cfg, "[filter \"%s%d\"]\n\tclean = %s\n", long, i, script)
	}
	fmt.Fprintf(&cfg, "[filter \"real\"]\n\tclean = %s\n\trequired = true\n", script)
	appendConfig(t, filepath.Join(dir, ".git"), cfg.String())
	fixture.WriteFile(t, dir, ".gitattributes", "*.go filter=real\n")
	fixture.WriteFile(t, dir, "a.go", "package a\n\nfunc A() { println() }\n")
	cs, err, _ := changesErr(t, dir, "", 30*time.Second)
	if ran() {
		t.Error("the real filter's clean command ran")
	}
	if err != nil {
		t.Fatal(err)
	}
	if got := changeLines(cs); !slices.Contains(got, "modified a.go:3 A +1 -1") {
		t.Errorf("Changes = %q; want A modified", got)
	}
}

// TestChangesSubmoduleConfig (issue 43, 1c and 9): a submodule's own
// configuration names a filter (git's check of the submodule's status ran
// it, and a slow one held the call past its bound): nothing runs, the
// submodule is not entered, and the answer comes at once.
func TestChangesSubmoduleConfig(t *testing.T) {
	t.Parallel()
	sub := changeRepo(t, map[string]string{"s.go": "package s\n\nfunc S() {}\n"})
	dir := changeRepo(t, map[string]string{"a.go": "package a\n"})
	git(t, dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "sub")
	git(t, dir, "commit", "-q", "-m", "sub")
	script, ran := marker(t, "subclean", "20")
	modules := filepath.Join(dir, ".git", "modules", "sub")
	appendConfig(t, modules, fmt.Sprintf("[filter \"evil\"]\n\tclean = %s\n\tprocess = %s\n\trequired = true\n[core]\n\tfsmonitor = %s\n", script, script, script))
	fixture.WriteFile(t, filepath.Join(dir, "sub"), ".gitattributes", "* filter=evil\n")
	// An edit that keeps the file's size: git must read it (through the
	// filter) to know that it changed.
	fixture.WriteFile(t, filepath.Join(dir, "sub"), "s.go", "package s\n\nfunc T() {}\n")
	fixture.WriteFile(t, dir, "a.go", "package a\n\nfunc A() {}\n")
	cs, err, took := changesErr(t, dir, "", 10*time.Second)
	if ran() {
		t.Error("the submodule's filter ran")
	}
	if took > 3*time.Second {
		t.Errorf("Changes took %v with a slow filter in a submodule; want well within 4 s", took)
	}
	if err != nil {
		t.Fatal(err)
	}
	if got, want := changeLines(cs), []string{"added a.go:3 A +1 -0", "file a.go<-a.go top +1 -0 nodefs=false"}; !slices.Equal(got, want) {
		t.Errorf("Changes = %q; want %q (the submodule's edit is its own)", got, want)
	}
}

// partialClone makes a blobless clone (git clone --filter=blob:none) of
// a repository whose a.go changed in its last commit: the clone lacks
// the previous a.go's blob.
func partialClone(t *testing.T) string {
	t.Helper()
	origin := changeRepo(t, map[string]string{"a.go": "package a\n\nfunc A() {}\n"})
	fixture.WriteFile(t, origin, "a.go", "package a\n\nfunc A() {}\n\nfunc B() {}\n")
	git(t, origin, "commit", "-q", "-am", "B")
	git(t, origin, "config", "uploadpack.allowFilter", "true")
	dir := filepath.Join(t.TempDir(), "clone")
	git(t, origin, "-c", "protocol.file.allow=always", "clone", "-q", "--no-local", "--filter=blob:none", "file://"+origin, dir)
	return dir
}

// TestChangesPartialClone (issue 43, 2): a base whose blobs a partial
// clone lacks is a clear error naming the object, never a fetch through
// the remote the repository names (an ext:: command, an uploadpack
// command, an HTTP URL), whatever its protocol.*.allow says.
func TestChangesPartialClone(t *testing.T) {
	fixture.NeedGit(t)
	var mu sync.Mutex
	var requests []string
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests = append(requests, r.Method+" "+r.URL.String())
		mu.Unlock()
		http.NotFound(w, r)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	extScript, extRan := marker(t, "ext", "40")
	packScript, packRan := marker(t, "uploadpack", "40")
	for _, c := range []struct {
		name, config string
		ran          func() bool
	}{
		{"ext", "[protocol \"ext\"]\n\tallow = always\n[remote \"origin\"]\n\turl = ext::" + extScript + "\n", extRan},
		{"uploadpack", "[protocol \"file\"]\n\tallow = always\n[remote \"origin\"]\n\tuploadpack = " + packScript + "\n", packRan},
		{"http", "[protocol \"http\"]\n\tallow = always\n[remote \"origin\"]\n\turl = http://" + ln.Addr().String() + "/repo.git\n", func() bool { return false }},
	} {
		dir := partialClone(t)
		if c.name != "uploadpack" {
			git(t, dir, "config", "--unset-all", "remote.origin.url")
		}
		appendConfig(t, filepath.Join(dir, ".git"), c.config)
		_, err, took := changesErr(t, dir, "HEAD~1", 10*time.Second)
		if c.ran() {
			t.Errorf("%s: the remote's command ran", c.name)
		}
		if err == nil || !strings.Contains(err.Error(), "lacks object") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: Changes = %v; want one line saying which object the repository lacks", c.name, err)
		}
		if took > 3*time.Second {
			t.Errorf("%s: Changes took %v", c.name, took)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(requests) > 0 {
		t.Errorf("Changes made HTTP requests: %q", requests)
	}
}

// secretRepo makes another repository, outside the project, whose files
// define names that must never show up in the project's answers.
func secretRepo(t *testing.T) string {
	t.Helper()
	dir := changeRepo(t, map[string]string{
		"keys.go":    "package keys\n\nfunc PrivateKeyLoader() {}\n",
		"billing.py": "def billing_secret_formula():\n    return 42\n",
	})
	git(t, dir, "branch", "-q", "-M", "main")
	return dir
}

// TestChangesOutsideRepository (issue 43, 10): a .git file naming
// another repository (gitdir: /elsewhere), a .git link to one, a commondir
// or alternates outside the project, and a .git naming another
// repository's linked work tree are refused; the other repository's
// definitions are never listed.
func TestChangesOutsideRepository(t *testing.T) {
	t.Parallel()
	secret := secretRepo(t)
	otherWT := filepath.Join(t.TempDir(), "other-wt")
	git(t, secret, "worktree", "add", "-q", "-b", "wt", otherWT)
	cases := map[string]func(dir string){
		"gitdir file": func(dir string) {
			fixture.WriteFile(t, dir, ".git", "gitdir: "+filepath.Join(secret, ".git")+"\n")
		},
		"gitdir file, relative": func(dir string) {
			rel, err := filepath.Rel(dir, filepath.Join(secret, ".git"))
			if err != nil {
				t.Fatal(err)
			}
			fixture.WriteFile(t, dir, ".git", "gitdir: "+rel+"\n")
		},
		"link": func(dir string) {
			if err := os.Symlink(filepath.Join(secret, ".git"), filepath.Join(dir, ".git")); err != nil {
				t.Fatal(err)
			}
		},
		"another work tree's": func(dir string) {
			fixture.WriteFile(t, dir, ".git", "gitdir: "+filepath.Join(secret, ".git", "worktrees", "other-wt")+"\n")
		},
		"commondir": func(dir string) {
			fixture.GitInit(t, dir)
			fixture.WriteFile(t, dir, ".git/commondir", filepath.Join(secret, ".git")+"\n")
			head, _ := os.ReadFile(filepath.Join(secret, ".git", "HEAD"))
			fixture.WriteFile(t, dir, ".git/HEAD", string(head))
		},
		"alternates": func(dir string) {
			fixture.GitInit(t, dir)
			fixture.WriteFile(t, dir, ".git/objects/info/alternates", filepath.Join(secret, ".git", "objects")+"\n")
			id := strings.TrimSpace(git(t, secret, "rev-parse", "HEAD"))
			fixture.WriteFile(t, dir, ".git/HEAD", id+"\n")
		},
	}
	for name, setup := range cases {
		dir := t.TempDir()
		fixture.WriteFile(t, dir, "main.go", "package main\n\nfunc main() {}\n")
		setup(dir)
		cs, err, _ := changesErr(t, dir, "", 10*time.Second)
		if cs != nil {
			for _, l := range changeLines(cs) {
				if strings.Contains(l, "PrivateKeyLoader") || strings.Contains(l, "billing_secret_formula") || strings.Contains(l, "keys.go") {
					t.Errorf("%s: the other repository's files are listed: %q", name, changeLines(cs))
					break
				}
			}
		}
		if err == nil || !strings.Contains(err.Error(), "outside the project") {
			t.Errorf("%s: Changes error = %v; want a refusal saying the repository is outside the project", name, err)
		}
	}
}
