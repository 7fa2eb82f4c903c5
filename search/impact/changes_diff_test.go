package impact

import (
	"bytes"
	"cmp"
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
	"time"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/internal/lsptest"
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
//	ZUMBA_CHANGES_DIFF=1 go test -count=1 -run TestChangesGoDifferential -v ./search/impact
func TestChangesGoDifferential(t *testing.T) {
	if os.Getenv("ZUMBA_CHANGES_DIFF") == "" {
		t.Skip("set ZUMBA_CHANGES_DIFF=1 to download module versions and compare changes with go/ast")
	}
	fixture.NeedGit(t)
	var series [][]string
	for _, mvs := range changesDiffSeries {
		var trees []string
		for _, mv := range mvs {
			trees = append(trees, fixture.DownloadModule(t, mv))
		}
		series = append(series, trees)
	}
	agree, total := diffSeries(t, series, ".go", nil, goDeclsOf)
	if agree != total {
		t.Errorf("agreement %d of %d; want all", agree, total)
	}
}

// diffSeries commits each series of trees (only the files keep keeps,
// nil: all) in a repository of its own, one commit per tree, runs Changes
// between consecutive commits and compares, for the files ending in ext,
// with the declarations parse reads; it returns how many declarations
// agree of all that either side names.
func diffSeries(t *testing.T, series [][]string, ext string, keep func(rel string) bool, parse declParser) (agree, total int) {
	for _, trees := range series {
		dir := t.TempDir()
		fixture.GitInit(t, dir)
		var commits []string
		for _, src := range trees {
			replaceTree(t, dir, src, keep)
			git(t, dir, "add", "-A")
			git(t, dir, "commit", "-q", "--allow-empty", "-m", src)
			commits = append(commits, strings.TrimSpace(git(t, dir, "rev-parse", "HEAD")))
		}
		root, err := project.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(trees); i++ {
			git(t, dir, "checkout", "-q", "--detach", commits[i])
			start := time.Now()
			cs, err := Changes(context.Background(), root, commits[i-1], nil, nil)
			if err != nil {
				t.Fatalf("Changes %s..%s: %v", trees[i-1], trees[i], err)
			}
			t.Logf("%s → %s: %d files, %d definitions changed, in %v", trees[i-1], trees[i], len(cs.Files), len(cs.Defs), time.Since(start).Round(time.Millisecond))
			want := oracleChanges(t, dir, commits[i-1], commits[i], ext, parse)
			got := zumbaDeclChanges(t, dir, commits[i-1], ext, cs, parse)
			a, n := compareDeclChanges(t, filepath.Base(trees[i-1])+" → "+filepath.Base(trees[i]), want, got)
			agree += a
			total += n
		}
	}
	if total == 0 {
		t.Fatal("no declaration changed in any series")
	}
	t.Logf("agreement: %d of %d top-level declarations (%.2f%%)", agree, total, 100*float64(agree)/float64(total))
	return agree, total
}

// replaceTree makes dir's work tree (all but .git) a copy of src's files
// that keep keeps (nil: all).
func replaceTree(t *testing.T, dir, src string, keep func(rel string) bool) {
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
		if keep != nil && !keep(filepath.ToSlash(rel)) || !d.Type().IsRegular() {
			return nil
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

// topDecl is a top-level declaration as a language's own parser reads it.
type topDecl struct {
	key        string // "NAME#N"
	start, end int    // lines, doc comment included
	text       string // its whole lines
}

// declParser reads the top-level declarations of each of srcs, a file's
// contents each; nil for one that does not parse (or is nil itself).
type declParser func(t *testing.T, srcs [][]byte) [][]topDecl

// goDeclsOf reads Go files with go/ast: top-level functions, methods
// (Recv.Name) and types.
func goDeclsOf(t *testing.T, srcs [][]byte) [][]topDecl {
	out := make([][]topDecl, len(srcs))
	for i, src := range srcs {
		if src != nil {
			out[i], _ = goDecls(src)
		}
	}
	return out
}

// goDecls reads the top-level declarations of a Go file's contents; ok is
// false when it does not parse.
func goDecls(src []byte) ([]topDecl, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	b := declBuilder{lines: bytes.SplitAfter(src, []byte("\n")), seen: map[string]int{}}
	add := func(name string, doc *ast.CommentGroup, from, to token.Pos) {
		if doc != nil {
			from = doc.Pos()
		}
		b.add(name, fset.Position(from).Line, fset.Position(to).Line)
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) == 1 {
				name = lsptest.RecvName(d.Recv.List[0].Type) + "." + name
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
	return b.decls(), true
}

// declBuilder numbers a file's declarations of each name and takes their
// text.
type declBuilder struct {
	lines [][]byte
	seen  map[string]int
	out   []topDecl
}

// decls is the declarations added, not nil even when none were.
func (b *declBuilder) decls() []topDecl {
	return append([]topDecl{}, b.out...)
}

func (b *declBuilder) add(name string, start, end int) {
	key := fmt.Sprintf("%s#%d", name, b.seen[name])
	b.seen[name]++
	end = min(end, len(b.lines))
	b.out = append(b.out, topDecl{key: key, start: start, end: end, text: string(bytes.Join(b.lines[start-1:end], nil))})
}

// oracleChanges is the oracle: the files ending in ext that git says
// differ between commits a and b (renames followed), each version's
// top-level declarations (read by parse) compared by key and text.
func oracleChanges(t *testing.T, dir, a, b, ext string, parse declParser) declChange {
	t.Helper()
	type pair struct{ oldPath, newPath string }
	var pairs []pair
	var srcs [][]byte
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
		if !strings.HasSuffix(oldPath+newPath, ext) {
			continue
		}
		pairs = append(pairs, pair{oldPath, newPath})
		var before, after []byte
		if oldPath != "" {
			before = []byte(git(t, dir, "show", a+":"+oldPath))
		}
		if newPath != "" {
			after = []byte(git(t, dir, "show", b+":"+newPath))
		}
		srcs = append(srcs, before, after)
	}
	decls := parse(t, srcs)
	out := declChange{}
	for k, p := range pairs {
		before, after := decls[2*k], decls[2*k+1]
		if (p.oldPath != "" && before == nil) || (p.newPath != "" && after == nil) {
			t.Logf("skipped %s → %s: does not parse", p.oldPath, p.newPath)
			continue
		}
		old := map[string]topDecl{}
		for _, d := range before {
			old[d.key] = d
		}
		now := map[string]bool{}
		for _, d := range after {
			now[d.key] = true
			switch o, ok := old[d.key]; {
			case !ok:
				out[p.newPath+" "+d.key] = "added"
			case o.text != d.text:
				out[p.newPath+" "+d.key] = "modified"
			}
		}
		for _, d := range before {
			if !now[d.key] {
				out[p.oldPath+" "+d.key] = "removed"
			}
		}
	}
	return out
}

// zumbaDeclChanges maps a change set onto the top-level declarations that
// hold its definitions (in the work tree, or at commit base for a removed
// one), for the files ending in ext: a definition that is the declaration
// keeps its kind; one inside it makes it modified. Definitions in no
// declaration parse reads (Go constants) are left out.
func zumbaDeclChanges(t *testing.T, dir, base, ext string, cs *ChangeSet, parse declParser) declChange {
	t.Helper()
	// The files' declarations, read in one batch: removed definitions in
	// base's version ("r" + path), the others in the work tree's.
	index := map[string]int{}
	var srcs [][]byte
	for _, d := range cs.Defs {
		ck := "w" + d.Def.Path
		if d.Kind == Removed {
			ck = "r" + d.Def.Path
		}
		if _, ok := index[ck]; ok || !strings.HasSuffix(d.Def.Path, ext) {
			continue
		}
		var src []byte
		if d.Kind == Removed {
			src = []byte(git(t, dir, "show", base+":"+d.Def.Path))
		} else {
			src, _ = os.ReadFile(filepath.Join(dir, d.Def.Path))
		}
		index[ck] = len(srcs)
		srcs = append(srcs, src)
	}
	decls := parse(t, srcs)
	renamed := map[string]string{}
	for _, f := range cs.Files {
		renamed[f.OldPath] = f.Path
	}
	out := declChange{}
	own := map[string]bool{}
	for _, d := range cs.Defs {
		if !strings.HasSuffix(d.Def.Path, ext) {
			continue
		}
		kind := [...]string{Modified: "modified", Added: "added", Removed: "removed"}[d.Kind]
		ck := "w" + d.Def.Path
		if d.Kind == Removed {
			ck = "r" + d.Def.Path
		}
		file := decls[index[ck]]
		i := slices.IndexFunc(file, func(g topDecl) bool { return g.start <= d.Def.Line && d.Def.Line <= g.end })
		if i < 0 {
			continue
		}
		key := d.Def.Path + " " + file[i].key
		name, _, _ := strings.Cut(file[i].key, "#")
		_, name, _ = strings.Cut(name, " ") // Python's keys start with a kind
		switch {
		case d.Def.QualifiedName() == name || d.Def.QualifiedName() == file[i].key[:strings.IndexByte(file[i].key, '#')]:
			out[key], own[key] = kind, true
		case !own[key]:
			// A definition removed inside a declaration that stays: the
			// declaration is modified, in the work tree's file.
			if d.Kind == Removed {
				key = renamed[d.Def.Path] + " " + file[i].key
			}
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
		t.Logf("%s: %s: the parser %q, zumba %q", what, k, want[k], got[k])
	}
	kinds := map[string]int{}
	for _, v := range want {
		kinds[v]++
	}
	t.Logf("%s: %d of %d declarations agree (the parser: %d added, %d modified, %d removed)", what, agree, len(keys), kinds["added"], kinds["modified"], kinds["removed"])
	return agree, len(keys)
}

// TestChangesPythonDifferential is TestChangesGoDifferential for Python:
// the trees named in ZUMBA_CHANGES_PY_TREES (folders separated by ":",
// e.g. the standard libraries of two Pythons, their .py files outside
// test folders), one commit each, against the ast module of
// ZUMBA_CHANGES_PYTHON (default python3; the newest of the trees' Pythons
// reads them all): every top-level function and class (and those defined
// under a top-level if, try or with, as zumba outlines them at top level),
// decorators and the comment lines right above included. Goal: 99%.
//
//	ZUMBA_CHANGES_DIFF=1 ZUMBA_CHANGES_PY_TREES=$(pyenv root)/versions/3.11.7/lib/python3.11:$(pyenv root)/versions/3.12.1/lib/python3.12 \
//	ZUMBA_CHANGES_PYTHON=$(pyenv root)/versions/3.12.1/bin/python3 go test -count=1 -run TestChangesPythonDifferential -v ./search/impact
func TestChangesPythonDifferential(t *testing.T) {
	trees := filepath.SplitList(os.Getenv("ZUMBA_CHANGES_PY_TREES"))
	if os.Getenv("ZUMBA_CHANGES_DIFF") == "" || len(trees) < 2 {
		t.Skip("set ZUMBA_CHANGES_DIFF=1 and ZUMBA_CHANGES_PY_TREES to two or more folders of Python to compare changes with ast")
	}
	fixture.NeedGit(t)
	python := cmp.Or(os.Getenv("ZUMBA_CHANGES_PYTHON"), "python3")
	if _, err := exec.LookPath(python); err != nil {
		t.Skipf("no %s: %v", python, err)
	}
	keep := func(rel string) bool {
		if !strings.HasSuffix(rel, ".py") {
			return false
		}
		for _, part := range strings.Split(rel, "/") {
			switch part {
			case "test", "tests", "site-packages", "__pycache__", "idlelib", "lib2to3":
				return false
			}
		}
		return true
	}
	parse := func(t *testing.T, srcs [][]byte) [][]topDecl { return pythonDecls(t, python, srcs) }
	agree, total := diffSeries(t, [][]string{trees}, ".py", keep, parse)
	if 100*agree < 99*total {
		t.Errorf("agreement %d of %d; want 99%%", agree, total)
	}
}

// pythonTopDecls prints, for each file named on stdin (a JSON list),
// null when it does not parse, else its top-level functions and classes
// as ["def NAME" or "class NAME", first line, last line]: a function
// that becomes a class of the same name is one removed and one added, as
// zumba tells definitions apart by kind.
const pythonTopDecls = `
import ast, json, sys

def top(body, lines, out):
    for n in body:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            start = min([d.lineno for d in n.decorator_list] + [n.lineno])
            while start > 1 and lines[start - 2].strip().startswith("#"):
                start -= 1
            kind = "class" if isinstance(n, ast.ClassDef) else "def"
            out.append([kind + " " + n.name, start, n.end_lineno])
        elif isinstance(n, ast.If):
            top(n.body, lines, out)
            top(n.orelse, lines, out)
        elif isinstance(n, (ast.With, ast.AsyncWith)):
            top(n.body, lines, out)
        elif isinstance(n, ast.Try) or type(n).__name__ == "TryStar":
            top(n.body, lines, out)
            for h in n.handlers:
                top(h.body, lines, out)
            top(n.orelse, lines, out)
            top(n.finalbody, lines, out)

result = []
for path in json.load(sys.stdin):
    try:
        src = open(path, "rb").read()
        tree = ast.parse(src)
        out = []
        top(tree.body, src.decode("utf-8", "replace").split("\n"), out)
        result.append(out)
    except Exception:
        result.append(None)
json.dump(result, sys.stdout)
`

// pythonDecls reads srcs with Python's ast module (run as python).
func pythonDecls(t *testing.T, python string, srcs [][]byte) [][]topDecl {
	t.Helper()
	tmp := t.TempDir()
	paths := make([]string, len(srcs))
	for i, src := range srcs {
		paths[i] = filepath.Join(tmp, fmt.Sprintf("%d.py", i))
		if src == nil {
			paths[i] = filepath.Join(tmp, "missing")
		} else if err := os.WriteFile(paths[i], src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in, _ := json.Marshal(paths)
	cmd := exec.Command(python, "-c", pythonTopDecls)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", python, err)
	}
	var raw [][][3]any
	if err := json.Unmarshal(out, &raw); err != nil || len(raw) != len(srcs) {
		t.Fatalf("%s printed %.200s: %v", python, out, err)
	}
	decls := make([][]topDecl, len(srcs))
	for i, file := range raw {
		if file == nil {
			continue
		}
		b := declBuilder{lines: bytes.SplitAfter(srcs[i], []byte("\n")), seen: map[string]int{}}
		for _, d := range file {
			b.add(d[0].(string), int(d[1].(float64)), int(d[2].(float64)))
		}
		decls[i] = b.decls()
	}
	return decls
}

// changesTSSeries are the npm package versions TestChangesTSDifferential
// commits (their TypeScript sources under src/), one commit per version.
var changesTSSeries = [][]string{
	{"rxjs@7.0.0", "rxjs@7.5.7", "rxjs@7.8.1"},
	{"@tanstack/query-core@5.0.0", "@tanstack/query-core@5.40.0", "@tanstack/query-core@5.62.8"},
}

// TestChangesTSDifferential is TestChangesGoDifferential for TypeScript:
// the src/ folders of real npm package versions (npm pack), one commit
// each, against the TypeScript compiler's parser as scripts/tsdiff's
// outline.js reads it (its top-level entries, their comments directly
// above included, as zumba's extents are). Needs node, npm and the npm
// registry. Goal: 99%.
//
//	ZUMBA_CHANGES_DIFF=1 go test -count=1 -run TestChangesTSDifferential -v ./search/impact
func TestChangesTSDifferential(t *testing.T) {
	if os.Getenv("ZUMBA_CHANGES_DIFF") == "" {
		t.Skip("set ZUMBA_CHANGES_DIFF=1 to fetch npm packages and compare changes with the TypeScript compiler")
	}
	fixture.NeedGit(t)
	for _, tool := range []string{"node", "npm", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
	}
	tsdiff, err := filepath.Abs("../../scripts/tsdiff")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(tsdiff, "node_modules/typescript")); err != nil {
		npm(t, tsdiff, "ci", "--no-audit", "--no-fund", "--silent")
	}
	packs := t.TempDir()
	var series [][]string
	for _, specs := range changesTSSeries {
		var trees []string
		for _, spec := range specs {
			dir := filepath.Join(packs, "tgz")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			tgz := strings.TrimSpace(npm(t, dir, "pack", spec, "--silent"))
			if out, err := exec.Command("tar", "-xzf", filepath.Join(dir, tgz), "-C", dir).CombinedOutput(); err != nil {
				t.Fatalf("tar %s: %v %s", tgz, err, out)
			}
			// The tree is named for the log: rxjs-7.5.7.
			tree := filepath.Join(packs, strings.TrimSuffix(tgz, ".tgz"))
			if err := os.Rename(filepath.Join(dir, "package"), tree); err != nil {
				t.Fatal(err)
			}
			trees = append(trees, tree)
		}
		series = append(series, trees)
	}
	keep := func(rel string) bool {
		return strings.HasPrefix(rel, "src/") && strings.HasSuffix(rel, ".ts") && !strings.Contains(rel, "/__tests__/")
	}
	parse := func(t *testing.T, srcs [][]byte) [][]topDecl {
		return tsDecls(t, filepath.Join(tsdiff, "outline.js"), srcs)
	}
	agree, total := diffSeries(t, series, ".ts", keep, parse)
	if 100*agree < 99*total {
		t.Errorf("agreement %d of %d; want 99%%", agree, total)
	}
}

// npm runs an npm command in dir and returns its output.
func npm(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("npm", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("npm %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

// tsDecls reads srcs with the TypeScript compiler through outline.js
// --extents: each file's top-level entries as "KIND NAME" with their
// first and last lines.
func tsDecls(t *testing.T, outlineJS string, srcs [][]byte) [][]topDecl {
	t.Helper()
	tmp := t.TempDir()
	var paths []string
	index := map[string]int{}
	for i, src := range srcs {
		if src == nil {
			continue
		}
		p := filepath.Join(tmp, fmt.Sprintf("%d.ts", i))
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		index[p] = i
	}
	decls := make([][]topDecl, len(srcs))
	if len(paths) == 0 {
		return decls
	}
	cmd := exec.Command("node", outlineJS, "--extents")
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node outline.js: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var f struct {
			File    string
			Entries [][]any
		}
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatalf("outline.js printed %.200s: %v", line, err)
		}
		i := index[f.File]
		b := declBuilder{lines: bytes.SplitAfter(srcs[i], []byte("\n")), seen: map[string]int{}}
		for _, e := range f.Entries {
			if e[3].(string) != "" {
				continue
			}
			b.add(e[1].(string)+" "+e[2].(string), int(e[4].(float64)), int(e[5].(float64)))
		}
		decls[i] = b.decls()
	}
	return decls
}
