package srcview

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search"
)

// fold is a nested definition whose body the renderer may collapse into
// one marker line: the lines after keep (its name's line, so that its
// doc comment, decorators and signature stay) through end.
type fold struct {
	keep, end int
	// label names it in the marker: "method spawn".
	label string
	// read is what read_symbol takes to show it: its qualified name when
	// that names it alone, else PATH:LINE.
	read string
	// doc marks a long doc comment's fold, made whatever the budget,
	// whose marker is label alone.
	doc bool
}

func (f fold) size() int { return f.end - f.keep }

// Lines is a file split into lines, without their "\n" or "\r\n".
type Lines []string

// SplitLines splits src into lines.
func SplitLines(src []byte) Lines {
	s := string(src)
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return Lines{}
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// Show is a source line as an answer prints it: exact, except that a line
// longer than search.MaxLineRunes characters is cut with "…", and bytes
// that are not UTF-8 become U+FFFD.
func Show(l string) string {
	if !utf8.ValidString(l) {
		l = strings.ToValidUTF8(l, "\uFFFD")
	}
	if len(l) <= search.MaxLineRunes || utf8.RuneCountInString(l) <= search.MaxLineRunes {
		return l
	}
	n := 0
	for i := range l {
		if n == search.MaxLineRunes {
			return l[:i] + "…"
		}
		n++
	}
	return l
}

// indentOf is the leading spaces and tabs of l.
func indentOf(l string) string {
	return l[:len(l)-len(strings.TrimLeft(l, " \t"))]
}

// chooseFolds picks the nested definitions to collapse so that lines
// start..end fit in budget source lines: the largest first, until they
// fit. Folds that overlap one already chosen, or would hide fewer than two
// lines, are passed over. It returns the chosen folds in line order and
// the source lines left.
func chooseFolds(start, end int, nested []fold, budget int) ([]fold, int) {
	lines := end - start + 1
	var chosen []fold
	for _, f := range nested {
		if f.doc {
			chosen = append(chosen, f)
			lines -= f.size()
		}
	}
	cands := slices.DeleteFunc(slices.Clone(nested), func(f fold) bool { return f.doc })
	slices.SortStableFunc(cands, func(a, b fold) int {
		return cmp.Or(cmp.Compare(b.size(), a.size()), cmp.Compare(a.keep, b.keep))
	})
	for _, f := range cands {
		if lines <= budget {
			break
		}
		if f.size() < 2 || f.keep < start || f.end > end {
			continue
		}
		overlaps := slices.ContainsFunc(chosen, func(c fold) bool { return f.keep < c.end && c.keep < f.end })
		if overlaps {
			continue
		}
		chosen = append(chosen, f)
		lines -= f.size()
	}
	slices.SortFunc(chosen, func(a, b fold) int { return cmp.Compare(a.keep, b.keep) })
	return chosen, lines
}

// writeBody writes lines start..end of the file (1-based, inclusive),
// given as lines (lines[0] is line start), with the nested definitions
// chosen by chooseFolds collapsed, each into a marker line "⋮ FROM-TO KIND
// NAME" indented as the body it replaces. If the lines still do not fit in
// budget, it writes the first budget source lines and a last line saying
// what is left and how to read it. It returns the source lines written.
func writeBody(sb *strings.Builder, lines Lines, path string, start, end int, nested []fold, budget int) int {
	end = min(end, start+len(lines)-1)
	at := func(l int) string { return lines[l-start] }
	folds, _ := chooseFolds(start, end, nested, budget)
	written := 0
	for l := start; l <= end; l++ {
		if len(folds) > 0 && l == folds[0].keep+1 {
			f := folds[0]
			folds = folds[1:]
			indent := ""
			if f.keep >= start {
				indent = indentOf(at(f.keep))
			}
			for k := f.keep + 1; k <= f.end; k++ {
				if strings.TrimSpace(at(k)) != "" {
					indent = indentOf(at(k))
					break
				}
			}
			if f.doc {
				fmt.Fprintf(sb, "%s⋮ %s\n", indent, f.label)
			} else {
				fmt.Fprintf(sb, "%s⋮ %d-%d %s\n", indent, f.keep+1, f.end, f.label)
			}
			l = f.end
			continue
		}
		if written == budget {
			writeRest(sb, path, l, end, nested)
			return written
		}
		sb.WriteString(Show(at(l)))
		sb.WriteByte('\n')
		written++
	}
	return written
}

// writeRest is the last line of a body cut at the budget: how many lines
// are left from line from, and how to read them: the first nested
// definition that starts there or later by read_symbol, else the lines
// themselves from the file.
func writeRest(sb *strings.Builder, path string, from, end int, nested []fold) {
	n := end - from + 1
	plural := "s"
	if n == 1 {
		plural = ""
	}
	for _, f := range nested {
		if !f.doc && f.end >= from && f.keep <= end {
			fmt.Fprintf(sb, "… %d more line%s (%d-%d); read_symbol %s reads the next nested definition, or read those lines of %s\n", n, plural, from, end, f.read, path)
			return
		}
	}
	fmt.Fprintf(sb, "… %d more line%s (%d-%d); read those lines of %s\n", n, plural, from, end, path)
}

// writeReadHeader writes "PATH:START-END KIND NAME".
func writeReadHeader(sb *strings.Builder, path string, start, end int, kind, name string) {
	sb.WriteString(path)
	sb.WriteByte(':')
	sb.WriteString(strconv.Itoa(start))
	sb.WriteByte('-')
	sb.WriteString(strconv.Itoa(end))
	sb.WriteByte(' ')
	sb.WriteString(kind)
	sb.WriteByte(' ')
	sb.WriteString(name)
	sb.WriteByte('\n')
}

// WriteDefinition writes d: its header, then its lines within budget,
// with the bodies of the definitions of defs nested in it collapsed as
// needed. lines are d's lines (lines[0] is line d.Start). It returns the
// source lines written.
func WriteDefinition(sb *strings.Builder, lines Lines, d *outline.Definition, defs []outline.Definition, budget int, full bool) int {
	writeReadHeader(sb, d.Path, d.Start, d.End, d.Kind.String(), d.QualifiedName())
	var nested []fold
	for k := range defs {
		n := &defs[k]
		if n.Start < d.Start || n.End > d.End || n.Start == d.Start && n.End == d.End {
			continue
		}
		nested = append(nested, fold{keep: n.Line, end: n.End, label: n.Kind.String() + " " + n.Name, read: fmt.Sprintf("%s:%d", d.Path, n.Line)})
	}
	if !full {
		nested = append(nested, docFold(lines, d)...)
	}
	return writeBody(sb, lines, d.Path, d.Start, d.End, nested, budget)
}

// maxDocLines is the longest doc comment read_symbol shows whole (unless
// asked for it in full); a longer one shows its first docHead lines and a
// marker.
const (
	maxDocLines = 12
	docHead     = 3
)

// docFold is the folds of the comment lines from d.Start, before its
// name's line: a licence among them, all of it (it is no documentation),
// and the doc comment when it is longer than maxDocLines. lines are d's
// lines (lines[0] is line d.Start).
func docFold(lines Lines, d *outline.Definition) []fold {
	n := 0
	for n < len(lines) && d.Start+n < d.Line && commentLine(lines[n]) {
		n++
	}
	var folds []fold
	from := 0
	if k := licenceLines(lines[:n]); k > 0 {
		// A licence is no documentation: all of it goes.
		last := d.Start + k - 1
		folds = append(folds, fold{keep: d.Start - 1, end: last, doc: true,
			label: fmt.Sprintf("%d-%d licence comment (%d lines)", d.Start, last, k)})
		from = k
	}
	if n-from > maxDocLines {
		first, last := d.Start+from, d.Start+n-1
		folds = append(folds, fold{keep: first + docHead - 1, end: last, doc: true,
			label: fmt.Sprintf("%d-%d doc comment (%d lines)", first, last, n-from)})
	}
	return folds
}

// licenceLines is how many of a comment block's lines are a licence: a
// block whose first lines name a copyright or a licence, up to the end of
// its first /* */ comment (the doc comment may follow it), or all of it.
func licenceLines(block Lines) int {
	head := strings.Join(block[:min(len(block), 3)], "\n")
	if !strings.Contains(head, "Copyright") && !strings.Contains(head, "SPDX-License-Identifier") && !strings.Contains(head, "Licensed under") {
		return 0
	}
	if strings.HasPrefix(strings.TrimSpace(block[0]), "/*") {
		for i, l := range block {
			if strings.Contains(l, "*/") {
				return i + 1
			}
		}
	}
	return len(block)
}

// commentLine reports whether l is a line of a comment in the languages
// zumba reads: "//", "/*", "*" (inside a block comment), "#" followed by
// a space or nothing (not "#[attr]" or "#define"), "--", "(*".
func commentLine(l string) bool {
	t := strings.TrimLeft(l, " \t")
	switch {
	case strings.HasPrefix(t, "//"), strings.HasPrefix(t, "/*"), strings.HasPrefix(t, "*"),
		strings.HasPrefix(t, "--"), strings.HasPrefix(t, "(*"):
		return true
	case strings.HasPrefix(t, "#"):
		return len(t) == 1 || t[1] == ' ' || t[1] == '#' || t[1] == '\t' || t[1] == '!'
	}
	return false
}

// WritePlace writes "PATH:LINE KIND NAME" and note.
func WritePlace(sb *strings.Builder, d *outline.Definition, note string) {
	fmt.Fprintf(sb, "%s:%d %s %s%s\n", d.Path, d.Line, d.Kind, d.QualifiedName(), note)
}
