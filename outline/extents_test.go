//go:build unix

package outline

import (
	"cmp"
	"context"
	"slices"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

// TestExtentsAgree: zumba_extents gives every definition node of every
// golden case (all the definition captures of the run, before any is
// dropped) the first line the same rules in Go (extentStartsGo) give.
func TestExtentsAgree(t *testing.T) {
	eachCorpusCase(t, func(lang *grammar.Language, name string, src []byte) {
		checkExtents(t, name, lang, src)
	})
}

// checkExtents compares extentStarts with extentStartsGo on src.
func checkExtents(t *testing.T, name string, lang *grammar.Language, src []byte) {
	t.Helper()
	q, err := lang.Query()
	if err != nil {
		t.Fatal(err)
	}
	tree, parsed := parsePrepared(t, lang, src)
	defer tree.Close()
	rn := nodeOf(tree.RootNode())
	pl := planFor(lang, q, rn)
	if !pl.native {
		return
	}
	var nodes []capRec
	l := pl.run(context.Background(), q, rn, src, parsed, nil, func(caps []capRec) {
		for _, c := range caps {
			if pl.roles[c.capture].role == "definition" {
				nodes = append(nodes, c)
			}
		}
	})
	defer l.free()
	want := extentStartsGo(pl, rn, nodes, src)
	// With the children the chains listed, and without.
	if got := extentStarts(pl, rn, nodes, src, l); !slices.Equal(got, want) {
		t.Errorf("%s: zumba_extents gives %v; Go gives %v", name, got, want)
	}
	if got := extentStarts(pl, rn, nodes, src, listing{}); !slices.Equal(got, want) {
		t.Errorf("%s: zumba_extents without the chains' listing gives %v; Go gives %v", name, got, want)
	}
}

// extentStartsGo is extentStarts in Go, as it was before zumba_extents:
// the oracle TestExtentsAgree compares it with.
func extentStartsGo(p *plan, root tsNode, nodes []capRec, src []byte) []int {
	starts := make([]int, len(nodes))
	if len(nodes) == 0 {
		return starts
	}
	type target struct {
		start, end uint32
		id         uintptr
		i          int
	}
	targets := make([]target, len(nodes))
	for i := range nodes {
		n := &nodes[i]
		targets[i] = target{n.n.startByte(), n.endByte, n.n.id, i}
		starts[i] = int(firstRow(n.n.startRow(), n.n.startByte(), n.endByte, src)) + 1
	}
	slices.SortFunc(targets, func(a, b target) int { return cmp.Compare(a.start, b.start) })
	type key struct {
		id         uintptr
		start, end uint32
	}
	defs := make(map[key]bool, len(targets))
	for _, t := range targets {
		defs[key{t.id, t.start, t.end}] = true
	}
	isDef := func(s *sibling) bool { return defs[key{s.id, s.start, s.end}] }
	tl := root.language()
	var buf []sib
	// frames are the children of the nodes on the path being walked;
	// at[k] is the index in frames[k] of the node frames[k+1] lists.
	var frames [][]sibling
	var at []int
	// spare[k] is the memory frames[k] last used: a level's frame is done
	// with when the walk leaves it.
	var spare [][]sibling
	var walk func(n *tsNode)
	walk = func(n *tsNode) {
		buf = children(n, buf)
		if len(buf) == 0 {
			return
		}
		level := len(frames)
		if level == len(spare) {
			spare = append(spare, nil)
		}
		if cap(spare[level]) < len(buf) {
			spare[level] = make([]sibling, len(buf))
		}
		kids := spare[level][:len(buf)]
		for j := range buf {
			deco, keyword := p.tokenKinds(buf[j].symbol, tl)
			kids[j] = newSibling(&buf[j], deco, keyword, src)
		}
		frames = append(frames, kids)
		at = append(at, 0)
		for j := range kids {
			k := &kids[j]
			lo, _ := slices.BinarySearchFunc(targets, k.start, func(t target, b uint32) int { return cmp.Compare(t.start, b) })
			inner := false
			for _, t := range targets[lo:] {
				if t.start > k.end || t.start == k.end && k.end > k.start {
					break
				}
				if t.id == k.id && t.end == k.end && t.start == k.start {
					starts[t.i] = leadStart(frames, at, level, j, isDef)
				} else if t.end <= k.end {
					inner = true
				}
			}
			if inner {
				at[level] = j
				walk(&k.node)
			}
		}
		frames, at = frames[:level], at[:level]
	}
	walk(&root)
	return starts
}

// sibling is what extentStarts needs of a node among its parent's children.
type sibling struct {
	node                 tsNode
	id                   uintptr
	start, end           uint32 // bytes
	row, last            uint32 // first and last rows
	named, deco, keyword bool
}

// newSibling describes n, whose type is a decoration and a keyword as
// isDecoration and isKeyword tell. A named extra is a comment: the tree cursor
// reports the type of an extra node inside some aliased nodes
// (tree-sitter-typescript's interface_body) as its parent's.
func newSibling(n *sib, deco, keyword bool, src []byte) sibling {
	named := n.named != 0
	return sibling{
		node: n.n, id: n.n.id, start: n.n.startByte(), end: n.endByte,
		row: firstRow(n.n.startRow(), n.n.startByte(), n.endByte, src), last: lastRow(n.n.startRow(), n.endRow, n.endCol),
		named: named, deco: deco || n.extra != 0 && named, keyword: keyword,
	}
}

// maxWrappers bounds how many nodes around a definition leadStart looks
// through: wrappers are few (an export around a decorated class).
const maxWrappers = 3

// leadStart is the first line of the definition frames[level][j]. isDef
// tells the nodes of definitions, which wrap none but their own: the
// methods of a one-line interface are not documented by its comment.
func leadStart(frames [][]sibling, at []int, level, j int, isDef func(*sibling) bool) int {
	// frames[0] are the root's children: the root wraps nothing.
	for range maxWrappers {
		if level == 0 || !wraps(frames[level], j) || isDef(&frames[level-1][at[level-1]]) {
			break
		}
		level--
		j = at[level]
	}
	kids := frames[level]
	start := kids[j].row
	// A definition first in a block that starts on its row (Python's
	// "class X:\n    # note\n    def f") has the comments above it before
	// the block, among the container's children.
	if j == 0 && level > 0 && !isDef(&frames[level-1][at[level-1]]) && frames[level-1][at[level-1]].row == start {
		level--
		kids, j = frames[level], at[level]
	}
	for k := j - 1; k >= 0 && kids[k].deco; k-- {
		if kids[k].last+1 < start {
			break
		}
		if k > 0 && !kids[k-1].deco && kids[k-1].last == kids[k].row {
			break
		}
		start = kids[k].row
	}
	return int(start) + 1
}

// wraps reports whether the parent of kids adds nothing to its child
// kids[j] but decorations and tokens: everything before it is a
// decoration, a keyword (export, type; not a branch's else, then or do) or
// starts on its first row, and
// everything after it is a token on its last row (a ";"). A container is
// not a wrapper: its members are named, and its brackets are punctuation
// on other rows.
func wraps(kids []sibling, j int) bool {
	n := &kids[j]
	for _, c := range kids[:j] {
		if c.row < n.row && !c.deco && (c.named || !c.keyword) {
			return false
		}
	}
	for _, c := range kids[j+1:] {
		if c.named || c.row > n.last {
			return false
		}
	}
	return true
}
