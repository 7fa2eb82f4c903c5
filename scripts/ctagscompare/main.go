// Command ctagscompare measures zumba's C and C++ outlines against
// universal-ctags: for every function, prototype, class, struct, union,
// enum, typedef, macro and namespace tag ctags reports, it checks that
// zumba lists the same name on the same line, and it lists what zumba
// finds that ctags does not.
//
//	go run ./scripts/ctagscompare [-misses FILE] [-extras FILE] DIR|FILE...
//
// scripts/ctags_compare.sh gathers the sources and runs it.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/outline"
)

// compared maps the ctags kinds we compare to the zumba kinds that count
// as the same definition.
var compared = map[string][]grammar.Kind{
	"function":  {grammar.Function, grammar.Method},
	"prototype": {grammar.Function, grammar.Method},
	"class":     {grammar.Class},
	"struct":    {grammar.Struct},
	"union":     {grammar.Union},
	"enum":      {grammar.Enum},
	"typedef":   {grammar.Type},
	"macro":     {grammar.Macro},
	"namespace": {grammar.Namespace},
}

// ctagsLang is the name ctags gives each zumba language we compare.
var ctagsLang = map[string]string{"c": "C", "cpp": "C++"}

type tag struct {
	Name string `json:"name"`
	Path string `json:"path"`
	Line int    `json:"line"`
	Kind string `json:"kind"`
	// Scope is the tag's container, "ns::Widget"; ScopeKind its kind.
	Scope     string `json:"scope"`
	ScopeKind string `json:"scopeKind"`
}

type key struct {
	path string
	line int
	name string
}

type stats struct {
	files, tags, found, kindDiff int
	// macroCalls counts misses where ctags names a macro call that expands
	// to the declaration: "PyAPI_FUNC(int) Py_Main(…)" tagged PyAPI_FUNC.
	macroCalls int
	byKind     map[string][2]int
	extras     int
	// nested counts the found tags whose container (the innermost class,
	// struct, union or namespace) is the one ctags gives; nestMiss the others.
	nested, nestMiss int
}

func main() {
	missesFile := flag.String("misses", "", "write ctags tags zumba lacks to `FILE`")
	extrasFile := flag.String("extras", "", "write zumba definitions ctags lacks to `FILE`")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: ctagscompare [-misses FILE] [-extras FILE] DIR|FILE...")
		os.Exit(2)
	}
	files := map[string][]string{}
	for _, arg := range flag.Args() {
		err := filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			head, err := readHead(p)
			if err != nil {
				return nil
			}
			if l := grammar.ForPath(p, head); l != nil && ctagsLang[l.Name] != "" {
				files[l.Name] = append(files[l.Name], p)
			}
			return nil
		})
		if err != nil {
			fail(err)
		}
	}
	var misses, extras bytes.Buffer
	for _, lang := range []string{"c", "cpp"} {
		paths := files[lang]
		if len(paths) == 0 {
			continue
		}
		sort.Strings(paths)
		st := compare(lang, paths, &misses, &extras)
		report(lang, st)
	}
	if *missesFile != "" {
		must(os.WriteFile(*missesFile, misses.Bytes(), 0o644))
	}
	if *extrasFile != "" {
		must(os.WriteFile(*extrasFile, extras.Bytes(), 0o644))
	}
}

func readHead(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, 8<<10)
	n, _ := f.Read(b)
	return b[:n], nil
}

func compare(lang string, paths []string, misses, extras *bytes.Buffer) stats {
	tags := runCtags(ctagsLang[lang], paths)
	st := stats{files: len(paths), byKind: map[string][2]int{}}
	l := grammar.ByName(lang)
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			fail(err)
		}
		// A generous deadline: sqlite3.c is 9 MB.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		o, err := outline.Parse(ctx, l, src)
		cancel()
		if err != nil {
			fail(fmt.Errorf("%s: %w", p, err))
		}
		ours := map[key][]grammar.Kind{}
		parents := map[key][]string{}
		for _, s := range o.Definitions(p) {
			k := key{p, s.Line, norm(s.Name)}
			ours[k] = append(ours[k], s.Kind)
			parents[k] = append(parents[k], parentOf(s))
		}
		lines := bytes.Split(src, []byte("\n"))
		theirs := map[key]bool{}
		for _, t := range tags[p] {
			theirs[key{p, t.Line, norm(t.Name)}] = true
		}
		for _, t := range tags[p] {
			want, ok := compared[t.Kind]
			if !ok || strings.HasPrefix(t.Name, "__anon") {
				continue
			}
			k := key{p, t.Line, norm(t.Name)}
			bk := st.byKind[t.Kind]
			bk[0]++
			st.tags++
			got, found := ours[k]
			if found {
				st.found++
				bk[1]++
				if !anyOf(got, want) {
					st.kindDiff++
					fmt.Fprintf(misses, "%s:%d: kind %s, zumba %v: %s\n", p, t.Line, t.Kind, got, t.Name)
				}
				if wantParent := ctagsParent(t); strings.HasPrefix(wantParent, "__anon") {
					// an anonymous namespace or struct: zumba lists neither
				} else if slices.Contains(parents[k], wantParent) {
					st.nested++
				} else {
					st.nestMiss++
					fmt.Fprintf(misses, "%s:%d: %s %s in %q, zumba in %q\n", p, t.Line, t.Kind, t.Name, wantParent, parents[k])
				}
			} else {
				if isMacroCall(t.Name, lineText(lines, t.Line)) {
					st.macroCalls++
				}
				fmt.Fprintf(misses, "%s:%d: %s %s | %s\n", p, t.Line, t.Kind, t.Name, lineText(lines, t.Line))
			}
			st.byKind[t.Kind] = bk
		}
		for _, s := range o.Definitions(p) {
			if !theirs[key{p, s.Line, norm(s.Name)}] {
				st.extras++
				fmt.Fprintf(extras, "%s:%d: %s %s | %s\n", p, s.Line, s.Kind, s.Name, lineText(lines, s.Line))
			}
		}
	}
	return st
}

// isMacroCall reports whether name is called on line as a macro whose
// expansion makes the declaration, NAME(args) followed by a name or "("
// (PyAPI_FUNC(int) Py_Main(…)), or a line that is only a call of a
// capitalised macro (BENCHMARK(BM_Find);), which ctags takes for an
// old-style prototype without a return type.
func isMacroCall(name, line string) bool {
	if !macroName.MatchString(name) {
		return false
	}
	q := regexp.QuoteMeta(name)
	re := regexp.MustCompile(`\b` + q + `\s*\([^()]*\)\s*[A-Za-z_(*]|^` + q + `\s*\(`)
	return re.MatchString(line)
}

// macroName: capitals, or a prefix and capitals (PyAPI_FUNC).
var macroName = regexp.MustCompile(`^(?:[A-Z][A-Z0-9_]*|[A-Za-z][A-Za-z0-9]*_[A-Z][A-Z0-9_]*)$`)

// norm reduces a name to its last component without spaces, so that
// zumba's "Foo.bar" and "a::b" meet ctags' "bar" and "b".
func norm(name string) string {
	name = strings.ReplaceAll(name, " ", "")
	if strings.HasPrefix(name, "operator") || strings.Contains(name, ".operator") {
		if i := strings.LastIndex(name, "operator"); i >= 0 {
			return name[i:]
		}
	}
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// parentOf is the name of the definition a zumba symbol belongs to: the
// scope written in its name (Widget.draw belongs to Widget), or else its
// container's last segment.
func parentOf(s outline.Definition) string {
	name := strings.ReplaceAll(s.Name, "::", ".")
	if !strings.HasPrefix(name, "operator") {
		if i := strings.LastIndex(name, "."); i > 0 {
			return norm(name[:i])
		}
	}
	if c := s.Container(); len(c) > 0 {
		return norm(c[len(c)-1])
	}
	return ""
}

// ctagsParent is the container ctags gives a tag, for the kinds zumba
// nests in: classes, structs, unions and namespaces. Enums and functions
// hold no compared tags; a scope of another kind counts as top level.
func ctagsParent(t tag) string {
	switch t.ScopeKind {
	case "class", "struct", "union", "namespace":
		return norm(t.Scope)
	}
	return ""
}

func anyOf(got, want []grammar.Kind) bool {
	for _, g := range got {
		for _, w := range want {
			if g == w {
				return true
			}
		}
	}
	return false
}

func lineText(lines [][]byte, n int) string {
	if n < 1 || n > len(lines) {
		return ""
	}
	s := strings.TrimSpace(string(lines[n-1]))
	if len(s) > 120 {
		s = s[:120]
	}
	return s
}

func runCtags(lang string, paths []string) map[string][]tag {
	kinds := "+p"
	cmd := exec.Command("ctags", "--language-force="+lang, "--kinds-"+lang+"="+kinds,
		"--output-format=json", "--fields=+nKs", "-f", "-", "-L", "-")
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fail(err)
	}
	if err := cmd.Start(); err != nil {
		fail(fmt.Errorf("run ctags: %w", err))
	}
	tags := map[string][]tag{}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var t tag
		if json.Unmarshal(sc.Bytes(), &t) != nil || t.Path == "" {
			continue
		}
		tags[t.Path] = append(tags[t.Path], t)
	}
	if err := cmd.Wait(); err != nil {
		fail(fmt.Errorf("ctags: %w", err))
	}
	return tags
}

func report(lang string, st stats) {
	fmt.Printf("%s: %d files; zumba finds %d of %d ctags tags at the same line (%.2f%%); %d with another kind; %d zumba definitions ctags lacks\n",
		lang, st.files, st.found, st.tags, pct(st.found, st.tags), st.kindDiff, st.extras)
	fmt.Printf("  nesting: %d of %d found tags in the container ctags gives (%.2f%%)\n",
		st.nested, st.nested+st.nestMiss, pct(st.nested, st.nested+st.nestMiss))
	fmt.Printf("  of the %d misses, %d are macro calls ctags takes for the name (PyAPI_FUNC(int) Py_Main(…)); without them zumba finds %.2f%%\n",
		st.tags-st.found, st.macroCalls, pct(st.found, st.tags-st.macroCalls))
	var kinds []string
	for k := range st.byKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		v := st.byKind[k]
		fmt.Printf("  %-10s %7d of %7d (%.2f%%)\n", k, v[1], v[0], pct(v[1], v[0]))
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

func must(err error) {
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "ctagscompare:", err)
	os.Exit(1)
}
