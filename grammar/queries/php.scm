; php: tree-sitter-php as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217

; Types

(namespace_definition
  name: (namespace_name) @name) @definition.namespace

(class_declaration
  name: (name) @name) @definition.class

(interface_declaration
  name: (name) @name) @definition.interface

(trait_declaration
  name: (name) @name) @definition.trait

(enum_declaration
  name: (name) @name) @definition.enum

; Functions

(function_definition
  name: (name) @name) @definition.function

; new class extends Handler { public function handle() … } — a method of an
; anonymous class is part of the code it is written in.
(object_creation_expression
  (declaration_list
    (method_declaration
      name: (name) @name) @definition.function @skip))

(method_declaration
  name: (name) @name) @definition.function

; Constants

; const VERSION = "1";  and class constants; each element on its own, so
; that in "const A = 1, B = 2;" B is not inside A.
(const_declaration
  (const_element (name) @name) @definition.const)
