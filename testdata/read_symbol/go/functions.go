// Package functions pins plain and generic functions.
package functions

import "fmt"

// Run is documented; the line is the name's, not the comment's.
func Run() {}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// A closure bound to a variable is a variable, not an outline entry.
var handler = func() {}

func main() {
	inner := func() { fmt.Println("closure") }
	inner()
}

//go:noescape
func memmove(to, from uintptr, n uintptr)

func init() {}

// The blank function declares nothing one could look up.
func _() {
	var x [1]struct{}
	_ = x[0]
}

func Split(
	s string,
) []string {
	return nil
}
