; typescript: tree-sitter-typescript as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; tsx.scm inherits this file: the tsx grammar has the same node names plus
; the JSX ones. Methods and fields are matched inside a class_body or an
; interface_body; object type members are not entries. Members of an object
; literal are entries only when the literal is listed: bound to a name or
; returned by a named function, also through `satisfies` and `as` (the
; @member/@listed captures). Constants are matched only at top level:
; directly in the program or in the body of a namespace or ambient module,
; never inside functions; names bound to functions and classes are matched
; at any depth.

; Types

(class_declaration
  name: (type_identifier) @name) @definition.class

(abstract_class_declaration
  name: (type_identifier) @name) @definition.class

; export default class {}
(export_statement
  "default" @name
  value: (class)) @definition.class

; var CancelledError = class extends Error {}, at any depth
(variable_declarator
  name: (identifier) @name
  value: (class)) @definition.class

; let Named = class Inner {} is Named (the pattern above): its own name is
; skipped here, before the next pattern
(variable_declarator
  value: (class
    name: (type_identifier) @name @skip) @definition.class)

; module.exports = class Minipass extends Stream {}: a class expression
; with a name of its own is a class of that name, at any depth
(class
  name: (type_identifier) @name) @definition.class

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
  ]) @definition.function

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

; const handler = () => {} (also let and var: a name bound to a function),
; at any depth: inside a function it nests there
(variable_declarator
  name: (identifier) @name
  value: [
    (arrow_function)
    (function_expression)
    (generator_function)
  ]) @definition.function

; Object literals

; const api = { get(url) {}, post: async (url) => {} }, also with
; `satisfies T`, `as T` or `as const` after the literal: a literal bound to
; a name, at any depth, lists its methods, accessors and function-valued
; properties under the name, which is a const entry. Only a literal with at
; least one such member makes the entry, so data and configuration
; literals add nothing.
(variable_declarator
  name: (identifier) @name
  value: [
    (object
      [
        (method_definition)
        (pair
          value: [
            (arrow_function)
            (function_expression)
            (generator_function)
          ])
      ]) @listed
    (satisfies_expression
      (object
        [
          (method_definition)
          (pair
            value: [
              (arrow_function)
              (function_expression)
              (generator_function)
            ])
        ]) @listed)
    (as_expression
      (object
        [
          (method_definition)
          (pair
            value: [
              (arrow_function)
              (function_expression)
              (generator_function)
            ])
        ]) @listed)
    (satisfies_expression
      (as_expression
        (object
          [
            (method_definition)
            (pair
              value: [
                (arrow_function)
                (function_expression)
                (generator_function)
              ])
          ]) @listed))
  ]) @definition.const

; function createHistory() { return { push(path) {} } }: the literal a
; named function returns from its body (not from a nested block) lists its
; members under the function
(function_declaration
  body: (statement_block
    (return_statement
      [
        (object) @listed
        (satisfies_expression
          (object) @listed)
        (as_expression
          (object) @listed)
        (satisfies_expression
          (as_expression
            (object) @listed))
      ])))

(generator_function_declaration
  body: (statement_block
    (return_statement
      [
        (object) @listed
        (satisfies_expression
          (object) @listed)
        (as_expression
          (object) @listed)
        (satisfies_expression
          (as_expression
            (object) @listed))
      ])))

(export_statement
  "default"
  value: [
    (function_expression
      !name
      body: (statement_block
        (return_statement
          [
            (object) @listed
            (satisfies_expression
              (object) @listed)
            (as_expression
              (object) @listed)
            (satisfies_expression
              (as_expression
                (object) @listed))
          ])))
    (generator_function
      !name
      body: (statement_block
        (return_statement
          [
            (object) @listed
            (satisfies_expression
              (object) @listed)
            (as_expression
              (object) @listed)
            (satisfies_expression
              (as_expression
                (object) @listed))
          ])))
  ])

(class_body
  (method_definition
    body: (statement_block
      (return_statement
        [
          (object) @listed
          (satisfies_expression
            (object) @listed)
          (as_expression
            (object) @listed)
          (satisfies_expression
            (as_expression
              (object) @listed))
        ]))))

; const create = () => ({ push() {} }) and the same bound to a class field
(variable_declarator
  name: (identifier)
  value: [
    (arrow_function
      body: [
        (statement_block
          (return_statement
            [
              (object) @listed
              (satisfies_expression
                (object) @listed)
              (as_expression
                (object) @listed)
              (satisfies_expression
                (as_expression
                  (object) @listed))
            ]))
        (parenthesized_expression
          [
            (object) @listed
            (satisfies_expression
              (object) @listed)
            (as_expression
              (object) @listed)
            (satisfies_expression
              (as_expression
                (object) @listed))
          ])
        ; () => ({ push() {} }) as History
        (as_expression
          (parenthesized_expression
            (object) @listed))
        (satisfies_expression
          (parenthesized_expression
            (object) @listed))
      ])
    (function_expression
      body: (statement_block
        (return_statement
          [
            (object) @listed
            (satisfies_expression
              (object) @listed)
            (as_expression
              (object) @listed)
            (satisfies_expression
              (as_expression
                (object) @listed))
          ])))
    (generator_function
      body: (statement_block
        (return_statement
          [
            (object) @listed
            (satisfies_expression
              (object) @listed)
            (as_expression
              (object) @listed)
            (satisfies_expression
              (as_expression
                (object) @listed))
          ])))
  ])

(public_field_definition
  value: [
    (arrow_function
      body: [
        (statement_block
          (return_statement
            [
              (object) @listed
              (satisfies_expression
                (object) @listed)
              (as_expression
                (object) @listed)
              (satisfies_expression
                (as_expression
                  (object) @listed))
            ]))
        (parenthesized_expression
          [
            (object) @listed
            (satisfies_expression
              (object) @listed)
            (as_expression
              (object) @listed)
            (satisfies_expression
              (as_expression
                (object) @listed))
          ])
        ; () => ({ push() {} }) as History
        (as_expression
          (parenthesized_expression
            (object) @listed))
        (satisfies_expression
          (parenthesized_expression
            (object) @listed))
      ])
    (function_expression
      body: (statement_block
        (return_statement
          [
            (object) @listed
            (satisfies_expression
              (object) @listed)
            (as_expression
              (object) @listed)
            (satisfies_expression
              (as_expression
                (object) @listed))
          ])))
    (generator_function
      body: (statement_block
        (return_statement
          [
            (object) @listed
            (satisfies_expression
              (object) @listed)
            (as_expression
              (object) @listed)
            (satisfies_expression
              (as_expression
                (object) @listed))
          ])))
  ])

; the members of any literal, kept only when the literal is @listed
(object
  [
    (method_definition
      name: [
        (property_identifier) @name
        (computed_property_name) @name
        (number) @name
        (string
          (string_fragment) @name)
      ]) @definition.method
    (pair
      key: [
        (property_identifier) @name
        (computed_property_name) @name
        (number) @name
        (string
          (string_fragment) @name)
      ]
      value: [
        (arrow_function)
        (function_expression)
        (generator_function)
      ]) @definition.method
  ]) @member

; Constants

; Constants are entries only at top level: directly in the program, in a
; namespace or ambient module body (internal_module and module are the only
; nodes with a name, a body and no parameters), or in declare global.

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

; in the body of a namespace or ambient module (internal_module and
; module are the only nodes with a name, a body and no parameters; a
; wildcard here would start a match at every node of the file and cost
; half of the query's time)
(internal_module
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

(module
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
