package search

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/project"
)

// changesDiffSeries are the module versions TestChangesGoDifferential
// commits, one commit per version, each series in its own repository.
var changesDiffSeries = [][]string{
	{"github.com/spf13/cobra@v1.5.0", "github.com/spf13/cobra@v1.7.0", "github.com/spf13/cobra@v1.8.1"},
	{"golang.org/x/mod@v0.8.0", "golang.org/x/mod@v0.14.0", "golang.org/x/mod@v0.17.0", "golang.org/x/mod@v0.20.0"},
	{"golang.org/x/sync@v0.1.0", "golang.org/x/sync@v0.7.0"},
}

// TestChangesGoDifferential builds git repositories from real module
// versions (fetched with the Go module proxy, so it runs only when asked:
// ZUMBA_CHANGES_DIFF=1), runs Changes between consecutive commits, and
// compares with go/ast: every top-level function, method and type whose
// text (its whole lines, doc comment included, as zumba's extents are)
// differs must be listed as modified, added or removed, and nothing else.
// A definition zumba lists inside one (an interface's method) stands for
// the top-level one holding it, modified.
//
//	ZUMBA_CHANGES_DIFF=1 go test -count=1 -run TestChangesGoDifferential -v ./search
func TestChangesGoDifferential(t *testing.T) {
	if os.Getenv("ZUMBA_CHANGES_DIFF") == "" {
		t.Skip("set ZUMBA_CHANGES_DIFF=1 to download module versions and compare changes with go/ast")
	}
	fixture.NeedGit(t)
	var agree, total int
	for _, series := range changesDiffSeries {
		dir := t.TempDir()
		fixture.GitInit(t, dir)
		var commits []string
		for _, mv := range series {
			src := downloadModule(t, mv)
			replaceTree(t, dir, src)
			git(t, dir, "add", "-A")
			git(t, dir, "commit", "-q", "--allow-empty", "-m", mv)
			commits = append(commits, strings.TrimSpace(git(t, dir, "rev-parse", "HEAD")))
		}
		root, err := project.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(series); i++ {
			git(t, dir, "checkout", "-q", "--detach", commits[i])
			cs, err := Changes(context.Background(), root, commits[i-1], nil, nil)
			if err != nil {
				t.Fatalf("Changes %s..%s: %v", series[i-1], series[i], err)
			}
			want := goDeclChanges(t, dir, commits[i-1], commits[i])
			got := zumbaDeclChanges(t, dir, commits[i-1], cs)
			a, n := compareDeclChanges(t, series[i-1]+" → "+series[i], want, got)
			agree += a
			total += n
		}
	}
	if total == 0 {
		t.Fatal("no declaration changed in any series")
	}
	t.Logf("agreement: %d of %d top-level declarations (%.2f%%)", agree, total, 100*float64(agree)/float64(total))
}

// downloadModule fetches module@version with the go command and returns
// its folder in the module cache.
func downloadModule(t *testing.T, mv string) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", mv)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("cannot download %s: %v", mv, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		t.Fatalf("go mod download %s: %s", mv, out)
	}
	return info.Dir
}

// replaceTree makes dir's work tree (all but .git) a copy of src.
func replaceTree(t *testing.T, dir, src string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != ".git" {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == src {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// declChange is what a change did to one top-level declaration: "added",
// "modified" or "removed", by "PATH NAME#N" (N: which of the file's
// declarations of that name it is).
type declChange map[string]string

// goDecl is a top-level function, method or type as go/ast reads it.
type goDecl struct {
	key        string // "NAME#N"
	start, end int    // lines, doc comment included
	text       string // its whole lines
}

// goDecls reads the top-level declarations of a Go file's contents; ok is
// false when it does not parse.
func goDecls(src []byte) ([]goDecl, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	seen := map[string]int{}
	var out []goDecl
	add := func(name string, doc *ast.CommentGroup, from, to token.Pos) {
		if doc != nil {
			from = doc.Pos()
		}
		start, end := fset.Position(from).Line, fset.Position(to).Line
		key := fmt.Sprintf("%s#%d", name, seen[name])
		seen[name]++
		out = append(out, goDecl{key: key, start: start, end: end, text: string(bytes.Join(lines[start-1:end], nil))})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) == 1 {
				name = recvName(d.Recv.List[0].Type) + "." + name
			}
			add(name, d.Doc, d.Pos(), d.End())
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, s := range d.Specs {
				ts := s.(*ast.TypeSpec)
				if !d.Lparen.IsValid() {
					add(ts.Name.Name, d.Doc, d.Pos(), d.End())
				} else {
					add(ts.Name.Name, ts.Doc, ts.Pos(), ts.End())
				}
			}
		}
	}
	return out, true
}

// goDeclChanges is the oracle: the Go files git says differ between
// commits a and b (renames followed), each version's top-level
// declarations compared by key and text.
func goDeclChanges(t *testing.T, dir, a, b string) declChange {
	t.Helper()
	out := declChange{}
	fields := strings.Split(git(t, dir, "diff", "--no-ext-diff", "--no-textconv", "-M", "--name-status", "-z", a, b), "\x00")
	for i := 0; i < len(fields); i++ {
		status := fields[i]
		if status == "" {
			continue
		}
		oldPath, newPath := fields[i+1], fields[i+1]
		i++
		switch status[0] {
		case 'R', 'C':
			newPath = fields[i+1]
			i++
		case 'A':
			oldPath = ""
		case 'D':
			newPath = ""
		}
		if !strings.HasSuffix(oldPath+newPath, ".go") {
			continue
		}
		var before, after []goDecl
		okA, okB := true, true
		if oldPath != "" {
			before, okA = goDecls([]byte(git(t, dir, "show", a+":"+oldPath)))
		}
		if newPath != "" {
			after, okB = goDecls([]byte(git(t, dir, "show", b+":"+newPath)))
		}
		if !okA || !okB {
			t.Logf("skipped %s → %s: does not parse", oldPath, newPath)
			continue
		}
		old := map[string]goDecl{}
		for _, d := range before {
			old[d.key] = d
		}
		now := map[string]bool{}
		for _, d := range after {
			now[d.key] = true
			switch o, ok := old[d.key]; {
			case !ok:
				out[newPath+" "+d.key] = "added"
			case o.text != d.text:
				out[newPath+" "+d.key] = "modified"
			}
		}
		for _, d := range before {
			if !now[d.key] {
				out[oldPath+" "+d.key] = "removed"
			}
		}
	}
	return out
}

// zumbaDeclChanges maps a change set onto the top-level declarations that
// hold its definitions (in the work tree, or at commit base for a removed
// one): a definition that is the declaration keeps its kind; one inside
// it makes it modified. Definitions in no function, method or type (Go
// constants) are left out.
func zumbaDeclChanges(t *testing.T, dir, base string, cs *ChangeSet) declChange {
	t.Helper()
	out := declChange{}
	own := map[string]bool{}
	cache := map[string][]goDecl{}
	for _, d := range cs.Defs {
		if !strings.HasSuffix(d.Def.Path, ".go") {
			continue
		}
		kind := [...]string{Modified: "modified", Added: "added", Removed: "removed"}[d.Kind]
		ck := kind[:1] + d.Def.Path
		decls, ok := cache[ck]
		if !ok {
			var src []byte
			if d.Kind == Removed {
				src = []byte(git(t, dir, "show", base+":"+d.Def.Path))
			} else {
				src, _ = os.ReadFile(filepath.Join(dir, d.Def.Path))
			}
			decls, _ = goDecls(src)
			cache[ck] = decls
		}
		i := slices.IndexFunc(decls, func(g goDecl) bool { return g.start <= d.Def.Line && d.Def.Line <= g.end })
		if i < 0 {
			continue
		}
		key := d.Def.Path + " " + decls[i].key
		name, _, _ := strings.Cut(decls[i].key, "#")
		switch {
		case d.Def.QualifiedName() == name:
			out[key], own[key] = kind, true
		case !own[key]:
			out[key] = "modified"
		}
	}
	return out
}

// compareDeclChanges reports where got and want differ and returns how
// many declarations agree of all that either names.
func compareDeclChanges(t *testing.T, what string, want, got declChange) (agree, total int) {
	t.Helper()
	keys := map[string]bool{}
	for k := range want {
		keys[k] = true
	}
	for k := range got {
		keys[k] = true
	}
	sorted := slices.Sorted(func(yield func(string) bool) {
		for k := range keys {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range sorted {
		if want[k] == got[k] {
			agree++
			continue
		}
		t.Errorf("%s: %s: go/ast %q, zumba %q", what, k, want[k], got[k])
	}
	kinds := map[string]int{}
	for _, v := range want {
		kinds[v]++
	}
	t.Logf("%s: %d of %d declarations agree (go/ast: %d added, %d modified, %d removed)", what, agree, len(keys), kinds["added"], kinds["modified"], kinds["removed"])
	return agree, len(keys)
}
