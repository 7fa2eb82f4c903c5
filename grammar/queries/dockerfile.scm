; dockerfile: tree-sitter-dockerfile as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; Build stages: FROM golang:1.22 AS build is the stage "build". SPEC.md has
; no stage kind; a stage is a module of the build. A stage without a name
; is left out.

(from_instruction
  as: (image_alias) @name) @definition.module
