package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/internal/diagfile"
	"github.com/zumba-dev/zumba/search"
)

const (
	// noDiagnostics is the answer when there is nothing to report.
	noDiagnostics = "No diagnostics."
	// maxDiagnostics bounds the lines of one answer.
	maxDiagnostics = 200
	// maxDiagMessage bounds a message, in characters, "…" included.
	maxDiagMessage = 300
)

var diagnosticsTool = &Tool{
	Name:        "diagnostics",
	Title:       "Editor diagnostics",
	Description: "The errors and warnings the user's editor shows, as PATH:LINE:COL: SEVERITY: MESSAGE.",
	Params: []Param{
		{Name: "path", Description: "Only this file (or folder), relative to the project."},
	},
	Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
		return s.diag.answer(ctx, s.cfg.Root, args["path"], s.shown)
	},
}

// diagSource is the editor's diagnostics file, nil for none.
type diagSource struct{ file *diagfile.File }

// newDiagSource returns the source for path ("" for none), telling log
// once when the file does not exist yet: the editor may write it later,
// and until then every call answers "No diagnostics.", which could hide a
// mistyped path.
func newDiagSource(path string, log *log.Logger, opts diagfile.Options) *diagSource {
	if path == "" {
		return nil
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		log.Printf("diagnostics file %s does not exist yet; the diagnostics tool answers %q until it does", path, noDiagnostics)
	}
	return &diagSource{file: diagfile.Open(path, opts)}
}

// answer is the diagnostics tool's text for the project root, kept to
// the file or folder filter when it is not "", its paths as shown shows them.
func (d *diagSource) answer(ctx context.Context, root *search.Root, filter string, shown func(string) string) (string, bool) {
	if filter != "" {
		rel, err := root.Rel(filter)
		if err != nil {
			return toolError(err), true
		}
		filter = rel
	}
	if d == nil {
		return noDiagnostics, false
	}
	entries, written, err := d.file.Load(ctx)
	if err != nil {
		return err.Error(), true
	}
	return renderDiagnostics(root, entries, filter, written, shown), false
}

// diagLine is one diagnostic placed in the project, ready to print.
type diagLine struct {
	path      string
	line, col int
	severity  string
	message   string
}

var severityRank = map[string]int{"error": 0, "warning": 1, "info": 2, "hint": 3}

// renderDiagnostics prints the entries inside the project (and inside
// filter, a project path, when it is not ""), sorted, at most
// maxDiagnostics of them. A line whose file was modified after written,
// the diagnostics file's modification time, is marked as maybe stale.
func renderDiagnostics(root *search.Root, entries []diagfile.Entry, filter string, written time.Time, shown func(string) string) string {
	lines := make([]diagLine, 0, len(entries))
	rels := map[string]string{} // loc → project path, "" when outside
	for _, e := range entries {
		key := strconv.FormatBool(e.URIRef) + e.Loc
		rel, seen := rels[key]
		if !seen {
			rel = projectPath(root, e)
			rels[key] = rel
		}
		if rel == "" || !inFilter(rel, filter) {
			continue
		}
		msg := foldMessage(e.Message)
		if msg == "" {
			msg = "(no message)"
		}
		lines = append(lines, diagLine{path: printablePath(shown(rel)), line: e.Line, col: e.Col, severity: e.Severity, message: msg})
	}
	if len(lines) == 0 {
		return noDiagnostics
	}
	sort.Slice(lines, func(i, j int) bool {
		a, b := lines[i], lines[j]
		switch {
		case a.path != b.path:
			return a.path < b.path
		case a.line != b.line:
			return a.line < b.line
		case a.col != b.col:
			return a.col < b.col
		case a.severity != b.severity:
			return severityRank[a.severity] < severityRank[b.severity]
		}
		return a.message < b.message
	})
	// Two language servers, or two SARIF runs, often report the same thing.
	uniq := lines[:1]
	for _, l := range lines[1:] {
		if l != uniq[len(uniq)-1] {
			uniq = append(uniq, l)
		}
	}
	lines = uniq
	more := len(lines) > maxDiagnostics
	if more {
		lines = lines[:maxDiagnostics]
	}
	changed := map[string]bool{}
	var sb strings.Builder
	for i, l := range lines {
		if i > 0 {
			sb.WriteByte('\n')
		}
		fmt.Fprintf(&sb, "%s:%d:%d: %s: %s", l.path, l.line, l.col, l.severity, l.message)
		c, seen := changed[l.path]
		if !seen {
			c = changedSince(root, l.path, written)
			changed[l.path] = c
		}
		if c {
			sb.WriteString(" (file changed since)")
		}
	}
	if more {
		sb.WriteString("\n… more; narrow it with path")
	}
	return sb.String()
}

// printablePath keeps a path on its line: a control character in a file
// name (a newline is legal on Unix) is written as a Go escape.
func printablePath(p string) string {
	if strings.IndexFunc(p, unicode.IsControl) < 0 {
		return p
	}
	q := strconv.Quote(p)
	return q[1 : len(q)-1]
}

func inFilter(rel, filter string) bool {
	return filter == "" || filter == "." || rel == filter || strings.HasPrefix(rel, filter+"/")
}

// changedSince reports whether the project file rel was modified after t.
// A file that is gone, or was never saved, is not marked.
func changedSince(root *search.Root, rel string, t time.Time) bool {
	fi, err := root.FS().Stat(rel)
	return err == nil && fi.ModTime().After(t)
}

// projectPath turns a diagnostic's location into a project path, or ""
// when it is outside the project or not a file at all.
func projectPath(root *search.Root, e diagfile.Entry) string {
	p := e.LocalPath()
	if p == "" {
		return ""
	}
	rel, err := root.Rel(p)
	if err != nil {
		return ""
	}
	return rel
}

// foldMessage puts a message on one line, its lines joined by spaces and
// control characters made spaces, and cuts it at maxDiagMessage characters.
func foldMessage(msg string) string {
	msg = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' {
			return '\n'
		}
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, msg)
	parts := strings.Split(msg, "\n")
	kept := parts[:0]
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	msg = strings.Join(kept, " ")
	if utf8.RuneCountInString(msg) <= maxDiagMessage {
		return msg
	}
	n := 0
	for i := range msg {
		if n == maxDiagMessage-1 {
			return strings.TrimRightFunc(msg[:i], unicode.IsSpace) + "…"
		}
		n++
	}
	return msg
}
