; ruby: tree-sitter-ruby as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217

; Types

(module
  name: [(constant) (scope_resolution)] @name) @definition.module

; class Widget < Base  /  class Outer::Nested::Deep
(class
  name: [(constant) (scope_resolution)] @name) @definition.class

; Functions

(method
  name: (_) @name) @definition.function

; def self.create — named self.create
(singleton_method
  object: (_) @scope
  name: (_) @name) @definition.function

; Constants

; VERSION = "1.0"  /  Outer::Thing = Struct.new(:a)
(assignment
  left: [(constant) (scope_resolution)] @name) @definition.const
