; typescript: tree-sitter-typescript as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217

(class_declaration
  name: (type_identifier) @name) @definition.class

(function_declaration
  name: (identifier) @name) @definition.function
