package clientconf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// node is one JSON value of a configuration file, with its place in the
// bytes: comments (// and /* */) and trailing commas are allowed around
// it, as the clients that read these files allow them (VS Code's JSON
// with comments; the others read plain JSON, which is a part of it).
type node struct {
	start, end int // the value's bytes: src[start:end]
	kind       byte
	members    []member // an object's members, in order
	elems      []*node  // an array's elements
}

// member is one "key": value of an object.
type member struct {
	key      string
	keyStart int
	value    *node
}

// The kinds of node.
const (
	kindObject = '{'
	kindArray  = '['
	kindString = '"'
	kindOther  = '0' // a number, true, false or null
)

// parser reads one JSON-with-comments document.
type parser struct {
	src   []byte
	pos   int
	depth int
}

// parseJSONC reads src as one JSON value with comments and trailing
// commas allowed; the error names the line and column where it stops.
func parseJSONC(src []byte) (*node, error) {
	p := &parser{src: src}
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		p.pos = len("\uFEFF") // a byte order mark, as some editors write
	}
	p.space()
	n, err := p.value()
	if err == nil {
		p.space()
		if p.pos < len(src) {
			err = p.fail("unexpected text after the value")
		}
	}
	if err != nil {
		return nil, err
	}
	return n, nil
}

func (p *parser) fail(msg string) error {
	line, col := 1, 1
	for _, c := range p.src[:min(p.pos, len(p.src))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Errorf("%s (line %d, column %d)", msg, line, col)
}

// space skips white space and comments.
func (p *parser) space() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '/':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '*':
			end := bytes.Index(p.src[p.pos+2:], []byte("*/"))
			if end < 0 {
				p.pos = len(p.src)
				return
			}
			p.pos += 2 + end + 2
		default:
			return
		}
	}
}

func (p *parser) value() (*node, error) {
	if p.pos >= len(p.src) {
		return nil, p.fail("unexpected end of input")
	}
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 1000 {
		return nil, p.fail("nested too deeply")
	}
	switch c := p.src[p.pos]; c {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		start := p.pos
		if _, err := p.str(); err != nil {
			return nil, err
		}
		return &node{start: start, end: p.pos, kind: kindString}, nil
	default:
		start := p.pos
		for p.pos < len(p.src) && strings.IndexByte(",}] \t\r\n/", p.src[p.pos]) < 0 {
			p.pos++
		}
		var v any
		if p.pos == start || json.Unmarshal(p.src[start:p.pos], &v) != nil {
			p.pos = start
			return nil, p.fail(fmt.Sprintf("unexpected %q", c))
		}
		return &node{start: start, end: p.pos, kind: kindOther}, nil
	}
}

// str reads a string and returns its value.
func (p *parser) str() (string, error) {
	start := p.pos
	p.pos++
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case '\\':
			p.pos += 2
			continue
		case '\n':
			return "", p.fail("newline in a string")
		case '"':
			p.pos++
			var s string
			if err := json.Unmarshal(p.src[start:p.pos], &s); err != nil {
				p.pos = start
				return "", p.fail("invalid string")
			}
			return s, nil
		}
		p.pos++
	}
	return "", p.fail("unterminated string")
}

func (p *parser) object() (*node, error) {
	n := &node{start: p.pos, kind: kindObject}
	p.pos++
	for {
		p.space()
		if p.pos >= len(p.src) {
			return nil, p.fail("unexpected end of input in an object")
		}
		if p.src[p.pos] == '}' {
			p.pos++
			n.end = p.pos
			return n, nil
		}
		if p.src[p.pos] != '"' {
			return nil, p.fail("expected a key in double quotes")
		}
		keyStart := p.pos
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return nil, p.fail("expected ':' after a key")
		}
		p.pos++
		p.space()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, member{key: key, keyStart: keyStart, value: v})
		p.space()
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
		} else if p.pos < len(p.src) && p.src[p.pos] != '}' {
			return nil, p.fail("expected ',' or '}' in an object")
		}
	}
}

func (p *parser) array() (*node, error) {
	n := &node{start: p.pos, kind: kindArray}
	p.pos++
	for {
		p.space()
		if p.pos >= len(p.src) {
			return nil, p.fail("unexpected end of input in an array")
		}
		if p.src[p.pos] == ']' {
			p.pos++
			n.end = p.pos
			return n, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, v)
		p.space()
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
		} else if p.pos < len(p.src) && p.src[p.pos] != ']' {
			return nil, p.fail("expected ',' or ']' in an array")
		}
	}
}

// get is the value of the member key of an object, nil when it has none
// (the last one when a key repeats, as JSON readers take it).
func (n *node) get(key string) *node {
	var v *node
	for _, m := range n.members {
		if m.key == key {
			v = m.value
		}
	}
	return v
}

// plain is the value of n as encoding/json reads it, comments left out.
func (n *node) plain(src []byte) any {
	switch n.kind {
	case kindObject:
		m := map[string]any{}
		for _, mb := range n.members {
			m[mb.key] = mb.value.plain(src)
		}
		return m
	case kindArray:
		a := []any{}
		for _, e := range n.elems {
			a = append(a, e.plain(src))
		}
		return a
	default:
		var v any
		json.Unmarshal(src[n.start:n.end], &v)
		return v
	}
}
