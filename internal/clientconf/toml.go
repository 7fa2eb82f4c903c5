package clientconf

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// editTOML sets the table [mcp_servers.NAME] of a TOML file (Codex's
// config.toml) to command and args: a key that differs is rewritten, a
// missing one added under the table's header, a missing table appended;
// every other line (other tables, other keys of this one, comments) is
// left as it was. The file is read by a TOML parser first, so a file
// that does not parse is refused, and the result is read again, so an
// edit that would not parse (the table written inline) is refused too.
func editTOML(src []byte, name, command string, args []string) (out []byte, changed bool, err error) {
	entry, err := tomlEntry(src, name)
	if err != nil {
		return nil, false, err
	}
	want := map[string]any{"command": command, "args": toAny(args)}
	switch {
	case entry == nil:
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
	got, err := tomlEntry(out, name)
	if err != nil || !reflect.DeepEqual(got["command"], want["command"]) || !reflect.DeepEqual(got["args"], want["args"]) {
		return nil, false, fmt.Errorf("mcp_servers.%s is written in a form zumba does not edit; set command and args by hand", name)
	}
	return out, true, nil
}

// tomlEntry is the table mcp_servers.NAME of src, nil when there is none.
func tomlEntry(src []byte, name string) (map[string]any, error) {
	var doc map[string]any
	if _, err := toml.Decode(string(src), &doc); err != nil {
		return nil, err
	}
	servers, _ := doc["mcp_servers"].(map[string]any)
	entry, ok := servers[name].(map[string]any)
	if !ok && servers[name] != nil {
		return nil, fmt.Errorf("mcp_servers.%s is not a table", name)
	}
	return entry, nil
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// rewriteTable rewrites command and args in the [mcp_servers.NAME] table.
func rewriteTable(src []byte, name, command string, args []string) ([]byte, error) {
	lines := strings.SplitAfter(string(src), "\n")
	header := regexp.MustCompile(`^\s*\[\s*mcp_servers\s*\.\s*(?:"` + regexp.QuoteMeta(name) + `"|'` + regexp.QuoteMeta(name) + `'|` + regexp.QuoteMeta(name) + `)\s*\]\s*(?:#.*)?$`)
	start := -1
	for i, l := range lines {
		if header.MatchString(strings.TrimRight(l, "\r\n")) {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("mcp_servers.%s is not written as a [mcp_servers.%s] table; set command and args by hand", name, name)
	}
	end := len(lines)
	for i := start + 1; i < len(lines); i++ {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), "[") {
			end = i
			break
		}
	}
	body := strings.Join(lines[start+1:end], "")
	for _, kv := range []struct{ key, value string }{
		{"args", "args = " + tomlArray(args)},
		{"command", "command = " + tomlString(command)},
	} {
		from, to, ok := keySpan(body, kv.key)
		if ok {
			body = body[:from] + kv.value + body[to:]
		} else {
			body = kv.value + "\n" + body
		}
	}
	return []byte(strings.Join(lines[:start+1], "") + body + strings.Join(lines[end:], "")), nil
}

// keySpan finds "key = value" at the start of a line of body: the offsets
// of the key and of the end of its value (an array may span lines).
func keySpan(body, key string) (from, to int, ok bool) {
	loc := regexp.MustCompile(`(?m)^[ \t]*` + regexp.QuoteMeta(key) + `[ \t]*=[ \t]*`).FindStringIndex(body)
	if loc == nil {
		return 0, 0, false
	}
	from = loc[0] + len(body[loc[0]:]) - len(strings.TrimLeft(body[loc[0]:], " \t"))
	i, depth := loc[1], 0
	for i < len(body) {
		switch c := body[i]; c {
		case '"', '\'':
			// A string: to its closing quote (escapes in basic strings).
			j := i + 1
			for j < len(body) && body[j] != c && body[j] != '\n' {
				if c == '"' && body[j] == '\\' {
					j++
				}
				j++
			}
			i = j + 1
			continue
		case '[':
			depth++
		case ']':
			depth--
		case '#':
			if depth == 0 {
				return from, trimEnd(body, loc[1], i), true
			}
			// A comment inside an array: to the end of its line.
			for i < len(body) && body[i] != '\n' {
				i++
			}
			continue
		case '\n':
			if depth == 0 {
				return from, trimEnd(body, loc[1], i), true
			}
		}
		i++
	}
	return from, trimEnd(body, loc[1], len(body)), true
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
