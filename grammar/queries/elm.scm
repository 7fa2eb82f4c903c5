; elm: tree-sitter-elm as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217

; Types

; module Main exposing (…) — its node is the header line only, so the
; definitions below are not nested under it.
(module_declaration
  (upper_case_qid) @name) @definition.module

; type alias Model = { … }
(type_alias_declaration
  name: (upper_case_identifier) @name) @definition.type

; type Msg = Increment | Decrement — a union of variants, like a Rust enum
(type_declaration
  name: (upper_case_identifier) @name) @definition.enum

; Functions

; update msg model = …  /  init = …  (every top-level value is a function
; of its arguments, possibly none)
(value_declaration
  (function_declaration_left
    (lower_case_identifier) @name)) @definition.function

; port send : String -> Cmd msg
(port_annotation
  name: (lower_case_identifier) @name) @definition.function
