; erlang: WhatsApp/tree-sitter-erlang 9b577111, ABI 14
;
; Each clause of a function is a form of its own; the registry row's
; Clauses joins a function's consecutive clauses into one entry, named
; with its arity by grammar's erlangName ("area/2").

; Types

; -module(shapes).  — holds the forms after it (@section)
(module_attribute
  name: (atom) @name) @definition.module @section

; -record(circle, {radius = 1.0 :: float()}).
(record_decl
  name: (atom) @name) @definition.struct

; -type shape() :: …  -opaque handle() :: …  -nominal id() :: …
(type_alias
  name: (type_name
    name: (atom) @name)) @definition.type

(opaque
  name: (type_name
    name: (atom) @name)) @definition.type

(nominal
  name: (type_name
    name: (atom) @name)) @definition.type

; Functions

; area(#circle{radius = R}) -> …;  — a clause
(fun_decl
  clause: (function_clause
    name: (atom) @name)) @definition.function

; Macros

; -define(PI, 3.14159).  -define(SQUARE(X), ((X) * (X))).
(pp_define
  lhs: (macro_lhs
    name: (_) @name)) @definition.macro
