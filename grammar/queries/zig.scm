; zig: @tree-sitter-grammars/tree-sitter-zig 1.1.2 (grammar/langs/zig)

; Types

; const Point = struct { … } — a container is named by the const bound to
; it (extern and packed ones too), at any depth: a struct declared in a
; function or a test is listed where it is.
(variable_declaration
  (identifier) @name
  (struct_declaration)) @definition.struct

(variable_declaration
  (identifier) @name
  (enum_declaration)) @definition.enum

(variable_declaration
  (identifier) @name
  (union_declaration)) @definition.union

; opaque { … } has no fields, only declarations.
(variable_declaration
  (identifier) @name
  (opaque_declaration)) @definition.type

; const Error = error{ OutOfMemory, Overflow };
(variable_declaration
  (identifier) @name
  (error_set_declaration)) @definition.type

; pub fn ArrayList(comptime T: type) type { … return struct { … }; } — a
; function of types that returns a container is a generic container of its
; name, and the functions of the container it returns are its methods.
(function_declaration
  name: (identifier) @name
  type: (builtin_type "type")
  body: (block
    (expression_statement
      (return_expression (struct_declaration))))) @definition.struct

(function_declaration
  name: (identifier) @name
  type: (builtin_type "type")
  body: (block
    (expression_statement
      (return_expression (enum_declaration))))) @definition.enum

(function_declaration
  name: (identifier) @name
  type: (builtin_type "type")
  body: (block
    (expression_statement
      (return_expression (union_declaration))))) @definition.union

; Functions

(function_declaration
  name: (identifier) @name) @definition.function

; test "point add" { … } is named by its string, quotes included; a
; decltest (test Point { … }) and an unnamed test are left out.
(test_declaration
  (string) @name) @definition.function

; Constants

; pub const json = @import("json.zig"); — a module the file re-exports.
(variable_declaration
  "pub"
  "const"
  .
  (identifier) @name
  (builtin_function
    (builtin_identifier) @_b)
  (#eq? @_b "@import")) @definition.module

; pub const Allocator = mem.Allocator; — a re-export is listed; without
; pub, a const bound to a name, a dotted name or a builtin call
; (const mem = std.mem; const Self = @This();) is an import or an alias
; and is not.
(variable_declaration
  "pub"
  "const"
  .
  (identifier) @name
  [(identifier) (field_expression) (builtin_function)]) @definition.const

(variable_declaration
  "const"
  .
  (identifier) @name
  [(identifier) (field_expression) (builtin_function)]) @definition.const @skip

; Other consts of a file or a container; not those of a function's body.
(source_file
  (variable_declaration
    "const"
    .
    (identifier) @name) @definition.const)

(struct_declaration
  (variable_declaration
    "const"
    .
    (identifier) @name) @definition.const)

(enum_declaration
  (variable_declaration
    "const"
    .
    (identifier) @name) @definition.const)

(union_declaration
  (variable_declaration
    "const"
    .
    (identifier) @name) @definition.const)

(opaque_declaration
  (variable_declaration
    "const"
    .
    (identifier) @name) @definition.const)
