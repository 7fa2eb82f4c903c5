; scala: tree-sitter-scala as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217

; Types

(class_definition
  name: (identifier) @name) @definition.class

; object Point { … } — a singleton class, often a class's companion
(object_definition
  name: (identifier) @name) @definition.class

; package object util { … }
(package_object
  name: (identifier) @name) @definition.module

(trait_definition
  name: (identifier) @name) @definition.trait

(enum_definition
  name: (identifier) @name) @definition.enum

; type Id = Int
(type_definition
  name: (type_identifier) @name) @definition.type

; Functions

; def area: Double = …  and  def area: Double (abstract)
(function_definition
  name: (_) @name) @definition.function

(function_declaration
  name: (_) @name) @definition.function
