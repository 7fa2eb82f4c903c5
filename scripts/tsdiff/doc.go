// Package tsdiff holds the differential check of zumba's TypeScript, TSX
// and JavaScript outlines against the TypeScript compiler's parser. It has
// no code of its own: tsdiff_test.go packs a few pinned npm packages,
// outlines their sources with zumba and with outline.js, and reports recall
// and precision (of line, kind and name) and nesting (the share of entries
// found by both that have the same parent); TestTSDiffExtents compares the
// extents read_symbol gives (PATH:LINE of each name) with the compiler's
// nodes. They are built only with the tsdiff build tag (so that `go test
// ./...` does not link a test binary holding every grammar only to skip
// both tests) and run only when ZUMBA_TSDIFF is set and node and npm are on
// PATH:
//
//	ZUMBA_TSDIFF=1 go test -tags tsdiff -run TestTSDiff -v ./scripts/tsdiff/
package tsdiff
