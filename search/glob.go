package search

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// PathFilter keeps the files that match any of a tool's path globs. The nil
// filter keeps every file.
type PathFilter struct {
	globs []pathGlob
}

type pathGlob struct {
	pattern string
	// base: the glob has no "/", so it is matched against each name in the
	// path (the file's and its folders'), at any depth.
	base bool
}

// ParsePathFilter reads a comma-separated list of doublestar globs ("src/**,
// *.rs"); spaces around the commas are ignored, and commas inside braces
// belong to the glob ("*.{ts,tsx}"). A glob without "/" matches a
// file or folder name at any depth; a glob with "/" matches the path from
// the project folder, and a file matches when its path or one of its
// folders does ("src/parser" keeps everything under it). An empty list
// gives the nil filter.
func ParsePathFilter(arg string) (*PathFilter, error) {
	var f PathFilter
	for _, g := range splitGlobs(arg) {
		g = strings.TrimSpace(g)
		if g == "" {
			continue
		}
		p := strings.TrimPrefix(g, "./")
		p = strings.TrimLeft(p, "/")
		p = strings.TrimRight(p, "/")
		if p == "" || p == "." {
			p = "**"
		}
		if !doublestar.ValidatePattern(p) {
			return nil, pathErrorf("invalid glob %q in path: check its brackets and braces", g)
		}
		f.globs = append(f.globs, pathGlob{pattern: p, base: !strings.Contains(p, "/")})
	}
	if len(f.globs) == 0 {
		return nil, nil
	}
	return &f, nil
}

// splitGlobs splits at the commas outside braces, so "src/{a,b}.rs, *.go"
// is two globs; a backslash escapes the next character.
func splitGlobs(arg string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(arg); i++ {
		switch arg[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth == 0 {
				out = append(out, arg[start:i])
				start = i + 1
			}
		}
	}
	return append(out, arg[start:])
}

// Match reports whether the project path rel is kept.
func (f *PathFilter) Match(rel string) bool {
	if f == nil {
		return true
	}
	for _, g := range f.globs {
		if g.match(rel) {
			return true
		}
	}
	return false
}

func (g pathGlob) match(rel string) bool {
	if g.base {
		for rest := rel; rest != ""; {
			name := rest
			if i := strings.IndexByte(rest, '/'); i >= 0 {
				name, rest = rest[:i], rest[i+1:]
			} else {
				rest = ""
			}
			if doublestar.MatchUnvalidated(g.pattern, name) {
				return true
			}
		}
		return false
	}
	if doublestar.MatchUnvalidated(g.pattern, rel) {
		return true
	}
	for i := len(rel) - 1; i > 0; i-- {
		if rel[i] == '/' && doublestar.MatchUnvalidated(g.pattern, rel[:i]) {
			return true
		}
	}
	return false
}
