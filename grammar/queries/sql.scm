; sql: tree-sitter-sql (DerekStride) as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; SPEC.md has no table kind: a table is a struct, a view or a type a type.
; A schema-qualified name keeps its schema: public.orders.

; Types

(create_table
  (object_reference
    schema: (identifier) @scope
    name: (identifier) @name)) @definition.struct

(create_table
  (object_reference
    name: (identifier) @name)) @definition.struct

(create_view
  (object_reference
    schema: (identifier) @scope
    name: (identifier) @name)) @definition.type

(create_view
  (object_reference
    name: (identifier) @name)) @definition.type

(create_materialized_view
  (object_reference
    name: (identifier) @name)) @definition.type

(create_type
  (object_reference
    name: (identifier) @name)) @definition.type

; Functions

(create_function
  (object_reference
    schema: (identifier) @scope
    name: (identifier) @name)) @definition.function

(create_function
  (object_reference
    name: (identifier) @name)) @definition.function
