package search

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// RefLimit is how many lines find_references shows.
const RefLimit = 80

// RefsMore is find_references' last line when there are more than RefLimit.
const RefsMore = "… more; narrow it with path"

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
func References(ctx context.Context, files []Entry, src Source, name string, limit int) (refs []Ref, more bool, err error) {
	sc := NewWordScanner(name)
	perFile := make([][]Ref, len(files))
	emitted, _ := scanOrdered(ctx, len(files), limit, time.Time{}, func(i int, scr *Scratch) int {
		data, err := src.Contents(files[i], scr)
		if err != nil {
			return 0
		}
		perFile[i] = fileRefs(files[i].Path, data, sc)
		return len(perFile[i])
	})
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	for i := range emitted {
		refs = append(refs, perFile[i]...)
		if limit >= 0 && len(refs) > limit {
			return refs[:limit], true, nil
		}
	}
	return refs, false, nil
}

// fileRefs scans one file's bytes: one Ref per line with a whole-word use.
func fileRefs(path string, data []byte, sc *WordScanner) []Ref {
	var out []Ref
	line, counted := 1, 0
	for at := sc.Next(data, 0); at >= 0; {
		start, end := lineAt(data, at)
		line += bytes.Count(data[counted:start], []byte{'\n'})
		counted = start
		out = append(out, Ref{Path: path, Line: line, Text: showLine(data[start:end], at-start, at-start+len(sc.word))})
		if end >= len(data) {
			break
		}
		at = sc.Next(data, end+1)
	}
	return out
}

// FindReferences answers the find_references tool: the project's files are
// walked afresh, kept by filter, and searched for name. pathArg is the path
// argument as given, for the message when nothing is found.
func FindReferences(ctx context.Context, root *Root, name, pathArg string) (string, error) {
	return findReferences(ctx, root, name, pathArg, RefLimit)
}

func findReferences(ctx context.Context, root *Root, name, pathArg string, limit int) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", pathErrorf("find_references: name is empty")
	}
	filter, err := ParsePathFilter(pathArg)
	if err != nil {
		return "", err
	}
	files, err := root.Walk(ctx)
	if err != nil {
		return "", fmt.Errorf("walk %s: %w", root.Dir, err)
	}
	files = FilterEntries(files, filter)
	refs, more, err := References(ctx, files, root, name, limit)
	if err != nil {
		return "", err
	}
	if len(refs) == 0 {
		if filter != nil {
			return fmt.Sprintf("No references to %s in files matching %s.", name, strings.TrimSpace(pathArg)), nil
		}
		return fmt.Sprintf("No references to %s.", name), nil
	}
	return FormatRefs(refs, more), nil
}

// FormatRefs prints refs one "PATH:LINE: TEXT" per line, then RefsMore
// when more were left out.
func FormatRefs(refs []Ref, more bool) string {
	var sb strings.Builder
	for i, r := range refs {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(r.Path)
		sb.WriteByte(':')
		sb.WriteString(strconv.Itoa(r.Line))
		sb.WriteString(": ")
		sb.WriteString(r.Text)
	}
	if more {
		sb.WriteString("\n" + RefsMore)
	}
	return sb.String()
}

// FilterEntries keeps the entries whose path filter matches.
func FilterEntries(files []Entry, filter *PathFilter) []Entry {
	if filter == nil {
		return files
	}
	out := files[:0:0]
	for _, e := range files {
		if filter.Match(e.Path) {
			out = append(out, e)
		}
	}
	return out
}
