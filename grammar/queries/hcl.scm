; hcl: tree-sitter-hcl as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; Top-level blocks with labels, named as Terraform addresses them:
; resource "aws_instance" "web" is aws_instance.web, module "vpc" is vpc.
; Blocks without a label (terraform, locals) and nested blocks are left
; out. SPEC.md has no block kind: module blocks are modules, variables and
; outputs consts, every other labelled block a struct.

; Types

(config_file
  (body
    (block
      (identifier) @_type
      .
      (string_lit (template_literal) @name)
      (#eq? @_type "module")) @definition.module))

(config_file
  (body
    (block
      (identifier) @_type
      .
      (string_lit (template_literal) @name)
      (#match? @_type "^(variable|output)$")) @definition.const))

; resource "aws_instance" "web"  /  data "aws_ami" "ubuntu"
(config_file
  (body
    (block
      (identifier)
      .
      (string_lit (template_literal) @scope)
      .
      (string_lit (template_literal) @name)) @definition.struct))

; provider "aws"  /  any other block with one label
(config_file
  (body
    (block
      (identifier)
      .
      (string_lit (template_literal) @name)
      .
      (block_start)) @definition.struct))
