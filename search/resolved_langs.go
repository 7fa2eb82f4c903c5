package search

import (
	"path"
	"slices"

	"github.com/zumba-dev/zumba/search/resolve"
	"github.com/zumba-dev/zumba/search/resolve/pyres"
	"github.com/zumba-dev/zumba/search/resolve/tsjs"
)

// The languages whose uses find_references resolves, one row each: how
// their files are told, how a resolver is made over the index's records
// of the language's kind or over files read afresh. Adding a language is
// a package of its own under search/resolve, its record kind in
// NewIndex, and a row here.

// resolvedLang is one language whose uses are resolved.
type resolvedLang struct {
	// name is the language's name in answers ("Go").
	name string
	// reads reports whether the resolver reads the file at p.
	reads func(p string) bool
	// uses calls f with the position (1-based line, byte column) of each
	// use of name as a word in src's code: the uses of a file whose
	// facts are not known, all unresolved.
	uses func(src []byte, name string, f func(line, col int32))
	// ofIndex makes the resolver of the index as it is.
	ofIndex func(ix *Index) resolve.Lang
	// ofFiles makes the resolver of the project's files paths, read by
	// read, and warm, which makes the facts of the file p ahead of the
	// resolver's asking (called from several goroutines).
	ofFiles func(paths []string, read func(p string) ([]byte, error)) (r resolve.Lang, warm func(p string))
}

var resolvedLangs = []resolvedLang{
	{name: "Go", reads: resolve.IsGo, uses: resolve.Uses, ofIndex: goOfIndex, ofFiles: goOfFiles},
	{name: "TypeScript/JavaScript", reads: tsjs.Reads, uses: tsjs.Uses, ofIndex: tsOfIndex, ofFiles: tsOfFiles},
	{name: "Python", reads: pyres.IsPython, uses: pyres.Uses, ofIndex: pyOfIndex, ofFiles: pyOfFiles},
}

// langOf is the index in resolvedLangs of the language of the file at p;
// -1 when no resolver reads it.
func langOf(p string) int {
	for i, l := range resolvedLangs {
		if l.reads(p) {
			return i
		}
	}
	return -1
}

// ResolvedLanguages names the languages whose uses are resolved.
func ResolvedLanguages() []string {
	var out []string
	for _, l := range resolvedLangs {
		out = append(out, l.name)
	}
	return out
}

// goOfIndex is Go's resolver over the index's records of kindFacts.
func goOfIndex(ix *Index) resolve.Lang { return resolve.NewResolver(&indexFacts{ix: ix}) }

// goOfFiles is Go's resolver over files read afresh.
func goOfFiles(paths []string, read func(p string) ([]byte, error)) (resolve.Lang, func(p string)) {
	src := resolve.NewFiles(paths, read)
	return resolve.NewResolver(src), func(p string) { src.Facts(p) }
}

// liveDirs lists the index's live files that keep reports, by folder
// ("" for the project's own), each folder's files sorted.
func (ix *Index) liveDirs(keep func(p string) bool) map[string][]string {
	dirs := map[string][]string{}
	ix.Mu.RLock()
	for _, r := range ix.Files {
		if r == nil || r.Dead || !keep(r.Path) {
			continue
		}
		d := path.Dir(r.Path)
		if d == "." {
			d = ""
		}
		dirs[d] = append(dirs[d], r.Path)
	}
	ix.Mu.RUnlock()
	for _, fs := range dirs {
		slices.Sort(fs)
	}
	return dirs
}
