; go: tree-sitter-go as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217

; Types

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name
      type: (struct_type)) @definition.struct))

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name
      type: (interface_type)) @definition.interface))

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name) @definition.type))

(source_file
  (type_declaration
    (type_alias
      name: (type_identifier) @name) @definition.type))

; interface { Read(p []byte) (int, error) }
(interface_type
  (method_elem
    name: (field_identifier) @name) @definition.method)

; Functions

(function_declaration
  name: (identifier) @name) @definition.function

; func (s *Server) Serve()  /  func (l List[T]) Push(v T)
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @scope
        (pointer_type (type_identifier) @scope)
        (generic_type type: (type_identifier) @scope)
        (pointer_type (generic_type type: (type_identifier) @scope))
      ]))
  name: (field_identifier) @name) @definition.method

; Constants

(source_file
  (const_declaration
    (const_spec
      name: (identifier) @name) @definition.const))
