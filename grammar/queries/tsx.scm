; tsx: tree-sitter-typescript (tsx) as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
; inherits: typescript
;
; The tsx grammar names every node of the typescript grammar alike (it only
; adds the JSX nodes and drops type_assertion), so React components are the
; functions, classes and constants the typescript query already finds.
