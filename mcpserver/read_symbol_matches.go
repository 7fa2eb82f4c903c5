package mcpserver

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

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
	copies []*outline.Definition
}

// writeMatches writes the exact matches, in find_symbol's order: the first
// in full (within the budget), the next ones while they fit whole in what
// is left of it, at most readMaxBodies. A definition whose lines are those
// of a body shown, byte for byte, is not shown again: it is listed under
// that body, marked sameText. Then come the places of the rest and how to
// narrow. Each file is read at the time of the call; it is parsed only
// when a definition is too long to show whole, for its nested definitions.
func (s *Server) writeMatches(ctx context.Context, sb *strings.Builder, defs []search.Def, more bool, name string, since time.Time, o readOpts) {
	rd := getReader(s.cfg.Root, &s.parses, since)
	defer rd.release()
	left := o.budget
	var shown []*shownBody
	var rest []*outline.Definition
	copies := 0
	for i := range defs {
		d := &defs[i].Definition
		n := d.End - d.Start + 1
		sameSize := slices.ContainsFunc(shown, func(b *shownBody) bool { return b.lines == n })
		canShow := len(shown) < readMaxBodies && (len(shown) == 0 || n <= left)
		var raw []byte
		ok := false
		if sameSize || canShow {
			// The lines are read from the same bytes the definition is
			// located in, even while the file is being rewritten.
			if loc, found := rd.locate(ctx, d); found {
				if loc != d {
					d, n = loc, loc.End-loc.Start+1
					sameSize = slices.ContainsFunc(shown, func(b *shownBody) bool { return b.lines == n })
					canShow = len(shown) < readMaxBodies && (len(shown) == 0 || n <= left)
				}
				raw, ok = rd.extent(ctx, d.Path, d.Start, d.End)
			}
		}
		if k := slices.IndexFunc(shown, func(b *shownBody) bool { return ok && b.lines == n && bytes.Equal(b.raw, raw) }); k >= 0 {
			shown[k].copies = append(shown[k].copies, d)
			copies++
			continue
		}
		if !ok || !canShow {
			rest = append(rest, d)
			continue
		}
		var all []outline.Definition
		if n > left {
			all = rd.definitions(ctx, d.Path)
		}
		var body strings.Builder
		left -= writeDefinition(&body, splitFileLines(raw), d, all, left, o.full)
		shown = append(shown, &shownBody{text: body.String(), raw: bytes.Clone(raw), lines: n})
	}
	// Places: the copies under their bodies, then the rest, readMaxList
	// in all.
	listed := 0
	for k, b := range shown {
		if k > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(b.text)
		for _, c := range b.copies {
			if listed < readMaxList {
				writePlace(sb, c, sameText)
				listed++
			}
		}
	}
	if len(rest) == 0 && !more && listed == copies {
		return
	}
	if len(shown) > 0 {
		sb.WriteByte('\n')
	}
	for _, d := range rest {
		if listed == readMaxList {
			break
		}
		writePlace(sb, d, "")
		listed++
	}
	total := strconv.Itoa(len(defs))
	if more || listed < copies+len(rest) {
		total = "more than " + total
	}
	same := ""
	if copies > 0 {
		verb := "have"
		if copies == 1 {
			verb = "has"
		}
		same = fmt.Sprintf(" (%d more %s the same text as one shown)", copies, verb)
	}
	fmt.Fprintf(sb, "%d of %s definitions of %s shown%s; narrow it with a qualified name (Type.method) or path:line\n", len(shown), total, name, same)
}
