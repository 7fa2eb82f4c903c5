// Package tsjs resolves the uses of TypeScript and JavaScript
// definitions: which class member, function, class or variable a use of
// a name means, for find_references of one definition (package search
// asks it through resolve.Lang).
//
// Each file's facts are read from tree-sitter's tree (facts.go,
// walk*.go): its imports and exports, its declarations (classes and
// interfaces with their heritage and members, functions, variables,
// type aliases), and at every member access, declaration, object
// literal key, import and export specifier and module-level name the
// symbolic expression of what it is a member of, locals replaced by
// what declared them. The index keeps them as a record (kind.go,
// encode.go). At query time the resolver (resolver.go, eval.go,
// classify.go) follows imports to the files they name (relative paths,
// index files, .js written for .ts), re-exports and `export *`, and
// evaluates the expressions to the classes and interfaces they are
// instances of; a use is the definition's when the member it selects is
// the definition, or one it overrides or implements, or an override of
// it (as tsserver's findReferences counts them), and not resolved when
// the operand's type cannot be known from the trees (an unannotated
// parameter, `any`, a type parameter, a computed member).
package tsjs
