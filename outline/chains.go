package outline

/*
#include <stdlib.h>
#include <string.h>
#include "native.h"
*/
import "C"

import (
	"slices"
	"strings"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// chainRoot flags, in plan.roots, the symbols whose patterns are all
// chain patterns.
const chainRoot = byte(C.zChain)

// chainStep is a node of a chain pattern: a pattern of the plain shapes
// definitions take, whose nodes are typed (or named wildcards, or
// strings), with fields, negated fields, captures and alternations, and
// no quantifiers or anchors (predicates are read in Go, as for any
// match):
//
//	(preproc_def name: (identifier) @name) @definition.macro
//	(function_definition declarator: [(function_declarator declarator: (identifier) @name) …]) @definition.function
//
// zumba_chain matches it at a node without tree-sitter's query cursor,
// whose states cost more than the few children such a pattern reads.
type chainStep struct {
	typ   string // "_": a named wildcard
	anon  bool   // typ is a string: an anonymous node
	field string
	neg   []string
	caps  []string
	// pos are the node's child steps, in order: each a choice of steps.
	pos [][]*chainStep
}

// parseChain reads the chain pattern in text (a pattern's source, comments
// included), or reports false.
func parseChain(text string) (*chainStep, bool) {
	r := &chainReader{text: text}
	r.i = skipSpace(text, 0)
	if r.i >= len(text) || text[r.i] != '(' {
		return nil, false
	}
	root, ok := r.node()
	if !ok || root.typ == "_" {
		return nil, false
	}
	root.caps = r.captures()
	return root, skipSpace(text, r.i) == len(text)
}

// chainReader reads a chain pattern: text, from byte i.
type chainReader struct {
	text string
	i    int
}

// word reads a name: a node type, field or capture.
func (r *chainReader) word() string {
	text, j := r.text, r.i
	for r.i < len(text) && (text[r.i] == '_' || text[r.i] == '.' || text[r.i] == '-' || text[r.i] >= 'a' && text[r.i] <= 'z' || text[r.i] >= 'A' && text[r.i] <= 'Z' || text[r.i] >= '0' && text[r.i] <= '9') {
		r.i++
	}
	return text[j:r.i]
}

// captures reads the captures that follow an item.
func (r *chainReader) captures() []string {
	var caps []string
	for {
		r.i = skipSpace(r.text, r.i)
		if r.i >= len(r.text) || r.text[r.i] != '@' {
			return caps
		}
		r.i++
		caps = append(caps, r.word())
	}
}

// str reads a string: an anonymous node.
func (r *chainReader) str() (*chainStep, bool) {
	text, i := r.text, r.i
	j := strings.IndexByte(text[i+1:], '"')
	if j < 0 || strings.ContainsRune(text[i+1:i+1+j], '\\') {
		return nil, false
	}
	n := &chainStep{typ: text[i+1 : i+1+j], anon: true}
	r.i += j + 2
	return n, n.typ != ""
}

// item reads a node or a string.
func (r *chainReader) item() (*chainStep, bool) {
	switch {
	case r.i < len(r.text) && r.text[r.i] == '(':
		return r.node()
	case r.i < len(r.text) && r.text[r.i] == '"':
		return r.str()
	}
	return nil, false
}

// position reads a child step: a field, then an item or an alternation
// of items, then captures.
func (r *chainReader) position() ([]*chainStep, bool) {
	field := ""
	j := r.i
	if w := r.word(); w != "" && r.i < len(r.text) && r.text[r.i] == ':' {
		field = w
		r.i++
	} else {
		r.i = j
	}
	r.i = skipSpace(r.text, r.i)
	var alts []*chainStep
	if r.i < len(r.text) && r.text[r.i] == '[' {
		r.i++
		for {
			r.i = skipSpace(r.text, r.i)
			if r.i < len(r.text) && r.text[r.i] == ']' {
				r.i++
				break
			}
			n, ok := r.item()
			if !ok {
				return nil, false
			}
			n.caps = append(n.caps, r.captures()...)
			alts = append(alts, n)
		}
	} else {
		n, ok := r.item()
		if !ok {
			return nil, false
		}
		alts = []*chainStep{n}
	}
	caps := r.captures()
	for _, a := range alts {
		a.field = field
		a.caps = append(a.caps, caps...)
	}
	return alts, len(alts) > 0
}

// node reads a node, from its "(" to its ")".
func (r *chainReader) node() (*chainStep, bool) {
	r.i++ // "("
	r.i = skipSpace(r.text, r.i)
	n := &chainStep{typ: r.word()}
	if n.typ == "" || strings.ContainsAny(n.typ, ".-") {
		return nil, false
	}
	for {
		r.i = skipSpace(r.text, r.i)
		if r.i >= len(r.text) {
			return nil, false
		}
		switch {
		case r.text[r.i] == ')':
			r.i++
			return n, true
		case r.text[r.i] == '!':
			r.i++
			f := r.word()
			if f == "" || strings.ContainsAny(f, ".-") {
				return nil, false
			}
			n.neg = append(n.neg, f)
		case r.text[r.i] == '(' && strings.HasPrefix(skipText(r.text, r.i+1), "#"):
			// A predicate: Go reads it.
			end, ok := matchBracket(r.text, r.i)
			if !ok {
				return nil, false
			}
			r.i = end + 1
		default:
			alts, ok := r.position()
			if !ok {
				return nil, false
			}
			n.pos = append(n.pos, alts)
		}
	}
}

// skipText is text from i on, past white space and comments.
func skipText(text string, i int) string { return text[skipSpace(text, i):] }

// depth is the number of steps on the longest path from n down, and caps
// the captures of n and the steps below it.
func (n *chainStep) size() (depth, caps int) {
	caps = len(n.caps)
	for _, alts := range n.pos {
		for _, a := range alts {
			d, c := a.size()
			depth = max(depth, d)
			caps += c
		}
	}
	return depth + 1, caps
}

// newChains reads q's chain patterns (src is q's source, starts[i] where
// pattern i starts), flags their root symbols zChain in p.roots when every
// pattern rooted there is one, and lays them out in C memory for
// zumba_chain.
func newChains(q *sitter.Query, p *plan, tl *C.TSLanguage, src string, starts []int) *C.zChains {
	l := &chainLayout{tl: tl, capIDs: map[string]uint16{}}
	for i := range q.CaptureCount() {
		l.capIDs[q.CaptureNameForId(i)] = uint16(i)
	}
	bySym, syms := l.rooted(p, src, starts)
	if len(syms) == 0 {
		return nil
	}
	n := 0
	for _, sym := range syms {
		n += len(bySym[sym])
	}
	// The root steps come first, grouped by root symbol in pattern order;
	// add appends each one's copy and the steps below it after them.
	l.steps = make([]C.zStep, n)
	first, count := make([]uint16, len(p.names)), make([]uint16, len(p.names))
	k := 0
	for _, sym := range syms {
		first[sym], count[sym] = uint16(k), uint16(len(bySym[sym]))
		for _, r := range bySym[sym] {
			at, ok := l.add(r.chain, r.pattern)
			if !ok {
				return nil
			}
			l.steps[k] = l.steps[at]
			k++
		}
	}
	if len(l.steps) > 1<<16 || len(l.pos) > 1<<16 || len(l.alts) > 1<<16 {
		return nil
	}
	for _, sym := range syms {
		p.roots[sym] |= chainRoot
	}
	ch := (*C.zChains)(C.malloc(C.sizeof_zChains))
	ch.steps = (*C.zStep)(cCopy(unsafe.Pointer(&l.steps[0]), len(l.steps)*C.sizeof_zStep))
	ch.pos = (*C.zPos)(cCopy(unsafe.Pointer(unsafe.SliceData(l.pos)), len(l.pos)*C.sizeof_zPos))
	ch.alts = (*C.uint16_t)(cCopy(unsafe.Pointer(unsafe.SliceData(l.alts)), len(l.alts)*2))
	ch.first = (*C.uint16_t)(cCopy(unsafe.Pointer(&first[0]), len(first)*2))
	ch.count = (*C.uint16_t)(cCopy(unsafe.Pointer(&count[0]), len(count)*2))
	ch.nsyms = C.uint32_t(len(p.names))
	return ch
}

// chainLayout lays chain patterns out as zumba_chain reads them, for the
// language tl, whose query's captures are capIDs.
type chainLayout struct {
	tl     *C.TSLanguage
	capIDs map[string]uint16
	steps  []C.zStep
	pos    []C.zPos
	alts   []uint16
}

// rootedChain is a chain pattern and its index in the query.
type rootedChain struct {
	pattern int
	chain   *chainStep
}

// rooted reads the chain patterns of src by root symbol, and returns the
// root symbols, sorted, whose patterns are all chains (and flagged zRoot).
func (l *chainLayout) rooted(p *plan, src string, starts []int) (map[uint16][]rootedChain, []uint16) {
	bySym := map[uint16][]rootedChain{}
	bad := map[uint16]bool{}
	for i := 0; i+1 < len(starts); i++ {
		names, _ := rootNames(src, starts[i])
		c, ok := parseChain(src[starts[i]:starts[i+1]])
		if ok {
			depth, caps := c.size()
			ok = depth < C.zMaxChain && caps <= C.zMaxChainCaps
		}
		for _, name := range names {
			sym := l.symbol(name, true)
			if !ok || sym == 0 {
				bad[sym] = true
				continue
			}
			bySym[sym] = append(bySym[sym], rootedChain{i, c})
		}
	}
	var syms []uint16
	for sym := range bySym {
		if !bad[sym] && int(sym) < len(p.names) && p.roots[sym]&C.zRoot != 0 {
			syms = append(syms, sym)
		}
	}
	slices.Sort(syms)
	return bySym, syms
}

// symbol is the symbol of the node type name, named or anonymous; 0 when
// the language has none.
func (l *chainLayout) symbol(name string, named bool) uint16 {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return uint16(C.ts_language_symbol_for_name(l.tl, cs, C.uint32_t(len(name)), C.bool(named)))
}

// field is the id of the field name; 0 when the language has none.
func (l *chainLayout) field(name string) uint16 {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return uint16(C.ts_language_field_id_for_name(l.tl, cs, C.uint32_t(len(name))))
}

// add lays out n and the steps below it, and returns its index.
func (l *chainLayout) add(n *chainStep, pattern int) (int, bool) {
	st, ok := l.step(n, pattern)
	if !ok {
		return 0, false
	}
	at := len(l.steps)
	l.steps = append(l.steps, st)
	var kids [][]uint16
	for _, choice := range n.pos {
		var ks []uint16
		for _, a := range choice {
			k, ok := l.add(a, pattern)
			if !ok {
				return 0, false
			}
			ks = append(ks, uint16(k))
		}
		kids = append(kids, ks)
	}
	l.steps[at].pos_start, l.steps[at].pos_count = C.uint16_t(len(l.pos)), C.uint16_t(len(kids))
	for _, ks := range kids {
		l.pos = append(l.pos, C.zPos{alt_start: C.uint16_t(len(l.alts)), alt_count: C.uint16_t(len(ks))})
		l.alts = append(l.alts, ks...)
	}
	return at, true
}

// step is n's zStep, without its positions.
func (l *chainLayout) step(n *chainStep, pattern int) (C.zStep, bool) {
	st := C.zStep{pattern: C.uint16_t(pattern), ncap: C.uint16_t(len(n.caps))}
	if _, caps := n.size(); caps == 0 {
		st.free = 1
	}
	if n.typ != "_" || n.anon {
		if st.symbol = C.uint16_t(l.symbol(n.typ, !n.anon)); st.symbol == 0 {
			return st, false
		}
	}
	if len(n.caps) > len(st.caps) || len(n.neg) > len(st.neg) {
		return st, false
	}
	if n.field != "" {
		if st.field = C.uint16_t(l.field(n.field)); st.field == 0 {
			return st, false
		}
	}
	for k, f := range n.neg {
		if st.neg[k] = C.uint16_t(l.field(f)); st.neg[k] == 0 {
			return st, false
		}
	}
	for k, c := range n.caps {
		id, ok := l.capIDs[c]
		if !ok {
			return st, false
		}
		st.caps[k] = C.uint16_t(id)
	}
	return st, true
}
