package search

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/internal/filetier"
)

// How find_symbol and find_references rank what they find, in one place.
// Files come in tiers: the project's own, then its test files
// (grammar.IsTestFile: "_test.go", "tests/", "*.spec.ts", testdata and
// fixtures folders), then vendored and generated code
// (grammar.IsVendoredFile: vendor/, third_party/, node_modules/,
// *.min.js, *.pb.go, *_generated.*), then the other files whose first
// lines say they are generated (grammar.IsGeneratedHead), each tier in
// path order. The last tier is known only once a file is read: the index
// keeps it per file; a direct search reads files in the order their paths
// give and puts those it finds generated after the others.
// find_symbol's answer has two groups: exact matches, or else the
// definitions whose names contain the query. Within a group, definitions
// come tier by tier, each tier in the group's order: exact matches by
// path and line; names containing the query with those starting with it
// first, then shorter names, then by path and line. find_references reads
// its files tier by tier, so that its line limit is reached in the
// project's own files first.

// rankFiles returns files (in path order) reordered tier by tier, as
// find_symbol and find_references read them: searching in this order
// lets a search stop at its limit without losing an own file's result to
// a test file's.
func rankFiles(files []project.Entry) []project.Entry {
	var tiers [filetier.Count][]project.Entry
	for _, e := range files {
		t := filetier.Of(e.Path)
		tiers[t] = append(tiers[t], e)
	}
	if len(tiers[filetier.Own]) == len(files) {
		return files
	}
	out := make([]project.Entry, 0, len(files))
	for _, t := range tiers {
		out = append(out, t...)
	}
	return out
}

// sortFuzzy orders fallback definitions best first: tier by tier, then names starting with the query, then shorter names, then by
// path and line. Definitions on one line ("} node_t, *node_p;") keep
// their order in the file (the sort is stable, and every caller lists a
// file's definitions in its outline's order), so that the answer does not
// depend on what else was found.
func sortFuzzy(defs []Def, q SymbolQuery) {
	slices.SortStableFunc(defs, func(a, b Def) int {
		if a.tier != b.tier {
			return cmp.Compare(a.tier, b.tier)
		}
		ra, rb := strings.ToLower(a.rank), strings.ToLower(b.rank)
		pa, pb := strings.HasPrefix(ra, q.fold), strings.HasPrefix(rb, q.fold)
		if pa != pb {
			if pa {
				return -1
			}
			return 1
		}
		return cmp.Or(
			cmp.Compare(utf8.RuneCountInString(ra), utf8.RuneCountInString(rb)),
			strings.Compare(a.Path, b.Path),
			cmp.Compare(a.Line, b.Line))
	})
}

// implFirst reorders each overload set of defs, a group already in its
// order: the definitions sharing a full name ("Observable.pipe") among
// functions and methods, some declared without a body (TypeScript's
// overload signatures, C and C++ prototypes, outline.Definition.Decl) and some
// with one. At the place of the set's first member come its
// implementations, then its signatures, each in the group's order; other
// definitions keep their places. Files of different tiers stay apart.
func implFirst(defs []Def) []Def {
	type key struct {
		name string
		tier uint8
	}
	type set struct {
		impls, decls []Def
		listed       bool
	}
	var sets map[key]*set
	for _, d := range defs {
		if d.Kind != grammar.Function && d.Kind != grammar.Method {
			continue
		}
		if sets == nil {
			sets = map[key]*set{}
		}
		k := key{d.QualifiedName(), d.tier}
		s := sets[k]
		if s == nil {
			s = &set{}
			sets[k] = s
		}
		if d.Decl {
			s.decls = append(s.decls, d)
		} else {
			s.impls = append(s.impls, d)
		}
	}
	reorder := false
	for _, s := range sets {
		if len(s.impls) > 0 && len(s.decls) > 0 {
			reorder = true
			break
		}
	}
	if !reorder {
		return defs
	}
	out := make([]Def, 0, len(defs))
	for _, d := range defs {
		var s *set
		if d.Kind == grammar.Function || d.Kind == grammar.Method {
			s = sets[key{d.QualifiedName(), d.tier}]
		}
		switch {
		case s == nil || len(s.impls) == 0 || len(s.decls) == 0:
			out = append(out, d)
		case !s.listed:
			out = append(append(out, s.impls...), s.decls...)
			s.listed = true
		}
	}
	return out
}
