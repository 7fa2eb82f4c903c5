; csharp: tree-sitter-c-sharp as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217

; Types

(namespace_declaration
  name: (_) @name) @definition.namespace

; namespace Demo; — covers the rest of the file, but its node ends with the
; line, so what follows is not nested under it.
(file_scoped_namespace_declaration
  name: (_) @name) @definition.namespace

(class_declaration
  name: (identifier) @name) @definition.class

(struct_declaration
  name: (identifier) @name) @definition.struct

(interface_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

; record struct Pair(int A, int B);
(record_declaration
  "struct"
  name: (identifier) @name) @definition.struct

; record Person(string Name);  record class Person { … }
(record_declaration
  name: (identifier) @name) @definition.class

; delegate void Handler(object sender);
(delegate_declaration
  name: (identifier) @name) @definition.type

; Functions

(method_declaration
  name: (identifier) @name) @definition.function

(constructor_declaration
  name: (identifier) @name) @definition.function

; void Helper() { … } inside a method body
(local_function_statement
  name: (identifier) @name) @definition.function

; Constants

; public const int Max = 10, Min = 0;  — each declarator on its own
(field_declaration
  (modifier) @_m
  (variable_declaration
    (variable_declarator name: (identifier) @name) @definition.const)
  (#eq? @_m "const"))
