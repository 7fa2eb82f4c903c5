// Package pyres resolves the uses of names in Python code: which
// definition (a module's function, class or variable, a class's method)
// each use means. Each file's facts are read from tree-sitter's tree
// once (walk.go) and kept as the index's record of the file (kind.go);
// at query time the facts of the modules a use reaches are resolved
// together (resolver.go): imports (absolute, relative, aliases, star
// imports and __init__ re-exports), module attributes, self and cls
// through the class hierarchy (its MRO), simple assignments, annotated
// types and functions' returns. What cannot be decided (an unannotated
// parameter, getattr, a name bound by exec) is Unresolved, never
// dropped.
package pyres

// Op is what an expression node does.
type Op uint8

// The operations of an expression node; A is a node index (-1: none)
// unless said otherwise.
const (
	// OpUnknown cannot be decided from the trees.
	OpUnknown Op = iota
	// OpOther is decided and holds no project definition: a literal, a
	// builtin's result.
	OpOther
	// OpName is the module-level name Name of the file's module (or a
	// builtin).
	OpName
	// OpModule is the module Name: absolute ("http.client") or relative
	// to the file's package (".events", "..", ".").
	OpModule
	// OpAttr is A.Name.
	OpAttr
	// OpCall is the result of calling A.
	OpCall
	// OpSelf is an instance of the file's class A (self).
	OpSelf
	// OpClass is the file's class A itself (cls).
	OpClass
	// OpInst is an instance of the type A (an annotation).
	OpInst
	// OpSuper is super() in the file's class A.
	OpSuper
	// OpThis is the file's own module.
	OpThis
	// OpUnion is A or B (a name bound in branches).
	OpUnion
	opCount
)

// Expr is one node of a file's expression table.
type Expr struct {
	Op   Op
	A, B int32
	Name string
}

// Class is a class statement at module level or in a class (Parent, the
// class holding it; -1 at module level). Classes inside functions are
// not kept.
type Class struct {
	Name      string
	Line, Col int32
	Parent    int32
	Bases     []int32
}

// Func flags.
const (
	FuncProperty uint8 = 1 << iota
	FuncStatic
	FuncClassMethod
)

// Func is a function at module level (Class -1) or a method of the
// file's class Class. Rets are the expressions of the value it returns:
// its annotation's instance, or each return statement's value.
type Func struct {
	Name      string
	Line, Col int32
	Class     int32
	Flags     uint8
	Rets      []int32
}

// Var is a name bound at module level (Class -1) or as an attribute of
// the class Class (in its body, or through self in a method), with the
// values it is bound to (at most maxVals).
type Var struct {
	Name  string
	Class int32
	Line  int32
	Vals  []int32
}

// maxVals bounds the values kept of a name or an attribute.
const maxVals = 4

// Binding kinds of a name bound in a function or class body (Local).
const (
	// LocalPlain is a variable or parameter: a use of it is none of a
	// module's names.
	LocalPlain uint8 = iota
	// LocalAlias is bound by an import: X is its value's expression.
	LocalAlias
	// LocalMember is a class body's name (a method, an attribute): X is
	// the class.
	LocalMember
)

// Local is a name bound inside a function or a class body and the lines
// its scope spans.
type Local struct {
	Name     string
	From, To int32
	Kind     uint8
	X        int32
}

// Site kinds.
const (
	// SiteAttr is X.Name (an attribute, a name imported from a module X).
	SiteAttr uint8 = iota
	// SiteName is the module-level name Name where the lexer does not
	// see it: an __all__ entry, a string annotation.
	SiteName
	// SiteImport is `from X import Name` at module level: a use of X's
	// Name, and a declaration of the module's own Name.
	SiteImport
)

// Site is a use of a name: where it starts (1-based line, byte column).
type Site struct {
	Line, Col int32
	Kind      uint8
	X         int32
	Name      string
}

// File is one Python file's facts.
type File struct {
	Classes []Class
	Funcs   []Func
	Vars    []Var
	Exprs   []Expr
	// Stars are the modules (OpModule expressions) of star imports.
	Stars []int32
	// Sites are in source order.
	Sites  []Site
	Locals []Local
}
