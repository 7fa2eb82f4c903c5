package outline

/*
#include <stdlib.h>
#include "native.h"
*/
import "C"

import (
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/zumba-dev/zumba/grammar"
)

// A definition's signature and visibility (OutlineDecls): what an agent
// choosing what to call reads beside the name. Both are read from the
// tree while it is held, only when asked: the index never needs them.

// MaxSignature cuts a signature, in characters; a cut one ends with "…".
const MaxSignature = 120

// maxSigRead bounds the bytes of a declaration a signature is made from
// (a constant's value may be thousands of lines).
const maxSigRead = 4 << 10

// The field names a body is found under, in C memory for the life of the
// program.
var (
	bodyField  = C.CString("body")
	typeField  = C.CString("type")
	valueField = C.CString("value")
)

// declRange finds, in the tree, where the signature of the definition
// whose node is n starts and ends: from its first token that is not a
// decoration (a decorator, an annotation, an attribute; Java's modifiers
// are looked into), and the words before it on its line (export, pub,
// const); up to its body: the node under the field "body", or under the
// field "type" or "value" of a node (Go's struct type, a function bound
// to a name) that has one, or its first child opening with "{" or of a
// type "block" or "…_body". ok is
// false when no body is found: the caller ends the signature itself.
func (p *plan) declRange(n C.TSNode, nameEnd uint32, src []byte) (start, end uint32, ok bool) {
	start = p.declStart(n)
	// The words before it on its line: "export default", "pub".
	i := int(start)
	for i > 0 && i <= len(src) && src[i-1] != '\n' {
		c := src[i-1]
		if !(c == ' ' || c == '\t' || isWordByte(c)) {
			break
		}
		i--
	}
	if i == 0 || src[i-1] == '\n' {
		for i < int(start) && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
		start = uint32(i)
	}
	end, ok = bodyOf(n, nameEnd, src, 0)
	return start, end, ok
}

// declStart is the start of n's first child that is not a decoration; in
// a modifiers child, of its first child that is not one.
func (p *plan) declStart(n C.TSNode) uint32 {
	count := uint32(C.ts_node_child_count(n))
	for i := range min(count, 32) {
		c := C.ts_node_child(n, C.uint32_t(i))
		if p.decoration(c) {
			continue
		}
		if C.GoString(C.ts_node_type(c)) != "modifiers" {
			return uint32(C.ts_node_start_byte(c))
		}
		mods := uint32(C.ts_node_child_count(c))
		for k := range min(mods, 32) {
			m := C.ts_node_child(c, C.uint32_t(k))
			if !p.decoration(m) {
				return uint32(C.ts_node_start_byte(m))
			}
		}
	}
	return uint32(C.ts_node_start_byte(n))
}

// decoration reports whether n is a comment, decorator, annotation or
// attribute (Swift's too, which a definition's extent does not take in).
func (p *plan) decoration(n C.TSNode) bool {
	s := uint16(C.ts_node_symbol(n))
	if int(s) < len(p.decos) && p.decos[s] {
		return true
	}
	t := C.GoString(C.ts_node_type(n))
	return t == "attribute" || isDecoration(t)
}

// bodyOf is where n's body starts (see declRange); depth bounds the
// fields followed.
func bodyOf(n C.TSNode, nameEnd uint32, src []byte, depth int) (uint32, bool) {
	if b := C.ts_node_child_by_field_name(n, bodyField, 4); !C.ts_node_is_null(b) {
		return uint32(C.ts_node_start_byte(b)), true
	}
	if depth < 2 {
		if t := C.ts_node_child_by_field_name(n, typeField, 4); !C.ts_node_is_null(t) && uint32(C.ts_node_start_byte(t)) >= nameEnd {
			if at, ok := bodyOf(t, nameEnd, src, depth+1); ok {
				return at, true
			}
		}
		// A value's body only when it has one of its own: a function or
		// class bound to a name, not an object literal.
		if v := C.ts_node_child_by_field_name(n, valueField, 5); !C.ts_node_is_null(v) && uint32(C.ts_node_start_byte(v)) >= nameEnd {
			if b := C.ts_node_child_by_field_name(v, bodyField, 4); !C.ts_node_is_null(b) {
				return uint32(C.ts_node_start_byte(b)), true
			}
		}
	}
	count := uint32(C.ts_node_child_count(n))
	for i := range min(count, 64) {
		c := C.ts_node_child(n, C.uint32_t(i))
		at := uint32(C.ts_node_start_byte(c))
		if at < nameEnd || int(at) >= len(src) {
			continue
		}
		if src[at] == '{' {
			return at, true
		}
		// Kotlin's function_body "= expr", Swift's class_body.
		if t := C.GoString(C.ts_node_type(c)); t == "block" || strings.HasSuffix(t, "_body") {
			return at, true
		}
	}
	return 0, false
}

// declText is the signature of src[start:end]: its whitespace collapsed,
// what opens a body (":", "{", "=") and ends a declaration (";", ",")
// dropped from its end, cut at MaxSignature characters.
func declText(src []byte, start, end uint32) string {
	end = min(end, start+maxSigRead, uint32(len(src)))
	if start >= end {
		return ""
	}
	s := strings.Join(strings.Fields(string(src[start:end])), " ")
	// Parameters on lines of their own: "f( a int, b int, )" is
	// "f(a int, b int)".
	s = sigCommas.Replace(sigSpaces.Replace(s))
	s = strings.TrimRight(s, " {:=;,")
	if utf8.RuneCountInString(s) > MaxSignature {
		s = string([]rune(s)[:MaxSignature]) + "…"
	}
	return s
}

// lineEnd is the end of the line of from, or of the line where the
// brackets open on it close, at stop at most: Ruby's "def total" without
// its body, Go's "Peek(\n\tp []byte,\n) error" whole.
func lineEnd(src []byte, from, stop uint32) uint32 {
	depth := 0
	for i := from; i < stop && int(i) < len(src) && i < from+maxSigRead; i++ {
		switch src[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '\n':
			if depth <= 0 {
				return i
			}
		}
	}
	return stop
}

// sigSpaces drops the spaces that line breaks inside brackets leave.
var (
	sigSpaces = strings.NewReplacer("( ", "(", "[ ", "[", " )", ")", " ]", "]")
	sigCommas = strings.NewReplacer(",)", ")", ",]", "]")
)

// describe sets the signature and the head (the text before the name) of
// each definition of defs, from their nodes in the tree. Without a body,
// a constant, type, macro or bodyless declaration is its whole node, and
// anything else the rest of its name's line (see lineEnd).
func describe(p *plan, defs []def, src []byte) {
	for _, d := range defs {
		e := d.entry
		if e == nil || e.Kind == grammar.Heading {
			continue
		}
		n := *(*C.TSNode)(unsafe.Pointer(&d.node.n))
		nameStart, nameEnd := d.nameKey[0], d.nameKey[1]
		start, end, ok := p.declRange(n, nameEnd, src)
		if !ok {
			end = d.node.endByte
			switch {
			case end <= nameEnd:
				// The node is the name (Python's constants): the
				// rest of its line.
				end = lineEnd(src, nameEnd, uint32(len(src)))
			case e.Kind == grammar.Const, e.Kind == grammar.Static, e.Kind == grammar.Type, e.Kind == grammar.Macro, e.Decl:
			default:
				end = lineEnd(src, nameEnd, end)
			}
		}
		e.Sig = declText(src, start, end)
		if nameStart > start {
			e.head = string(src[start:min(nameStart, start+maxSigRead)])
		}
	}
}

// markExported sets Exported on es and the entries they hold, under a
// container in of language lang (nil at top level) that is exported or
// not (up).
func markExported(lang *grammar.Language, es []*Entry, in *Entry, up bool) {
	for _, e := range es {
		d := grammar.Decl{Name: e.Name, Kind: e.Kind, Head: e.head}
		if in != nil {
			d.In, d.InName = in.Kind, in.Name
		}
		ok, _ := lang.Exported(d)
		e.Exported = up && ok
		markExported(lang, e.Children, e, e.Exported)
	}
}
