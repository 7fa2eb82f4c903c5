// Command mapquality measures the map of a project (outline of a folder,
// issue 28) against two yardsticks; scripts/map_quality.sh runs it on
// pinned projects.
//
//  1. Docs: the definitions that the project's own documentation names
//     (the -docs files: in Markdown, the words of `code spans` and fenced
//     code blocks; in any other file, its comments' words), kept when a
//     definition of the project's own code (not tests, not vendored) has
//     that name as its last segment. The figure is how many of those
//     names have a definition in the map's answer (`outline .` at the
//     default budget, as the server prints it).
//
//  2. PageRank: the top 50 of the map's ranking against a PageRank over
//     the same reference graph, the method Aider documents for its repo
//     map: files are nodes; a code file that is not a test holding a name
//     that other files define has an edge to each of them, weighted by the
//     square root of how many times it holds the name; PageRank (damping
//     0.85) ranks the files, and each file's rank flows to the
//     definitions along its edges in proportion to their weights. The
//     figure is how many of the PageRank's top 50 definitions are in the
//     map's top 50, and the largest differences either way.
//
// Usage:
//
//	mapquality -dir DIR -docs 'README.md,site/content/**/*.md' [-top 50] [-show 10]
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/mcpserver"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search"
	"github.com/zumba-dev/zumba/search/projmap"
)

func main() {
	dir := flag.String("dir", "", "the project folder")
	docs := flag.String("docs", "README.md", "comma-separated globs of the project's documentation")
	top := flag.Int("top", 50, "how many of each ranking to compare")
	show := flag.Int("show", 10, "how many differences to list each way")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "usage: mapquality -dir DIR [-docs GLOBS] [-top N] [-show N]")
		os.Exit(2)
	}
	if err := run(*dir, *docs, *top, *show); err != nil {
		fmt.Fprintln(os.Stderr, "mapquality:", err)
		os.Exit(1)
	}
}

// file is what the project's files give the yardsticks.
type file struct {
	path  string
	own   bool           // the project's own code: not a test, not vendored or generated
	user  bool           // code, not a test: its words are uses
	defs  []string       // last segments of its definitions, in its own code
	words map[string]int // how many times it holds each word
	doc   []string       // the words its documentation names, for -docs files
}

func run(dir, docGlobs string, top, show int) error {
	ctx := context.Background()
	root, err := search.OpenRoot(dir)
	if err != nil {
		return err
	}
	// The map from every file, however long it takes.
	root.SymbolTimeLimit = time.Hour
	t0 := time.Now()
	srv := mcpserver.New(mcpserver.Config{Root: root})
	answer, isError := srv.CallArgs(ctx, "outline", map[string]string{"path": "."})
	if isError {
		return fmt.Errorf("outline .: %s", answer)
	}
	mapTime := time.Since(t0)
	m, err := root.Map(ctx, ".")
	if err != nil {
		return err
	}
	ranked, _ := m.Ranked(top)

	filter, err := project.ParsePathFilter(docGlobs)
	if err != nil {
		return err
	}
	entries, err := root.Walk(ctx)
	if err != nil {
		return err
	}
	var files []*file
	for _, e := range entries {
		f, err := readFile(root, e, filter.Match(e.Path))
		if err != nil {
			return err
		}
		if f != nil {
			files = append(files, f)
		}
	}

	fmt.Printf("project %s: %d files, %d definitions; map (outline .) in %.1f s, %d lines, %d bytes\n",
		dir, m.Files, m.Defs, mapTime.Seconds(), strings.Count(answer, "\n")+1, len(answer))
	docsFigure(files, answer)
	for _, g := range graphs {
		pageRankFigure(files, ranked, top, show, g)
	}
	return nil
}

// readFile reads one file for the yardsticks; nil for a file that is
// neither code nor documentation.
func readFile(root *search.Root, e project.Entry, isDoc bool) (*file, error) {
	data, err := root.Contents(e, nil)
	if err != nil {
		return nil, nil
	}
	lang := grammar.ForPath(e.Path, data[:min(len(data), project.BinaryPrefix)])
	if lang == nil && !isDoc {
		return nil, nil
	}
	f := &file{path: e.Path}
	if isDoc {
		f.doc = docWords(e.Path, data)
	}
	if lang == nil {
		return f, nil
	}
	test := grammar.IsTestFile(e.Path)
	f.own = !test && !grammar.IsVendoredFile(e.Path) && !grammar.IsGeneratedHead(data)
	f.user = !lang.CodeRules().Prose && !test
	if f.user {
		f.words = map[string]int{}
		for _, w := range words(data) {
			f.words[w]++
		}
	}
	if f.own {
		o, err := outline.Parse(context.Background(), lang, data)
		if err == nil {
			for _, d := range o.Definitions(e.Path) {
				if d.Kind != grammar.Heading {
					f.defs = append(f.defs, d.LastSegment())
				}
			}
		}
	}
	return f, nil
}

var (
	codeSpan  = regexp.MustCompile("`([^`\n]+)`")
	fence     = regexp.MustCompile("(?s)\n```[^\n]*\n(.*?)\n```")
	goComment = regexp.MustCompile(`(?m)^\s*//(.*)$|(?s)/\*(.*?)\*/`)
)

// docWords are the words a documentation file names: in Markdown, those
// of its code spans and fenced blocks; elsewhere its comments' (a Go
// package's doc.go).
func docWords(p string, data []byte) []string {
	var parts [][]byte
	if strings.HasSuffix(p, ".md") {
		for _, m := range fence.FindAllSubmatch(data, -1) {
			parts = append(parts, m[1])
		}
		for _, m := range codeSpan.FindAllSubmatch(fence.ReplaceAll(data, nil), -1) {
			parts = append(parts, m[1])
		}
	} else {
		for _, m := range goComment.FindAllSubmatch(data, -1) {
			parts = append(parts, m[1], m[2])
		}
	}
	var out []string
	for _, part := range parts {
		out = append(out, words(part)...)
	}
	return out
}

// words are the runs of word characters of data that start with a letter
// or "_", as the word index bounds them.
func words(data []byte) []string {
	var out []string
	for len(data) > 0 {
		i := bytes.IndexFunc(data, search.IsWordRune)
		if i < 0 {
			break
		}
		data = data[i:]
		j := bytes.IndexFunc(data, func(r rune) bool { return !search.IsWordRune(r) })
		if j < 0 {
			j = len(data)
		}
		if r, _ := utf8.DecodeRune(data); unicode.IsLetter(r) || r == '_' {
			out = append(out, string(data[:j]))
		}
		data = data[j:]
	}
	return out
}

// mapLine is a definition's line in the map's answer: "  LINE KIND NAME…".
var mapLine = regexp.MustCompile(`^\s+\d+ \S+ (.+?)(?: — .*)?$`)

// docsFigure prints how many of the names the documentation gives have a
// definition in the map's answer.
func docsFigure(files []*file, answer string) {
	defined := map[string]bool{}
	for _, f := range files {
		for _, d := range f.defs {
			defined[d] = true
		}
	}
	named := map[string]bool{}
	for _, f := range files {
		for _, w := range f.doc {
			if defined[w] {
				named[w] = true
			}
		}
	}
	shown := map[string]bool{}
	for _, l := range strings.Split(answer, "\n") {
		if m := mapLine.FindStringSubmatch(l); m != nil {
			shown[lastSegment(m[1])] = true
		}
	}
	var hit, miss []string
	for w := range named {
		if shown[w] {
			hit = append(hit, w)
		} else {
			miss = append(miss, w)
		}
	}
	sort.Strings(hit)
	sort.Strings(miss)
	pct := 0.0
	if len(named) > 0 {
		pct = 100 * float64(len(hit)) / float64(len(named))
	}
	fmt.Printf("docs: %d of the %d definition names the documentation gives are in the map (%.0f%%)\n", len(hit), len(named), pct)
	fmt.Printf("  in the map: %s\n", cut(hit, 40))
	fmt.Printf("  not in it:  %s\n", cut(miss, 40))
}

// lastSegment is the last part of a name as the map shows it
// ("Server.Serve": "Serve").
func lastSegment(name string) string { return name[strings.LastIndexAny(name, ".:")+1:] }

func cut(ws []string, n int) string {
	if len(ws) <= n {
		return strings.Join(ws, " ")
	}
	return strings.Join(ws[:n], " ") + fmt.Sprintf(" … (%d more)", len(ws)-n)
}

// sees reports whether the file f can use the name w that the file def
// defines, by Go's rule (other languages: always).
func sees(f, def *file, w string) bool {
	if !strings.HasSuffix(def.path, ".go") || path.Dir(f.path) == path.Dir(def.path) {
		return true
	}
	if r, _ := utf8.DecodeRuneInString(w); !unicode.IsUpper(r) {
		return false
	}
	pkg := path.Base(path.Dir(def.path))
	if len(pkg) > 1 && pkg[0] == 'v' && strings.Trim(pkg[1:], "0123456789") == "" {
		pkg = path.Base(path.Dir(path.Dir(def.path)))
	}
	return f.words[pkg] > 0
}

// defKey names a definition for the comparison: its file and last segment.
type defKey struct{ path, name string }

// pageRankFigure prints the overlap of the map's top with the PageRank's.
func pageRankFigure(files []*file, ranked []projmap.Def, top, show int, g graph) {
	pr := pageRank(files, g)
	keys := make([]defKey, 0, len(pr))
	for k := range pr {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if pr[keys[i]] != pr[keys[j]] {
			return pr[keys[i]] > pr[keys[j]]
		}
		return keys[i].path+keys[i].name < keys[j].path+keys[j].name
	})
	prRank := map[defKey]int{}
	for i, k := range keys {
		prRank[k] = i + 1
	}
	ours := map[defKey]int{}
	for i, d := range ranked {
		k := defKey{d.Path, lastSegment(d.Name)}
		if _, ok := ours[k]; !ok {
			ours[k] = i + 1
		}
	}
	n := min(top, len(keys))
	both := 0
	var onlyPR []string
	for _, k := range keys[:n] {
		if _, ok := ours[k]; ok {
			both++
		} else if len(onlyPR) < show {
			onlyPR = append(onlyPR, fmt.Sprintf("#%d %s %s", prRank[k], k.path, k.name))
		}
	}
	var onlyOurs []string
	for i, d := range ranked {
		k := defKey{d.Path, lastSegment(d.Name)}
		if r := prRank[k]; (r == 0 || r > n) && len(onlyOurs) < show {
			pos := "unranked"
			if r > 0 {
				pos = fmt.Sprintf("PageRank #%d", r)
			}
			onlyOurs = append(onlyOurs, fmt.Sprintf("#%d %s %s (%s)", i+1, k.path, k.name, pos))
		}
	}
	fmt.Printf("pagerank (%s): %d of its top %d are in the map's top %d\n", g.name, both, n, len(ranked))
	fmt.Printf("  only in PageRank's top: %s\n", strings.Join(onlyPR, "; "))
	fmt.Printf("  only in the map's top:  %s\n", strings.Join(onlyOurs, "; "))
}

// graph says which edges the PageRank has and how they weigh.
type graph struct {
	name string
	// scoped keeps the edges the map's ranking keeps for Go: to a name
	// that is not exported only from the files of its folder, to an
	// exported one from those and the files holding its package's name.
	scoped bool
	// split divides an edge's weight by the number of files defining its
	// name, as the map's ranking divides a name's uses.
	split bool
}

var graphs = []graph{
	{name: "word graph", scoped: false, split: false},
	{name: "Go-scoped", scoped: true, split: false},
	{name: "Go-scoped, split among definers", scoped: true, split: true},
}

// pageRank ranks the definitions of files by a PageRank over references
// (see the package comment) over the graph g.
func pageRank(files []*file, g graph) map[defKey]float64 {
	definers := map[string][]int{}
	for i, f := range files {
		seen := map[string]bool{}
		for _, d := range f.defs {
			if !seen[d] {
				seen[d] = true
				definers[d] = append(definers[d], i)
			}
		}
	}
	type edge struct {
		to   int
		name string
		w    float64
	}
	out := make([][]edge, len(files))
	total := make([]float64, len(files))
	for i, f := range files {
		if !f.user {
			continue
		}
		for w, c := range f.words {
			for _, j := range definers[w] {
				if j != i && (!g.scoped || sees(f, files[j], w)) {
					e := edge{j, w, math.Sqrt(float64(c))}
					if g.split {
						e.w /= float64(len(definers[w]))
					}
					out[i] = append(out[i], e)
					total[i] += e.w
				}
			}
		}
	}
	n := float64(len(files))
	rank := make([]float64, len(files))
	for i := range rank {
		rank[i] = 1 / n
	}
	const damping = 0.85
	for range 50 {
		next := make([]float64, len(files))
		dangling := 0.0
		for i, es := range out {
			if total[i] == 0 {
				dangling += rank[i]
				continue
			}
			for _, e := range es {
				next[e.to] += damping * rank[i] * e.w / total[i]
			}
		}
		for i := range next {
			next[i] += (1-damping)/n + damping*dangling/n
		}
		rank = next
	}
	defs := map[defKey]float64{}
	for i, es := range out {
		for _, e := range es {
			defs[defKey{files[e.to].path, e.name}] += rank[i] * e.w / total[i]
		}
	}
	return defs
}
