; haskell: tree-sitter-haskell 0.23.1 (grammar/langs/haskell)

; Types

; module Data.Shapes (…) where — the module's declarations are not nested
; in it: the header is all its node holds.
(header
  module: (module) @name) @definition.module

(class
  name: (_) @name) @definition.class

; instance (Show a) => Show (Maybe a) where … is named Show for (Maybe a),
; as Rust's impls are.
(instance
  name: (_) @trait
  patterns: (_) @name) @definition.impl

; data instance Vec Int = … is named after its family; the data_type inside
; it names the same node, and the earlier pattern wins.
(data_instance
  [
    (data_type name: (_) @name)
    (newtype name: (_) @name)
  ]) @definition.type

(data_type
  name: (_) @name) @definition.type

(newtype
  name: (_) @name) @definition.type

(type_synomym
  name: (_) @name) @definition.type

(type_family
  name: (_) @name) @definition.type

(data_family
  name: (_) @name) @definition.type

(type_instance
  name: (_) @name) @definition.type

; Constructors and record fields are functions, as Haskell has them: they
; nest in their type, fields in their constructor.
(data_constructor
  constructor: [
    (prefix name: (constructor) @name)
    (record name: (constructor) @name)
    (infix operator: (constructor_operator) @name)
  ]) @definition.function

(gadt_constructor
  name: (constructor) @name) @definition.function

(newtype_constructor
  name: (constructor) @name) @definition.function

(field
  name: (field_name (variable) @name)) @definition.function

; Functions

; A function's signature and its equations are siblings of one name: the
; registry's Clauses makes them one entry (outline joins them).
(declarations
  [
    (signature name: (variable) @name)
    (signature names: (binding_list name: (variable) @name))
    (signature name: (prefix_id (operator) @name))
    (bind name: (variable) @name)
    (bind name: (prefix_id (operator) @name))
  ] @definition.function)

(class_declarations
  [
    (signature name: (variable) @name)
    (signature names: (binding_list name: (variable) @name))
    (signature name: (prefix_id (operator) @name))
    (bind name: (variable) @name)
    (bind name: (prefix_id (operator) @name))
  ] @definition.function)

(instance_declarations
  [
    (bind name: (variable) @name)
    (bind name: (prefix_id (operator) @name))
  ] @definition.function)

; Functions with arguments at any depth (where and let bindings too);
; x <+> y = … and x `op` y = … are named by their operator.
(function
  name: (variable) @name) @definition.function

(function
  name: (prefix_id (operator) @name)) @definition.function

(function
  (infix
    operator: [
      (operator) @name
      (infix_id (variable) @name)
    ])) @definition.function

; pattern Zero :: Int  and  pattern Zero = 0
(pattern_synonym
  [
    (signature synonym: (constructor) @name)
    (equation synonym: (constructor) @name)
  ]) @definition.function

(foreign_import
  signature: (signature name: (variable) @name)) @definition.function
