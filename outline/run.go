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
	"sync/atomic"
	"time"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

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
