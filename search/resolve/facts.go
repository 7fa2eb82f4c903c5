package resolve

import "github.com/zumba-dev/zumba/search/resolve/factrec"

// A Go file's facts: what the resolver needs of one file to decide, at
// query time and together with the facts of the packages it imports,
// which definition each use of a member name means. They are made from
// the file's syntax tree once (golang.go), kept as the index's record of
// the file (kind.go), and read back for the files a query needs.
//
// Expressions are kept symbolically, as a small table of nodes (Expr)
// over the names the file sees: a local variable is replaced by the
// expression it was declared with, so what is left refers only to
// package-level names (of the file's own package or an imported one),
// which the query resolves across files.

// Op is what an expression node does.
type Op uint8

// The operations of an expression node. A and B are node indexes (-1:
// none) unless said otherwise; Name is a name.
const (
	// OpUnknown is an expression whose type cannot be known from the
	// trees (an untyped parameter of a builtin, cgo): not resolved.
	OpUnknown Op = iota
	// OpTypeParam is a generic type parameter: not resolved.
	OpTypeParam
	// OpName is the package-level name Name: of the file's own package
	// when A is -1, else of the package File.Imports[A]; a name of the
	// universe (int, error, any) when the package has none.
	OpName
	// OpLocalType is File.Types[A]: a type declared inside a function, or
	// an anonymous struct or interface.
	OpLocalType
	// OpStar is *A: the pointer type of a type, the value a pointer
	// points to.
	OpStar
	// OpAddr is &A.
	OpAddr
	// OpSlice is []A and [N]A.
	OpSlice
	// OpMap is map[A]B.
	OpMap
	// OpChan is chan A.
	OpChan
	// OpFunc is a function type; A is its first OpResult (-1: none),
	// B its number of parameters (not a node).
	OpFunc
	// OpResult is one result type A of a function; B the next OpResult.
	OpResult
	// OpCall is the result numbered B (not a node) of calling A; a call
	// of a type is a conversion.
	OpCall
	// OpSel is A.Name: a field, a method value, a method expression.
	OpSel
	// OpIndex is A[i]: an element of a slice, array, map, pointer to
	// array, string; an instantiation of a generic function or type.
	OpIndex
	// OpElem is the type of the elements of the type A (a composite
	// literal's elided element type).
	OpElem
	// OpRangeKey and OpRangeVal are the iteration values of range A.
	OpRangeKey
	OpRangeVal
	// OpRecv is <-A.
	OpRecv
	// OpBasic is a value of a type without members (numbers, strings,
	// booleans): decided, and no member name refers to anything in it.
	OpBasic
	opCount
)

// Expr is one node of a file's expression table.
type Expr struct {
	Op   Op
	A, B int32
	Name string
}

// TypeKind is what a type declaration declares.
type TypeKind uint8

// The kinds of type declarations.
const (
	// TypeOther is a named type over another (Under): type Celsius
	// float64, type Handler func(...), type Set map[string]bool.
	TypeOther TypeKind = iota
	// TypeStruct and TypeInterface have their members in Members.
	TypeStruct
	TypeInterface
)

// Type is a type declaration: package-level (Name set, Local false) or
// inside a function, or an anonymous struct or interface (Local).
type Type struct {
	Name string
	// Line is the line of its name (1-based; 0 for an anonymous one).
	Line  int32
	Kind  TypeKind
	Local bool
	// Alias: type A = B.
	Alias bool
	// Under is the expression of the type it is declared over
	// (TypeOther, and aliases); -1 for structs and interfaces.
	Under int32
	// Members are a struct's fields and an interface's methods and
	// embedded interfaces.
	Members []Member
}

// Member is a field of a struct (Type the field's type), an embedded
// field (Embedded; Name the type's name), a method of an interface
// (Method; Type its OpFunc) or an interface embedded in one (Embedded).
type Member struct {
	Name     string
	Type     int32
	Line     int32
	Embedded bool
	Method   bool
}

// Func is a package-level function or a method (Recv set: the receiver
// type's name); Type is its OpFunc.
type Func struct {
	Name, Recv string
	Line       int32
	Type       int32
}

// Var is a package-level variable or constant and its type's expression.
type Var struct {
	Name string
	Type int32
}

// Import is one import: Name the name it is given ("" for the
// package's own, "." for a dot import, "_"), Path the import path.
type Import struct {
	Name, Path string
}

// SiteKind is what a site of a name is.
type SiteKind uint8

// The kinds of sites.
const (
	// SiteSel is X.Name, X the operand's expression.
	SiteSel SiteKind = iota
	// SitePkg is pkg.Name, X the index of the import pkg names.
	SitePkg
	// SiteKey is a key in a composite literal, X the literal's type:
	// a field of a struct, else an expression.
	SiteKey
	// SiteMember declares member Name of Types[X] (a field, an embedded
	// field, an interface's method).
	SiteMember
	// SiteMethod declares the method Funcs[X].
	SiteMethod
)

// Site is one use or declaration of a member name, or of a
// package-level name through its package: where its name starts (line
// and byte column, 1-based) and what it is a member of.
type Site struct {
	Line, Col int32
	Kind      SiteKind
	X         int32
	Name      string
}

// Local is a name bound inside a function (a variable, parameter,
// constant or type) and the lines its scope spans: a bare use of the
// name there is not the package-level name.
type Local struct {
	Name     string
	From, To int32
}

// File is one Go file's facts.
type File struct {
	Package string
	Imports []Import
	Types   []Type
	Funcs   []Func
	Vars    []Var
	Exprs   []Expr
	// Sites are in source order (line, then column).
	Sites  []Site
	Locals []Local
	// Dots lists the indexes of the dot imports.
	Dots []int32

	// A decoded file (Decode) keeps its sites and locals encoded, where
	// they lie in the record (tail; locals from localsAt), with the
	// record's strings: Sites and Locals are nil.
	tail            []byte
	strs            []string
	nsites, nlocals int
	localsAt        int
}

// SitesAt returns the sites on line, in column order.
func (f *File) SitesAt(line int32) []Site {
	var out []Site
	f.eachSite(-1, func(s Site) bool {
		if s.Line == line {
			out = append(out, s)
		}
		return s.Line <= line
	})
	return out
}

// EachSite calls fn with each site of name, in source order, until fn
// returns false.
func (f *File) EachSite(name string, fn func(Site) bool) {
	if f.tail == nil {
		for _, s := range f.Sites {
			if s.Name == name && !fn(s) {
				return
			}
		}
		return
	}
	id := f.strIndex(name)
	if id < 0 {
		return
	}
	f.eachSite(id, fn)
}

// strIndex is the index of s in a decoded file's strings; -1 when
// absent.
func (f *File) strIndex(s string) int {
	for i, x := range f.strs {
		if x == s {
			return i
		}
	}
	return -1
}

// eachSite calls fn with the sites whose name is string id (-1: all),
// in source order, until fn returns false.
func (f *File) eachSite(id int, fn func(Site) bool) {
	if f.tail == nil {
		for _, s := range f.Sites {
			if !fn(s) {
				return
			}
		}
		return
	}
	d := &factrec.Decoder{B: f.tail, Strs: f.strs}
	d.N()
	prev, xs := int32(0), [8]int32{}
	for range f.nsites {
		line := prev + int32(d.U())
		prev = line
		ck := d.U()
		col, kind := int32(ck>>3), SiteKind(ck&7)
		xs[kind] += d.Z()
		x := xs[kind]
		n := int(d.U())
		if d.Err != nil || n >= len(f.strs) {
			return
		}
		if id >= 0 && n != id {
			continue
		}
		if !fn(Site{Line: line, Col: col, Kind: kind, X: x, Name: f.strs[n]}) {
			return
		}
	}
}

// eachLocal calls fn with each local binding.
func (f *File) eachLocal(fn func(Local)) {
	if f.tail == nil {
		for _, l := range f.Locals {
			fn(l)
		}
		return
	}
	d := &factrec.Decoder{B: f.tail[f.localsAt:], Strs: f.strs}
	d.N()
	from := int32(0)
	for range f.nlocals {
		n := int(d.U())
		from += d.Z()
		to := from + int32(d.U())
		if d.Err != nil || n >= len(f.strs) {
			return
		}
		fn(Local{Name: f.strs[n], From: from, To: to})
	}
}

// LocalAt reports whether name is bound inside a function at line.
func (f *File) LocalAt(name string, line int32) bool {
	if f.tail == nil {
		for _, l := range f.Locals {
			if l.Name == name && l.From <= line && line <= l.To {
				return true
			}
		}
		return false
	}
	id := f.strIndex(name)
	if id < 0 {
		return false
	}
	d := &factrec.Decoder{B: f.tail[f.localsAt:], Strs: f.strs}
	d.N()
	from := int32(0)
	for range f.nlocals {
		n := int(d.U())
		from += d.Z()
		to := from + int32(d.U())
		if d.Err != nil {
			return false
		}
		if n == id && from <= line && line <= to {
			return true
		}
	}
	return false
}
