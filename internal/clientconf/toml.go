package clientconf

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// editTOML sets the table [mcp_servers.NAME] of a TOML file (Codex's
// config.toml) to command and args: a key that differs is rewritten, a
// missing one added under the table's header, a missing table appended;
// every other line (other tables, other keys of this one, comments) is
// left as it was. The file is read by a TOML parser first, so a file
// that does not parse is refused, and the result is read again and
// compared with it: an edit that would change anything but the entry's
// command and args, or would not parse, is refused.
func editTOML(src []byte, name, command string, args []string) (out []byte, changed bool, err error) {
	doc, entry, err := tomlEntry(src, name)
	if err != nil {
		return nil, false, err
	}
	want := map[string]any{"command": command, "args": toAny(args)}
	switch {
	case entry == nil:
		// A table written as a key's value (mcp_servers = {…}, or
		// mcp_servers.other.command = …) cannot take a [header] after
		// it: TOML readers (Codex's) refuse the file then.
		stmts, err := scanTOML(string(src))
		if err != nil {
			return nil, false, err
		}
		for _, st := range stmts {
			if st.header {
				break
			}
			if st.key[0] == "mcp_servers" {
				return nil, false, fmt.Errorf("mcp_servers is written as a value, which zumba does not edit; add mcp_servers.%s by hand", name)
			}
		}
		out = append([]byte{}, src...)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		if len(strings.TrimSpace(string(out))) > 0 {
			out = append(out, '\n')
		}
		out = fmt.Appendf(out, "[mcp_servers.%s]\ncommand = %s\nargs = %s\n", tomlKey(name), tomlString(command), tomlArray(args))
	case reflect.DeepEqual(entry["command"], want["command"]) && reflect.DeepEqual(entry["args"], want["args"]):
		return src, false, nil
	default:
		if out, err = rewriteTable(src, name, command, args); err != nil {
			return nil, false, err
		}
	}
	refuse := fmt.Errorf("mcp_servers.%s is written in a form zumba does not edit; set command and args by hand", name)
	got, gotEntry, err := tomlEntry(out, name)
	if err != nil || !reflect.DeepEqual(gotEntry["command"], want["command"]) || !reflect.DeepEqual(gotEntry["args"], want["args"]) {
		return nil, false, refuse
	}
	// Nothing else changed: the documents are the same once zumba's
	// command and args (and a table holding nothing else) are left out.
	if !reflect.DeepEqual(withoutEntry(doc, name), withoutEntry(got, name)) {
		return nil, false, refuse
	}
	return out, true, nil
}

// tomlEntry reads src and returns it with its table mcp_servers.NAME,
// nil when there is none.
func tomlEntry(src []byte, name string) (doc, entry map[string]any, err error) {
	if _, err := toml.Decode(string(src), &doc); err != nil {
		return nil, nil, err
	}
	servers, _ := doc["mcp_servers"].(map[string]any)
	entry, ok := servers[name].(map[string]any)
	if !ok && servers[name] != nil {
		return nil, nil, fmt.Errorf("mcp_servers.%s is not a table", name)
	}
	return doc, entry, nil
}

// withoutEntry is doc without mcp_servers.NAME's command and args, and
// without the tables that leaves empty (it changes doc).
func withoutEntry(doc map[string]any, name string) map[string]any {
	servers, _ := doc["mcp_servers"].(map[string]any)
	entry, _ := servers[name].(map[string]any)
	if entry == nil {
		return doc
	}
	delete(entry, "command")
	delete(entry, "args")
	if len(entry) == 0 {
		delete(servers, name)
	}
	if len(servers) == 0 {
		delete(doc, "mcp_servers")
	}
	return doc
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// rewriteTable rewrites command and args in the [mcp_servers.NAME] table:
// each value is replaced where it is, a missing key added under the
// header.
func rewriteTable(src []byte, name, command string, args []string) ([]byte, error) {
	stmts, err := scanTOML(string(src))
	if err != nil {
		return nil, err
	}
	header := -1
	for i, st := range stmts {
		if st.header && !st.array && slices.Equal(st.key, []string{"mcp_servers", name}) {
			header = i
			break
		}
	}
	if header < 0 {
		return nil, fmt.Errorf("mcp_servers.%s is not written as a [mcp_servers.%s] table; set command and args by hand", name, name)
	}
	values := map[string]string{"command": tomlString(command), "args": tomlArray(args)}
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	var missing []string
	for _, k := range []string{"command", "args"} {
		found := false
		for _, st := range stmts[header+1:] {
			if st.header {
				break
			}
			if slices.Equal(st.key, []string{k}) {
				edits = append(edits, edit{st.valueFrom, st.valueTo, values[k]})
				found = true
			}
		}
		if !found {
			missing = append(missing, k+" = "+values[k]+"\n")
		}
	}
	if len(missing) > 0 {
		at := stmts[header].lineEnd
		text := strings.Join(missing, "")
		if at == len(src) && (at == 0 || src[at-1] != '\n') {
			text = "\n" + text
		}
		edits = append(edits, edit{at, at, text})
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.from - a.from })
	out := string(src)
	for _, e := range edits {
		out = out[:e.from] + e.text + out[e.to:]
	}
	return []byte(out), nil
}

// tomlStmt is one statement of a TOML document: a table header or a key
// and its value, with their places in the text.
type tomlStmt struct {
	header, array bool     // [table] or [[array of tables]]
	key           []string // the header's or the key's dotted parts, unquoted
	// valueFrom and valueTo are a key's value; lineEnd is past the end of
	// the line the statement ends on (its newline).
	valueFrom, valueTo, lineEnd int
}

// scanTOML lists the statements of a TOML document that a TOML parser
// has accepted: it knows its strings (multi-line ones too), arrays,
// inline tables and comments well enough to find where each statement
// starts and ends, nothing more.
func scanTOML(src string) ([]tomlStmt, error) {
	var stmts []tomlStmt
	i := 0
	for {
		i = skipSpace(src, i, true)
		if i >= len(src) {
			return stmts, nil
		}
		var st tomlStmt
		var err error
		if src[i] == '[' {
			st.header = true
			i++
			if i < len(src) && src[i] == '[' {
				st.array = true
				i++
			}
			if st.key, i, err = scanKey(src, i); err != nil {
				return nil, err
			}
			close := "]"
			if st.array {
				close = "]]"
			}
			if !strings.HasPrefix(src[i:], close) {
				return nil, fmt.Errorf("a table header without its %q", close)
			}
			i += len(close)
		} else {
			if st.key, i, err = scanKey(src, i); err != nil {
				return nil, err
			}
			if i >= len(src) || src[i] != '=' {
				return nil, fmt.Errorf("a key without '='")
			}
			i = skipSpace(src, i+1, false)
			st.valueFrom = i
			if i, err = scanValue(src, i); err != nil {
				return nil, err
			}
			st.valueTo = i
		}
		// The rest of the line: white space and a comment.
		i = skipSpace(src, i, false)
		if i < len(src) && src[i] == '#' {
			i = lineEnd(src, i)
		}
		if i < len(src) && src[i] == '\r' {
			i++
		}
		if i < len(src) {
			if src[i] != '\n' {
				return nil, fmt.Errorf("text after a statement on its line")
			}
			i++
		}
		st.lineEnd = i
		stmts = append(stmts, st)
	}
}

// skipSpace skips blanks (and with lines, newlines and comments).
func skipSpace(src string, i int, lines bool) int {
	for i < len(src) {
		switch src[i] {
		case ' ', '\t':
			i++
		case '\r', '\n':
			if !lines {
				return i
			}
			i++
		case '#':
			if !lines {
				return i
			}
			i = lineEnd(src, i)
		default:
			return i
		}
	}
	return i
}

// lineEnd is the offset of the newline ending the line holding i.
func lineEnd(src string, i int) int {
	if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(src)
}

// scanKey reads a dotted key (bare, "basic" or 'literal' parts) and the
// blanks after it.
func scanKey(src string, i int) ([]string, int, error) {
	var parts []string
	for {
		i = skipSpace(src, i, false)
		if i >= len(src) {
			return nil, i, fmt.Errorf("a key cut short")
		}
		switch src[i] {
		case '"', '\'':
			end, err := scanString(src, i)
			if err != nil {
				return nil, i, err
			}
			part := src[i+1 : end-1]
			if src[i] == '"' {
				var v map[string]any
				if _, err := toml.Decode("k = "+src[i:end], &v); err != nil {
					return nil, i, err
				}
				part, _ = v["k"].(string)
			}
			parts = append(parts, part)
			i = end
		default:
			j := i
			for j < len(src) && isBare(src[j]) {
				j++
			}
			if j == i {
				return nil, i, fmt.Errorf("an empty key")
			}
			parts = append(parts, src[i:j])
			i = j
		}
		i = skipSpace(src, i, false)
		if i < len(src) && src[i] == '.' {
			i++
			continue
		}
		return parts, i, nil
	}
}

// scanString is the offset past the string starting at i: a basic
// ("…") or literal ('…') string, or the multi-line form of either (three
// quotes each side).
func scanString(src string, i int) (int, error) {
	q := src[i]
	if strings.HasPrefix(src[i:], strings.Repeat(string(q), 3)) {
		j := i + 3
		for j < len(src) {
			if q == '"' && src[j] == '\\' {
				j += 2
				continue
			}
			if strings.HasPrefix(src[j:], strings.Repeat(string(q), 3)) {
				// Up to two more quotes belong to the string's text.
				j += 3
				for n := 0; n < 2 && j < len(src) && src[j] == q; n++ {
					j++
				}
				return j, nil
			}
			j++
		}
		return 0, fmt.Errorf("an unterminated multi-line string")
	}
	j := i + 1
	for j < len(src) && src[j] != q && src[j] != '\n' {
		if q == '"' && src[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(src) || src[j] != q {
		return 0, fmt.Errorf("an unterminated string")
	}
	return j + 1, nil
}

// scanValue is the offset past the value starting at i: a string, an
// array or an inline table (with whatever they hold, over several lines
// too), or a scalar (number, boolean, date) up to the blanks, comment
// or newline after it.
func scanValue(src string, i int) (int, error) {
	if i >= len(src) {
		return 0, fmt.Errorf("a key without a value")
	}
	switch src[i] {
	case '"', '\'':
		return scanString(src, i)
	case '[':
		j := i + 1
		for {
			j = skipSpace(src, j, true)
			if j >= len(src) {
				return 0, fmt.Errorf("an unterminated array")
			}
			switch src[j] {
			case ']':
				return j + 1, nil
			case ',':
				j++
			default:
				var err error
				if j, err = scanValue(src, j); err != nil {
					return 0, err
				}
			}
		}
	case '{':
		j := i + 1
		for {
			j = skipSpace(src, j, true)
			if j >= len(src) {
				return 0, fmt.Errorf("an unterminated inline table")
			}
			switch src[j] {
			case '}':
				return j + 1, nil
			case ',':
				j++
			default:
				var err error
				if _, j, err = scanKey(src, j); err != nil {
					return 0, err
				}
				if j >= len(src) || src[j] != '=' {
					return 0, fmt.Errorf("a key without '=' in an inline table")
				}
				if j, err = scanValue(src, skipSpace(src, j+1, false)); err != nil {
					return 0, err
				}
			}
		}
	default:
		j := i
		for j < len(src) && !strings.ContainsRune(",]}#\r\n", rune(src[j])) {
			j++
		}
		return trimEnd(src, i, j), nil
	}
}

// isBare reports whether c may be in a bare key.
func isBare(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

// trimEnd is end moved back over the white space before it, not before
// start.
func trimEnd(body string, start, end int) int {
	for end > start && strings.ContainsRune(" \t\r", rune(body[end-1])) {
		end--
	}
	return end
}

// tomlKey is name as a bare key when it can be one, else quoted.
func tomlKey(name string) string {
	if regexp.MustCompile(`^[A-Za-z0-9_-]+$`).MatchString(name) {
		return name
	}
	return tomlString(name)
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlArray is ss as a TOML array of basic strings.
func tomlArray(ss []string) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = tomlString(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
