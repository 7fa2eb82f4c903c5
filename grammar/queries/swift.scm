; swift: tree-sitter-swift as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; The grammar gives class, struct, enum, actor and extension one node,
; class_declaration, told apart by its declaration_kind keyword. It also
; reuses the field "name" for return and aliased types, so names are
; pinned right after their keyword with an anchor.

; Types

(class_declaration
  declaration_kind: "class"
  name: (type_identifier) @name) @definition.class

(class_declaration
  declaration_kind: "actor"
  name: (type_identifier) @name) @definition.class

(class_declaration
  declaration_kind: "struct"
  name: (type_identifier) @name) @definition.struct

(class_declaration
  declaration_kind: "enum"
  name: (type_identifier) @name) @definition.enum

; extension Foo.Bar: Codable where T == Int   is named "Foo.Bar"
(class_declaration
  declaration_kind: "extension"
  name: (_) @name) @definition.extension

(protocol_declaration
  name: (type_identifier) @name) @definition.protocol

; typealias Handler = (Int) -> Void
(typealias_declaration
  "typealias"
  .
  name: (type_identifier) @name) @definition.type

; associatedtype Element   (a protocol's type requirement)
(associatedtype_declaration
  name: (type_identifier) @name) @definition.type

; Functions

; func run()    static func == (lhs: S, rhs: S) -> Bool   (an operator's
; name is an anonymous token, hence "_")
(function_declaration
  "func"
  .
  name: _ @name) @definition.function

; a protocol's requirement: func next() -> Element?
(protocol_function_declaration
  "func"
  .
  name: _ @name) @definition.function

; init    init?(coder:)    required init!()   also as protocol requirements
(init_declaration
  name: "init" @name) @definition.function

(deinit_declaration
  "deinit" @name) @definition.function

(subscript_declaration
  "subscript" @name) @definition.function

; @freestanding(expression) macro stringify<T>(_ value: T) -> (T, String) = …
(macro_declaration
  "macro"
  .
  (simple_identifier) @name) @definition.macro

; Constants

; Top-level let, one entry per name: let a = 1, b = 2    let (x, y) = …
; The entry spans the name's pattern, so names of one statement never nest
; in each other. Top-level var is a variable, not an entry. A let bound to
; a closure stays a const: any pattern naming lambda_literal takes this
; grammar's query compiler about a minute, and `let x = { … }()` (a value
; built by a closure) is the commoner shape anyway.
(source_file
  (property_declaration
    (value_binding_pattern
      mutability: "let")
    name: (pattern
      bound_identifier: (simple_identifier) @name) @definition.const))

(source_file
  (property_declaration
    (value_binding_pattern
      mutability: "let")
    name: (pattern
      (pattern
        (simple_identifier) @name @definition.const))))
