; bash: tree-sitter-bash as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217

; Functions

; usage() { … }  /  function main { … }  /  function main() { … }
(function_definition
  name: (word) @name) @definition.function

; Constants

; readonly VERSION=1.0  /  declare -r LIMIT=3
(declaration_command
  "readonly"
  (variable_assignment
    name: (variable_name) @name) @definition.const)

(declaration_command
  "declare"
  (word) @_flags
  (variable_assignment
    name: (variable_name) @name) @definition.const
  (#match? @_flags "^-[a-zA-Z]*r"))
