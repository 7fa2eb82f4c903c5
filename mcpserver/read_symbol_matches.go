package mcpserver

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/mcpserver/srcview"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search"
)

// sameText marks a listed definition whose lines are those of a body
// shown above it, byte for byte (build-tagged variants, vendored copies).
const sameText = " (same text)"

// shownBody is a definition read_symbol shows: its rendered lines, its
// lines as in the file, and the definitions of the same name whose lines
// are the same.
type shownBody struct {
	text   string
	raw    []byte
	lines  int
	group  *matchGroup
	copies []*outline.Definition
}

// matchGroup is what one body or one place line of the answer stands
// for: a definition, with the signatures declared before it in its file
// (TypeScript overloads, C and C++ prototypes) and its build variants
// (the same qualified name and kind in other files of its folder).
type matchGroup struct {
	rep      *outline.Definition
	sigs     []*outline.Definition
	variants []*outline.Definition
	// first is the place of the group's first member in find_symbol's
	// order.
	first int
}

// size is how many definitions the group stands for.
func (g *matchGroup) size() int { return 1 + len(g.sigs) + len(g.variants) }

// groupMatches sorts exact matches, in find_symbol's order, into groups:
// each file's overload set of a name (its implementation, which
// find_symbol lists first, and the signatures after it), then the sets of
// one Go package with the same name and kind (build variants, see
// buildVariants), represented by the best ranked: the first in a file
// without a platform suffix ("_linux.go", "_windows_amd64.go"), else the
// first.
func groupMatches(defs []search.Def) []*matchGroup {
	type overloadKey struct{ path, name string }
	overloads := map[overloadKey]*matchGroup{}
	var sets []*matchGroup
	for i := range defs {
		d := &defs[i].Definition
		k := overloadKey{d.Path, d.QualifiedName()}
		if g := overloads[k]; g != nil && d.Decl && callable(d) && callable(g.rep) {
			g.sigs = append(g.sigs, d)
			continue
		}
		g := &matchGroup{rep: d, first: i}
		if callable(d) {
			overloads[k] = g
		}
		sets = append(sets, g)
	}
	type variantKey struct {
		dir, name string
		kind      string
	}
	byFolder := map[variantKey]*matchGroup{}
	var groups []*matchGroup
	for _, g := range sets {
		k := variantKey{path.Dir(g.rep.Path), g.rep.QualifiedName(), g.rep.Kind.String()}
		if v := byFolder[k]; v != nil && v.rep.Path != g.rep.Path && buildVariants(v.rep.Path, g.rep.Path) {
			v.variants = append(v.variants, g.rep)
			v.variants = append(v.variants, g.sigs...)
			continue
		}
		byFolder[k] = g
		groups = append(groups, g)
	}
	for _, g := range groups {
		if len(g.variants) == 0 || !platformFile(g.rep.Path) {
			continue
		}
		if i := slices.IndexFunc(g.variants, func(d *outline.Definition) bool { return !d.Decl && !platformFile(d.Path) }); i >= 0 {
			g.rep, g.variants[i] = g.variants[i], g.rep
			g.sigs = nil
		}
	}
	return groups
}

// buildVariants reports whether definitions of one qualified name in
// files a and b of one folder are variants of one definition: in Go,
// where a folder is one package, they can only be (build constraints pick
// one), unless one is in a test file and the other is not (an external
// test package). In other languages a folder holds modules or files of
// their own, and the same name there is another definition.
func buildVariants(a, b string) bool {
	return strings.HasSuffix(a, ".go") && strings.HasSuffix(b, ".go") &&
		strings.HasSuffix(a, "_test.go") == strings.HasSuffix(b, "_test.go")
}

func callable(d *outline.Definition) bool {
	return d.Kind == grammar.Function || d.Kind == grammar.Method
}

// platformSuffix matches a file name whose last parts name an operating
// system or an architecture, as Go's build constraints and many C and
// Rust trees name their variants.
var platformSuffix = regexp.MustCompile(`[_.-](?:aix|android|darwin|dragonfly|freebsd|hurd|illumos|ios|js|linux|nacl|netbsd|openbsd|plan9|solaris|wasip1|windows|zos|bsd|unix|posix|win32|win64|macos|osx|386|amd64|amd64p32|arm|armbe|arm64|arm64be|loong64|mips|mipsle|mips64|mips64le|mips64p32|mips64p32le|ppc|ppc64|ppc64le|riscv|riscv64|s390|s390x|sparc|sparc64|wasm|x86|x86_64|aarch64)(?:[_.-]|$)`)

// platformFile reports whether path's base name (its extension and a Go
// test suffix left out) names a platform.
func platformFile(p string) bool {
	base := path.Base(p)
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return platformSuffix.MatchString(strings.TrimSuffix(base, "_test"))
}

// writeMatches writes the exact matches, in find_symbol's order, grouped
// (see groupMatches): the first group's body in full (within the
// budget), the next ones while they fit whole in what is left of it, at
// most readMaxBodies, each followed by a line for its signatures and one
// for its variants; a group whose body is byte for byte one shown is
// listed under it, marked sameText. Then the places of the other groups,
// at most readMaxPlaces, and how to narrow. Each file is read at the time
// of the call; it is parsed only when a definition is too long to show
// whole, for its nested definitions.
func (s *Server) writeMatches(ctx context.Context, sb *strings.Builder, defs []search.Def, more bool, name string, since time.Time, o readOpts) {
	rd := srcview.GetReader(s.cfg.Root, &s.parses, since)
	defer rd.Release()
	left := o.budget
	var shown []*shownBody
	var rest []*matchGroup
	for _, g := range groupMatches(defs) {
		d := g.rep
		n := d.End - d.Start + 1
		sameSize := slices.ContainsFunc(shown, func(b *shownBody) bool { return b.lines == n })
		canShow := len(shown) < readMaxBodies && (len(shown) == 0 || n <= left)
		var raw []byte
		ok := false
		if sameSize || canShow {
			// The lines are read from the same bytes the definition is
			// located in, even while the file is being rewritten.
			if loc, found := rd.Locate(ctx, d); found {
				if loc != d {
					d, n = loc, loc.End-loc.Start+1
					canShow = len(shown) < readMaxBodies && (len(shown) == 0 || n <= left)
				}
				raw, ok = rd.Extent(ctx, d.Path, d.Start, d.End)
			}
		}
		if k := slices.IndexFunc(shown, func(b *shownBody) bool { return ok && b.lines == n && bytes.Equal(b.raw, raw) }); k >= 0 {
			shown[k].copies = append(shown[k].copies, d)
			continue
		}
		if !ok || !canShow {
			rest = append(rest, g)
			continue
		}
		// The file's definitions: to collapse the nested ones of a body
		// that does not fit, and to name those the body uses.
		all := rd.Definitions(ctx, d.Path)
		var body strings.Builder
		if n > left {
			left -= srcview.WriteDefinition(&body, srcview.SplitLines(raw), o.def(d), all, left, o.full)
		} else {
			left -= srcview.WriteDefinition(&body, srcview.SplitLines(raw), o.def(d), nil, left, o.full)
		}
		writeGroupLines(&body, g, o)
		if uses := srcview.UsesLine(rd.Data(), d, all, rd.NonCode()); uses != "" {
			body.WriteString(uses + "\n")
		}
		shown = append(shown, &shownBody{text: body.String(), raw: bytes.Clone(raw), lines: n, group: g})
	}
	for k, b := range shown {
		if k > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(b.text)
		for _, c := range b.copies {
			srcview.WritePlace(sb, o.def(c), sameText)
		}
	}
	if len(rest) == 0 && !more {
		return
	}
	if len(shown) > 0 {
		sb.WriteByte('\n')
	}
	listed, total := 0, 0
	for _, g := range groupMatches(defs) {
		total += g.size()
	}
	for _, g := range rest {
		if listed == readMaxPlaces {
			break
		}
		note := ""
		switch {
		case len(g.variants) > 0:
			note = fmt.Sprintf(" (+%d %s in %s/)", len(g.variants), plural(len(g.variants), "variant", "variants"), o.path(path.Dir(g.rep.Path)))
		case len(g.sigs) > 0:
			note = fmt.Sprintf(" (+%d %s)", len(g.sigs), plural(len(g.sigs), "signature", "signatures"))
		}
		srcview.WritePlace(sb, o.def(g.rep), note)
		listed++
	}
	count := strconv.Itoa(total)
	if more {
		count = "more than " + count
	}
	copies := 0
	for _, b := range shown {
		copies += len(b.copies)
	}
	same := ""
	if copies > 0 {
		same = fmt.Sprintf(" (%d more %s the same text as one shown)", copies, plural(copies, "has", "have"))
	}
	advice := "narrow it with a qualified name (Type.method) or path:line"
	if strings.ContainsAny(name, ".:#") {
		// A qualified name narrows no further: a place does.
		advice = "read another by its PATH:LINE"
	}
	fmt.Fprintf(sb, "%d of %s definitions of %s shown%s; %s\n", len(shown), count, name, same, advice)
}

// writeGroupLines writes what a shown body stands for besides itself:
// "N signatures at LINE, LINE" and "+ N variants in FOLDER/ (FILE:LINE,
// … at most 3)".
func writeGroupLines(sb *strings.Builder, g *matchGroup, o readOpts) {
	if n := len(g.sigs); n > 0 {
		lines := make([]string, n)
		for i, d := range g.sigs {
			lines[i] = strconv.Itoa(d.Line)
		}
		fmt.Fprintf(sb, "%d %s at %s\n", n, plural(n, "signature", "signatures"), strings.Join(lines, ", "))
	}
	if n := len(g.variants); n > 0 {
		var places []string
		for _, d := range g.variants[:min(n, 3)] {
			places = append(places, fmt.Sprintf("%s:%d", path.Base(d.Path), d.Line))
		}
		if n > 3 {
			places = append(places, "…")
		}
		fmt.Fprintf(sb, "+ %d %s in %s/ (%s)\n", n, plural(n, "variant", "variants"), o.path(path.Dir(g.rep.Path)), strings.Join(places, ", "))
	}
}
