package outline

/*
#include <stdlib.h>
#include <string.h>
#include "native.h"
*/
import "C"

import (
	"context"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
)

// plan is how a language's definitions query runs: natively, starting
// patterns only at the nodes of the symbols they are rooted at, when
// every pattern is rooted at a named node type (see newPlan).
type plan struct {
	native bool
	roots  []byte   // flags by symbol: zRoot where a pattern starts, zBody…
	names  []string // node type names by symbol
	preds  [][]predicate
	roles  []capKind // what collect reads from each capture
	// decos and keywords are isDecoration and isKeyword of names; kinds
	// holds both as flags for zumba_extents (1 and 2), and one more byte,
	// so it is never empty.
	decos, keywords []bool
	kinds           []byte
	// ckinds is kinds in C memory, which a plan keeps for the life of the
	// program.
	ckinds *C.uint8_t
	// chains holds the chain patterns, by root symbol (those flagged
	// zChain), in C memory; nil when there are none.
	chains *C.zChains
	// whole flags the definition captures (1 for each), whose code end
	// the native run computes; one more byte, so it is never empty.
	whole []byte
}

// predicate is one of go-tree-sitter's FilterPredicates predicates,
// resolved once: eq?, not-eq?, match?, not-match? (others pass).
type predicate struct {
	positive    bool
	match       bool // match? / not-match?, else eq? / not-eq?
	left, right uint32
	byCapture   bool // eq? compares two captures, else a capture and value
	value       string
	re          *regexp.Regexp
}

var plans sync.Map // *sitter.Query -> *plan

// planFor returns the plan of q, the query of lang, over the tree of root.
func planFor(lang *grammar.Language, q *sitter.Query, root tsNode) *plan {
	if p, ok := plans.Load(q); ok {
		return p.(*plan)
	}
	p := newPlan(lang, q, root.language())
	actual, _ := plans.LoadOrStore(q, p)
	return actual.(*plan)
}

func newPlan(lang *grammar.Language, q *sitter.Query, tl *C.TSLanguage) *plan {
	p := &plan{roles: make([]capKind, q.CaptureCount()), whole: make([]byte, q.CaptureCount()+1)}
	defer func() {
		for i, r := range p.roles {
			if r.role == "definition" {
				p.whole[i] = 1
			}
		}
	}()
	for i := range p.roles {
		switch capName := q.CaptureNameForId(uint32(i)); capName {
		case "name", "scope", "trait", "member", "listed", "skip":
			p.roles[i].role = capName
		default:
			if k, ok := strings.CutPrefix(capName, "definition."); ok {
				if kk, ok := grammar.ParseKind(k); ok {
					p.roles[i] = capKind{"definition", kk}
				}
			}
		}
	}
	count := uint32(C.ts_language_symbol_count(tl))
	p.names = make([]string, count)
	for s := range count {
		p.names[s] = C.GoString(C.ts_language_symbol_name(tl, C.uint16_t(s)))
	}
	p.decos, p.keywords, p.kinds = make([]bool, count), make([]bool, count), make([]byte, count+1)
	for s, n := range p.names {
		p.decos[s], p.keywords[s] = isDecoration(n), isKeyword(n)
		if p.decos[s] {
			p.kinds[s] |= 1
		}
		if p.keywords[s] {
			p.kinds[s] |= 2
		}
		if strings.Contains(n, "comment") {
			p.kinds[s] |= 4
		}
	}
	p.ckinds = (*C.uint8_t)(cCopy(unsafe.Pointer(&p.kinds[0]), len(p.kinds)))
	p.preds = make([][]predicate, q.PatternCount())
	for i := range p.preds {
		var ok bool
		if p.preds[i], ok = predicatesOf(q, uint32(i)); !ok {
			return p
		}
	}
	src, err := lang.Source()
	if err != nil {
		return p
	}
	roots := map[string]bool{}
	qp := queryPtr(q)
	starts := make([]int, q.PatternCount()+1)
	for i := range q.PatternCount() {
		if !C.ts_query_is_pattern_rooted(qp, C.uint32_t(i)) || C.ts_query_is_pattern_non_local(qp, C.uint32_t(i)) {
			return p
		}
		starts[i] = int(C.ts_query_start_byte_for_pattern(qp, C.uint32_t(i)))
		names, ok := rootNames(src, starts[i])
		if !ok {
			return p
		}
		for _, n := range names {
			roots[n] = true
		}
	}
	starts[q.PatternCount()] = len(src)
	// Every root must be a named node type: a supertype or hidden rule
	// would start at nodes of other names.
	found := map[string]bool{}
	p.roots = make([]byte, 1<<16)
	for s := range count {
		if roots[p.names[s]] && C.ts_language_symbol_type(tl, C.uint16_t(s)) == 0 {
			p.roots[s] = 1
			found[p.names[s]] = true
		}
	}
	if roots["ERROR"] {
		p.roots[errorSymbol] = 1
		found["ERROR"] = true
	}
	// In C, function bodies, initializers, struct bodies and argument
	// lists are most of a file's nodes, and the only definitions they can
	// hold start with a word zumba_c_may_define looks for: they are
	// searched only when their text holds one.
	if lang.Name == "c" {
		for s := range count {
			switch p.names[s] {
			case "compound_statement", "initializer_list", "field_declaration_list", "enumerator_list", "parameter_list", "argument_list":
				p.roots[s] |= C.zOpaque
			}
		}
	}
	// TypeScript's blocks (function bodies above all) are most of a
	// file's nodes, and the definitions they may hold start with words or
	// signs zumba_js_may_define looks for: they are searched only when
	// their text holds one. So are parameter and argument lists, which hold
	// definitions only inside the functions, classes and objects of their
	// expressions (default values, callbacks), whose text the scan reads as
	// a block's.
	if lang.Name == "typescript" || lang.Name == "tsx" {
		for s := range count {
			if jsBlocks[p.names[s]] && p.roots[s]&C.zRoot == 0 {
				p.roots[s] |= C.zBlock
			}
		}
	}
	// TypeScript's types hold no node a pattern starts at (an object
	// type's members are not entries; an interface's body is a node type
	// of its own), nor do imports, export lists and strings, and they are
	// a good part of a file's nodes.
	if lang.Name == "typescript" || lang.Name == "tsx" {
		for s := range count {
			if tsTypes[p.names[s]] && p.roots[s]&C.zRoot == 0 {
				p.roots[s] |= C.zInert
			}
		}
	}
	p.chains = newChains(q, p, tl, src, starts)
	p.native = true
	return p
}

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
	i := 0
	var node func() (*chainStep, bool)
	word := func() string {
		j := i
		for i < len(text) && (text[i] == '_' || text[i] == '.' || text[i] == '-' || text[i] >= 'a' && text[i] <= 'z' || text[i] >= 'A' && text[i] <= 'Z' || text[i] >= '0' && text[i] <= '9') {
			i++
		}
		return text[j:i]
	}
	captures := func() []string {
		var caps []string
		for {
			i = skipSpace(text, i)
			if i >= len(text) || text[i] != '@' {
				return caps
			}
			i++
			caps = append(caps, word())
		}
	}
	str := func() (*chainStep, bool) {
		j := strings.IndexByte(text[i+1:], '"')
		if j < 0 || strings.ContainsRune(text[i+1:i+1+j], '\\') {
			return nil, false
		}
		n := &chainStep{typ: text[i+1 : i+1+j], anon: true}
		i += j + 2
		return n, n.typ != ""
	}
	// item reads a node or a string.
	item := func() (*chainStep, bool) {
		switch {
		case i < len(text) && text[i] == '(':
			return node()
		case i < len(text) && text[i] == '"':
			return str()
		}
		return nil, false
	}
	// position reads a child step: a field, then an item or an
	// alternation of items, then captures.
	position := func() ([]*chainStep, bool) {
		field := ""
		j := i
		if w := word(); w != "" && i < len(text) && text[i] == ':' {
			field = w
			i++
		} else {
			i = j
		}
		i = skipSpace(text, i)
		var alts []*chainStep
		if i < len(text) && text[i] == '[' {
			i++
			for {
				i = skipSpace(text, i)
				if i < len(text) && text[i] == ']' {
					i++
					break
				}
				n, ok := item()
				if !ok {
					return nil, false
				}
				n.caps = append(n.caps, captures()...)
				alts = append(alts, n)
			}
		} else {
			n, ok := item()
			if !ok {
				return nil, false
			}
			alts = []*chainStep{n}
		}
		caps := captures()
		for _, a := range alts {
			a.field = field
			a.caps = append(a.caps, caps...)
		}
		return alts, len(alts) > 0
	}
	node = func() (*chainStep, bool) {
		i++ // "("
		i = skipSpace(text, i)
		n := &chainStep{typ: word()}
		if n.typ == "" || strings.ContainsAny(n.typ, ".-") {
			return nil, false
		}
		for {
			i = skipSpace(text, i)
			if i >= len(text) {
				return nil, false
			}
			switch {
			case text[i] == ')':
				i++
				return n, true
			case text[i] == '!':
				i++
				f := word()
				if f == "" || strings.ContainsAny(f, ".-") {
					return nil, false
				}
				n.neg = append(n.neg, f)
			case text[i] == '(' && strings.HasPrefix(skipText(text, i+1), "#"):
				// A predicate: Go reads it.
				end, ok := matchBracket(text, i)
				if !ok {
					return nil, false
				}
				i = end + 1
			default:
				alts, ok := position()
				if !ok {
					return nil, false
				}
				n.pos = append(n.pos, alts)
			}
		}
	}
	i = skipSpace(text, i)
	if i >= len(text) || text[i] != '(' {
		return nil, false
	}
	root, ok := node()
	if !ok || root.typ == "_" {
		return nil, false
	}
	root.caps = captures()
	return root, skipSpace(text, i) == len(text)
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
	capIDs := map[string]uint16{}
	for i := range q.CaptureCount() {
		capIDs[q.CaptureNameForId(i)] = uint16(i)
	}
	symbol := func(name string, named bool) uint16 {
		cs := C.CString(name)
		defer C.free(unsafe.Pointer(cs))
		return uint16(C.ts_language_symbol_for_name(tl, cs, C.uint32_t(len(name)), C.bool(named)))
	}
	field := func(name string) uint16 {
		cs := C.CString(name)
		defer C.free(unsafe.Pointer(cs))
		return uint16(C.ts_language_field_id_for_name(tl, cs, C.uint32_t(len(name))))
	}
	var steps []C.zStep
	var pos []C.zPos
	var alts []uint16
	// add lays out n and the steps below it, and returns its index.
	var add func(n *chainStep, pattern int) (int, bool)
	add = func(n *chainStep, pattern int) (int, bool) {
		st := C.zStep{pattern: C.uint16_t(pattern), ncap: C.uint16_t(len(n.caps))}
		if _, caps := n.size(); caps == 0 {
			st.free = 1
		}
		if n.typ != "_" || n.anon {
			if st.symbol = C.uint16_t(symbol(n.typ, !n.anon)); st.symbol == 0 {
				return 0, false
			}
		}
		if len(n.caps) > len(st.caps) || len(n.neg) > len(st.neg) {
			return 0, false
		}
		if n.field != "" {
			if st.field = C.uint16_t(field(n.field)); st.field == 0 {
				return 0, false
			}
		}
		for k, f := range n.neg {
			if st.neg[k] = C.uint16_t(field(f)); st.neg[k] == 0 {
				return 0, false
			}
		}
		for k, c := range n.caps {
			id, ok := capIDs[c]
			if !ok {
				return 0, false
			}
			st.caps[k] = C.uint16_t(id)
		}
		at := len(steps)
		steps = append(steps, st)
		var kids [][]uint16
		for _, choice := range n.pos {
			var ks []uint16
			for _, a := range choice {
				k, ok := add(a, pattern)
				if !ok {
					return 0, false
				}
				ks = append(ks, uint16(k))
			}
			kids = append(kids, ks)
		}
		steps[at].pos_start, steps[at].pos_count = C.uint16_t(len(pos)), C.uint16_t(len(kids))
		for _, ks := range kids {
			pos = append(pos, C.zPos{alt_start: C.uint16_t(len(alts)), alt_count: C.uint16_t(len(ks))})
			alts = append(alts, ks...)
		}
		return at, true
	}
	type rooted struct {
		pattern int
		chain   *chainStep
	}
	bySym := map[uint16][]rooted{}
	bad := map[uint16]bool{}
	for i := 0; i+1 < len(starts); i++ {
		names, _ := rootNames(src, starts[i])
		c, ok := parseChain(src[starts[i]:starts[i+1]])
		if ok {
			depth, caps := c.size()
			ok = depth < C.zMaxChain && caps <= C.zMaxChainCaps
		}
		for _, name := range names {
			sym := symbol(name, true)
			if !ok || sym == 0 {
				bad[sym] = true
				continue
			}
			bySym[sym] = append(bySym[sym], rooted{i, c})
		}
	}
	var syms []uint16
	for sym := range bySym {
		if !bad[sym] && int(sym) < len(p.names) && p.roots[sym]&C.zRoot != 0 {
			syms = append(syms, sym)
		}
	}
	if len(syms) == 0 {
		return nil
	}
	slices.Sort(syms)
	n := 0
	for _, sym := range syms {
		n += len(bySym[sym])
	}
	// The root steps come first, grouped by root symbol in pattern order;
	// add appends each one's copy and the steps below it after them.
	steps = make([]C.zStep, n)
	first, count := make([]uint16, len(p.names)), make([]uint16, len(p.names))
	k := 0
	for _, sym := range syms {
		first[sym], count[sym] = uint16(k), uint16(len(bySym[sym]))
		for _, r := range bySym[sym] {
			at, ok := add(r.chain, r.pattern)
			if !ok {
				return nil
			}
			steps[k] = steps[at]
			k++
		}
	}
	if len(steps) > 1<<16 || len(pos) > 1<<16 || len(alts) > 1<<16 {
		return nil
	}
	for _, sym := range syms {
		p.roots[sym] |= chainRoot
	}
	ch := (*C.zChains)(C.malloc(C.sizeof_zChains))
	ch.steps = (*C.zStep)(cCopy(unsafe.Pointer(&steps[0]), len(steps)*C.sizeof_zStep))
	ch.pos = (*C.zPos)(cCopy(unsafe.Pointer(unsafe.SliceData(pos)), len(pos)*C.sizeof_zPos))
	ch.alts = (*C.uint16_t)(cCopy(unsafe.Pointer(unsafe.SliceData(alts)), len(alts)*2))
	ch.first = (*C.uint16_t)(cCopy(unsafe.Pointer(&first[0]), len(first)*2))
	ch.count = (*C.uint16_t)(cCopy(unsafe.Pointer(&count[0]), len(count)*2))
	ch.nsyms = C.uint32_t(len(p.names))
	return ch
}

// cCopy copies n bytes at b into C memory, which a plan keeps for the
// life of the program.
func cCopy(b unsafe.Pointer, n int) unsafe.Pointer {
	m := C.malloc(C.size_t(max(n, 1)))
	if n > 0 {
		C.memcpy(m, b, C.size_t(n))
	}
	return m
}

// tsTypes are tree-sitter-typescript's type nodes, and the other nodes
// that hold no node a pattern starts at: imports, the names an export
// lists, strings (see newPlan).
var tsTypes = map[string]bool{
	"import_statement": true, "export_clause": true, "string": true, "regex": true,
	"type_annotation": true, "opting_type_annotation": true, "omitting_type_annotation": true, "adding_type_annotation": true,
	"type_arguments": true, "type_parameters": true, "union_type": true, "intersection_type": true, "function_type": true,
	"constructor_type": true, "generic_type": true, "conditional_type": true, "lookup_type": true, "index_type_query": true,
	"mapped_type_clause": true, "tuple_type": true, "array_type": true, "readonly_type": true, "literal_type": true,
	"parenthesized_type": true, "type_predicate": true, "type_predicate_annotation": true, "asserts": true,
	"asserts_annotation": true, "template_literal_type": true, "infer_type": true, "type_query": true, "object_type": true,
	"optional_type": true, "rest_type": true,
}

// jsBlocks are the TypeScript nodes searched only when their text holds a
// place where a definition may start (see newPlan).
var jsBlocks = map[string]bool{"statement_block": true, "formal_parameters": true, "arguments": true}

// rootNames reads the node types a pattern of src starting at byte i is
// rooted at: "(type …)", "((type …) …)" or an alternation of those. It
// reports false for any other start (a wildcard, a field, a string).
func rootNames(src string, i int) ([]string, bool) {
	i = skipSpace(src, i)
	if i >= len(src) {
		return nil, false
	}
	switch src[i] {
	case '[':
		end, ok := matchBracket(src, i)
		if !ok {
			return nil, false
		}
		var all []string
		for j := i + 1; ; {
			j = skipSpace(src, j)
			if j >= end {
				return all, len(all) > 0
			}
			switch c := src[j]; {
			case c == '(' || c == '[':
				names, ok := rootNames(src, j)
				if !ok {
					return nil, false
				}
				all = append(all, names...)
				e, ok := matchBracket(src, j)
				if !ok {
					return nil, false
				}
				j = e + 1
			case c == '@':
				for j < end && !strings.ContainsRune(" \t\r\n()[]", rune(src[j])) {
					j++
				}
			case c == '?' || c == '*' || c == '+':
				j++
			default:
				return nil, false
			}
		}
	case '(':
		j := skipSpace(src, i+1)
		if j < len(src) && (src[j] == '(' || src[j] == '[') {
			return rootNames(src, j)
		}
		start := j
		for j < len(src) && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9') {
			j++
		}
		name := src[start:j]
		if name == "" || name == "_" || j < len(src) && src[j] == ':' {
			return nil, false
		}
		return []string{name}, true
	}
	return nil, false
}

// skipSpace skips white space and ; comments from i.
func skipSpace(src string, i int) int {
	for i < len(src) {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			i++
		case ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// matchBracket returns the index of the bracket closing the one at i.
func matchBracket(src string, i int) (int, bool) {
	depth := 0
	for k := i; k < len(src); k++ {
		switch src[k] {
		case '"':
			for k++; k < len(src) && src[k] != '"'; k++ {
				if src[k] == '\\' {
					k++
				}
			}
		case ';':
			for k < len(src) && src[k] != '\n' {
				k++
			}
		case '(', '[':
			depth++
		case ')', ']':
			depth--
			if depth == 0 {
				return k, true
			}
		}
	}
	return 0, false
}

// predicatesOf resolves the predicates of a pattern; false when one
// cannot be (a bad regular expression).
func predicatesOf(q *sitter.Query, pattern uint32) ([]predicate, bool) {
	var out []predicate
	for _, steps := range q.PredicatesForPattern(pattern) {
		if len(steps) < 3 {
			continue
		}
		switch op := q.StringValueForId(steps[0].ValueId); op {
		case "eq?", "not-eq?":
			p := predicate{positive: op == "eq?", left: steps[1].ValueId}
			if steps[2].Type == sitter.QueryPredicateStepTypeCapture {
				p.byCapture, p.right = true, steps[2].ValueId
			} else {
				p.value = q.StringValueForId(steps[2].ValueId)
			}
			out = append(out, p)
		case "match?", "not-match?":
			re, err := regexp.Compile(q.StringValueForId(steps[2].ValueId))
			if err != nil {
				return nil, false
			}
			out = append(out, predicate{positive: op == "match?", match: true, left: steps[1].ValueId, re: re})
		}
	}
	return out, true
}

// keep reports whether a match passes its pattern's predicates, as
// go-tree-sitter's FilterPredicates decides: eq? between two captures
// compares the first pair found, other predicates hold for every capture
// of their name.
func (p *plan) keep(caps []capRec, src []byte) bool {
	text := func(c *capRec) []byte { return src[c.n.startByte():c.endByte] }
	for _, pr := range p.preds[caps[0].pattern] {
		switch {
		case pr.match:
			for k := range caps {
				if caps[k].capture == pr.left && pr.re.Match(text(&caps[k])) != pr.positive {
					return false
				}
			}
		case pr.byCapture:
			var l, r *capRec
			for k := range caps {
				if caps[k].capture == pr.left {
					l = &caps[k]
				}
				if caps[k].capture == pr.right {
					r = &caps[k]
				}
				if l != nil && r != nil {
					if (string(text(l)) == string(text(r))) != pr.positive {
						return false
					}
					break
				}
			}
		default:
			for k := range caps {
				if caps[k].capture == pr.left && (string(text(&caps[k])) == pr.value) != pr.positive {
					return false
				}
			}
		}
	}
	return true
}

// listing holds the children of the nodes a run's chains listed, which
// extentStarts reads instead of listing them again; free releases it.
type listing struct{ r *C.zChainRun }

func (l listing) free() { C.zumba_chain_free(l.r) }

// run runs q natively over the tree under root (see zumba_run) and calls
// f with the captures of each match that passes its predicates, in the
// order found. It stops when ctx ends. Nodes deeper than maxDepth are not
// searched; deep records the first line they start on. parsed is the text
// the tree was parsed from (src prepared). The caller frees the listing
// it returns.
func (p *plan) run(ctx context.Context, q *sitter.Query, root tsNode, src, parsed []byte, deep *deepCut, f func([]capRec)) listing {
	var l listing
	if ctx.Err() != nil {
		return l
	}
	flag := new(int32)
	stop := noStop
	if ctx.Done() != nil {
		stop = context.AfterFunc(ctx, func() { atomic.StoreInt32(flag, 1) })
	}
	// A deadline no timer watches is kept by the run's clock.
	var budget int64
	if dc, ok := ctx.(*deadlineCtx); ok {
		budget = max(time.Until(dc.deadline).Nanoseconds(), 1)
	}
	out := C.zRecs{kinds: p.ckinds, nkinds: C.uint32_t(len(p.kinds) - 1)}
	var text *C.uint8_t
	if len(parsed) > 0 {
		text = (*C.uint8_t)(unsafe.Pointer(&parsed[0]))
	}
	var deepRow, stopRow C.uint32_t
	C.zumba_run(root.c(), queryPtr(q), (*C.uint8_t)(unsafe.Pointer(&p.roots[0])), C.uint32_t(len(p.roots)), maxChildren,
		maxDepth, &deepRow, &stopRow, text, C.uint32_t(len(parsed)), (*C.uint8_t)(unsafe.Pointer(&p.whole[0])), C.uint32_t(len(p.whole)),
		p.chains, (*C.int32_t)(unsafe.Pointer(flag)), C.int64_t(budget), &out, &l.r)
	stop()
	if deepRow != math.MaxUint32 && deep != nil {
		deep.Line = int(deepRow) + 1
	}
	if stopRow != math.MaxUint32 && deep != nil {
		deep.Stop = int(stopRow) + 1
	}
	if out.recs == nil {
		return l
	}
	defer C.free(unsafe.Pointer(out.recs))
	recs := unsafe.Slice((*capRec)(unsafe.Pointer(out.recs)), int(out.len))
	for i := 0; i < len(recs); {
		j := i + 1
		for j < len(recs) && recs[j].match == recs[i].match {
			j++
		}
		if p.keep(recs[i:j], src) {
			f(recs[i:j])
		}
		i = j
	}
	return l
}

// errorSymbol is tree-sitter's symbol of ERROR nodes.
const errorSymbol = 1<<16 - 1

// name is the node type of symbol s.
func (p *plan) name(s uint16, tl *C.TSLanguage) string {
	if int(s) < len(p.names) {
		return p.names[s]
	}
	return C.GoString(C.ts_language_symbol_name(tl, C.uint16_t(s)))
}

// tokenKinds is isDecoration and isKeyword of the type of symbol s.
func (p *plan) tokenKinds(s uint16, tl *C.TSLanguage) (deco, keyword bool) {
	if int(s) < len(p.decos) {
		return p.decos[s], p.keywords[s]
	}
	t := p.name(s, tl)
	return isDecoration(t), isKeyword(t)
}

// prevType is the type of the sibling before n, or "".
func (p *plan) prevType(n *tsNode) string {
	s := C.zumba_prev_symbol(n.c())
	if s < 0 {
		return ""
	}
	return p.name(uint16(s), n.language())
}

// codeEndLine is endLine without the comments that end n:
// tree-sitter-python's block keeps the comment lines after a body's last
// statement, which belong to no definition (Python's ast ends the
// definition at that statement).
func (p *plan) codeEndLine(n *capRec) int {
	end := rowsEnd(n.n.startRow(), n.endRow, n.endCol)
	if n.codeKnown == 0 {
		var row C.uint32_t
		var last C.TSPoint
		skipped := C.zumba_code_end_alone(p.ckinds, C.uint32_t(len(p.kinds)-1), n.n.c(), &row, &last)
		n.codeRow, n.codeEndRow, n.codeEndCol, n.codeKnown = uint32(row), uint32(last.row), uint32(last.column), 1
		if skipped {
			n.codeSkipped = 1
		}
	}
	if n.codeSkipped == 0 {
		return end
	}
	return max(min(end, rowsEnd(n.codeRow, n.codeEndRow, n.codeEndCol)), int(n.n.startRow())+1)
}

// rowsEnd is endLine of a node starting on row start and ending at
// (row, col).
func rowsEnd(start, row, col uint32) int {
	if col == 0 && row > start {
		return int(row)
	}
	return int(row) + 1
}

// extentStarts finds the first line (1-based) of each definition node of
// nodes (whole nodes of the tree under root): the first line of the doc
// comments, decorators and attributes right above it, or else its own.
// What counts is read from the tree, for every language alike:
//   - a node that only wraps the definition (Python's decorated_definition,
//     an export_statement, a declaration whose other children are keywords
//     or on the definition's first line) stands for it, unless it is
//     another definition's node;
//   - comment, decorator and attribute siblings directly before it, with no
//     blank line between them and it, belong to it; a comment that ends a
//     line of code (x = 1 // note) does not.
//
// Finding a node's parent or siblings through the tree costs a walk from
// the root each time, so the tree is walked once with a cursor instead,
// into the nodes that hold definitions only, in one C call
// (zumba_extents; extents_test.go holds the same rules in Go, which the
// tests compare it with), reading the children l holds from it.
func extentStarts(p *plan, root tsNode, nodes []capRec, src []byte, l listing) []int {
	starts := make([]int, len(nodes))
	if len(nodes) == 0 {
		return starts
	}
	lines := make([]int32, len(nodes))
	var text *C.uint8_t
	if len(src) > 0 {
		text = (*C.uint8_t)(unsafe.Pointer(&src[0]))
	}
	if !C.zumba_extents(root.c(), (*C.zRec)(unsafe.Pointer(&nodes[0])), C.uint32_t(len(nodes)), text, C.uint32_t(len(src)),
		(*C.uint8_t)(unsafe.Pointer(&p.kinds[0])), C.uint32_t(len(p.kinds)-1), (*C.int32_t)(unsafe.Pointer(&lines[0])), l.r) {
		// Out of memory: each definition starts at its own first line.
		for i := range nodes {
			starts[i] = int(firstRow(nodes[i].n.startRow(), nodes[i].n.startByte(), nodes[i].endByte, src)) + 1
		}
		return starts
	}
	for i, l := range lines {
		starts[i] = int(l)
	}
	return starts
}

// children lists the children of n the tree cursor visits into buf.
func children(n *tsNode, buf []sib) []sib {
	for {
		var first *C.zSib
		if cap(buf) > 0 {
			first = (*C.zSib)(unsafe.Pointer(&buf[:1][0]))
		}
		k := int(C.zumba_children(n.c(), first, C.uint32_t(cap(buf))))
		if k <= cap(buf) {
			return buf[:k]
		}
		buf = make([]sib, 0, k)
	}
}
