; julia: tree-sitter-julia 0.23.1 (grammar/langs/julia)

; Types

; module Shapes … end and baremodule: their contents nest in them.
(module_definition
  name: (identifier) @name) @definition.module

; struct Circle <: Shape, mutable struct Counter{T}: named without their
; parameters and supertype.
(struct_definition
  (type_head
    [
      (identifier) @name
      (parametrized_type_expression . (identifier) @name)
      (binary_expression . (identifier) @name)
      (binary_expression . (parametrized_type_expression . (identifier) @name))
    ])) @definition.struct

; abstract type Shape end, primitive type Word24 24 end
(abstract_definition
  (type_head
    [
      (identifier) @name
      (parametrized_type_expression . (identifier) @name)
      (binary_expression . (identifier) @name)
      (binary_expression . (parametrized_type_expression . (identifier) @name))
    ])) @definition.type

(primitive_definition
  (type_head
    [
      (identifier) @name
      (binary_expression . (identifier) @name)
    ])) @definition.type

; Functions

; Each method is an entry: function area(c::Circle) … end and
; area(p::Polygon) = … are two, as Julia's methods are. The callee names
; it: function Base.show(io, x) is Base.show, Base.:(==)(a, b) is Base.==,
; Counter{T}(n) is Counter; the where clause and return type are left out.
(function_definition
  (signature
    [
      (call_expression . (identifier) @name)
      (where_expression . (call_expression . (identifier) @name))
      (typed_expression . (call_expression . (identifier) @name))
      (where_expression . (typed_expression . (call_expression . (identifier) @name)))
      (call_expression . (operator) @name)
      (where_expression . (call_expression . (operator) @name))
      (typed_expression . (call_expression . (operator) @name))
      (where_expression . (typed_expression . (call_expression . (operator) @name)))
      (call_expression . (field_expression value: (_) @scope (identifier) @name .))
      (where_expression . (call_expression . (field_expression value: (_) @scope (identifier) @name .)))
      (typed_expression . (call_expression . (field_expression value: (_) @scope (identifier) @name .)))
      (where_expression . (typed_expression . (call_expression . (field_expression value: (_) @scope (identifier) @name .))))
      (call_expression . (field_expression value: (_) @scope (quote_expression [(operator) @name (parenthesized_expression (operator) @name)]) .))
      (where_expression . (call_expression . (field_expression value: (_) @scope (quote_expression [(operator) @name (parenthesized_expression (operator) @name)]) .)))
      (typed_expression . (call_expression . (field_expression value: (_) @scope (quote_expression [(operator) @name (parenthesized_expression (operator) @name)]) .)))
      (where_expression . (typed_expression . (call_expression . (field_expression value: (_) @scope (quote_expression [(operator) @name (parenthesized_expression (operator) @name)]) .))))
      (call_expression . (parametrized_type_expression . (identifier) @name))
      (where_expression . (call_expression . (parametrized_type_expression . (identifier) @name)))
      (typed_expression . (call_expression . (parametrized_type_expression . (identifier) @name)))
      (where_expression . (typed_expression . (call_expression . (parametrized_type_expression . (identifier) @name))))
      (call_expression . (parametrized_type_expression . (field_expression value: (_) @scope (identifier) @name .)))
      (where_expression . (call_expression . (parametrized_type_expression . (field_expression value: (_) @scope (identifier) @name .))))
      (typed_expression . (call_expression . (parametrized_type_expression . (field_expression value: (_) @scope (identifier) @name .))))
      (where_expression . (typed_expression . (call_expression . (parametrized_type_expression . (field_expression value: (_) @scope (identifier) @name .)))))
    ])) @definition.function

; function allowmissing! end — a function without methods yet
(function_definition
  (signature
    .
    (identifier) @name .)) @definition.function

; area(c::Circle) = pi * c.r^2
(assignment
  .
  [
    (call_expression . (identifier) @name)
    (where_expression . (call_expression . (identifier) @name))
    (typed_expression . (call_expression . (identifier) @name))
    (where_expression . (typed_expression . (call_expression . (identifier) @name)))
    (call_expression . (operator) @name)
    (where_expression . (call_expression . (operator) @name))
    (typed_expression . (call_expression . (operator) @name))
    (where_expression . (typed_expression . (call_expression . (operator) @name)))
    (call_expression . (field_expression value: (_) @scope (identifier) @name .))
    (where_expression . (call_expression . (field_expression value: (_) @scope (identifier) @name .)))
    (typed_expression . (call_expression . (field_expression value: (_) @scope (identifier) @name .)))
    (where_expression . (typed_expression . (call_expression . (field_expression value: (_) @scope (identifier) @name .))))
    (call_expression . (field_expression value: (_) @scope (quote_expression [(operator) @name (parenthesized_expression (operator) @name)]) .))
    (where_expression . (call_expression . (field_expression value: (_) @scope (quote_expression [(operator) @name (parenthesized_expression (operator) @name)]) .)))
    (typed_expression . (call_expression . (field_expression value: (_) @scope (quote_expression [(operator) @name (parenthesized_expression (operator) @name)]) .)))
    (where_expression . (typed_expression . (call_expression . (field_expression value: (_) @scope (quote_expression [(operator) @name (parenthesized_expression (operator) @name)]) .))))
    (call_expression . (parametrized_type_expression . (identifier) @name))
    (where_expression . (call_expression . (parametrized_type_expression . (identifier) @name)))
    (typed_expression . (call_expression . (parametrized_type_expression . (identifier) @name)))
    (where_expression . (typed_expression . (call_expression . (parametrized_type_expression . (identifier) @name))))
    (call_expression . (parametrized_type_expression . (field_expression value: (_) @scope (identifier) @name .)))
    (where_expression . (call_expression . (parametrized_type_expression . (field_expression value: (_) @scope (identifier) @name .))))
    (typed_expression . (call_expression . (parametrized_type_expression . (field_expression value: (_) @scope (identifier) @name .))))
    (where_expression . (typed_expression . (call_expression . (parametrized_type_expression . (field_expression value: (_) @scope (identifier) @name .)))))
  ]) @definition.function

; h = x -> x + 1 and const k = (x) -> x: a name bound to an anonymous
; function.
(assignment
  .
  (identifier) @name
  (arrow_function_expression)) @definition.function

(macro_definition
  (signature
    (call_expression . (identifier) @name))) @definition.macro

; Constants

; const UnivariateDistribution{S} = Distribution{Univariate,S} — a
; parametric type alias
(const_statement
  (assignment
    .
    (parametrized_type_expression . (identifier) @name))) @definition.type

(const_statement
  (assignment
    .
    (identifier) @name)) @definition.const

; const A, B = 1, 2
(const_statement
  (assignment
    .
    (open_tuple (identifier) @name))) @definition.const
