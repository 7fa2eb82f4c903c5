package clientconf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// field is one setting of a server entry, in the order it is written.
type field struct {
	key   string
	value any
}

// editJSON sets the server entry name under the top-level object key
// (mcpServers, servers) of a JSON-with-comments file to fields: a field
// that differs is replaced, a missing one added, and every other byte of
// the file (other servers, other settings of this one, comments, order,
// indentation) is left as it was. An empty file is a new one. changed is
// false when the entry is already so.
func editJSON(src []byte, key, name string, fields []field) (out []byte, changed bool, err error) {
	if len(bytes.TrimSpace(src)) == 0 {
		src = []byte("{}\n")
	}
	unit := indentUnit(src)
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
		servers := root.get(key)
		var entry *node
		switch {
		case servers == nil:
			e.insert(root, key, orderedObject{{name, orderedObject(fields)}})
		case servers.kind != kindObject:
			return nil, false, fmt.Errorf("%q is not an object", key)
		default:
			if entry = servers.get(name); entry == nil {
				e.insert(servers, name, orderedObject(fields))
			} else if entry.kind != kindObject {
				return nil, false, fmt.Errorf("%q in %q is not an object", name, key)
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
	return cur, true, nil
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
	if strings.HasPrefix(string(e.src[eol:]), "//") {
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
