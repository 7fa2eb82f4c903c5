; rust: tree-sitter-rust as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217

; Types

(struct_item
  name: (type_identifier) @name) @definition.struct

(enum_item
  name: (type_identifier) @name) @definition.enum

(trait_item
  name: (type_identifier) @name) @definition.trait

; Functions

(function_item
  name: (identifier) @name) @definition.function
