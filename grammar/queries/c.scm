; c: tree-sitter-c as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; A declarator can wrap the name in pointers and parentheses; the patterns
; below list the shapes real code uses instead of matching any identifier,
; so that parameters and function-pointer variables stay out.

; Types

; struct point { … };  — a struct without a body is only a use of the name
(struct_specifier
  name: (type_identifier) @name
  body: (_)) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (_)) @definition.union

(enum_specifier
  name: (type_identifier) @name
  body: (_)) @definition.enum

; typedef struct { … } point_t;  — the whole typedef, since it is the body
(type_definition
  type: [
    (struct_specifier !name body: (_))
    (union_specifier !name body: (_))
    (enum_specifier !name body: (_))
  ]
  declarator: (type_identifier) @name) @definition.type

; typedef struct node node_t, *node_p;  typedef PyObject *(*getter)(void *);
; Only the declarator is the definition, so that a named struct declared in
; the same typedef is its sibling, not its child.
(type_definition
  declarator: [
    (type_identifier) @name
    (pointer_declarator declarator: (type_identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (type_identifier) @name))
    (array_declarator declarator: (type_identifier) @name)
    (array_declarator declarator: (array_declarator declarator: (type_identifier) @name))
    (array_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
    (parenthesized_declarator (type_identifier) @name)
    (function_declarator declarator: (type_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (type_identifier) @name))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (pointer_declarator declarator: (type_identifier) @name))))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))))
  ] @definition.type)

; Functions

; int f(void) { … }  char **f(void) { … }  int (*f(void))(int) { … }
; int (f)(void) { … }  — parentheses keep a function-like macro out
(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (identifier) @name))
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
    (pointer_declarator declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (parenthesized_declarator (function_declarator declarator: (identifier) @name)))))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))))
  ]) @definition.function

; A prototype inside a function body declares nothing new for the outline.
(compound_statement
  (declaration
    declarator: [
    (function_declarator declarator: (identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (identifier) @name))
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
    (pointer_declarator declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (parenthesized_declarator (function_declarator declarator: (identifier) @name)))))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))))
  ]) @definition.function @skip)

; int add(int a, int b);  PyAPI_FUNC(PyObject *) Py_New(void);
(declaration
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (identifier) @name))
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
    (pointer_declarator declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (parenthesized_declarator (function_declarator declarator: (identifier) @name)))))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))))
  ]) @definition.function

; Macros

(preproc_def
  name: (identifier) @name) @definition.macro

(preproc_function_def
  name: (identifier) @name) @definition.macro
