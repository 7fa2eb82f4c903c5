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

// matches runs q over the tree under root and yields the matches that pass
// the query's predicates. Wide nodes (more than maxChildren children) are
// left out of the run over their surroundings, and each of their named
// children is searched on its own, so the cost stays linear. It stops when
// ctx ends; the caller then has the matches found so far.
func matches(ctx context.Context, q *sitter.Query, root *sitter.Node, src []byte) iter.Seq[*sitter.QueryMatch] {
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
		var run func(n *sitter.Node) bool
		run = func(n *sitter.Node) bool {
			wides := wideNodes(n)
			from := pointMin
			for _, w := range wides {
				// An empty range would mean no range at all to tree-sitter
				// when it ends at (0, 0).
				if to := w.StartPoint(); before(from, to) && !exec(n, from, to) {
					return false
				}
				from = w.EndPoint()
			}
			if !exec(n, from, pointMax) {
				return false
			}
			for _, w := range wides {
				c := sitter.NewTreeCursor(w)
				ok := true
				for more := c.GoToFirstChild(); more && ok; more = c.GoToNextSibling() {
					if child := c.CurrentNode(); child.IsNamed() {
						ok = run(child)
					}
				}
				c.Close()
				if !ok {
					return false
				}
			}
			return true
		}
		run(root)
	}
}

// wideNodes returns the outermost error nodes under n, n included, that
// have more than maxChildren children, in the order of the file. Only
// error nodes are split: a file with thousands of top-level declarations
// is wide too, but its children are named and cheap to query, and its
// patterns anchored on the file node (Go's top-level types and constants)
// match only when the file node is queried whole.
func wideNodes(n *sitter.Node) []*sitter.Node {
	if !n.HasError() {
		return nil
	}
	var out []*sitter.Node
	c := sitter.NewTreeCursor(n)
	defer c.Close()
	for {
		node := c.CurrentNode()
		if node.IsError() && node.ChildCount() > maxChildren {
			out = append(out, node)
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
