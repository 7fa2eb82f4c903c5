; dart: tree-sitter-dart (UserNobody14/tree-sitter-dart 81638dbb, as npm @sengac/tree-sitter-dart 1.1.6, ABI 15 rewritten to 14)

; Types

(class_definition
  name: (identifier) @name) @definition.class

; mixin Printable on Object { … } — a mixin is a trait of the classes that
; use it.
(mixin_declaration
  (identifier) @name) @definition.trait

(extension_declaration
  name: (identifier) @name) @definition.extension

; extension on int { … } — an unnamed extension is named after the type it
; extends.
(extension_declaration
  !name
  class: (_) @name) @definition.extension

; extension type UserId(int id) { … } — a new static type with members.
(extension_type_declaration
  name: (identifier) @name) @definition.class

(enum_declaration
  name: (identifier) @name) @definition.enum

; typedef Compare<T> = int Function(T a, T b);  typedef IntList = List<int>;
(type_alias
  .
  (type_identifier) @name
  "=") @definition.type

; typedef void Callback(int x);  typedef int Cmp<T>(T a, T b);
(type_alias
  (type_identifier) @name
  .
  (formal_parameter_list)) @definition.type

(type_alias
  (type_identifier) @name
  .
  (type_parameters)
  .
  (formal_parameter_list)) @definition.type

; Functions

; A function's signature and its body are siblings: @end stretches the
; definition over the body. Members are written out for each of the three
; bodies that hold them (class, extension, enum).

(program
  [
    (function_signature name: (identifier) @name)
    (getter_signature name: (identifier) @name)
    (setter_signature name: (identifier) @name)
  ] @definition.function
  .
  (function_body) @end)

(class_body
  (method_signature
    [
      (function_signature name: (identifier) @name)
      (getter_signature name: (identifier) @name)
      (setter_signature name: (identifier) @name)
    ]) @definition.function
  .
  (function_body) @end)

; Shape.named(…) { … } and factory Shape.fromJson(…) { … } are named
; Shape.named; Shape(…) { … } is named Shape.
(class_body
  (method_signature
    [
      (constructor_signature (identifier) @scope . (identifier) @name . (formal_parameter_list))
      (factory_constructor_signature (identifier) @scope . (identifier) @name . (formal_parameter_list))
    ]) @definition.function
  .
  (function_body) @end)

(class_body
  (method_signature
    [
      (constructor_signature (identifier) @name . (formal_parameter_list))
      (factory_constructor_signature (identifier) @name . (formal_parameter_list))
    ]) @definition.function
  .
  (function_body) @end)

; bool operator ==(Object other) => … is named by its operator, ==.
(class_body
  (method_signature
    (operator_signature
      ["[]" "[]=" "~" (binary_operator)] @name)) @definition.function
  .
  (function_body) @end)

(extension_body
  (method_signature
    [
      (function_signature name: (identifier) @name)
      (getter_signature name: (identifier) @name)
      (setter_signature name: (identifier) @name)
    ]) @definition.function
  .
  (function_body) @end)

(extension_body
  (method_signature
    [
      (constructor_signature (identifier) @scope . (identifier) @name . (formal_parameter_list))
      (factory_constructor_signature (identifier) @scope . (identifier) @name . (formal_parameter_list))
    ]) @definition.function
  .
  (function_body) @end)

(extension_body
  (method_signature
    [
      (constructor_signature (identifier) @name . (formal_parameter_list))
      (factory_constructor_signature (identifier) @name . (formal_parameter_list))
    ]) @definition.function
  .
  (function_body) @end)

(extension_body
  (method_signature
    (operator_signature
      ["[]" "[]=" "~" (binary_operator)] @name)) @definition.function
  .
  (function_body) @end)

(enum_body
  (method_signature
    [
      (function_signature name: (identifier) @name)
      (getter_signature name: (identifier) @name)
      (setter_signature name: (identifier) @name)
    ]) @definition.function
  .
  (function_body) @end)

(enum_body
  (method_signature
    [
      (constructor_signature (identifier) @scope . (identifier) @name . (formal_parameter_list))
      (factory_constructor_signature (identifier) @scope . (identifier) @name . (formal_parameter_list))
    ]) @definition.function
  .
  (function_body) @end)

(enum_body
  (method_signature
    [
      (constructor_signature (identifier) @name . (formal_parameter_list))
      (factory_constructor_signature (identifier) @name . (formal_parameter_list))
    ]) @definition.function
  .
  (function_body) @end)

(enum_body
  (method_signature
    (operator_signature
      ["[]" "[]=" "~" (binary_operator)] @name)) @definition.function
  .
  (function_body) @end)

; Without a body: abstract and external methods, constructors with only
; initializers or a redirection, redirecting factories.
(declaration
  [
    (function_signature name: (identifier) @name)
    (getter_signature name: (identifier) @name)
    (setter_signature name: (identifier) @name)
  ]) @definition.function

(declaration
  [
    (constructor_signature (identifier) @scope . (identifier) @name . (formal_parameter_list))
    (constant_constructor_signature (identifier) @scope . (identifier) @name . (formal_parameter_list))
    (factory_constructor_signature (identifier) @scope . (identifier) @name . (formal_parameter_list))
    (redirecting_factory_constructor_signature (identifier) @scope . (identifier) @name . (formal_parameter_list))
  ]) @definition.function

(declaration
  [
    (constructor_signature (identifier) @name . (formal_parameter_list))
    (constant_constructor_signature (identifier) @name . (formal_parameter_list))
    (factory_constructor_signature (identifier) @name . (formal_parameter_list))
    (redirecting_factory_constructor_signature (identifier) @name . (formal_parameter_list))
  ]) @definition.function

(declaration
  (operator_signature
    ["[]" "[]=" "~" (binary_operator)] @name)) @definition.function

; external int now(); and int get g; at the top of a file
(program
  [
    (function_signature name: (identifier) @name)
    (getter_signature name: (identifier) @name)
    (setter_signature name: (identifier) @name)
  ] @definition.function)

; int local(int y) => y; in a function's body
(local_function_declaration
  (lambda_expression
    parameters: (function_signature name: (identifier) @name))) @definition.function

; Constants

; const maxItems = 10; final greeting = 'hi'; at the top of a file, and
; static const and static final members: every name of the list.
(static_final_declaration_list
  (static_final_declaration
    .
    (identifier) @name) @definition.const)
