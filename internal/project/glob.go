package project

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// PathFilter keeps the files that match any of a tool's path globs and
// none of its exclusions ("!GLOB"). The nil filter keeps every file.
type PathFilter struct {
	globs, excludes []pathGlob
}

type pathGlob struct {
	pattern string
	kind    globKind
}

type globKind uint8

const (
	// baseKind has no "/": it matches the file's base name at any depth;
	// one without wildcards ("search") also keeps everything below that
	// folder of the project.
	baseKind globKind = iota
	// pathKind matches the path from the project folder; one without
	// wildcards ("src/parser") also keeps everything below that folder.
	pathKind
	// folderKind ended in "/": it keeps everything below the folders it
	// matches, by name at any depth ("vendor/") or by path ("src/*/").
	folderKind
)

// ParsePathFilter reads a comma-separated list of doublestar globs ("src/**,
// *.rs"); spaces around the commas are ignored, and commas inside braces
// belong to the glob ("*.{ts,tsx}"). A glob without "/" matches the file's
// base name at any depth; a glob with "/" matches the path from the
// project folder ("./" and a leading "/" are dropped). A path without
// wildcards, or a glob ending in "/", keeps everything below the folders
// it names. A glob after "!" excludes what it matches ("src/**,
// !**/*_test.go"); a list of exclusions alone keeps every other file. An
// empty list gives the nil filter.
func ParsePathFilter(arg string) (*PathFilter, error) {
	var f PathFilter
	for _, g := range SplitGlobs(arg) {
		g = strings.TrimSpace(g)
		if g == "" {
			continue
		}
		p, exclude := strings.CutPrefix(g, "!")
		if exclude {
			p = strings.TrimSpace(p)
			if p == "" {
				return nil, pathErrorf("invalid glob %q in path: put a glob after the !", Echo(g))
			}
		}
		p = strings.TrimPrefix(p, "./")
		p = strings.TrimLeft(p, "/")
		kind := baseKind
		if strings.HasSuffix(p, "/") {
			kind = folderKind
			p = strings.TrimRight(p, "/")
		} else if strings.Contains(p, "/") {
			kind = pathKind
		}
		if p == "" || p == "." {
			p, kind = "**", pathKind
		}
		if !doublestar.ValidatePattern(p) {
			return nil, pathErrorf("invalid glob %q in path: check its brackets and braces", Echo(g))
		}
		if exclude {
			f.excludes = append(f.excludes, pathGlob{pattern: p, kind: kind})
		} else {
			f.globs = append(f.globs, pathGlob{pattern: p, kind: kind})
		}
	}
	if len(f.globs) == 0 && len(f.excludes) == 0 {
		return nil, nil
	}
	return &f, nil
}

// SplitGlobs splits at the commas outside braces, so "src/{a,b}.rs, *.go"
// is two globs; a backslash escapes the next character.
func SplitGlobs(arg string) []string {
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
	for _, g := range f.excludes {
		if g.match(rel) {
			return false
		}
	}
	if len(f.globs) == 0 {
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
	switch g.kind {
	case baseKind:
		if doublestar.MatchUnvalidated(g.pattern, rel[strings.LastIndexByte(rel, '/')+1:]) {
			return true
		}
		// A path without wildcards keeps that file or everything under
		// it, "search" as "search/" (the diagnostics tool's rule too).
		return !strings.ContainsAny(g.pattern, "*?[{\\") && strings.HasPrefix(rel, g.pattern+"/")
	case pathKind:
		if doublestar.MatchUnvalidated(g.pattern, rel) {
			return true
		}
		if strings.ContainsAny(g.pattern, "*?[{\\") {
			return false
		}
		return strings.HasPrefix(rel, g.pattern+"/")
	}
	// A folder glob: any folder on the path.
	byName := !strings.Contains(g.pattern, "/")
	for i := 0; i < len(rel); i++ {
		if rel[i] != '/' {
			continue
		}
		dir := rel[:i]
		if byName {
			dir = dir[strings.LastIndexByte(dir, '/')+1:]
		}
		if doublestar.MatchUnvalidated(g.pattern, dir) {
			return true
		}
	}
	return false
}
