; kotlin: tree-sitter-kotlin as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217

; Types

; interface Shape { … }  and  enum class Color { … } are class_declarations
; told apart by their keyword; the first matching pattern wins.
(class_declaration
  "interface"
  (type_identifier) @name) @definition.interface

(class_declaration
  "enum"
  (type_identifier) @name) @definition.enum

(class_declaration
  (type_identifier) @name) @definition.class

; object Registry { … } — a singleton class
(object_declaration
  (type_identifier) @name) @definition.class

; companion object Factory { … } — an unnamed companion is left out and its
; members stay in the class.
(companion_object
  (type_identifier) @name) @definition.class

(type_alias
  (type_identifier) @name) @definition.type

; Functions

; object : Listener { override fun onEvent() { … } } — a member of an
; anonymous object is part of the code it is written in.
(object_literal
  (class_body
    (function_declaration
      (simple_identifier) @name) @definition.function @skip))

; fun String.shout(): String — named after its receiver, String.shout
(function_declaration
  [
    (user_type (type_identifier) @scope)
    (nullable_type (user_type (type_identifier) @scope))
  ]
  "."
  (simple_identifier) @name) @definition.function

(function_declaration
  (simple_identifier) @name) @definition.function

; Constants

; const val MAX = 10
(property_declaration
  (modifiers (property_modifier) @_m)
  (variable_declaration (simple_identifier) @name)
  (#eq? @_m "const")) @definition.const

; val DEFAULT_TIMEOUT = 30 at the top of a file
(source_file
  (property_declaration
    (binding_pattern_kind) @_k
    (variable_declaration (simple_identifier) @name)
    (#eq? @_k "val")) @definition.const)
