; lua: tree-sitter-lua as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; This grammar attaches the whitespace before some tokens to them, so names
; are always taken from identifiers, whose own line is right.

; Functions

; function M:draw() … end — named M.draw, a method: it receives self
(function_statement
  name: (function_name
    (identifier) @scope
    .
    (table_colon)
    .
    (identifier) @name .)) @definition.method

; function M.new(opts) … end — named M.new
(function_statement
  name: (function_name
    (identifier) @scope
    .
    (table_dot)
    .
    (identifier) @name .)) @definition.function

; function helper() … end  /  local function helper() … end
(function_statement
  name: (identifier) @name) @definition.function

(function_statement
  name: (function_name
    (identifier) @name .)) @definition.function

; M.callback = function() … end
(variable_declaration
  name: (variable_declarator
    (identifier) @scope
    .
    "."
    .
    (identifier) @name .)
  value: (function)) @definition.function

; cl[name] = function() … end  — a computed key keeps its brackets: cl[name]
(variable_declaration
  name: (variable_declarator
    (identifier) @scope
    .
    "["
    .
    (_) @name
    .
    "]" .)
  value: (function)) @definition.function

; local handler = function(e) … end
(variable_declaration
  name: (variable_declarator
    (identifier) @name .)
  value: (function)) @definition.function
