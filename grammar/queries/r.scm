; r: r-lib/tree-sitter-r 1.3.0 (58a22794), ABI 14

; Types

; setClass("Person", representation(…))  setRefClass("Account", …)
; R6::R6Class("Queue", public = list(…))  — the class's name is its first
; argument; the name it is assigned to is most often the same
(call
  function: [
    (identifier) @_f
    (namespace_operator rhs: (identifier) @_f)
  ]
  arguments: (arguments
    .
    (argument
      value: (string content: (string_content) @name)))
  (#match? @_f "^(setClass|setRefClass|R6Class)$")) @definition.class

; Functions

; name <- function(x) …  name = function(x) …  name <<- \(x) …
; "name" <- function(x) …  `%+%` <- function(a, b) …
(binary_operator
  lhs: [
    (identifier) @name
    (string content: (string_content) @name)
  ]
  operator: ["<-" "<<-" "=" ":="]
  rhs: [
    (function_definition)
    (parenthesized_expression body: (function_definition))
  ]) @definition.function

; function(x) … -> name  — R reads "function(x) x -> f" as a function
; whose body assigns, so only a function in parentheses is assigned
(binary_operator
  lhs: (parenthesized_expression body: (function_definition))
  operator: ["->" "->>"]
  rhs: [
    (identifier) @name
    (string content: (string_content) @name)
  ]) @definition.function

; setGeneric("greet", function(obj, ...) standardGeneric("greet"))
(call
  function: (identifier) @_f
  arguments: (arguments
    .
    (argument
      value: (string content: (string_content) @name)))
  (#eq? @_f "setGeneric")) @definition.function

; setMethod("greet", "Person", function(obj, ...) …)  as Person.greet
(call
  function: (identifier) @_f
  arguments: (arguments
    .
    (argument
      value: (string content: (string_content) @name))
    .
    (comma)
    .
    (argument
      value: (string content: (string_content) @scope)))
  (#eq? @_f "setMethod")) @definition.method

; R6Class("Queue", public = list(add = function(x) …))
; setRefClass("Account", methods = list(deposit = function(x) …))
(call
  function: [
    (identifier) @_f
    (namespace_operator rhs: (identifier) @_f)
  ]
  arguments: (arguments
    (argument
      value: (call
        function: (identifier) @_list
        arguments: (arguments
          (argument
            name: (identifier) @name
            value: (function_definition)) @definition.method))))
  (#match? @_f "^(setRefClass|R6Class)$")
  (#eq? @_list "list"))
