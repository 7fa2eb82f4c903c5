package tsjs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/search/resolve"
)

// The resolver's differential: the uses of definitions this package
// finds against the TypeScript language service's findReferences (what
// tsserver answers "references" with; scripts/tsdiff/refs.js, with the
// typescript scripts/tsdiff pins), counted per use (file:line:column),
// on the sources of pinned npm packages. It fetches them, so it runs
// only when asked:
//
//	ZUMBA_TSSERVER_DIFF=1 go test -count=1 -run TestTSServerDifferential -v ./search/resolve/tsjs
//
// ZUMBA_TSRESOLVE_PACKAGES (comma-separated name@version) overrides the
// packages; ZUMBA_TSRESOLVE_DEFS how many definitions each (default
// 150, picked evenly from the functions, class methods and interface
// methods the compiler lists); ZUMBA_TSRESOLVE_NOISE=1 logs the uses
// left unresolved that tsserver does not list.
var tsPackages = []string{"rxjs@7.8.1", "@tanstack/query-core@5.59.20"}

// Goals of issue 45 for TypeScript.
const (
	tsPrecisionGoal = 97.0
	tsRecallGoal    = 99.0
)

func TestTSServerDifferential(t *testing.T) {
	if os.Getenv("ZUMBA_TSSERVER_DIFF") == "" {
		t.Skip("set ZUMBA_TSSERVER_DIFF=1 to fetch npm packages and compare with tsserver's findReferences")
	}
	for _, tool := range []string{"node", "npm", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
	}
	tsdiff, err := filepath.Abs("../../../scripts/tsdiff")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(tsdiff, "node_modules/typescript")); err != nil {
		npm(t, tsdiff, "ci", "--no-audit", "--no-fund", "--silent")
	}
	pkgs := tsPackages
	if p := os.Getenv("ZUMBA_TSRESOLVE_PACKAGES"); p != "" {
		pkgs = strings.Split(p, ",")
	}
	var all tally
	for _, spec := range pkgs {
		t.Run(spec, func(t *testing.T) {
			ws := unpackSrc(t, spec)
			tl := tsDiff(t, filepath.Join(tsdiff, "refs.js"), ws)
			t.Logf("tsserver on %s: %s", spec, tl)
			all.add(tl)
			tl.check(t)
		})
	}
	t.Logf("all: %s", all)
}

// tally counts uses: tsserver's references, those the resolver lists
// as uses (Match, Through) and agree, and those it leaves unresolved.
type tally struct {
	defs, oracle, listed, listedAgree, unresolved, unresolvedAgree, through int
}

func (a *tally) add(b tally) {
	a.defs += b.defs
	a.oracle += b.oracle
	a.listed += b.listed
	a.listedAgree += b.listedAgree
	a.unresolved += b.unresolved
	a.unresolvedAgree += b.unresolvedAgree
	a.through += b.through
}

func (a tally) check(t *testing.T) {
	if p := a.precision(); p < tsPrecisionGoal {
		t.Errorf("precision %.1f%%; the goal is %.0f%%", p, tsPrecisionGoal)
	}
	if r := a.recall(); r < tsRecallGoal {
		t.Errorf("recall %.1f%%; the goal is %.0f%%", r, tsRecallGoal)
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

func (a tally) precision() float64 { return pct(a.listedAgree, a.listed) }
func (a tally) recall() float64    { return pct(a.listedAgree+a.unresolvedAgree, a.oracle) }

func (a tally) String() string {
	return fmt.Sprintf("%d definitions, %d tsserver references; listed %d (%d through base types or overrides), precision %.1f%%; recall %.1f%% (%.1f%% resolved alone); %d not resolved (%d of them tsserver's)",
		a.defs, a.oracle, a.listed, a.through, a.precision(), a.recall(), pct(a.listedAgree, a.oracle), a.unresolved, a.unresolvedAgree)
}

// tsDef is a definition refs.js lists.
type tsDef struct {
	Path      string `json:"path"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Container string `json:"container"`
	Line      int    `json:"line"`
	Col       int    `json:"col"`
}

// tsDiff compares the resolver with refs.js on the .ts files under ws.
func tsDiff(t *testing.T, refsJS, ws string) tally {
	var paths []string
	err := filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(ws, p)
		paths = append(paths, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := node(t, refsJS, "defs", ws, nil)
	var defs []tsDef
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var d tsDef
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatalf("refs.js defs: %v: %s", err, l)
		}
		defs = append(defs, d)
	}
	n := 150
	if v, err := strconv.Atoi(os.Getenv("ZUMBA_TSRESOLVE_DEFS")); err == nil && v > 0 {
		n = v
	}
	picked := defs
	if len(defs) > n {
		picked = make([]tsDef, n)
		for i := range picked {
			picked[i] = defs[i*len(defs)/n]
		}
	}
	var in bytes.Buffer
	for _, d := range picked {
		b, _ := json.Marshal(d)
		in.Write(append(b, '\n'))
	}
	refs := node(t, refsJS, "refs", ws, &in)
	sc := bufio.NewScanner(strings.NewReader(refs))
	sc.Buffer(nil, 64<<20)
	r := NewResolver(NewFiles(paths, func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(ws, p)) }))
	var tl tally
	var notes []string
	for _, d := range picked {
		if !sc.Scan() {
			t.Fatalf("refs.js refs: fewer answers than definitions")
		}
		var want []string
		if err := json.Unmarshal(sc.Bytes(), &want); err != nil {
			t.Fatal(err)
		}
		wantSet := map[string]bool{}
		for _, w := range want {
			wantSet[w] = true
		}
		label := d.Kind + " " + strings.TrimPrefix(d.Container+"."+d.Name, ".")
		target, ok := r.TargetAt(d.Path, int32(d.Line), d.Name)
		if !ok {
			t.Errorf("no target at %s:%d %s", d.Path, d.Line, d.Name)
			continue
		}
		got := resolvedUses(ws, paths, r, target)
		tl.defs++
		tl.oracle += len(wantSet)
		for key, u := range got {
			switch u.Class {
			case resolve.Unresolved:
				tl.unresolved++
				if wantSet[key] {
					tl.unresolvedAgree++
					notes = append(notes, fmt.Sprintf("unresolved, tsserver's %s at %s", label, key))
				} else if os.Getenv("ZUMBA_TSRESOLVE_NOISE") != "" {
					notes = append(notes, fmt.Sprintf("unresolved, not tsserver's %s at %s", label, key))
				}
			default:
				tl.listed++
				if u.Class == resolve.Through {
					tl.through++
				}
				if wantSet[key] {
					tl.listedAgree++
				} else {
					notes = append(notes, fmt.Sprintf("extra %s at %s (%s)", label, key, u.Via))
				}
			}
		}
		for key := range wantSet {
			if _, ok := got[key]; !ok {
				notes = append(notes, fmt.Sprintf("missed %s at %s", label, key))
			}
		}
	}
	sort.Strings(notes)
	for i, n := range notes {
		if i == 300 {
			t.Logf("  … %d more", len(notes)-i)
			break
		}
		t.Logf("  %s", n)
	}
	return tl
}

// resolvedUses is every use of target the resolver finds in the files
// of paths, by "path:line:col".
func resolvedUses(ws string, paths []string, r *Resolver, target resolve.Target) map[string]resolve.Use {
	out := map[string]resolve.Use{}
	for _, p := range paths {
		if !Reads(p) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(ws, p))
		if err != nil || !bytes.Contains(data, []byte(target.Name)) {
			continue
		}
		uses, ok := r.FileUses(p, target.Name, []resolve.Target{target}, func() []byte { return data })
		if !ok {
			Uses(data, target.Name, func(line, col int32) {
				uses = append(uses, resolve.FileUse{Line: line, Col: col, Use: resolve.Use{Class: resolve.Unresolved}})
			})
		}
		for _, u := range uses {
			out[p+":"+strconv.Itoa(int(u.Line))+":"+strconv.Itoa(int(u.Col))] = u.Use
		}
	}
	return out
}

// unpackSrc packs spec from the registry (once, in scripts/.cache) and
// returns the folder of its TypeScript sources (src/).
func unpackSrc(t *testing.T, spec string) string {
	cache, err := filepath.Abs("../../../scripts/.cache/tsresolve")
	if err != nil {
		t.Fatal(err)
	}
	name := strings.NewReplacer("@", "", "/", "-").Replace(spec)
	dir := filepath.Join(cache, name)
	src := filepath.Join(dir, "package", "src")
	if _, err := os.Stat(src); err == nil {
		return src
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tgz := strings.TrimSpace(npm(t, dir, "pack", spec, "--silent"))
	if out, err := exec.Command("tar", "-xzf", filepath.Join(dir, tgz), "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("tar %s: %v %s", tgz, err, out)
	}
	if _, err := os.Stat(src); err != nil {
		t.Fatalf("%s holds no src/ folder: %v", spec, err)
	}
	return src
}

// npm runs an npm command in dir and returns its output; it skips the
// test when npm fails (no registry).
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

// node runs refs.js.
func node(t *testing.T, script, mode, ws string, stdin *bytes.Buffer) string {
	t.Helper()
	cmd := exec.Command("node", script, mode, ws)
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node refs.js %s: %v\n%s", mode, err, stderr.String())
	}
	return string(out)
}
