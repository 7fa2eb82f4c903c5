; swift: tree-sitter-swift as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217

(function_declaration
  name: (simple_identifier) @name) @definition.function
