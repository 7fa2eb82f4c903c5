package clientconf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// field is one setting of a server entry, in the order it is written.
type field struct {
	key   string
	value any
}

// editJSON sets the server entry name in the object of servers that key
// leads to from the top of a JSON-with-comments file (mcpServers,
// servers, mcp) to fields: a field that differs is replaced, a missing
// one added, and every other byte of the file (other servers, other
// settings of this one, comments, order, indentation) is left as it
// was. When inner is not "" and that object has an object of that name
// that is not itself a server (OpenCode's mcp.servers), the entry goes
// there. An empty file is a new one. changed is false when the entry is
// already so.
func editJSON(src []byte, key []string, inner, name string, fields []field) (out []byte, changed bool, err error) {
	if len(bytes.TrimSpace(src)) == 0 {
		src = []byte("{}\n")
	}
	unit := indentUnit(src)
	root0, err := parseJSONC(src)
	if err != nil {
		return nil, false, err
	}
	cur := src
	// One edit at a time, each on the file as the last one left it.
	for i := -1; i < len(fields); i++ {
		root, err := parseJSONC(cur)
		if err != nil {
			return nil, false, err
		}
		if root.kind != kindObject {
			return nil, false, fmt.Errorf("the file holds no JSON object")
		}
		e := &editor{src: cur, unit: unit}
		servers, where, missing := root, "", []string(nil)
		for j, k := range key {
			v := servers.get(k)
			if v == nil {
				missing = key[j:]
				break
			}
			where = strings.Join(key[:j+1], ".")
			if v.kind != kindObject {
				return nil, false, fmt.Errorf("%q is not an object", where)
			}
			servers = v
		}
		var entry *node
		switch {
		case missing != nil:
			var v any = orderedObject{{name, orderedObject(fields)}}
			for j := len(missing) - 1; j > 0; j-- {
				v = orderedObject{{missing[j], v}}
			}
			e.insert(servers, missing[0], v)
		default:
			if in := servers.get(inner); inner != "" && in != nil && in.kind == kindObject && !isServer(in) {
				servers, where = in, where+"."+inner
			}
			if entry = servers.get(name); entry == nil {
				e.insert(servers, name, orderedObject(fields))
			} else if entry.kind != kindObject {
				return nil, false, fmt.Errorf("%q in %q is not an object", name, where)
			}
		}
		if entry != nil && i >= 0 {
			f := fields[i]
			switch v := entry.get(f.key); {
			case v == nil:
				e.insert(entry, f.key, f.value)
			case !sameJSON(v.plain(cur), f.value):
				e.replace(v, f.value)
			}
		}
		cur = e.src
		if entry == nil {
			break // the whole entry was written
		}
	}
	if bytes.Equal(cur, src) {
		return src, false, nil
	}
	// Nothing else changed: the files read the same once the entry's
	// fields (and the objects holding nothing else) are left out.
	after, err := parseJSONC(cur)
	if err != nil || !reflect.DeepEqual(withoutFields(after.plain(cur), key, inner, name, fields), withoutFields(root0.plain(src), key, inner, name, fields)) {
		return nil, false, fmt.Errorf("zumba's edit would change more than its entry (please report it); set the entry by hand")
	}
	return cur, true, nil
}

// withoutFields is doc (a file read by plain) without the fields of the
// entry name, and without the objects that leaves empty on the way to it
// (it changes doc).
func withoutFields(doc any, key []string, inner, name string, fields []field) any {
	path := []map[string]any{}
	m, _ := doc.(map[string]any)
	for _, k := range key {
		if m == nil {
			return doc
		}
		path = append(path, m)
		m, _ = m[k].(map[string]any)
	}
	if m == nil {
		return doc
	}
	if in, ok := m[inner].(map[string]any); ok && inner != "" && !isServerMap(in) {
		path = append(path, m)
		key = append(slices.Clip(key), inner)
		m = in
	}
	if entry, ok := m[name].(map[string]any); ok {
		for _, f := range fields {
			delete(entry, f.key)
		}
		if len(entry) == 0 {
			delete(m, name)
		}
	}
	for j := len(path) - 1; j >= 0; j-- {
		if child, _ := path[j][key[j]].(map[string]any); len(child) == 0 {
			delete(path[j], key[j])
		}
	}
	return doc
}

// isServerMap is isServer for an object read by plain.
func isServerMap(m map[string]any) bool {
	for _, k := range []string{"type", "command", "url", "enabled"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// isServer reports whether an object is a server's entry rather than an
// object of servers: it has a server's settings.
func isServer(n *node) bool {
	for _, k := range []string{"type", "command", "url", "enabled"} {
		if n.get(k) != nil {
			return true
		}
	}
	return false
}

// orderedObject marshals its fields in order.
type orderedObject []field

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.key)
		v, err := marshal(f.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal is JSON without HTML escapes (a path may hold & or <).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// sameJSON reports whether a value read from the file equals want.
func sameJSON(got, want any) bool {
	b, err := marshal(want)
	if err != nil {
		return false
	}
	var w any
	json.Unmarshal(b, &w)
	return reflect.DeepEqual(got, w)
}

// editor changes src in place: one edit, at offsets read from src as it
// is (editJSON parses the file again before the next).
type editor struct {
	src  []byte
	unit string // one level of indentation, as the file writes it
}

// indentUnit is the file's indentation step: a tab, or the smallest
// number of spaces a line starts with (two when none does).
func indentUnit(src []byte) string {
	best := 0
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "\t") {
			return "\t"
		}
		n := len(line) - len(strings.TrimLeft(line, " "))
		if n > 0 && n < len(line) && (best == 0 || n < best) {
			best = n
		}
	}
	if best == 0 {
		best = 2
	}
	return strings.Repeat(" ", best)
}

// lineIndent is the white space that starts the line holding offset at.
func (e *editor) lineIndent(at int) string {
	start := bytes.LastIndexByte(e.src[:at], '\n') + 1
	end := start
	for end < len(e.src) && (e.src[end] == ' ' || e.src[end] == '\t') {
		end++
	}
	return string(e.src[start:end])
}

// render is v as indented JSON whose first line goes where the text is
// and whose other lines start with indent.
func (e *editor) render(v any, indent string) []byte {
	b, err := marshal(v)
	if err != nil {
		panic(err) // fields hold strings and lists of strings
	}
	var out bytes.Buffer
	json.Indent(&out, b, indent, e.unit)
	return out.Bytes()
}

// replace puts v where the value n is.
func (e *editor) replace(n *node, v any) {
	text := e.render(v, e.lineIndent(n.start))
	e.src = append(e.src[:n.start:n.start], append(text, e.src[n.end:]...)...)
}

// insert adds "key": v as the last member of the object obj.
func (e *editor) insert(obj *node, key string, v any) {
	k, _ := marshal(key)
	if len(obj.members) == 0 {
		// {} or { // comment \n }: the member on a line of its own,
		// one level deeper than the line of the brace.
		outer := e.lineIndent(obj.start)
		inner := outer + e.unit
		text := fmt.Sprintf("\n%s%s: %s\n%s", inner, k, e.render(v, inner), outer)
		closeAt := obj.end - 1
		// Keep what the empty object held (a comment) before the member.
		body := bytes.TrimRight(e.src[obj.start+1:closeAt], " \t\r\n")
		e.src = append(e.src[:obj.start+1:obj.start+1], append(append(append([]byte{}, body...), text...), e.src[closeAt:]...)...)
		return
	}
	last := obj.members[len(obj.members)-1]
	at := last.value.end
	// A trailing comma after the last member stays, and the new member
	// gets one too.
	p := &parser{src: e.src, pos: at}
	p.space()
	trailing := p.pos < len(e.src) && e.src[p.pos] == ','
	if trailing {
		at = p.pos + 1
	}
	// A comment ending the last member's line stays on that line.
	eol := at
	for eol < len(e.src) && (e.src[eol] == ' ' || e.src[eol] == '\t') {
		eol++
	}
	if bytes.HasPrefix(e.src[eol:], []byte("//")) {
		for eol < len(e.src) && e.src[eol] != '\n' {
			eol++
		}
	} else {
		eol = at
	}
	sameLine := !bytes.Contains(e.src[obj.start:last.keyStart], []byte("\n"))
	var text []byte
	if sameLine {
		// { "a": 1 }: the new member on the same line, on one line.
		b, err := marshal(v)
		if err != nil {
			panic(err)
		}
		text = fmt.Appendf(nil, " %s: %s", k, b)
	} else {
		indent := e.lineIndent(last.keyStart)
		text = fmt.Appendf(nil, "\n%s%s: %s", indent, k, e.render(v, indent))
	}
	if trailing {
		text = append(text, ',')
		e.src = append(e.src[:eol:eol], append(text, e.src[eol:]...)...)
		return
	}
	// The comma goes right after the last value, the member after any
	// comment on its line.
	out := append([]byte{}, e.src[:at]...)
	out = append(out, ',')
	out = append(out, e.src[at:eol]...)
	out = append(out, text...)
	e.src = append(out, e.src[eol:]...)
}
