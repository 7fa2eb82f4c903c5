package resolve

// The facts are read from tree-sitter's trees: Go's grammar is linked
// where the resolver is.
import _ "github.com/zumba-dev/zumba/grammar/langs"
