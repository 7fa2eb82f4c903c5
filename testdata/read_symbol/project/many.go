package many

type A struct{}

// String names A.
func (A) String() string { return "A" }

type B struct{}

// String names B.
func (B) String() string {
	return "B"
}

type C struct{}

func (C) String() string { return "C" }

type D struct{}

func (D) String() string { return "D" }

type E struct{}

func (*E) String() string { return "E" }
