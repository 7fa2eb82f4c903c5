; vue: the <script> elements of a Vue single-file component, read by tree-sitter-typescript as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
; inherits: typescript
;
; Everything outside the scripts (markup, styles) is blanked before the parse
; (grammar/components.go), so the outline is the scripts' definitions, at their
; own lines.

; Object literals

; The Options API: the component object's methods (data, setup,
; mounted…) and those of its methods, computed and watch sections, of
; `export default { … }` and `export default defineComponent({ … })`.
(export_statement
  "default"
  value: [
    (object) @listed
    (call_expression
      arguments: (arguments
        (object) @listed))
  ])

(export_statement
  "default"
  value: [
    (object
      (pair
        key: (property_identifier) @_section
        value: (object) @listed))
    (call_expression
      arguments: (arguments
        (object
          (pair
            key: (property_identifier) @_section
            value: (object) @listed))))
  ]
  (#match? @_section "^(methods|computed|watch)$"))
