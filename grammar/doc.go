// Package grammar owns zumba's languages: which files each one covers (by
// extension, file name or #! line), its tree-sitter language (bound by
// package grammar/langs, which outline imports), and the embedded query
// that marks its definitions.
//
// Every query lives in queries/<name>.scm. A query marks a whole declaration
// with @definition.<kind> (kind from [Kind]) and its identifier with @name.
// Helper captures shape the name: @scope qualifies it (a Go receiver,
// a C++ out-of-line class: "Scope.Name"), @trait names the trait of a Rust
// impl ("Trait for Type"), and @skip marks a match to ignore. @member puts
// an entry on the object literal it belongs to, and the entry is kept only
// when some match marks that literal @listed (JavaScript lists the members
// of literals bound to a name or returned by a function, not of every
// literal). A capture
// whose name starts with "_" (@_q) only feeds a predicate. A query whose
// first lines say "; inherits: parent" is appended to its parent's query.
package grammar
