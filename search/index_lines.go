package search

import (
	"context"
	"slices"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/internal/lines"
)

// defLines gives fallback definitions their line text, reading each file
// once, and passes over those whose file does not contain the needle in
// any case (as Symbols does).
type defLines struct {
	root   *Root
	sc     *project.Scratch
	needle []byte
	ents   map[string]project.Entry
	read   map[string]*defLinesFile
}

type defLinesFile struct {
	ok    bool
	lines *lines.Index
}

func newDefLines(root *Root, sc *project.Scratch, needle []byte) *defLines {
	return &defLines{root: root, sc: sc, needle: needle, ents: map[string]project.Entry{}, read: map[string]*defLinesFile{}}
}

// fill appends defs to out, with their text, until out holds more than
// limit.
func (l *defLines) fill(ctx context.Context, out, defs []Def, limit int) ([]Def, error) {
	for _, d := range defs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if limit >= 0 && len(out) > limit {
			break
		}
		f := l.read[d.Path]
		if f == nil {
			f = &defLinesFile{}
			l.read[d.Path] = f
			if data, err := l.root.Contents(l.ents[d.Path], l.sc); err == nil && containsFold(data, l.needle) {
				f.ok, f.lines = true, lines.New(slices.Clone(data))
			}
		}
		if f.ok {
			d.Text = f.lines.Text(d.Line)
			out = append(out, d)
		}
	}
	return out, nil
}

func fillText(defs []Def, data []byte) {
	text := lines.New(data)
	for i := range defs {
		defs[i].Text = text.Text(defs[i].Line)
	}
}
