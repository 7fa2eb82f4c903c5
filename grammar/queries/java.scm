; java: tree-sitter-java as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217

; Types

(class_declaration
  name: (identifier) @name) @definition.class

; record Point(int x, int y) { … } — a class with its fields in its header
(record_declaration
  name: (identifier) @name) @definition.class

(interface_declaration
  name: (identifier) @name) @definition.interface

; @interface Marker { … }
(annotation_type_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

; Functions

; new Object() { public String toString() { … } } — a method of an anonymous
; class, nested under the variable that holds the class (see Constants) or
; else under the method or class it is written in.
(object_creation_expression
  (class_body
    (method_declaration
      name: (identifier) @name) @definition.method))

(method_declaration
  name: (identifier) @name) @definition.function

(constructor_declaration
  name: (identifier) @name) @definition.function

; record Point(int x, int y) { Point { … } }
(compact_constructor_declaration
  name: (identifier) @name) @definition.function

; @interface Marker { String value() default ""; }
(annotation_type_element_declaration
  name: (identifier) @name) @definition.function

; Constants

; static final int MAX = 10, MIN = 0;  (in any order with other modifiers)
; Each declarator is its own definition, so that MIN is not inside MAX.
(field_declaration
  (modifiers "static" "final")
  declarator: (variable_declarator name: (identifier) @name) @definition.const)

(field_declaration
  (modifiers "final" "static")
  declarator: (variable_declarator name: (identifier) @name) @definition.const)

; int MAX = 10; in an interface is static and final
(constant_declaration
  declarator: (variable_declarator name: (identifier) @name) @definition.const)

; Comparator<T> BY_NAME = new Comparator<>() { public int compare(…) { … } };
; A field or local variable holding an anonymous class with methods is a
; class of that name, as `const C = class { … }` is in JavaScript; a static
; final field stays a constant (the patterns above come first), with the
; methods nested under it either way.
(variable_declarator
  name: (identifier) @name
  value: (object_creation_expression
    (class_body
      (method_declaration)))) @definition.class
