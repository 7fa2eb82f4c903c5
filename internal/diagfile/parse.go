package diagfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Entry is one diagnostic as a diagnostics file states it, before its
// location is turned into a project path.
type Entry struct {
	// Loc is where the diagnostic is, as written: a file:// URI, an
	// absolute path, or a path relative to the project (see LocalPath).
	Loc string
	// URIRef marks a Loc read from a URI field (LSP uri, SARIF
	// artifactLocation): a relative one is percent-decoded like a URI.
	URIRef    bool
	Line, Col int    // 1-based, in the units the file uses
	Severity  string // error, warning, info or hint
	Message   string // as written, possibly over several lines
}

// shapeError is a diagnostics file that is valid JSON but none of the
// accepted shapes.
type shapeError struct{ msg string }

func (e *shapeError) Error() string { return e.msg }

func shapeErrorf(format string, args ...any) error {
	return &shapeError{msg: fmt.Sprintf(format, args...)}
}

// syntaxError is a diagnostics file that is not JSON, or not yet: an editor
// caught writing it leaves it cut short.
type syntaxError struct {
	msg          string
	line, column int
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("%s (line %d, column %d)", e.msg, e.line, e.column)
}

// Parse reads the contents of a diagnostics file in any accepted shape:
//
//  1. LSP PublishDiagnosticsParams ({uri, diagnostics}) alone or in a list,
//     also wrapped in their textDocument/publishDiagnostics notification;
//     in a list, a later entry for a URI replaces an earlier one, as it
//     does in an LSP client, so a raw capture of a session reads right;
//  2. an object mapping a file:// URI, absolute path or project path to a
//     list of LSP diagnostics;
//  3. a list of flat entries {path|file|uri, line, column|col, severity,
//     message} with 1-based positions;
//  4. SARIF 2.1.0 (runs[].results[]).
//
// Any of these may be wrapped in an object as its "diagnostics" member.
// Several JSON values one after another (JSON Lines) read as a list.
// Whitespace alone, or null, is a file with no diagnostics.
func Parse(data []byte) ([]Entry, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var values []any
	for {
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, jsonError(data, dec, err)
		}
		values = append(values, v)
	}
	switch len(values) {
	case 0:
		return nil, nil
	case 1:
		return fromValue(values[0])
	}
	var list []any
	for _, v := range values {
		if l, ok := v.([]any); ok {
			list = append(list, l...)
		} else if v != nil {
			list = append(list, v)
		}
	}
	return fromList(list)
}

// jsonError turns a decoding error into one that says where it happened:
// the line and column of the offending character, or of the end of input.
func jsonError(data []byte, dec *json.Decoder, err error) error {
	pos := dec.InputOffset()
	msg := err.Error()
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		pos = se.Offset - 1 // Offset counts the offending byte
	case errors.Is(err, io.ErrUnexpectedEOF):
		pos = int64(len(data))
		msg = "unexpected end of input"
	}
	pos = min(max(pos, 0), int64(len(data)))
	before := data[:pos]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return &syntaxError{msg: msg, line: line, column: col}
}

func fromValue(v any) ([]Entry, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []any:
		return fromList(x)
	case map[string]any:
		if _, ok := x["runs"]; ok {
			return fromSARIF(x)
		}
		if p, ok := publishParams(x); ok {
			return fromList([]any{p})
		}
		if inner, ok := x["diagnostics"]; ok {
			// A wrapper such as {"version": 2, "diagnostics": …}; a
			// project file named "diagnostics" is not worth misreading
			// every wrapper for.
			return fromValue(inner)
		}
		return fromMap(x)
	}
	return nil, shapeErrorf("it holds a JSON %s; expected an object or a list", jsonKind(v))
}

// publishParams returns the PublishDiagnosticsParams in m: m itself, or
// the params of a textDocument/publishDiagnostics notification.
func publishParams(m map[string]any) (map[string]any, bool) {
	if method, _ := m["method"].(string); method == "textDocument/publishDiagnostics" {
		p, ok := m["params"].(map[string]any)
		return p, ok
	}
	_, hasDiags := m["diagnostics"]
	_, hasURI := m["uri"].(string)
	return m, hasDiags && hasURI
}

// fromList reads a list of PublishDiagnosticsParams, flat entries, SARIF
// logs and wrappers, in any mix.
func fromList(list []any) ([]Entry, error) {
	var flat []Entry
	// Published sets by URI, in first-seen order; a later set for the same
	// URI replaces the earlier one.
	published := map[string][]Entry{}
	var uris []string
	for i, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, shapeErrorf("entry %d of the list is a JSON %s; expected an object", i+1, jsonKind(v))
		}
		if _, ok := m["runs"]; ok {
			es, err := fromSARIF(m)
			if err != nil {
				return nil, err
			}
			flat = append(flat, es...)
			continue
		}
		p, isPublish := publishParams(m)
		switch {
		case isPublish:
			uri, _ := p["uri"].(string)
			es, err := lspList(uri, true, p["diagnostics"], fmt.Sprintf("diagnostics of entry %d", i+1))
			if err != nil {
				return nil, err
			}
			if _, seen := published[uri]; !seen {
				uris = append(uris, uri)
			}
			published[uri] = es
		case m["diagnostics"] != nil:
			es, err := fromValue(m["diagnostics"])
			if err != nil {
				return nil, err
			}
			flat = append(flat, es...)
		default:
			e, ok := flatEntry(m)
			if !ok {
				return nil, shapeErrorf("entry %d of the list has no path, file or uri", i+1)
			}
			flat = append(flat, e)
		}
	}
	for _, uri := range uris {
		flat = append(flat, published[uri]...)
	}
	return flat, nil
}

// fromMap reads an object from location to a list of diagnostics.
func fromMap(m map[string]any) ([]Entry, error) {
	var out []Entry
	for loc, v := range m {
		es, err := lspList(loc, strings.HasPrefix(loc, "file:"), v, fmt.Sprintf("the value of %q", loc))
		if err != nil {
			return nil, err
		}
		out = append(out, es...)
	}
	return out, nil
}

// lspList reads a list of diagnostics for one location. Each is an LSP
// Diagnostic (0-based range) or a flat entry (1-based line and column).
func lspList(loc string, uriRef bool, v any, what string) ([]Entry, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, shapeErrorf("%s is a JSON %s; expected a list of diagnostics", what, jsonKind(v))
	}
	out := make([]Entry, 0, len(list))
	for i, d := range list {
		m, ok := d.(map[string]any)
		if !ok {
			return nil, shapeErrorf("diagnostic %d in %s is a JSON %s; expected an object", i+1, what, jsonKind(d))
		}
		e := diagnostic(m)
		e.Loc, e.URIRef = loc, uriRef
		out = append(out, e)
	}
	return out, nil
}

// flatEntry reads a flat entry; ok is false when it names no location.
func flatEntry(m map[string]any) (e Entry, ok bool) {
	for _, key := range []string{"path", "file", "filename", "uri"} {
		if s, isStr := m[key].(string); isStr && s != "" {
			e.Loc, e.URIRef = s, key == "uri"
			break
		}
	}
	if e.Loc == "" {
		return e, false
	}
	d := diagnostic(m)
	d.Loc, d.URIRef = e.Loc, e.URIRef
	return d, true
}

// diagnostic reads the position, severity and message of one diagnostic.
// An LSP range is 0-based; a line and column|col are 1-based. Positions
// are in the units the file uses (LSP counts UTF-16 code units): they are
// printed as given, not recounted against the file.
func diagnostic(m map[string]any) Entry {
	var e Entry
	if r, ok := m["range"].(map[string]any); ok {
		start, _ := r["start"].(map[string]any)
		line, _ := toInt(start["line"])
		char, _ := toInt(start["character"])
		e.Line, e.Col = line+1, char+1
	} else {
		e.Line, _ = toInt(m["line"])
		col, ok := toInt(m["column"])
		if !ok {
			col, _ = toInt(m["col"])
		}
		e.Col = col
	}
	e.Line, e.Col = max(e.Line, 1), max(e.Col, 1)
	e.Severity = severity(m["severity"])
	e.Message = text(m["message"])
	if e.Message == "" {
		e.Message = text(m["msg"])
	}
	if e.Message == "" {
		// A diagnostic without words still has its code to show.
		e.Message = codeText(m["code"])
	}
	return e
}

// severity maps an LSP number (1 error, 2 warning, 3 information, 4 hint)
// or a word to one of error, warning, info, hint. A missing severity is an
// error, as VS Code reads one. Anything else (another number, a word such
// as pylint's "convention") is a warning: it is something a tool flagged,
// and dropping the whole file over it would show nothing at all.
func severity(v any) string {
	switch x := v.(type) {
	case nil:
		return "error"
	case json.Number:
		switch x.String() {
		case "1":
			return "error"
		case "3":
			return "info"
		case "4":
			return "hint"
		}
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "error", "err", "fatal", "critical", "1":
			return "error"
		case "information", "info", "informational", "note", "notice", "3":
			return "info"
		case "hint", "suggestion", "4":
			return "hint"
		}
	}
	return "warning"
}

// text reads a message: a string, or LSP 3.18 MarkupContent {kind, value},
// or SARIF {text|markdown}.
func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case map[string]any:
		for _, k := range []string{"value", "text", "markdown"} {
			if s, ok := x[k].(string); ok && s != "" {
				return s
			}
		}
	}
	return ""
}

// codeText reads an LSP code: a string, a number, or {value}.
func codeText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case map[string]any:
		return codeText(x["value"])
	}
	return ""
}

// toInt reads a JSON number, or a string of digits, as an int.
func toInt(v any) (int, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case string:
		s = strings.TrimSpace(x)
	default:
		return 0, false
	}
	if n, err := strconv.Atoi(s); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != f || f > 1<<31 || f < -(1<<31) {
		return 0, false
	}
	return int(f), true
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "list"
	}
	return "object"
}
