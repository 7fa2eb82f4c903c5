package project

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/zumba-dev/zumba/internal/fixture"
)

// gitFiles lists what git itself covers in dir: tracked files and untracked
// ones its ignore rules keep.
func gitFiles(t *testing.T, dir string) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = dir
	cmd.Env = fixture.GitEnv(dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	return files
}

func walkPaths(t *testing.T, dir string) []string {
	t.Helper()
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, err := root.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range files {
		paths = append(paths, e.Path)
	}
	return paths
}

// TestFixturesAgainstGit checks the walk of each fixture with ignore rules
// against git ls-files, minus what the size rule drops.
func TestFixturesAgainstGit(t *testing.T) {
	t.Parallel()
	fixture.NeedGit(t)
	for _, name := range []string{"ignore"} {
		a, err := txtar.ParseFile(filepath.Join(fixtureDir, name+".txtar"))
		if err != nil {
			t.Fatal(err)
		}
		dir := unpack(t, a)
		info, _ := os.ReadFile(filepath.Join(dir, ".git/info/exclude"))
		os.RemoveAll(filepath.Join(dir, ".git"))
		fixture.GitInit(t, dir)
		if err := os.WriteFile(filepath.Join(dir, ".git/info/exclude"), info, 0o644); err != nil {
			t.Fatal(err)
		}
		want := gitFiles(t, dir)
		if diff := cmp.Diff(want, walkPaths(t, dir)); diff != "" {
			t.Errorf("%s: walk differs from git ls-files (-git +walk):\n%s", name, diff)
		}
	}
}

// Pieces the random ignore files are made of.
var (
	genNames = []string{"a", "b", "c", "foo", "bar", "x.go", "y.log", "z.txt", "build", "docs", "#h", "!n", "a b", "Tmp", "ab", "a.b.c"}
	genGlobs = []string{
		"*", "*.log", "*.go", "a", "b/", "/a", "/b/", "foo", "foo/", "**/foo", "foo/**", "a/**/b", "**/b/*.go",
		"*/c", "/*/c", "x.*", "[ab]", "[!a]*", "[a-c]b", "?", "??", "a?", "\\#h", "\\!n", "#h", "!n", "a\\ b",
		"a b", "docs/*.txt", "docs/**", "build", "/build/", "b/*", "*.b.*", "[[:alpha:]]*", "[[:digit:]]",
		"T*", "t*", "**", "**/", "a/**", "**/a/**", "c/", "*/", "/**/z.txt", "z.txt ", "z.txt\\ ", "[]]", "[a-]",
		"**foo", "foo**", "a/*/", "[a-z]*/", "*.[gl]o*", "\\[ab]", "a[/]b", "***", "a/***/b", "*/**/c", "[!]a]", "[[:space:]]b",
		"x.go/", "docs/", "/docs/*", "a/b/c", "**/**/c", "c/**/", "#comment", "\\*", "a\\b", "\\a",
	}
)

// TestWalkAgainstGit builds repositories with random trees and random
// nested ignore files and compares the walk with git ls-files.
func TestWalkAgainstGit(t *testing.T) {
	t.Parallel()
	fixture.NeedGit(t)
	n := 60
	if testing.Short() {
		n = 10
	}
	all, pruned := 0, 0
	defer func() { t.Logf("%d of %d trees had files ignored", pruned, all) }()
	for seed := range n {
		r := rand.New(rand.NewPCG(uint64(seed), 42))
		dir := t.TempDir()
		fixture.GitInit(t, dir)
		var dirs []string
		var mk func(rel string, depth int)
		mk = func(rel string, depth int) {
			dirs = append(dirs, rel)
			for range 2 + r.IntN(5) {
				name := genNames[r.IntN(len(genNames))]
				p := filepath.Join(dir, rel, name)
				if depth < 3 && r.IntN(3) == 0 {
					if os.Mkdir(p, 0o755) == nil {
						mk(filepath.Join(rel, name), depth+1)
					}
					continue
				}
				if _, err := os.Stat(p); err == nil {
					continue
				}
				os.WriteFile(p, []byte("x\n"), 0o644)
			}
		}
		mk(".", 0)
		var rules []string
		for _, d := range dirs {
			if r.IntN(2) == 0 {
				continue
			}
			var lines []string
			for range 1 + r.IntN(5) {
				g := genGlobs[r.IntN(len(genGlobs))]
				if r.IntN(3) == 0 {
					g = "!" + g
				}
				lines = append(lines, g)
			}
			rules = append(rules, fmt.Sprintf("%s/.gitignore: %q", d, lines))
			os.WriteFile(filepath.Join(dir, d, ".gitignore"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		}
		if r.IntN(2) == 0 {
			g := genGlobs[r.IntN(len(genGlobs))]
			rules = append(rules, fmt.Sprintf(".git/info/exclude: %q", g))
			os.WriteFile(filepath.Join(dir, ".git/info/exclude"), []byte(g+"\n"), 0o644)
		}
		want := gitFiles(t, dir)
		got := walkPaths(t, dir)
		all++
		if len(got) < countFiles(dir) {
			pruned++
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("seed %d: walk differs from git ls-files (-git +walk):\n%s\nrules:\n%s", seed, diff, strings.Join(rules, "\n"))
		}
	}
}

// countFiles counts the files under dir, outside .git.
func countFiles(dir string) int {
	n := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}
