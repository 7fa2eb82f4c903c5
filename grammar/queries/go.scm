; go: tree-sitter-go as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; Only package-level declarations are listed: types and constants declared
; inside a function body cannot be named from outside it. The blank
; identifier `_` declares nothing one could look up, so it is never listed.

; Types

; type Set[T comparable] = map[T]struct{}
; This tree-sitter-go predates generic aliases (Go 1.24): it reads one as a
; type_spec holding an ERROR node, so the struct and interface patterns
; test the text for "Name[...] =". An alias is a type, whatever it aliases.

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name
      type: (struct_type)) @definition.struct)
  (#not-eq? @name "_")
  (#not-match? @definition.struct "^[^={\n]*\\]\\s*="))

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name
      type: (interface_type)) @definition.interface)
  (#not-eq? @name "_")
  (#not-match? @definition.interface "^[^={\n]*\\]\\s*="))

; type Celsius float64  /  type List[T any] []T
(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name) @definition.type)
  (#not-eq? @name "_"))

; type Alias = Other
(source_file
  (type_declaration
    (type_alias
      name: (type_identifier) @name) @definition.type)
  (#not-eq? @name "_"))

; The methods of a generic alias of an interface literal are not listed:
; type Aliased[T any] = interface{ M() T }
(source_file
  (type_declaration
    (type_spec
      type: (interface_type
        (method_elem
          name: (field_identifier) @name) @definition.method)) @skip)
  (#match? @skip "^[^={\n]*\\]\\s*="))

; type Reader interface { Read(p []byte) (int, error) }
; Only the methods of a named interface; interface literals elsewhere
; (parameters, fields, aliases) are part of a type expression.
(source_file
  (type_declaration
    (type_spec
      type: (interface_type
        (method_elem
          name: (field_identifier) @name) @definition.method)))
  (#not-eq? @name "_"))

; Functions

(function_declaration
  name: (identifier) @name
  (#not-eq? @name "_")) @definition.function

; A method is named Recv.Name whatever the receiver's spelling:
; func (s Server) Serve()   func (s *Server) Serve()   func (Server) Serve()
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @scope
        (pointer_type (type_identifier) @scope)
        (parenthesized_type (type_identifier) @scope)
        (parenthesized_type (pointer_type (type_identifier) @scope))
      ]))
  name: (field_identifier) @name
  (#not-eq? @name "_")) @definition.method

; func (l *List[T]) Push(v T)  is named List.Push
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (generic_type type: (type_identifier) @scope)
        (pointer_type (generic_type type: (type_identifier) @scope))
        (parenthesized_type (generic_type type: (type_identifier) @scope))
        (parenthesized_type (pointer_type (generic_type type: (type_identifier) @scope)))
      ]))
  name: (field_identifier) @name
  (#not-eq? @name "_")) @definition.method

; Constants

; const ( A, B = iota, 1 << iota; C )  lists A, B and C, each on its line.
; The names are the spec's only direct identifier children; the field form
; `name: (identifier)` would match only the first of several names.
(source_file
  (const_declaration
    (const_spec
      (identifier) @name) @definition.const)
  (#not-eq? @name "_"))
