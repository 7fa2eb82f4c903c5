package structs

type Point struct {
	X, Y int
}

type (
	Rect struct {
		Min, Max Point
	}
	Pair[K comparable, V any] struct {
		Key K
		Val V
	}
)

// Fields are not entries; an interface literal in a field lists nothing.
type Conn struct {
	Point
	r interface {
		Read(p []byte) (int, error)
	}
	handle func()
}

type Empty struct{}
