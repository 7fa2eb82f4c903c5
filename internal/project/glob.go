package project

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// PathFilter keeps the files that match any of a tool's path globs and
// none of its exclusions ("!GLOB"). The nil filter keeps every file.
type PathFilter struct {
	globs, excludes []pathGlob
}

// pathGlob is one glob of the path argument, its braces expanded: each of
// patterns is brace-free, and the glob matches what any of them matches.
type pathGlob struct {
	patterns []string
	kind     globKind
	// literal: the glob has no wildcards, so it also keeps everything
	// below the folder it names.
	literal bool
	// byName: a folder glob without "/" matches a folder's base name.
	byName bool
}

// Bounds on a path argument's braces. doublestar matches "{a,b}" by trying
// each alternative with the rest of the pattern, so k braces of two
// alternatives cost 2^k tries for every file that fails to match, and
// deep nesting costs as much again: "{*,*}" fourteen times took 15 s a
// call. Braces are expanded once, when the argument is read, into at most
// maxAlternatives brace-free patterns, each matched in time bounded by its
// length and the path's; a glob asking for more is refused.
const (
	maxAlternatives = 64   // brace-free patterns of a whole path argument
	maxBraces       = 16   // brace pairs of one glob
	maxBracedGlob   = 4096 // bytes of one glob that holds braces
)

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
	alternatives := 0
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
		pats, err := expandBraces(p, maxAlternatives-alternatives)
		if err != nil {
			return nil, pathErrorf("glob %q in path: %v", Echo(g), err)
		}
		alternatives += len(pats)
		pg := pathGlob{patterns: pats, kind: kind, literal: !strings.ContainsAny(p, "*?[{\\"), byName: !strings.Contains(p, "/")}
		if exclude {
			f.excludes = append(f.excludes, pg)
		} else {
			f.globs = append(f.globs, pg)
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
		if g.matchAny(rel[strings.LastIndexByte(rel, '/')+1:]) {
			return true
		}
		// A path without wildcards keeps that file or everything under
		// it, "search" as "search/" (the diagnostics tool's rule too).
		return g.literal && strings.HasPrefix(rel, g.patterns[0]+"/")
	case pathKind:
		if g.matchAny(rel) {
			return true
		}
		return g.literal && strings.HasPrefix(rel, g.patterns[0]+"/")
	}
	// A folder glob: any folder on the path.
	for i := 0; i < len(rel); i++ {
		if rel[i] != '/' {
			continue
		}
		if g.matchAny(rel[:i]) {
			return true
		}
	}
	return false
}

// matchAny reports whether any of the glob's patterns matches name; a
// folder glob by name matches the base name of the folder path name.
func (g pathGlob) matchAny(name string) bool {
	if g.kind == folderKind && g.byName {
		name = name[strings.LastIndexByte(name, '/')+1:]
	}
	for _, p := range g.patterns {
		if doublestar.MatchUnvalidated(p, name) {
			return true
		}
	}
	return false
}

// expandBraces returns the brace-free patterns that p's alternatives stand
// for, as doublestar reads them: the first "{" outside a character class
// and not escaped is replaced by each of its alternatives in turn, with
// the rest of the pattern after it, until none is left. More than max
// patterns, more than maxBraces brace pairs, or braces in a glob over
// maxBracedGlob bytes are an error. p has passed ValidatePattern.
func expandBraces(p string, max int) ([]string, error) {
	open := nextBrace(p, 0)
	if open < 0 {
		if max < 1 {
			return nil, fmt.Errorf("more than %d globs and brace alternatives; use fewer", maxAlternatives)
		}
		return []string{p}, nil
	}
	if len(p) > maxBracedGlob {
		return nil, fmt.Errorf("a glob with braces is limited to %d bytes", maxBracedGlob)
	}
	braces := 0
	for i := open; i >= 0; i = nextBrace(p, i+1) {
		if braces++; braces > maxBraces {
			return nil, fmt.Errorf("more than %d pairs of braces", maxBraces)
		}
	}
	var out []string
	var expand func(p string) error
	expand = func(p string) error {
		open := nextBrace(p, 0)
		if open < 0 {
			if len(out) >= max {
				return fmt.Errorf("its braces stand for more than %d globs; use fewer alternatives", maxAlternatives)
			}
			out = append(out, p)
			return nil
		}
		close := open + 1 + closingBrace(p[open+1:])
		for start := open + 1; ; {
			comma := nextComma(p[start:close])
			end := close
			if comma >= 0 {
				end = start + comma
			}
			if err := expand(spliceAlt(p[:open], p[start:end]+p[close+1:])); err != nil {
				return err
			}
			if comma < 0 {
				return nil
			}
			start = end + 1
		}
	}
	if err := expand(p); err != nil {
		return nil, err
	}
	return out, nil
}

// spliceAlt puts an alternative, and the rest of the pattern after its
// braces, after what precedes the braces. doublestar has read stars just
// before the braces by then, as a star that stays in its folder (a "**"
// followed by "{" spans no folders), and reads the stars that the
// alternative brings as stars of their own: "*{*x,y}" is "*" then "*x",
// which is "*x", never the "**x" that spans folders.
func spliceAlt(before, rest string) string {
	stars := len(before) - len(strings.TrimRight(before, "*"))
	if stars == 0 || escaped(before, len(before)-stars) {
		return before + rest
	}
	return before[:len(before)-stars+1] + strings.TrimLeft(rest, "*")
}

// escaped reports whether p[i] follows an odd run of backslashes.
func escaped(p string, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && p[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// nextBrace is the index of the first "{" of p at or after from that
// opens alternatives (not escaped, not in a character class), or -1.
func nextBrace(p string, from int) int {
	i := scanBraces(p[from:], func(c byte, _ int) bool { return c == '{' })
	if i < 0 {
		return -1
	}
	return from + i
}

// closingBrace is the index in s of the "}" closing a "{" just before s.
func closingBrace(s string) int {
	return scanBraces(s, func(c byte, depth int) bool { return c == '}' && depth < 0 })
}

// nextComma is the index in s of the first "," between alternatives at
// s's own level, or -1.
func nextComma(s string) int {
	return scanBraces(s, func(c byte, depth int) bool { return c == ',' && depth == 0 })
}

// scanBraces reads s as doublestar's brace scanner does (an escaped byte
// and a character class are skipped) and returns the index of the first
// "{", "}" or "," for which stop is true, or -1. depth counts the braces
// s opens before the byte ("}" is counted before stop sees it).
func scanBraces(s string, stop func(c byte, depth int) bool) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			i++
		case '[':
			i = classEnd(s, i)
		case '{', '}', ',':
			if c == '}' {
				depth--
			}
			if stop(c, depth) {
				return i
			}
			if c == '{' {
				depth++
			}
		}
	}
	return -1
}

// classEnd is the index of the "]" that closes the character class opened
// at p[open], skipping escaped bytes, as doublestar's brace scanner does.
func classEnd(p string, open int) int {
	i := open + 1
	for ; i < len(p); i++ {
		if p[i] == '\\' {
			i++
		} else if p[i] == ']' {
			break
		}
	}
	return i
}
