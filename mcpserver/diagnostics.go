package mcpserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/search"
)

const (
	// noDiagnostics is the answer when there is nothing to report.
	noDiagnostics = "No diagnostics."
	// maxDiagnostics bounds the lines of one answer.
	maxDiagnostics = 200
	// maxDiagMessage bounds a message, in characters, "…" included.
	maxDiagMessage = 300
	// maxDiagFileSize bounds the diagnostics file read into memory.
	maxDiagFileSize = 256 << 20
	// retryPause is how long a half-written file is given to be finished.
	retryPause = 50 * time.Millisecond
	// mtimeSlack is the coarsest modification-time granularity of common
	// file systems (FAT: 2 s). A file read less than this after its
	// modification time may be rewritten with the same size and time, so
	// its cached version is checked against its content.
	mtimeSlack = 2 * time.Second
)

// beforeRetry, when set (by tests), runs when a half-written diagnostics
// file is about to be read again.
var beforeRetry func()

var diagnosticsTool = &Tool{
	Name:        "diagnostics",
	Title:       "Editor diagnostics",
	Description: "The errors and warnings the user's editor shows, as PATH:LINE:COL: SEVERITY: MESSAGE.",
	Params: []Param{
		{Name: "path", Description: "Only this file (or folder), relative to the project."},
	},
	Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
		return s.diag.answer(ctx, s.cfg.Root, args["path"])
	},
}

// diagSource reads the editor's diagnostics file and keeps the version it
// last parsed, so that an unchanged file is not parsed again.
type diagSource struct {
	path string // absolute; "" for none

	mu      sync.Mutex
	cached  bool
	fi      fs.FileInfo // of the cached version
	readAt  time.Time   // when the cached version was read
	sum     [sha256.Size]byte
	entries []diagEntry
	err     error // the cached version's problem, if any
}

// newDiagSource returns the source for path, telling log once when the
// file does not exist yet: the editor may write it later, and until then
// every call answers "No diagnostics.", which could hide a mistyped path.
func newDiagSource(path string, log *log.Logger) *diagSource {
	d := &diagSource{path: path}
	if path != "" {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			log.Printf("diagnostics file %s does not exist yet; the diagnostics tool answers %q until it does", path, noDiagnostics)
		}
	}
	return d
}

// answer is the diagnostics tool's text for the project root, kept to
// the file or folder filter when it is not "".
func (d *diagSource) answer(ctx context.Context, root *search.Root, filter string) (string, bool) {
	if filter != "" {
		rel, err := root.Rel(filter)
		if err != nil {
			return toolError(err), true
		}
		filter = rel
	}
	if d == nil || d.path == "" {
		return noDiagnostics, false
	}
	entries, written, err := d.load(ctx)
	if err != nil {
		return err.Error(), true
	}
	return renderDiagnostics(root, entries, filter, written), false
}

// load returns the file's diagnostics and its modification time. A file
// that does not exist has none.
func (d *diagSource) load(ctx context.Context) ([]diagEntry, time.Time, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	fi, err := os.Stat(d.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, d.readError(err)
	}
	if d.cached && sameVersion(d.fi, fi) && d.readAt.Sub(changedAt(fi)) > mtimeSlack {
		return d.entries, d.fi.ModTime(), d.err
	}
	data, fi, readAt, err := d.read()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	entries, perr := d.parse(data)
	var se *syntaxError
	if errors.As(perr, &se) || len(bytes.TrimSpace(data)) == 0 {
		// Caught half-written (or truncated before being written): give
		// the editor a moment to finish, then read again.
		if beforeRetry != nil {
			beforeRetry()
		}
		select {
		case <-ctx.Done():
			return nil, time.Time{}, ctx.Err()
		case <-time.After(retryPause):
		}
		data, fi, readAt, err = d.read()
		if errors.Is(err, fs.ErrNotExist) {
			return nil, time.Time{}, nil
		}
		if err != nil {
			return nil, time.Time{}, err
		}
		entries, perr = d.parse(data)
	}
	d.cached, d.fi, d.readAt, d.sum = true, fi, readAt, sha256.Sum256(data)
	d.entries, d.err = entries, perr
	return entries, fi.ModTime(), perr
}

// parse parses data, reusing the cached result when the bytes are the same.
func (d *diagSource) parse(data []byte) ([]diagEntry, error) {
	if d.cached && sha256.Sum256(data) == d.sum {
		return d.entries, d.err
	}
	entries, err := parseDiagnostics(data)
	var se *syntaxError
	switch {
	case errors.As(err, &se):
		return nil, fmt.Errorf("diagnostics file %s is not valid JSON: %w", d.path, err)
	case err != nil:
		return nil, fmt.Errorf("diagnostics file %s has a shape zumba does not read: %w", d.path, err)
	}
	return entries, nil
}

// read reads the whole file with the FileInfo of what was read and the time
// the reading started.
func (d *diagSource) read() ([]byte, fs.FileInfo, time.Time, error) {
	readAt := time.Now()
	f, err := search.OpenRegular(d.path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, readAt, err
		}
		if errors.Is(err, search.ErrNotRegular) {
			if fi, serr := os.Stat(d.path); serr == nil && fi.IsDir() {
				return nil, nil, readAt, fmt.Errorf("cannot read diagnostics file %s: it is a directory", d.path)
			}
			return nil, nil, readAt, fmt.Errorf("cannot read diagnostics file %s: it is not a regular file", d.path)
		}
		return nil, nil, readAt, d.readError(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, readAt, d.readError(err)
	}
	if fi.IsDir() {
		return nil, nil, readAt, fmt.Errorf("cannot read diagnostics file %s: it is a directory", d.path)
	}
	if fi.Size() > maxDiagFileSize {
		return nil, nil, readAt, fmt.Errorf("cannot read diagnostics file %s: it is too large (%d bytes; the limit is %d)", d.path, fi.Size(), maxDiagFileSize)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxDiagFileSize+1))
	if err != nil {
		return nil, nil, readAt, d.readError(err)
	}
	if len(data) > maxDiagFileSize {
		return nil, nil, readAt, fmt.Errorf("cannot read diagnostics file %s: it is too large (the limit is %d bytes)", d.path, maxDiagFileSize)
	}
	return data, fi, readAt, nil
}

func (d *diagSource) readError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot read diagnostics file %s: %v", d.path, err)
}

// sameVersion reports whether two looks at a file may have seen the same
// content: same file (not replaced by a rename), size, modification time
// and status change time (which a write in place sets, even when the
// modification time is then set back).
func sameVersion(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && search.StatOf(a) == search.StatOf(b)
}

// changedAt is when the file was last written or had its status changed,
// whichever is later.
func changedAt(fi fs.FileInfo) time.Time {
	st := search.StatOf(fi)
	return time.Unix(0, max(st.MTime, st.CTime))
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
func renderDiagnostics(root *search.Root, entries []diagEntry, filter string, written time.Time) string {
	lines := make([]diagLine, 0, len(entries))
	rels := map[string]string{} // loc → project path, "" when outside
	for _, e := range entries {
		key := strconv.FormatBool(e.uriRef) + e.loc
		rel, seen := rels[key]
		if !seen {
			rel = projectPath(root, e.loc, e.uriRef)
			rels[key] = rel
		}
		if rel == "" || !inFilter(rel, filter) {
			continue
		}
		msg := foldMessage(e.message)
		if msg == "" {
			msg = "(no message)"
		}
		lines = append(lines, diagLine{path: printablePath(rel), line: e.line, col: e.col, severity: e.severity, message: msg})
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
// when it is outside the project or not a file at all (an untitled buffer,
// a git: or other non-file URI).
func projectPath(root *search.Root, loc string, uriRef bool) string {
	p := loc
	if strings.HasPrefix(p, "file:") {
		p = strings.TrimPrefix(p, "file:")
		if rest, ok := strings.CutPrefix(p, "//"); ok {
			// file://host/path: only the local host is this machine.
			host, path, _ := strings.Cut(rest, "/")
			if host != "" && !strings.EqualFold(host, "localhost") {
				return ""
			}
			p = "/" + path
		}
		p = unescape(p)
	} else if hasScheme(p) {
		return ""
	} else if uriRef {
		p = unescape(p)
	}
	if p == "" {
		return ""
	}
	rel, err := root.Rel(p)
	if err != nil {
		return ""
	}
	return rel
}

// unescape percent-decodes a URI path, or returns it as it is when it is
// not validly encoded (a tool that wrote a raw "%" in a path).
func unescape(p string) string {
	if u, err := url.PathUnescape(p); err == nil {
		return u
	}
	return p
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
