; elixir: tree-sitter-elixir as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; Every definition is a call: defmodule, def, defmacro … are ordinary
; identifiers in the grammar, told apart by predicates.

; Types

; defmodule Shop.Cart do … end
(call
  target: (identifier) @_kw
  (arguments (alias) @name)
  (#eq? @_kw "defmodule")) @definition.module

(call
  target: (identifier) @_kw
  (arguments (alias) @name)
  (#eq? @_kw "defprotocol")) @definition.protocol

; defimpl Size, for: BitString do … end — named "Size for BitString"
(call
  target: (identifier) @_kw
  (arguments
    (alias) @trait
    (keywords
      (pair
        value: (alias) @name)))
  (#eq? @_kw "defimpl")) @definition.impl

; defimpl Size do … end inside the module it implements for
(call
  target: (identifier) @_kw
  (arguments (alias) @name .)
  (#eq? @_kw "defimpl")) @definition.impl

; @type t :: …  @typep state :: …  @opaque id :: …
(unary_operator
  operator: "@"
  operand: (call
    target: (identifier) @_kw
    (arguments
      (binary_operator
        left: [
          (identifier) @name
          (call target: (identifier) @name)
        ])))
  (#match? @_kw "^(type|typep|opaque)$")) @definition.type

; Functions

; def add(a, b) do … end  def add(a, b) when … do  def new, do: …
(call
  target: (identifier) @_kw
  (arguments
    [
      (identifier) @name
      (call target: (identifier) @name)
      (binary_operator left: (call target: (identifier) @name))
      (binary_operator left: (identifier) @name)
    ])
  (#match? @_kw "^(def|defp|defdelegate)$")) @definition.function

(call
  target: (identifier) @_kw
  (arguments
    [
      (identifier) @name
      (call target: (identifier) @name)
      (binary_operator left: (call target: (identifier) @name))
      (binary_operator left: (identifier) @name)
    ])
  (#match? @_kw "^(defmacro|defmacrop|defguard|defguardp)$")) @definition.macro

; Constants

; @max_items 100 — a module attribute used as a constant; the attributes
; Elixir itself reads (@doc, @spec, @impl …) are not.
(unary_operator
  operator: "@"
  operand: (call
    target: (identifier) @name
    (arguments))
  (#not-match? @name "^(moduledoc|doc|typedoc|spec|type|typep|opaque|impl|behaviour|callback|macrocallback|optional_callbacks|derive|enforce_keys|compile|dialyzer|external_resource|on_load|on_definition|after_compile|before_compile|after_verify|deprecated|since|vsn|file|moduletag|describetag|tag)$")) @definition.const
