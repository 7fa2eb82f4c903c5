package types

import "time"

type Celsius float64

type Handler func(w Writer, r *Request)

type Names []string

type Index map[string][]int

type Chan <-chan struct{}

type Duration = time.Duration

type (
	ID            int64
	Table         = map[ID]string
	Matrix[T any] [][]T
)

type Writer struct{}
type Request struct{}

type Ptr *Writer

// Generic aliases (Go 1.24) are types too.
type Set[T comparable] = map[T]struct{}
