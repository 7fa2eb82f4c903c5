; svelte: the <script> elements of a Svelte component, read by tree-sitter-typescript as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
; inherits: typescript
;
; Everything outside the scripts (markup, styles) is blanked before the parse
; (grammar/components.go), so the outline is the scripts' definitions, at their
; own lines.
