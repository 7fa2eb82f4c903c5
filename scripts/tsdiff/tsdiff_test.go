//go:build tsdiff

package tsdiff

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/outline"
)

// packages are the pinned npm packages whose sources are compared: real,
// varied code that ships .ts, .tsx, .d.ts and .js files. min is the recall
// and precision each must keep; it is below 0.999 only where the grammar
// is known to fail, and the reason is given.
var packages = []struct {
	spec string
	min  float64
}{
	{"rxjs@7.8.1", 0.999},                    // src/*.ts with many overloads, .d.ts, CommonJS and ESM builds
	{"@types/node@20.17.10", 0.999},          // .d.ts: declare module "x", global {}, namespaces, overloads
	{"@tanstack/react-query@5.62.8", 0.999},  // src/*.ts and .tsx, .cjs and .d.cts builds
	{"@react-navigation/stack@6.4.1", 0.999}, // src/*.tsx React components
	{"react-native-paper@5.12.5", 0.999},     // src/*.tsx: a large React Native component library
	{"typescript@5.9.3", 0.999},              // lib/*.d.ts: the standard library declarations
	{"svelte@4.2.19", 0.999},                 // ESM JavaScript with JSDoc types
	{"express@4.21.2", 0.999},                // CommonJS exports.x = function
	{"npm@11.19.1", 0.999},                   // npm's own JS with its bundled dependencies
	{"@tanstack/query-core@5.62.8", 0.999},   // src/*.ts factories (createRetryer) and the class expressions of its build
	{"@remix-run/router@1.21.0", 0.999},      // history.ts: factories returning literals with accessors and methods
	{"bluebird@3.7.2", 0.999},                // plain JS: CommonJS factories, prototype assignments, object literals of functions
	{"request@2.88.2", 0.999},                // plain JS: constructor functions and prototype assignments
	{"q@1.5.1", 0.999},                       // plain JS: one UMD factory with prototype methods and closures
	// src/*.ts in a style the grammar cannot parse: object types whose
	// members are generic call signatures on their own lines without
	// separators ("(a: A): B" then "<C>(c: C): D"); the parse error can
	// swallow the rest of the file.
	{"effect@3.10.15", 0.95},
}

// maxFileSize skips what the project search skips too (usually generated).
const maxFileSize = 512 << 10

const (
	typescriptVersion = "5.9.3"
	cacheDir          = "../.cache/tsdiff"
)

// entry is one outline line, flattened: the unit of comparison.
type entry struct {
	Line   int
	Kind   string
	Name   string
	Parent string
}

func (e entry) String() string {
	return fmt.Sprintf("%d %s %s (in %q)", e.Line, e.Kind, e.Name, e.Parent)
}

// tally counts agreement for one package or language. found counts the
// entries both list with the same line, kind and name; nested those of
// them that also have the same parent.
type tally struct {
	files, partial          int
	ref, got, found, nested int
}

func (t *tally) add(o tally) {
	t.files += o.files
	t.partial += o.partial
	t.ref += o.ref
	t.got += o.got
	t.found += o.found
	t.nested += o.nested
}

func (t tally) recall() float64    { return ratio(t.found, t.ref) }
func (t tally) precision() float64 { return ratio(t.found, t.got) }
func (t tally) nesting() float64   { return ratio(t.nested, t.found) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func (t tally) String() string {
	return fmt.Sprintf("%5d files (%3d with syntax errors), %6d entries from tsc, %6d from zumba, %6d alike: recall %.4f, precision %.4f, nesting %.4f",
		t.files, t.partial, t.ref, t.got, t.found, t.recall(), t.precision(), t.nesting())
}

// TestTSDiff compares zumba's outline with outline.js over the pinned
// packages. Mismatches are written to scripts/.cache/tsdiff/report.txt.
func TestTSDiff(t *testing.T) {
	if os.Getenv("ZUMBA_TSDIFF") == "" {
		t.Skip("set ZUMBA_TSDIFF=1 to compare with the TypeScript compiler (needs node, npm and the npm registry)")
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH", tool)
		}
	}
	installTypeScript(t)
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		t.Fatal(err)
	}
	var files []string
	pkgOf := map[string]string{}
	for _, p := range packages {
		spec := p.spec
		dir := unpack(t, spec)
		fs, err := sources(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			pkgOf[f] = spec
		}
		files = append(files, fs...)
	}
	// zumba's own golden corpus, so that its cases are checked by the
	// compiler too.
	for _, l := range []string{"typescript", "tsx", "javascript"} {
		fs, err := sources(filepath.Join("../../testdata/outline", l))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			// grammar-error.* pins what is left of a file the grammar
			// cannot parse; the compiler reads it whole.
			if strings.HasPrefix(filepath.Base(f), "grammar-error.") {
				continue
			}
			pkgOf[f] = "testdata"
			files = append(files, f)
		}
	}
	ref := reference(t, files)

	byPkg := map[string]*tally{}
	byLang := map[string]*tally{}
	var total, clean tally
	var report bytes.Buffer
	for _, f := range files {
		lang := grammar.ForPath(f, nil)
		got, partial := zumba(t, lang, f)
		want := ref[f]
		tl := tally{files: 1, ref: len(want), got: len(got)}
		if partial {
			tl.partial = 1
		}
		missing, extra := diff(want, got)
		tl.nested = len(want) - len(missing)
		tl.found = tl.nested + moved(missing, extra)
		if len(missing)+len(extra) > 0 {
			rel, err := filepath.Rel(cacheDir, f)
			if err != nil || strings.HasPrefix(rel, "..") {
				rel = f
			}
			fmt.Fprintf(&report, "== %s%s\n", rel, map[bool]string{true: " (syntax errors)"}[partial])
			for _, e := range missing {
				fmt.Fprintf(&report, "- %s\n", e)
			}
			for _, e := range extra {
				fmt.Fprintf(&report, "+ %s\n", e)
			}
		}
		for m, key := range map[*map[string]*tally]string{&byPkg: pkgOf[f], &byLang: lang.Name} {
			if (*m)[key] == nil {
				(*m)[key] = &tally{}
			}
			(*m)[key].add(tl)
		}
		total.add(tl)
		if !partial {
			clean.add(tl)
		}
	}
	reportPath := filepath.Join(cacheDir, "report.txt")
	if err := os.WriteFile(reportPath, report.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range packages {
		t.Logf("%-30s %s", p.spec, byPkg[p.spec])
	}
	t.Logf("%-30s %s", "testdata", byPkg["testdata"])
	for _, l := range []string{"typescript", "tsx", "javascript"} {
		if byLang[l] != nil {
			t.Logf("%-30s %s", l, byLang[l])
		}
	}
	t.Logf("%-30s %s", "total", total)
	t.Logf("%-30s %s", "files without syntax errors", clean)
	t.Logf("mismatches (- only tsc, + only zumba): %s", reportPath)
	failed := false
	for _, p := range packages {
		if tl := byPkg[p.spec]; tl.recall() < p.min || tl.precision() < p.min || tl.nesting() < p.min {
			t.Errorf("%s: recall %.4f, precision %.4f, nesting %.4f; want each at least %.3f", p.spec, tl.recall(), tl.precision(), tl.nesting(), p.min)
			failed = true
		}
	}
	if tl := byPkg["testdata"]; tl.recall() < 1 || tl.precision() < 1 || tl.nesting() < 1 {
		t.Errorf("zumba's own corpus: recall %.4f, precision %.4f, nesting %.4f; want 1", tl.recall(), tl.precision(), tl.nesting())
		failed = true
	}
	if failed {
		lines := strings.SplitAfterN(report.String(), "\n", 41)
		t.Logf("first mismatches:\n%s", strings.Join(lines[:min(len(lines), 40)], ""))
	}
}

// installTypeScript runs npm ci in this folder unless the pinned
// typescript is already in node_modules.
func installTypeScript(t *testing.T) {
	b, err := os.ReadFile("node_modules/typescript/package.json")
	if err == nil {
		var pkg struct{ Version string }
		if json.Unmarshal(b, &pkg) == nil && pkg.Version == typescriptVersion {
			return
		}
	}
	run(t, ".", "npm", "ci", "--no-audit", "--no-fund", "--silent")
}

// unpack packs spec from the registry into the cache once and returns the
// folder holding its files.
func unpack(t *testing.T, spec string) string {
	name := strings.NewReplacer("@", "", "/", "-").Replace(spec[:strings.LastIndex(spec, "@")]) +
		"-" + spec[strings.LastIndex(spec, "@")+1:]
	dir := filepath.Join(cacheDir, name)
	if _, err := os.Stat(dir); err == nil {
		return dir
	}
	tgz := filepath.Join(cacheDir, name+".tgz")
	if _, err := os.Stat(tgz); err != nil {
		out := run(t, cacheDir, "npm", "pack", spec, "--silent")
		lines := strings.Fields(out)
		if len(lines) == 0 || lines[len(lines)-1] != name+".tgz" {
			t.Fatalf("npm pack %s wrote %q; want %s.tgz", spec, out, name)
		}
	}
	tmp := dir + ".tmp"
	os.RemoveAll(tmp)
	if err := untar(tgz, tmp); err != nil {
		t.Fatalf("unpack %s: %v", tgz, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// untar writes the regular files of a gzipped tarball under dir, refusing
// names that would leave it.
func untar(tgz, dir string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg || !filepath.IsLocal(h.Name) {
			continue
		}
		p := filepath.Join(dir, h.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		out, err := os.Create(p)
		if err != nil {
			return err
		}
		_, err = io.Copy(out, tr)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
}

// sources lists the TypeScript, TSX and JavaScript files under dir.
func sources(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		l := grammar.ForPath(p, nil)
		if l == nil || (l.Name != "typescript" && l.Name != "tsx" && l.Name != "javascript") {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > maxFileSize {
			return err
		}
		files = append(files, p)
		return nil
	})
	sort.Strings(files)
	return files, err
}

// reference runs outline.js once over every file.
func reference(t *testing.T, files []string) map[string][]entry {
	cmd := exec.Command("node", "outline.js")
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node outline.js: %v\n%s", err, stderr.String())
	}
	ref := map[string][]entry{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var rec struct {
			File    string
			Entries [][]any
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("node outline.js: %v", err)
		}
		es := []entry{}
		for _, e := range rec.Entries {
			es = append(es, entry{Line: int(e[0].(float64)), Kind: e[1].(string), Name: e[2].(string), Parent: e[3].(string)})
		}
		ref[rec.File] = es
	}
	if len(ref) != len(files) {
		t.Fatalf("node outline.js answered for %d files of %d", len(ref), len(files))
	}
	return ref
}

// zumba outlines one file the way `zumba outline FILE` does.
func zumba(t *testing.T, lang *grammar.Language, path string) ([]entry, bool) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	o, err := outline.Parse(ctx, lang, src)
	if err != nil {
		t.Fatalf("outline %s: %v", path, err)
	}
	var es []entry
	var walk func(list []*outline.Entry, parent string)
	walk = func(list []*outline.Entry, parent string) {
		for _, e := range list {
			es = append(es, entry{Line: e.Line, Kind: e.Kind.String(), Name: e.Name, Parent: parent})
			walk(e.Children, e.Name)
		}
	}
	walk(o.Entries, "")
	return es, o.Partial
}

// diff returns the entries only in want and only in got, as multisets.
func diff(want, got []entry) (missing, extra []entry) {
	count := map[entry]int{}
	for _, e := range got {
		count[e]++
	}
	for _, e := range want {
		if count[e] > 0 {
			count[e]--
			continue
		}
		missing = append(missing, e)
	}
	for _, e := range got {
		if count[e] > 0 {
			count[e]--
			extra = append(extra, e)
		}
	}
	return missing, extra
}

// moved counts the entries of missing that are in extra with another
// parent: found by both, nested differently.
func moved(missing, extra []entry) int {
	count := map[entry]int{}
	for _, e := range extra {
		e.Parent = ""
		count[e]++
	}
	n := 0
	for _, e := range missing {
		e.Parent = ""
		if count[e] > 0 {
			count[e]--
			n++
		}
	}
	return n
}

// run runs an npm command, three times at most: the registry is the one
// part of the check that can fail for reasons of its own.
func run(t *testing.T, dir, name string, args ...string) string {
	var err error
	for attempt := range 3 {
		if attempt > 0 {
			time.Sleep(time.Duration(attempt) * 5 * time.Second)
		}
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		var out []byte
		out, err = cmd.Output()
		if err == nil {
			return string(out)
		}
		err = fmt.Errorf("%w\n%s", err, stderr.String())
	}
	t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	return ""
}
