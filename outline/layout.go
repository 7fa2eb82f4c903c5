package outline

/*
#include "native.h"
*/
import "C"

import (
	"fmt"
	"reflect"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// This file holds every read of go-tree-sitter's private fields (a
// Node's TSNode, a Query's TSQuery, a Parser's cancellation flag) and the
// checks that keep them and the Go twins of the C records honest. The
// twins of C's records are checked by the compiler (the index
// expressions below fail to compile when an offset or size differs);
// go-tree-sitter's private fields cannot be, so init compares their
// names, offsets and sizes with the layouts written here, and
// TestPinnedTreeSitter fails on any go-tree-sitter but the one they were
// checked against.

// treeSitterModule and treeSitterVersion are the go-tree-sitter module
// whose private layouts this file reads, and whose api.h
// internal/tsapi holds.
const (
	treeSitterModule  = "github.com/smacker/go-tree-sitter"
	treeSitterVersion = "v0.0.0-20240827094217-dd81d9e9be82"
)

// tsNode is tree-sitter's TSNode, laid out as C's: go-tree-sitter's Node
// holds one as its first field. Its start byte and point are read from it
// without a call.
type tsNode struct {
	context  [4]uint32
	id, tree uintptr
}

func (n *tsNode) c() C.TSNode             { return *(*C.TSNode)(unsafe.Pointer(n)) }
func (n *tsNode) startByte() uint32       { return n.context[0] }
func (n *tsNode) startRow() uint32        { return n.context[1] }
func (n *tsNode) language() *C.TSLanguage { return C.zumba_language(n.c()) }

// parentEnd returns the end byte and the 1-based last line of n's parent.
func parentEnd(n *tsNode) (end uint32, line int, ok bool) {
	p := C.ts_node_parent(n.c())
	if C.ts_node_is_null(p) {
		return 0, 0, false
	}
	start, stop := C.ts_node_start_point(p), C.ts_node_end_point(p)
	return uint32(C.ts_node_end_byte(p)), int(lastRow(uint32(start.row), uint32(stop.row), uint32(stop.column))) + 1, true
}

// capRec is C's zRec: one node a match captured.
type capRec struct {
	n                       tsNode
	endByte, endRow, endCol uint32
	capture, match          uint32
	pattern, symbol         uint16
	// codeRow, codeEndRow, codeEndCol and codeSkipped are zumba_code_end's
	// answer for the node, when codeKnown.
	codeRow, codeEndRow, codeEndCol uint32
	codeKnown, codeSkipped          uint8
}

// sib is C's zSib.
type sib struct {
	n                       tsNode
	endByte, endRow, endCol uint32
	symbol                  uint16
	named, extra            uint8
}

// The Go twins of C's records: each index is 0, and compiles, only when
// the two fields (or records) have the same offset and size.
var (
	_ = [1]int{}[unsafe.Sizeof(tsNode{})^unsafe.Sizeof(C.TSNode{})]
	_ = [1]int{}[(unsafe.Offsetof(tsNode{}.context)^unsafe.Offsetof(C.TSNode{}.context))|(unsafe.Sizeof(tsNode{}.context)^unsafe.Sizeof(C.TSNode{}.context))]
	_ = [1]int{}[(unsafe.Offsetof(tsNode{}.id)^unsafe.Offsetof(C.TSNode{}.id))|(unsafe.Sizeof(tsNode{}.id)^unsafe.Sizeof(C.TSNode{}.id))]
	_ = [1]int{}[(unsafe.Offsetof(tsNode{}.tree)^unsafe.Offsetof(C.TSNode{}.tree))|(unsafe.Sizeof(tsNode{}.tree)^unsafe.Sizeof(C.TSNode{}.tree))]

	_ = [1]int{}[unsafe.Sizeof(capRec{})^unsafe.Sizeof(C.zRec{})]
	_ = [1]int{}[(unsafe.Offsetof(capRec{}.n)^unsafe.Offsetof(C.zRec{}.node))|(unsafe.Sizeof(capRec{}.n)^unsafe.Sizeof(C.zRec{}.node))]
	_ = [1]int{}[(unsafe.Offsetof(capRec{}.endByte)^unsafe.Offsetof(C.zRec{}.end_byte))|(unsafe.Sizeof(capRec{}.endByte)^unsafe.Sizeof(C.zRec{}.end_byte))]
	_ = [1]int{}[(unsafe.Offsetof(capRec{}.endRow)^unsafe.Offsetof(C.zRec{}.end_row))|(unsafe.Sizeof(capRec{}.endRow)^unsafe.Sizeof(C.zRec{}.end_row))]
	_ = [1]int{}[(unsafe.Offsetof(capRec{}.endCol)^unsafe.Offsetof(C.zRec{}.end_col))|(unsafe.Sizeof(capRec{}.endCol)^unsafe.Sizeof(C.zRec{}.end_col))]
	_ = [1]int{}[(unsafe.Offsetof(capRec{}.capture)^unsafe.Offsetof(C.zRec{}.capture))|(unsafe.Sizeof(capRec{}.capture)^unsafe.Sizeof(C.zRec{}.capture))]
	_ = [1]int{}[(unsafe.Offsetof(capRec{}.match)^unsafe.Offsetof(C.zRec{}.match))|(unsafe.Sizeof(capRec{}.match)^unsafe.Sizeof(C.zRec{}.match))]
	_ = [1]int{}[(unsafe.Offsetof(capRec{}.pattern)^unsafe.Offsetof(C.zRec{}.pattern))|(unsafe.Sizeof(capRec{}.pattern)^unsafe.Sizeof(C.zRec{}.pattern))]
	_ = [1]int{}[(unsafe.Offsetof(capRec{}.symbol)^unsafe.Offsetof(C.zRec{}.symbol))|(unsafe.Sizeof(capRec{}.symbol)^unsafe.Sizeof(C.zRec{}.symbol))]
	_ = [1]int{}[(unsafe.Offsetof(capRec{}.codeRow)^unsafe.Offsetof(C.zRec{}.code_row))|(unsafe.Sizeof(capRec{}.codeRow)^unsafe.Sizeof(C.zRec{}.code_row))]
	_ = [1]int{}[(unsafe.Offsetof(capRec{}.codeEndRow)^unsafe.Offsetof(C.zRec{}.code_end_row))|(unsafe.Sizeof(capRec{}.codeEndRow)^unsafe.Sizeof(C.zRec{}.code_end_row))]
	_ = [1]int{}[(unsafe.Offsetof(capRec{}.codeEndCol)^unsafe.Offsetof(C.zRec{}.code_end_col))|(unsafe.Sizeof(capRec{}.codeEndCol)^unsafe.Sizeof(C.zRec{}.code_end_col))]
	_ = [1]int{}[(unsafe.Offsetof(capRec{}.codeKnown)^unsafe.Offsetof(C.zRec{}.code_known))|(unsafe.Sizeof(capRec{}.codeKnown)^unsafe.Sizeof(C.zRec{}.code_known))]
	_ = [1]int{}[(unsafe.Offsetof(capRec{}.codeSkipped)^unsafe.Offsetof(C.zRec{}.code_skipped))|(unsafe.Sizeof(capRec{}.codeSkipped)^unsafe.Sizeof(C.zRec{}.code_skipped))]

	_ = [1]int{}[unsafe.Sizeof(sib{})^unsafe.Sizeof(C.zSib{})]
	_ = [1]int{}[(unsafe.Offsetof(sib{}.n)^unsafe.Offsetof(C.zSib{}.node))|(unsafe.Sizeof(sib{}.n)^unsafe.Sizeof(C.zSib{}.node))]
	_ = [1]int{}[(unsafe.Offsetof(sib{}.endByte)^unsafe.Offsetof(C.zSib{}.end_byte))|(unsafe.Sizeof(sib{}.endByte)^unsafe.Sizeof(C.zSib{}.end_byte))]
	_ = [1]int{}[(unsafe.Offsetof(sib{}.endRow)^unsafe.Offsetof(C.zSib{}.end_row))|(unsafe.Sizeof(sib{}.endRow)^unsafe.Sizeof(C.zSib{}.end_row))]
	_ = [1]int{}[(unsafe.Offsetof(sib{}.endCol)^unsafe.Offsetof(C.zSib{}.end_col))|(unsafe.Sizeof(sib{}.endCol)^unsafe.Sizeof(C.zSib{}.end_col))]
	_ = [1]int{}[(unsafe.Offsetof(sib{}.symbol)^unsafe.Offsetof(C.zSib{}.symbol))|(unsafe.Sizeof(sib{}.symbol)^unsafe.Sizeof(C.zSib{}.symbol))]
	_ = [1]int{}[(unsafe.Offsetof(sib{}.named)^unsafe.Offsetof(C.zSib{}.named))|(unsafe.Sizeof(sib{}.named)^unsafe.Sizeof(C.zSib{}.named))]
	_ = [1]int{}[(unsafe.Offsetof(sib{}.extra)^unsafe.Offsetof(C.zSib{}.extra))|(unsafe.Sizeof(sib{}.extra)^unsafe.Sizeof(C.zSib{}.extra))]
)

// nodeFields, queryFields and parserFields are go-tree-sitter's Node,
// Query and Parser as treeSitterVersion lays them out (bindings.go):
// init checks them against the real ones.
type nodeFields struct {
	c tsNode
	t unsafe.Pointer // *Tree
}

type queryFields struct {
	c        *C.TSQuery
	isClosed bool
}

type parserFields struct {
	isClosed bool
	c        unsafe.Pointer // *C.TSParser
	cancel   *uintptr       // the flag tree-sitter polls while it parses
}

// nodeOf is n's TSNode.
func nodeOf(n *sitter.Node) tsNode { return (*nodeFields)(unsafe.Pointer(n)).c }

// queryPtr is q's TSQuery.
func queryPtr(q *sitter.Query) *C.TSQuery { return (*queryFields)(unsafe.Pointer(q)).c }

// cancelFlag is the cancellation flag of p's parses.
func cancelFlag(p *sitter.Parser) *uintptr { return (*parserFields)(unsafe.Pointer(p)).cancel }

func init() {
	// Reading go-tree-sitter's values through other layouts than theirs
	// reads garbage: better no program at all.
	for _, pair := range [][2]reflect.Type{
		{reflect.TypeFor[sitter.Node](), reflect.TypeFor[nodeFields]()},
		{reflect.TypeFor[sitter.Query](), reflect.TypeFor[queryFields]()},
		{reflect.TypeFor[sitter.Parser](), reflect.TypeFor[parserFields]()},
	} {
		if err := sameLayout(pair[0], pair[1]); err != nil {
			panic(fmt.Sprintf("outline: go-tree-sitter is not laid out as %s %s was (see layout.go): %v", treeSitterModule, treeSitterVersion, err))
		}
	}
}

// sameLayout reports how theirs is not laid out as ours: the same fields
// by name, offset and size, in order, and the same inside the fields that
// are structs.
func sameLayout(theirs, ours reflect.Type) error {
	if theirs.Size() != ours.Size() {
		return fmt.Errorf("%s is %d bytes; want %d", theirs, theirs.Size(), ours.Size())
	}
	if theirs.Kind() != reflect.Struct || ours.Kind() != reflect.Struct {
		return nil
	}
	if theirs.NumField() != ours.NumField() {
		return fmt.Errorf("%s has %d fields; want %d", theirs, theirs.NumField(), ours.NumField())
	}
	for i := range ours.NumField() {
		t, o := theirs.Field(i), ours.Field(i)
		if t.Name != o.Name || t.Offset != o.Offset {
			return fmt.Errorf("%s's field %d is %s at %d; want %s at %d", theirs, i, t.Name, t.Offset, o.Name, o.Offset)
		}
		if err := sameLayout(t.Type, o.Type); err != nil {
			return fmt.Errorf("%s.%s: %w", theirs, t.Name, err)
		}
	}
	return nil
}
