package consts

const Answer = 42

const Typed int64 = 7

const (
	KindA Kind = iota
	KindB
	KindC
	_
	KindE
)

// Several names in one spec share a line and are siblings.
const (
	X, Y = iota, 1 << iota
	Z, _
)

const a, b, c = 1, 2, 3

const _ = "blank"

type Kind int

const (
	// Documented is found on its own line.
	Documented = "doc"

	Last = "last" // trailing comment
)
