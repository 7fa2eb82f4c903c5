; rust: tree-sitter-rust as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; Items are listed wherever they are: in modules, impls, traits, extern
; blocks and function bodies; closures and enum variants are not items. Attributes and doc comments are siblings of
; the item, so they never move its line. Items written inside macro
; invocations (cfg_if! { ... }) are token trees to the grammar: not listed.

; Types

(struct_item
  name: (type_identifier) @name) @definition.struct

(enum_item
  name: (type_identifier) @name) @definition.enum

(union_item
  name: (type_identifier) @name) @definition.union

(trait_item
  name: (type_identifier) @name) @definition.trait

; type Result<T> = std::result::Result<T, Error>;
(type_item
  name: (type_identifier) @name) @definition.type

; trait Iterator { type Item; }   extern "C" { type Opaque; }
(associated_type
  name: (type_identifier) @name) @definition.type

(mod_item
  name: (identifier) @name) @definition.module

; impl fmt::Display for Rpc        -> "Display for Rpc"
; impl<T> From<T> for Wrapper<T>   -> "From<T> for Wrapper"
; The trait keeps its arguments, which tell impls of one trait apart; the
; type loses them, so that members read Wrapper.new. This pattern comes
; before the inherent one: the same type node is named once, by the first.
(impl_item
  trait: (_) @trait
  type: [
    (type_identifier) @name
    (scoped_type_identifier
      name: (type_identifier) @name)
    (generic_type
      type: [
        (type_identifier) @name
        (scoped_type_identifier
          name: (type_identifier) @name)
      ])
  ]) @definition.impl

; impl<'a> Read for &'a File   impl<T> Ord for [T]   impl Send for *const u8
; Types that are not paths are named as written.
(impl_item
  trait: (_) @trait
  type: [
    (reference_type)
    (pointer_type)
    (array_type)
    (tuple_type)
    (unit_type)
    (never_type)
    (function_type)
    (dynamic_type)
    (bounded_type)
    (abstract_type)
    (primitive_type)
    (qualified_type)
  ] @name) @definition.impl

; impl Rpc   impl<T: Clone> Rpc<T>   impl crate::net::Rpc
(impl_item
  type: [
    (type_identifier) @name
    (scoped_type_identifier
      name: (type_identifier) @name)
    (generic_type
      type: [
        (type_identifier) @name
        (scoped_type_identifier
          name: (type_identifier) @name)
      ])
  ]) @definition.impl

; impl<T> [T]   impl dyn Any + Send   impl u8
(impl_item
  type: [
    (reference_type)
    (pointer_type)
    (array_type)
    (tuple_type)
    (unit_type)
    (never_type)
    (function_type)
    (dynamic_type)
    (bounded_type)
    (abstract_type)
    (primitive_type)
    (qualified_type)
  ] @name) @definition.impl

; Functions

; A fn directly in an impl or trait becomes a method when nested.
(function_item
  name: (identifier) @name) @definition.function

; trait Read { fn read(&mut self, buf: &mut [u8]) -> Result<usize>; }
; extern "C" { fn abs(x: i32) -> i32; }
(function_signature_item
  name: (identifier) @name) @definition.function

(macro_definition
  name: (identifier) @name) @definition.macro

; Constants

; const _: () = assert!(N > 0);  declares nothing one could look up. A
; keyword as name comes from error recovery on syntax this grammar predates
; (`pub const trait PartialEq` in the standard library).
(const_item
  name: (identifier) @name
  (#not-match? @name "^(_|trait|impl|fn)$")) @definition.const

(static_item
  name: (identifier) @name) @definition.static
