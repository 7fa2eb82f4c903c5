package outline

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

// oracleDiff is what a differential test compares: zumba's outlines of
// one language against an oracle's entries (another parser's reading of
// the same files), by (line, kind, name) for recall and by parent for
// nesting.
type oracleDiff struct {
	lang   string               // the grammar's name
	oracle string               // who gives want, in the log lines: "epp_dodger"
	want   map[string][]javaDef // the oracle's entries of each file
	// ours lists zumba's entries of an outline as the oracle lists them;
	// nil means every entry, with the name of the entry around it.
	ours func(*Outline) []javaDef
	// nestKind, when set, is the only kind of the oracle's whose nesting
	// is compared (Perl: subs, not packages).
	nestKind string
	// extra counts zumba's entries the oracle has not (precision); each
	// entry of the oracle's found takes one of zumba's at its key.
	extra bool
}

// oracleFigures are a comparison's counts and the lines of its misses.
type oracleFigures struct {
	files, partial                 int // files compared; those tree-sitter parsed with errors
	total, found, nestable, nested int // the oracle's entries; found by zumba; of those, compared and same parent
	ours, extra                    int // zumba's entries; with precision, those the oracle has not
	precision                      bool
	misses                         []string
}

// compare outlines files and compares them with d.want.
func (d oracleDiff) compare(t *testing.T, files []string) oracleFigures {
	t.Helper()
	lang := grammar.ByName(d.lang)
	f := oracleFigures{precision: d.extra}
	type key struct {
		line       int
		kind, name string
	}
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		o, err := Parse(context.Background(), lang, src)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		f.files++
		if o.Partial {
			f.partial++
		}
		defs := parentedDefs(o, nil)
		if d.ours != nil {
			defs = d.ours(o)
		}
		ours := map[key][]string{}
		for _, s := range defs {
			k := key{s.line, s.kind, s.name}
			ours[k] = append(ours[k], s.parent)
		}
		f.ours += len(defs)
		for _, w := range d.want[p] {
			f.total++
			k := key{w.line, w.kind, w.name}
			ps := ours[k]
			if len(ps) == 0 {
				f.misses = append(f.misses, fmt.Sprintf("%s: %s has, zumba has not: %s", p, d.oracle, w))
				continue
			}
			f.found++
			if d.nestKind != "" && w.kind != d.nestKind {
				continue
			}
			f.nestable++
			i := indexOf(ps, w.parent)
			if i < 0 {
				f.misses = append(f.misses, fmt.Sprintf("%s: %s; zumba in %q", p, w, ps[0]))
				i = 0
			} else {
				f.nested++
			}
			if d.extra {
				ours[k] = append(ps[:i], ps[i+1:]...)
			}
		}
		if d.extra {
			for k, ps := range ours {
				for range ps {
					f.extra++
					f.misses = append(f.misses, fmt.Sprintf("%s: zumba has, %s has not: %d %s %s", p, d.oracle, k.line, k.kind, k.name))
				}
			}
		}
	}
	sort.Strings(f.misses)
	return f
}

// report logs recall and nesting (and precision when extras were
// counted), writes the misses to the file named by the environment
// variable dumpEnv when it is set, logs the first 20, and fails below
// minFiles files or when recall or nesting is below least.
func (f oracleFigures) report(t *testing.T, dumpEnv string, minFiles int, least float64) {
	t.Helper()
	recall := float64(f.found) / float64(max(f.total, 1))
	nesting := float64(f.nested) / float64(max(f.nestable, 1))
	line := fmt.Sprintf("recall %.4f%% (%d missed), nesting %.4f%% (%d of %d elsewhere)",
		100*recall, f.total-f.found, 100*nesting, f.nestable-f.nested, f.nestable)
	if f.precision {
		precision := float64(f.ours-f.extra) / float64(max(f.ours, 1))
		line += fmt.Sprintf(", precision %.4f%% (%d extra)", 100*precision, f.extra)
	}
	t.Log(line)
	if dump := os.Getenv(dumpEnv); dump != "" {
		if err := os.WriteFile(dump, []byte(strings.Join(f.misses, "\n")+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
	for i, m := range f.misses {
		if i == 20 {
			t.Logf("… %d more", len(f.misses)-i)
			break
		}
		t.Log(m)
	}
	if f.files < minFiles || recall < least || nesting < least {
		t.Errorf("%d files, recall %.4f, nesting %.4f; want at least %d files and both at least %g",
			f.files, recall, nesting, minFiles, least)
	}
}

// parentedDefs lists every entry of o with the name of the entry around
// it, its kind folded by fold when fold is not nil.
func parentedDefs(o *Outline, fold func(string) string) []javaDef {
	var out []javaDef
	for _, s := range withParents(o) {
		kind := s.Kind.String()
		if fold != nil {
			kind = fold(kind)
		}
		out = append(out, javaDef{line: s.Line, kind: kind, name: s.Name, parent: s.parent})
	}
	return out
}

// methodAsFunction folds zumba's methods onto the functions of an oracle
// that does not tell them apart.
func methodAsFunction(k string) string {
	if k == "method" {
		return "function"
	}
	return k
}

// filesUnder lists the files under dir whose names end in one of exts,
// sorted.
func filesUnder(dir string, exts ...string) []string {
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		for _, e := range exts {
			if strings.HasSuffix(p, e) {
				files = append(files, p)
				break
			}
		}
		return nil
	})
	sort.Strings(files)
	return files
}

// runOracle runs argv with files appended, 200 at a time, and reads its
// lines: FILE<TAB>LINE<TAB>KIND<TAB>NAME<TAB>PARENT.
func runOracle(t *testing.T, argv, files []string) map[string][]javaDef {
	want := map[string][]javaDef{}
	for i := 0; i < len(files); i += 200 {
		cmd := exec.Command(argv[0], append(argv[1:len(argv):len(argv)], files[i:min(i+200, len(files))]...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", argv[len(argv)-1], err, stderr.String())
		}
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			f := strings.Split(sc.Text(), "\t")
			if len(f) != 5 {
				continue
			}
			line, _ := strconv.Atoi(f[1])
			want[f[0]] = append(want[f[0]], javaDef{line: line, kind: f[2], name: f[3], parent: f[4]})
		}
	}
	return want
}
