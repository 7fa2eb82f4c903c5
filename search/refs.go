package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/internal/filetier"
	"github.com/zumba-dev/zumba/search/internal/lines"
	"github.com/zumba-dev/zumba/search/internal/scan"
)

// MaxLineRunes is the most characters of a source line an answer shows;
// longer lines (minified code) are cut with "…" (see [lines.MaxRunes]).
const MaxLineRunes = lines.MaxRunes

// RefLimit is how many lines find_references shows.
const RefLimit = 80

// Ref is one line that uses the name.
type Ref struct {
	Path string
	Line int
	// Text is the line as shown: trimmed, cut around the match if long.
	Text string
}

// References finds the lines of files (in path order) that use name as a
// whole word (see [WordScanner]: "operate(" finds "operate(x)"),
// case-sensitively, reading them from src. It stops after limit
// lines and reports whether there were more; limit < 0 means no limit.
func References(ctx context.Context, files []project.Entry, src project.Source, name string, limit int) (refs []Ref, more bool, err error) {
	return references(ctx, files, src, name, limit, false)
}

// references is References; with late, the files (ranked by their paths,
// rankFiles) whose first lines say they are generated come after the
// others (see rank.go).
func references(ctx context.Context, files []project.Entry, src project.Source, name string, limit int, late bool) (refs []Ref, more bool, err error) {
	sc := NewWordScanner(name)
	perFile := make([][]Ref, len(files))
	generated := make([]bool, len(files))
	// fileRefs copies the lines it keeps (lines.Show).
	emitted, _ := scan.OrderedReusing(ctx, len(files), limit, time.Time{}, func(i int, scr *project.Scratch) int {
		data, err := src.Contents(files[i], scr)
		if err != nil {
			return 0
		}
		perFile[i] = fileRefs(files[i].Path, data, sc)
		if late && len(perFile[i]) > 0 && filetier.Of(files[i].Path) < filetier.Vendored && grammar.IsGeneratedHead(data) {
			// Not counted: its lines come last.
			generated[i] = true
			return 0
		}
		return len(perFile[i])
	})
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	var last []Ref
	for i := range emitted {
		if generated[i] {
			last = append(last, perFile[i]...)
			continue
		}
		refs = append(refs, perFile[i]...)
		if limit >= 0 && len(refs) > limit {
			return refs[:limit], true, nil
		}
	}
	refs = append(refs, last...)
	if limit >= 0 && len(refs) > limit {
		return refs[:limit], true, nil
	}
	return refs, false, nil
}

// fileRefs scans one file's bytes: one Ref per line with a whole-word use.
func fileRefs(path string, data []byte, sc *WordScanner) []Ref {
	var out []Ref
	line, counted := 1, 0
	for at := sc.Next(data, 0); at >= 0; {
		start, end := lines.At(data, at)
		line += bytes.Count(data[counted:start], []byte{'\n'})
		counted = start
		out = append(out, Ref{Path: path, Line: line, Text: lines.Show(data[start:end], at-start, at-start+len(sc.word))})
		if end >= len(data) {
			break
		}
		at = sc.Next(data, end+1)
	}
	return out
}

// RefResult is what a references search found: the lines, in path order,
// and whether there were more than the limit.
type RefResult struct {
	Refs []Ref
	More bool
	// Building: the project index was still being built, and only the
	// Searched first files of Files (in the order they are read) were
	// covered before the time limit. With Files 0 the time limit came
	// before the project's files were listed, and nothing was searched.
	Building        bool
	Searched, Files int
}

// ErrEmptyName is the error for a search for no name.
var ErrEmptyName = errors.New("name is empty")

// References finds the lines of the project's files, walked and read
// afresh and kept by filter (nil: all), that use name as a whole word: at
// most RefLimit, the files ranked by rankFiles.
func (r *Root) References(ctx context.Context, name string, filter *project.PathFilter) (*RefResult, error) {
	name = strings.TrimSpace(name)
	if err := checkName(name); err != nil {
		return nil, err
	}
	files, err := r.Walk(ctx)
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", r.Dir, err)
	}
	if files, err = FilterEntries(ctx, files, filter); err != nil {
		return nil, err
	}
	refs, more, err := references(ctx, rankFiles(files), r, name, RefLimit, true)
	if err != nil {
		return nil, err
	}
	return &RefResult{Refs: refs, More: more}, nil
}

// FilterEntries keeps the entries whose path filter matches. It stops
// with ctx's error when ctx ends: a filter of many globs costs a few
// microseconds a file, seconds over a few hundred thousand files.
func FilterEntries(ctx context.Context, files []project.Entry, filter *project.PathFilter) ([]project.Entry, error) {
	if filter == nil {
		return files, nil
	}
	out := files[:0:0]
	for i, e := range files {
		if i%1024 == 1023 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if filter.Match(e.Path) {
			out = append(out, e)
		}
	}
	return out, nil
}
