; ocaml: tree-sitter-ocaml as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217

; Types

(type_binding
  name: (type_constructor) @name) @definition.type

(module_binding
  name: (module_name) @name) @definition.module

; module type SHAPE = sig … end — a signature, what a module must provide
(module_type_definition
  name: (module_type_name) @name) @definition.interface

(class_binding
  name: (class_name) @name) @definition.class

(method_definition
  name: (method_name) @name) @definition.method

; exception Not_ready of string
(exception_definition
  (constructor_declaration
    (constructor_name) @name)) @definition.type

; Functions

; let add a b = …  /  let f = fun x -> …  /  let rec fact n = …
(let_binding
  pattern: (value_name) @name
  (parameter)) @definition.function

(let_binding
  pattern: (value_name) @name
  body: [(fun_expression) (function_expression)]) @definition.function

; Constants

; let max_items = 100 at the top of a file or module (not inside a function)
(compilation_unit
  (value_definition
    (let_binding
      pattern: (value_name) @name) @definition.const))

(structure
  (value_definition
    (let_binding
      pattern: (value_name) @name) @definition.const))

; val area : float -> float  /  val name : string  in a signature
(signature
  (value_specification
    (value_name) @name
    (function_type)) @definition.function)

(signature
  (value_specification
    (value_name) @name) @definition.const)
