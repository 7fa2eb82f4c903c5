package local

// Types, constants and variables declared inside a function body cannot be
// named from outside it: only the package-level ones are listed.
func Compute() int {
	const limit = 10
	type pair struct{ a, b int }
	type reader interface{ Read() }
	var p pair
	return p.a + limit
}

var Global = 1

var (
	A, B = 1, 2
)

const Top = 3
