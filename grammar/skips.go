package grammar

// Skips are node types that hold most of a language's syntax trees and few
// or no definitions, which outline's search of a tree may leave out: they
// make the difference between searching every node of a file and
// searching the few that may hold a definition.
type Skips struct {
	// Scan is how the text of a Scanned node is read for a place where a
	// definition may start.
	Scan BlockScan
	// Scanned are node types searched only when Scan finds such a place in
	// their text (or the node has syntax errors).
	Scanned []string
	// Inert are node types no query pattern starts below: they are
	// searched at, never inside (unless they have syntax errors).
	Inert []string
}

// BlockScan names a scan of a node's text for a place where a definition
// may start; outline implements each, reading comments and strings as code
// so that a node is searched when in doubt.
type BlockScan int

const (
	// NoScan: no node is left out for its text.
	NoScan BlockScan = iota
	// CScan finds a preprocessor line, a typedef, or struct, union or enum
	// followed by "{" past names, comments and attributes. It holds for
	// every node listed, even one a pattern starts at.
	CScan
	// JSScan finds a declaration keyword (class, function, interface,
	// enum, export, require; type, namespace, module, global or declare
	// before a name), a name bound to a function, or an object literal
	// bound to a name or returned. A node a pattern starts at is always
	// searched.
	JSScan
)

// cSkips: in C, function bodies, initializers, struct bodies and
// argument lists are most of a file's nodes, and the only definitions
// they can hold start with a word CScan looks for.
var cSkips = Skips{
	Scan: CScan,
	Scanned: []string{
		"compound_statement", "initializer_list", "field_declaration_list", "enumerator_list", "parameter_list", "argument_list",
	},
}

// tsSkips: TypeScript's blocks (function bodies above all) are most of a
// file's nodes, and the definitions they may hold start with words or
// signs JSScan looks for. So are parameter and argument lists, which hold
// definitions only inside the functions, classes and objects of their
// expressions (default values, callbacks), whose text the scan reads as a
// block's. Its types hold no node a pattern starts at (an object type's
// members are not entries; an interface's body is a node type of its
// own), nor do imports, export lists and strings, and they are a good part
// of a file's nodes.
var tsSkips = Skips{
	Scan:    JSScan,
	Scanned: []string{"statement_block", "formal_parameters", "arguments"},
	Inert: []string{
		"import_statement", "export_clause", "string", "regex",
		"type_annotation", "opting_type_annotation", "omitting_type_annotation", "adding_type_annotation",
		"type_arguments", "type_parameters", "union_type", "intersection_type", "function_type",
		"constructor_type", "generic_type", "conditional_type", "lookup_type", "index_type_query",
		"mapped_type_clause", "tuple_type", "array_type", "readonly_type", "literal_type",
		"parenthesized_type", "type_predicate", "type_predicate_annotation", "asserts",
		"asserts_annotation", "template_literal_type", "infer_type", "type_query", "object_type",
		"optional_type", "rest_type",
	},
}

// Bodyless node types: a function or method declared without its body.
var (
	// cBodyless: C and C++ prototypes (a declaration, or a field
	// declaration in a class body).
	cBodyless = []string{"declaration", "field_declaration"}
	// tsBodyless: TypeScript's overload and interface signatures.
	tsBodyless = []string{"function_signature", "method_signature", "abstract_method_signature"}
)
