; python: tree-sitter-python as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217

(class_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function
