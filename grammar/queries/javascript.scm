; javascript: tree-sitter-javascript as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; Methods and fields are matched inside a class_body. Members of an object
; literal are entries only when the literal is listed: bound to a name,
; assigned to module.exports, or returned by a named function (the
; @member/@listed captures). Constants are matched only where they are top
; level (directly in the program), never inside functions; names bound to
; functions and classes are matched at any depth.

; Types

(class_declaration
  name: (identifier) @name) @definition.class

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
    name: (identifier) @name @skip) @definition.class)

; module.exports = class Minipass extends Stream {}: a class expression
; with a name of its own is a class of that name, at any depth
(class
  name: (identifier) @name) @definition.class

; Functions

(function_declaration
  name: (identifier) @name) @definition.function

(generator_function_declaration
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

(class_body
  (method_definition
    name: [
      (property_identifier)
      (private_property_identifier)
      (computed_property_name)
      (number)
    ] @name) @definition.method)

; class A { 'quoted name'() {} }
(class_body
  (method_definition
    name: (string
      (string_fragment) @name)) @definition.method)

; class A { handler = (e) => {}; #run = function () {} }
(class_body
  (field_definition
    property: [
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
  (field_definition
    property: (string
      (string_fragment) @name)
    value: [
      (arrow_function)
      (function_expression)
      (generator_function)
    ]) @definition.method)

; const handler = () => {} (also let and var: a name bound to a function),
; at any depth: inside a function it nests there
(variable_declarator
  name: (identifier) @name
  value: [
    (arrow_function)
    (function_expression)
    (generator_function)
  ]) @definition.function

; CommonJS: exports.run = function () {} / module.exports.run = () => {}
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        property: (property_identifier) @name)
      right: [
        (arrow_function)
        (function_expression)
        (generator_function)
      ]) @definition.function
    (#match? @definition.function "^(module[ \t]*\\.[ \t]*)?exports[ \t]*\\.[ \t]*[A-Za-z_$][A-Za-z0-9_$]*[ \t]*=")))

; Server.prototype.listen = function () {}: a method, named like a Go
; method, where it is declared
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (member_expression
          object: (identifier) @scope
          property: (property_identifier))
        property: (property_identifier) @name)
      right: [
        (arrow_function)
        (function_expression)
        (generator_function)
      ]) @definition.method
    (#match? @definition.method "^[A-Za-z_$][A-Za-z0-9_$]*[ \t]*\\.[ \t]*prototype[ \t]*\\.")))

; res.send = function send() {}: a function named res.send (after the
; CommonJS pattern, which names exports.run plain run; module.exports =
; function () {} is a default export without a name)
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (identifier) @scope
        property: (property_identifier) @name)
      right: [
        (arrow_function)
        (function_expression)
        (generator_function)
      ]) @definition.function
    (#not-eq? @scope "module")))

; Object literals

; const api = { get(url) {}, post: async (url) => {} }: a literal bound to
; a name, at any depth, lists its methods, accessors and function-valued
; properties under the name, which is a const entry. Only a literal with at
; least one such member makes the entry, so data and configuration
; literals add nothing.
(variable_declarator
  name: (identifier) @name
  value: (object
    [
      (method_definition)
      (pair
        value: [
          (arrow_function)
          (function_expression)
          (generator_function)
        ])
    ]) @listed) @definition.const

; module.exports = { parse() {} }: a module named module.exports
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (identifier) @_module
        property: (property_identifier) @_exports) @name
      right: (object
        [
          (method_definition)
          (pair
            value: [
              (arrow_function)
              (function_expression)
              (generator_function)
            ])
        ]) @listed) @definition.module
    (#eq? @_module "module")
    (#eq? @_exports "exports")))

; function createHistory() { return { push(path) {} } }: the literal a
; named function returns from its body (not from a nested block) lists its
; members under the function
(function_declaration
  body: (statement_block
    (return_statement
      (object) @listed)))

(generator_function_declaration
  body: (statement_block
    (return_statement
      (object) @listed)))

(export_statement
  "default"
  value: [
    (function_expression
      !name
      body: (statement_block
        (return_statement
          (object) @listed)))
    (generator_function
      !name
      body: (statement_block
        (return_statement
          (object) @listed)))
  ])

(class_body
  (method_definition
    body: (statement_block
      (return_statement
        (object) @listed))))

; const create = () => ({ push() {} }) and the same bound to a class field
([
  (variable_declarator
    name: (identifier)
    value: [
      (arrow_function
        body: [
          (statement_block
            (return_statement
              (object) @listed))
          (parenthesized_expression
            (object) @listed)
        ])
      (function_expression
        body: (statement_block
          (return_statement
            (object) @listed)))
      (generator_function
        body: (statement_block
          (return_statement
            (object) @listed)))
    ])
  (field_definition
    value: [
      (arrow_function
        body: [
          (statement_block
            (return_statement
              (object) @listed))
          (parenthesized_expression
            (object) @listed)
        ])
      (function_expression
        body: (statement_block
          (return_statement
            (object) @listed)))
      (generator_function
        body: (statement_block
          (return_statement
            (object) @listed)))
    ])
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

; const LIMIT = 10 (destructuring patterns are not entries)
(program
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
  ])
