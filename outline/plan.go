package outline

/*
#include <stdlib.h>
#include <string.h>
#include "native.h"
*/
import "C"

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
)

// plan is how a language's definitions query runs: natively, starting
// patterns only at the nodes of the symbols they are rooted at, when
// every pattern is rooted at a named node type (see newPlan).
type plan struct {
	native bool
	// markdown: heading names are Markdown's inline text (code spans,
	// links, emphasis), read as a reader sees them (see cleanName).
	markdown bool
	roots    []byte   // flags by symbol: zRoot where a pattern starts, zOpaque, zBlock, zInert, zChain (see zumba_run)
	names    []string // node type names by symbol
	preds    [][]predicate
	roles    []capKind // what collect reads from each capture
	// decos and keywords are isDecoration and isKeyword of names; kinds
	// holds both as flags for zumba_extents (1 and 2), and one more byte,
	// so it is never empty.
	decos, keywords []bool
	kinds           []byte
	// bodyless flags the language's Bodyless node types.
	bodyless []bool
	// ckinds is kinds in C memory, which a plan keeps for the life of the
	// program.
	ckinds *C.uint8_t
	// chains holds the chain patterns, by root symbol (those flagged
	// zChain), in C memory; nil when there are none.
	chains *C.zChains
	// whole flags the definition captures (1 for each), whose code end
	// the native run computes; one more byte, so it is never empty.
	whole []byte
	// rename is the language's Rename.
	rename func(grammar.Kind, []byte) string
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

// newPlan makes the plan of q, the query of lang, whose tree-sitter
// language is tl. A plan that cannot run natively (native unset) still
// serves collect's slower run over every node (matches).
func newPlan(lang *grammar.Language, q *sitter.Query, tl *C.TSLanguage) *plan {
	p := &plan{roles: captureRoles(q), whole: make([]byte, q.CaptureCount()+1), rename: lang.Rename, markdown: lang.HeadingLevels}
	for i, r := range p.roles {
		if r.role == "definition" || r.role == "end" {
			p.whole[i] = 1
		}
	}
	p.readSymbols(tl)
	p.bodyless = make([]bool, len(p.names))
	for s, n := range p.names {
		p.bodyless[s] = slices.Contains(lang.Bodyless, n)
	}
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
	starts, ok := p.readRoots(q, tl, src)
	if !ok {
		return p
	}
	p.flagSkips(lang.Skip)
	p.chains = newChains(q, p, tl, src, starts)
	p.native = true
	return p
}

// flagSkips flags in p.roots the node types the native run may leave
// unsearched (see zumba_run): zOpaque (CScan) or zBlock (JSScan) the
// Scanned ones, zInert the Inert ones, but for those a pattern starts at
// where the language says so (see grammar.BlockScan).
func (p *plan) flagSkips(skip grammar.Skips) {
	var scanned byte
	switch skip.Scan {
	case grammar.CScan:
		scanned = C.zOpaque
	case grammar.JSScan:
		scanned = C.zBlock
	}
	for s, n := range p.names {
		root := p.roots[s]&C.zRoot != 0
		if scanned != 0 && slices.Contains(skip.Scanned, n) && (skip.Scan == grammar.CScan || !root) {
			p.roots[s] |= scanned
		}
		if slices.Contains(skip.Inert, n) && !root {
			p.roots[s] |= C.zInert
		}
	}
}

// captureRoles is what collect reads from each capture of q.
func captureRoles(q *sitter.Query) []capKind {
	roles := make([]capKind, q.CaptureCount())
	for i := range roles {
		switch capName := q.CaptureNameForId(uint32(i)); capName {
		case "name", "scope", "trait", "member", "listed", "skip", "end", "section":
			roles[i].role = capName
		default:
			if k, ok := strings.CutPrefix(capName, "definition."); ok {
				if kk, ok := grammar.ParseKind(k); ok {
					roles[i] = capKind{"definition", kk}
				}
			}
		}
	}
	return roles
}

// readSymbols reads the node type names of tl and what each is to the
// extents and code ends: names, decos, keywords, kinds and ckinds.
func (p *plan) readSymbols(tl *C.TSLanguage) {
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
}

// readRoots flags zRoot in p.roots the symbols q's patterns (in src) are
// rooted at, and returns where each pattern starts in src, with len(src)
// after the last; false when a pattern is not rooted at named node types
// (a wildcard, a field, a supertype) or reaches outside its node, which
// the native run cannot start.
func (p *plan) readRoots(q *sitter.Query, tl *C.TSLanguage, src string) ([]int, bool) {
	roots := map[string]bool{}
	qp := queryPtr(q)
	starts := make([]int, q.PatternCount()+1)
	for i := range q.PatternCount() {
		if !C.ts_query_is_pattern_rooted(qp, C.uint32_t(i)) || C.ts_query_is_pattern_non_local(qp, C.uint32_t(i)) {
			return nil, false
		}
		starts[i] = int(C.ts_query_start_byte_for_pattern(qp, C.uint32_t(i)))
		names, ok := rootNames(src, starts[i])
		if !ok {
			return nil, false
		}
		for _, n := range names {
			roots[n] = true
		}
	}
	starts[q.PatternCount()] = len(src)
	// Every root must be a named node type: a supertype or hidden rule
	// would start at nodes of other names.
	p.roots = make([]byte, 1<<16)
	for s := range p.names {
		if roots[p.names[s]] && C.ts_language_symbol_type(tl, C.uint16_t(s)) == 0 {
			p.roots[s] = 1
		}
	}
	if roots["ERROR"] {
		p.roots[errorSymbol] = 1
	}
	return starts, true
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

// isBodyless reports whether symbol s is a node type of a function or
// method declared without its body.
func (p *plan) isBodyless(s uint16) bool { return int(s) < len(p.bodyless) && p.bodyless[s] }
