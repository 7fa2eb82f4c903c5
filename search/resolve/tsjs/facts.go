package tsjs

// A file's facts, flat tables over the names it sees: imports, exports,
// declarations, expressions and sites. Expressions are symbolic (Expr);
// a local variable is replaced by what declared it, so that what is
// left refers to module-level names, declarations of the file, `this`
// of a class, or is unknown.

// Op is what an expression node does.
type Op uint8

// The operations of an expression node. A and B are node indexes (-1:
// none) unless said otherwise.
const (
	// OpUnknown: what the expression is cannot be known from the trees
	// (an unannotated parameter, any, a type parameter).
	OpUnknown Op = iota
	// OpBasic is a value of a type declared outside the project or
	// without members of interest (strings, numbers, arrays, literals):
	// decided, and a member of it is none of the project's.
	OpBasic
	// OpName is the module-level name Name (a declaration or an import
	// of the file), as a value or, with B 1, as a type.
	OpName
	// OpDecl is Decls[A]: a declaration inside a function, or an
	// anonymous object type; as a value or (B 1) as a type.
	OpDecl
	// OpThis is an instance of the class or interface Decls[A]
	// (`this`); OpSuper its base class's instance (`super`).
	OpThis
	OpSuper
	// OpMember is A.Name.
	OpMember
	// OpCall is the value calling A returns; OpNew the instance `new A`
	// makes.
	OpCall
	OpNew
	// OpUnion is A | B (and A & B, A ?? B, c ? A : B).
	OpUnion
	// OpFunc is a function type: A its result's type (-1: unknown), B
	// its first OpParam.
	OpFunc
	// OpParam is one parameter's type A of a function type; B the next.
	OpParam
	// OpArg is the type the function A declares for its parameter
	// number B (not a node) when called: a callback's parameters, an
	// object literal argument.
	OpArg
	// OpArgParam is the type of the parameter number B (not a node) of
	// the function type A: a callback's parameter.
	OpArgParam
	// OpAwait is the value A's promise resolves to.
	OpAwait
	// OpStatic is the class Decls[A] itself, as a value (its static
	// members).
	OpStatic
	// OpArrayOf is an array whose elements are A (T[], Array<T>).
	OpArrayOf
	// OpElem is an element of the array A (for … of, a[i]).
	OpElem
	// OpRequire is the module Imports[A] names (require('./x')).
	OpRequire
	opCount
)

// Expr is one node of a file's expression table.
type Expr struct {
	Op   Op
	A, B int32
	Name string
}

// DeclKind is what a declaration declares.
type DeclKind uint8

// The kinds of declarations.
const (
	DeclClass DeclKind = iota
	DeclInterface
	DeclFunction
	DeclVar
	DeclTypeAlias
	DeclEnum
	DeclNamespace
	// DeclMember is a member of the class or interface Parent: a
	// method, a property, an accessor (Type its type; a method's
	// OpFunc).
	DeclMember
	// DeclHeritage is an extends or implements clause of Parent: Type
	// the class or interface it names.
	DeclHeritage
	declKindCount
)

// Decl is one declaration: module-level (Parent -1, not Local), inside a
// function (Local), a member or heritage clause of Parent.
type Decl struct {
	Name string
	Kind DeclKind
	// Line is the line of its name (1-based; 0 for anonymous ones).
	Line   int32
	Parent int32
	// Type is the expression of its type (a class's or function's own
	// declarations: -1; a variable's: its declared type or its value).
	Type   int32
	Static bool
	Local  bool
}

// Import is one name an import binds: Local, from the module Spec,
// Name the name imported ("*" for a namespace import, "default").
type Import struct {
	Local, Spec, Name string
}

// Export is one name the module exports: Name, the module-level name
// Local of the file (Spec "") or the name Local of the module Spec
// ("*": its namespace). Name "*" re-exports every name of Spec.
type Export struct {
	Name, Local, Spec string
}

// SiteKind is what a site of a name is.
type SiteKind uint8

// The kinds of sites.
const (
	// SiteMember is X.Name: X's expression.
	SiteMember SiteKind = iota
	// SiteName is a bare use of the name X (its OpName or OpDecl).
	SiteName
	// SiteDecl declares Decls[X] (a member, a class, a function, a
	// variable).
	SiteDecl
	// SiteKey is a key of an object literal whose type is X (-1:
	// none known); a shorthand key is a SiteName too.
	SiteKey
	// SiteImport is the name imported by Imports[X]; SiteExport the
	// name Exports[X] exports from its module Spec.
	SiteImport
	SiteExport
)

// Site is one use or declaration of a name: where it starts (line and
// byte column, 1-based) and what it is a member of.
type Site struct {
	Line, Col int32
	Kind      SiteKind
	X         int32
	Name      string
}

// File is one file's facts.
type File struct {
	Imports []Import
	Exports []Export
	Decls   []Decl
	Exprs   []Expr
	// Sites are in source order (line, then column).
	Sites []Site
}
