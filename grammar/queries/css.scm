; css: tree-sitter-css as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; A stylesheet's sections are its rule sets, named by their selectors, and
; the at-rules that hold a block (@media, @supports, @layer, @font-face),
; named by their keyword and what follows it up to the block
; (grammar/css.go), and @keyframes, by the name animations use; all listed
; as `heading` as YAML's and TOML's sections are; custom properties
; (`--brand: #369`) are `const`, nested in the rule that declares them.

; Types

(rule_set
  (selectors) @name) @definition.heading

(media_statement) @name @definition.heading

(supports_statement) @name @definition.heading

(keyframes_statement
  (keyframes_name) @name) @definition.heading

(at_rule
  (block)) @name @definition.heading

; Constants

(declaration
  (property_name) @name
  (#match? @name "^--")) @definition.const
