; typescript: tree-sitter-typescript as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; tsx.scm inherits this file: the tsx grammar has the same node names plus
; the JSX ones. Object literal and object type members are not entries, so
; methods and fields are only matched inside a class_body or an
; interface_body. Constants are matched only at top level: directly in the
; program or in the body of a namespace or ambient module, never inside
; functions.

; Types

(class_declaration
  name: (type_identifier) @name) @definition.class

(abstract_class_declaration
  name: (type_identifier) @name) @definition.class

; export default class {}
(export_statement
  "default" @name
  value: (class) @definition.class)

(interface_declaration
  name: (type_identifier) @name) @definition.interface

(type_alias_declaration
  name: (type_identifier) @name) @definition.type

; enum Color {} and const enum Color {}
(enum_declaration
  name: (identifier) @name) @definition.enum

; namespace A {}, namespace A.B {}, module A {}
(internal_module
  name: [
    (identifier)
    (nested_identifier)
  ] @name) @definition.namespace

(module
  name: [
    (identifier)
    (nested_identifier)
  ] @name) @definition.namespace

; declare module "express" {}
(module
  name: (string
    (string_fragment) @name)) @definition.module

; declare global {}
(ambient_declaration
  "global" @name) @definition.module

; global {} inside declare module "x" {}: the grammar reads it as the
; statement `global` (with a missing semicolon), or as an error when it is
; the module's first statement, followed by a block
(module
  body: (statement_block
    [
      (expression_statement
        (identifier) @name)
      (ERROR
        .
        (identifier) @name
        .)
    ]
    .
    (statement_block) @definition.module
    (#eq? @name "global")))

; Functions

(function_declaration
  name: (identifier) @name) @definition.function

(generator_function_declaration
  name: (identifier) @name) @definition.function

; an overload signature, or declare function f(): void
(function_signature
  name: (identifier) @name) @definition.function

; export default function () {} / export default function* () {}
(export_statement
  "default" @name
  value: [
    (function_expression
      !name)
    (generator_function
      !name)
  ] @definition.function)

; methods, accessors, constructors, abstract methods and overload
; signatures of methods
(class_body
  [
    (method_definition
      name: [
        (property_identifier)
        (private_property_identifier)
        (computed_property_name)
        (number)
      ] @name)
    (method_signature
      name: [
        (property_identifier)
        (private_property_identifier)
        (computed_property_name)
        (number)
      ] @name)
    (abstract_method_signature
      name: [
        (property_identifier)
        (private_property_identifier)
        (computed_property_name)
        (number)
      ] @name)
  ] @definition.method)

; class A { 'quoted name'() {} }
(class_body
  [
    (method_definition
      name: (string
        (string_fragment) @name))
    (method_signature
      name: (string
        (string_fragment) @name))
    (abstract_method_signature
      name: (string
        (string_fragment) @name))
  ] @definition.method)

; class A { handler = (e: Event) => {}; #run = function () {} }
(class_body
  (public_field_definition
    name: [
      (property_identifier)
      (private_property_identifier)
      (computed_property_name)
      (number)
    ] @name
    value: [
      (arrow_function)
      (function_expression)
      (generator_function)
    ]) @definition.method)

(class_body
  (public_field_definition
    name: (string
      (string_fragment) @name)
    value: [
      (arrow_function)
      (function_expression)
      (generator_function)
    ]) @definition.method)

; interface I { run(): void }
(interface_body
  (method_signature
    name: [
      (property_identifier)
      (private_property_identifier)
      (computed_property_name)
      (number)
    ] @name) @definition.method)

(interface_body
  (method_signature
    name: (string
      (string_fragment) @name)) @definition.method)

; Names bound to functions and constants are entries only at top level:
; directly in the program, in a namespace or ambient module body
; (internal_module and module are the only nodes with a name, a body and no
; parameters), or in declare global.

; const handler = () => {} (also let and var: a name bound to a function)
(program
  [
    (lexical_declaration
      (variable_declarator
        name: (identifier) @name
        value: [
          (arrow_function)
          (function_expression)
          (generator_function)
        ]) @definition.function)
    (variable_declaration
      (variable_declarator
        name: (identifier) @name
        value: [
          (arrow_function)
          (function_expression)
          (generator_function)
        ]) @definition.function)
    (export_statement
      declaration: [
        (lexical_declaration
          (variable_declarator
            name: (identifier) @name
            value: [
              (arrow_function)
              (function_expression)
              (generator_function)
            ]) @definition.function)
        (variable_declaration
          (variable_declarator
            name: (identifier) @name
            value: [
              (arrow_function)
              (function_expression)
              (generator_function)
            ]) @definition.function)
      ])
  ])

; the same when an error swallowed the whole file, so that the root is
; an ERROR node
(ERROR
  [
    (lexical_declaration
      (variable_declarator
        name: (identifier) @name
        value: [
          (arrow_function)
          (function_expression)
          (generator_function)
        ]) @definition.function)
    (variable_declaration
      (variable_declarator
        name: (identifier) @name
        value: [
          (arrow_function)
          (function_expression)
          (generator_function)
        ]) @definition.function)
    (export_statement
      declaration: [
        (lexical_declaration
          (variable_declarator
            name: (identifier) @name
            value: [
              (arrow_function)
              (function_expression)
              (generator_function)
            ]) @definition.function)
        (variable_declaration
          (variable_declarator
            name: (identifier) @name
            value: [
              (arrow_function)
              (function_expression)
              (generator_function)
            ]) @definition.function)
      ])
  ])

; in the body of a namespace or ambient module
(_
  name: (_)
  !parameters
  body: (statement_block
    [
      (lexical_declaration
        (variable_declarator
          name: (identifier) @name
          value: [
            (arrow_function)
            (function_expression)
            (generator_function)
          ]) @definition.function)
      (variable_declaration
        (variable_declarator
          name: (identifier) @name
          value: [
            (arrow_function)
            (function_expression)
            (generator_function)
          ]) @definition.function)
      (export_statement
        declaration: [
          (lexical_declaration
            (variable_declarator
              name: (identifier) @name
              value: [
                (arrow_function)
                (function_expression)
                (generator_function)
              ]) @definition.function)
          (variable_declaration
            (variable_declarator
              name: (identifier) @name
              value: [
                (arrow_function)
                (function_expression)
                (generator_function)
              ]) @definition.function)
        ])
    ]))

; in declare global {}
(ambient_declaration
  (statement_block
    [
      (lexical_declaration
        (variable_declarator
          name: (identifier) @name
          value: [
            (arrow_function)
            (function_expression)
            (generator_function)
          ]) @definition.function)
      (variable_declaration
        (variable_declarator
          name: (identifier) @name
          value: [
            (arrow_function)
            (function_expression)
            (generator_function)
          ]) @definition.function)
    ]))

; Constants

; const fs = require("fs") and const x = require("x").y are imports, not
; constants (this pattern comes first, so it wins over the next ones)
(variable_declarator
  name: (identifier) @name
  value: [
    (call_expression
      function: (identifier) @skip
      arguments: (arguments
        .
        (string)
        .))
    (member_expression
      object: (call_expression
        function: (identifier) @skip
        arguments: (arguments
          .
          (string)
          .)))
  ]
  (#eq? @skip "require")) @definition.const

; const LIMIT = 10, declare const VERSION: string (destructuring patterns
; are not entries)
(program
  [
    (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name) @definition.const)
    (ambient_declaration
      (lexical_declaration
        kind: "const"
        (variable_declarator
          name: (identifier) @name) @definition.const))
    (export_statement
      declaration: [
        (lexical_declaration
          kind: "const"
          (variable_declarator
            name: (identifier) @name) @definition.const)
        (ambient_declaration
          (lexical_declaration
            kind: "const"
            (variable_declarator
              name: (identifier) @name) @definition.const))
      ])
  ])

; the same when an error swallowed the whole file, so that the root is
; an ERROR node
(ERROR
  [
    (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name) @definition.const)
    (ambient_declaration
      (lexical_declaration
        kind: "const"
        (variable_declarator
          name: (identifier) @name) @definition.const))
    (export_statement
      declaration: [
        (lexical_declaration
          kind: "const"
          (variable_declarator
            name: (identifier) @name) @definition.const)
        (ambient_declaration
          (lexical_declaration
            kind: "const"
            (variable_declarator
              name: (identifier) @name) @definition.const))
      ])
  ])

; in the body of a namespace or ambient module
(_
  name: (_)
  !parameters
  body: (statement_block
    [
      (lexical_declaration
        kind: "const"
        (variable_declarator
          name: (identifier) @name) @definition.const)
      (ambient_declaration
        (lexical_declaration
          kind: "const"
          (variable_declarator
            name: (identifier) @name) @definition.const))
      (export_statement
        declaration: [
          (lexical_declaration
            kind: "const"
            (variable_declarator
              name: (identifier) @name) @definition.const)
          (ambient_declaration
            (lexical_declaration
              kind: "const"
              (variable_declarator
                name: (identifier) @name) @definition.const))
        ])
    ]))

; in declare global {}
(ambient_declaration
  (statement_block
    [
      (lexical_declaration
        kind: "const"
        (variable_declarator
          name: (identifier) @name) @definition.const)
      (export_statement
        declaration: (lexical_declaration
          kind: "const"
          (variable_declarator
            name: (identifier) @name) @definition.const))
    ]))
