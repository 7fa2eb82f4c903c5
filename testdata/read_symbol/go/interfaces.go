package interfaces

import "io"

// Reader lists its methods nested under it.
type Reader interface {
	Read(p []byte) (n int, err error)
}

type ReadCloser interface {
	io.Reader // embedded: not a method of its own
	Reader
	Close() error
	Peek(
		n int,
	) ([]byte, error)
}

type Number interface {
	~int | ~int64 | ~float64
}

type Stringer[T any] interface {
	comparable
	String() string
	Parse(s string) (T, error)
}

type Any interface{}

// An interface literal in a signature is part of a type, not an entry.
func Use(x interface{ Method() }) {}

// An alias of an interface literal is a type; its methods are not listed.
type Alias = interface{ Hidden() }
