package outline

import (
	"context"
	"iter"
	"math"

	sitter "github.com/smacker/go-tree-sitter"
)

// maxChildren is the most direct children a node may have and still be
// searched by one query run. At every node it enters, tree-sitter's query
// cursor looks for a later named sibling; over a flat run of k unnamed
// siblings that is k²/2 steps. Error recovery makes such runs: 512 KB of
// "(" becomes one ERROR node with 524,288 children, and its query would
// take hours. Normal repetitions are balanced into small hidden nodes, so
// only error nodes are this wide.
const maxChildren = 1024

var (
	pointMin = sitter.Point{}
	pointMax = sitter.Point{Row: math.MaxUint32, Column: math.MaxUint32}
)

// Deep trees are the query cursor's other quadratic case: a pattern
// rooted at a node keeps a state alive while the cursor is inside that
// node, so a chain of k nested nodes (60,000 nested blocks, a 20,000-term
// sum) costs k² steps in a single NextMatch, which no deadline check can
// interrupt. A tree deeper than deepProbe is therefore cut: the nodes
// cutDepth levels below where a query run starts are left out of that
// run and searched by runs of their own, so no run holds more than about
// cutDepth live states. Patterns rooted above a cut still see the nodes
// below it, since the cursor descends into a left-out node for the states
// that need it.
const (
	// cutDepth is the depth, below a run's node, of the nodes searched
	// by runs of their own in a deep tree.
	cutDepth = 64
	// deepProbe is the depth past which a tree is cut; real code stays
	// well under it.
	deepProbe = 256
	// probeStride is the distance in bytes between the points whose depth
	// is probed. A node deeper than deepProbe+probeStride has ancestors
	// over probeStride bytes wide deeper than deepProbe, and one of them
	// holds a probed point.
	probeStride = 256
	// maxDepth is the depth, in tree levels below the root, past which
	// nothing is searched: the nodes cutDepth levels below a run at
	// maxDepth-cutDepth get no run of their own. Real code stays well
	// under it: the deepest files in GOROOT/src are x/text's generated
	// tables (947 levels, a string concatenation of as many terms), the
	// next 407; Python's stdlib stays under 32; the deepest of Linux
	// 6.12's files with the longest else-if chains or over 1 MB is 125.
	// Only generated or hostile input (30,000 nested blocks) is cut, and
	// the cost of its outline is then bounded by this depth, not the
	// file's.
	maxDepth = 2048
)

// deepCut records where matches stopped at maxDepth: Line is the first
// line (1-based) of the first node in the file left unsearched; 0 when
// none was.
type deepCut struct {
	Line int
	// Stop is the line of the node where a run in file order (the native
	// one) stopped when its context ended: the definitions before it are
	// found. 0 when it did not stop, or did not run in file order.
	Stop int
}

// matches runs q over the tree under root and yields the matches that pass
// the query's predicates. Wide error nodes (more than maxChildren
// children) and, in a deep tree, the nodes cutDepth levels below a run's
// node are left out of the run over their surroundings and searched on
// their own, so the cost stays linear; nodes past maxDepth are not
// searched, and the first line they start on is recorded in deep (when
// not nil). It stops when ctx ends; the caller then has the matches found
// so far.
func matches(ctx context.Context, q *sitter.Query, root *sitter.Node, src []byte, deep *deepCut) iter.Seq[*sitter.QueryMatch] {
	return func(yield func(*sitter.QueryMatch) bool) {
		qc := sitter.NewQueryCursor()
		defer qc.Close()
		exec := func(n *sitter.Node, from, to sitter.Point) bool {
			if ctx.Err() != nil {
				return false
			}
			qc.SetPointRange(from, to)
			qc.Exec(q, n)
			for i := 1; ; i++ {
				m, ok := qc.NextMatch()
				if !ok {
					return true
				}
				if i%256 == 0 && ctx.Err() != nil {
					return false
				}
				if !yield(qc.FilterPredicates(m, src)) {
					return false
				}
			}
		}
		probe := sitter.NewTreeCursor(root)
		defer probe.Close()
		// run searches n, depth levels below root.
		var run func(n *sitter.Node, depth int) bool
		run = func(n *sitter.Node, depth int) bool {
			cuts := wideNodes(n)
			if deeperThan(probe, n, cuts, deepProbe) {
				cuts = deepCuts(n)
			}
			from := pointMin
			for _, c := range cuts {
				// An empty range would mean no range at all to tree-sitter
				// when it ends at (0, 0).
				if to := c.node.StartPoint(); before(from, to) && !exec(n, from, to) {
					return false
				}
				from = c.node.EndPoint()
			}
			if !exec(n, from, pointMax) {
				return false
			}
			for _, c := range cuts {
				if !c.wide {
					// A deep cut is cutDepth levels below n.
					if depth+cutDepth >= maxDepth {
						if line := int(c.node.StartPoint().Row) + 1; deep != nil && (deep.Line == 0 || line < deep.Line) {
							deep.Line = line
						}
						continue
					}
					if !run(c.node, depth+cutDepth) {
						return false
					}
					continue
				}
				tc := sitter.NewTreeCursor(c.node)
				ok := true
				for more := tc.GoToFirstChild(); more && ok; more = tc.GoToNextSibling() {
					// A wide node's depth below n is not known: counted
					// as one level, the bound is reached later, not
					// missed.
					if child := tc.CurrentNode(); child.IsNamed() {
						ok = run(child, depth+1)
					}
				}
				tc.Close()
				if !ok {
					return false
				}
			}
			return ctx.Err() == nil
		}
		run(root, 0)
	}
}

// cut is a node left out of a query run: a wide error node, whose named
// children are searched one by one, or a deep one, searched whole.
type cut struct {
	node *sitter.Node
	wide bool
}

// deeperThan probes whether the tree under n is deeper than limit, by
// following the path to every probeStride-th byte with the cursor c. It
// misses only nodes less than probeStride bytes below a shallow path,
// whose runs stay short. The wide nodes skip are not entered: finding a
// child by byte scans the children, and theirs are searched on their own.
func deeperThan(c *sitter.TreeCursor, n *sitter.Node, skip []cut, limit int) bool {
	start, end := n.StartByte(), n.EndByte()
	if end-start < probeStride {
		return false
	}
	for b := start; b < end; b += probeStride {
		for len(skip) > 0 && skip[0].node.EndByte() <= b {
			skip = skip[1:]
		}
		if len(skip) > 0 && skip[0].node.StartByte() <= b {
			b = skip[0].node.EndByte()
			skip = skip[1:]
			if b >= end {
				break
			}
		}
		c.Reset(n)
		for depth := 0; c.GoToFirstChildForByte(b) >= 0; depth++ {
			if depth >= limit {
				return true
			}
		}
	}
	return false
}

// deepCuts returns, in the order of the file, the nodes with children
// cutDepth levels below n, and the wide error nodes above them.
func deepCuts(n *sitter.Node) []cut {
	var out []cut
	c := sitter.NewTreeCursor(n)
	defer c.Close()
	depth := 0
	for {
		node := c.CurrentNode()
		descend := true
		switch {
		case node.IsError() && node.ChildCount() > maxChildren:
			out = append(out, cut{node: node, wide: true})
			descend = false
		case depth >= cutDepth:
			if node.ChildCount() > 0 {
				out = append(out, cut{node: node})
			}
			descend = false
		}
		if descend && c.GoToFirstChild() {
			depth++
			continue
		}
		for !c.GoToNextSibling() {
			if !c.GoToParent() {
				return out
			}
			depth--
		}
	}
}

// wideNodes returns the outermost error nodes under n, n included, that
// have more than maxChildren children, in the order of the file. Only
// error nodes are split: a file with thousands of top-level declarations
// is wide too, but its children are named and cheap to query, and its
// patterns anchored on the file node (Go's top-level types and constants)
// match only when the file node is queried whole.
func wideNodes(n *sitter.Node) []cut {
	if !n.HasError() {
		return nil
	}
	var out []cut
	c := sitter.NewTreeCursor(n)
	defer c.Close()
	for {
		node := c.CurrentNode()
		if node.IsError() && node.ChildCount() > maxChildren {
			out = append(out, cut{node: node, wide: true})
		} else if node.HasError() && c.GoToFirstChild() {
			continue
		}
		for !c.GoToNextSibling() {
			if !c.GoToParent() {
				return out
			}
		}
	}
}

func before(a, b sitter.Point) bool {
	return a.Row < b.Row || (a.Row == b.Row && a.Column < b.Column)
}
