; inherits: c
; cpp: tree-sitter-cpp as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; C's patterns come first (structs, unions, enums including enum class,
; typedefs, free functions and prototypes, macros); these add what C++ has.

; Types

; namespace a { … }  namespace a::b { … }  inline namespace v1 { … }
; An anonymous namespace has no name and is left out; its members are not.
(namespace_definition
  name: [
    (namespace_identifier)
    (nested_namespace_specifier)
  ] @name) @definition.namespace

(class_specifier
  name: (type_identifier) @name
  body: (_)) @definition.class

; template <> class Box<int> { … }
(class_specifier
  name: (template_type name: (type_identifier) @name)
  body: (_)) @definition.class

(struct_specifier
  name: (template_type name: (type_identifier) @name)
  body: (_)) @definition.struct

; class Outer::Inner { … }
(class_specifier
  name: (qualified_identifier
    scope: (_) @scope
    name: (type_identifier) @name)
  body: (_)) @definition.class

(struct_specifier
  name: (qualified_identifier
    scope: (_) @scope
    name: (type_identifier) @name)
  body: (_)) @definition.struct

; template <> struct Outer::Dispatch<Mode::kOn> { … }
(class_specifier
  name: (qualified_identifier
    scope: (_) @scope
    name: (template_type name: (type_identifier) @name))
  body: (_)) @definition.class

(struct_specifier
  name: (qualified_identifier
    scope: (_) @scope
    name: (template_type name: (type_identifier) @name))
  body: (_)) @definition.struct

; using Ptr = Widget *;  template <class T> using Vec = std::vector<T>;
(alias_declaration
  name: (type_identifier) @name) @definition.type

; Functions

; Members declared or defined in a class body: int size() const;
; bool operator==(const W &) const;  ~Widget();  Widget &operator=(W &&);
(function_definition
  declarator: [
    (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name)))
    (reference_declarator (function_declarator declarator: [(field_identifier) (identifier) (operator_name)] @name))
  ]) @definition.function

(field_declaration
  declarator: [
    (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name)))
    (reference_declarator (function_declarator declarator: [(field_identifier) (operator_name)] @name))
  ]) @definition.function

(declaration
  declarator: [
    (function_declarator declarator: [(destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: (operator_name) @name))
    (reference_declarator (function_declarator declarator: [(identifier) (operator_name)] @name))
  ]) @definition.function

; explicit operator bool() const { … }  — the name is cut at "(" in code
(function_definition
  declarator: (operator_cast) @name) @definition.function

(declaration
  declarator: (operator_cast) @name) @definition.function

(function_definition
  declarator: (qualified_identifier
    scope: [(namespace_identifier) @scope (template_type name: (type_identifier) @scope)]
    name: (operator_cast) @name)) @definition.method

; template <> void swap<Foo>(Foo &, Foo &) { … }
(function_definition
  declarator: (function_declarator
    declarator: (template_function name: (identifier) @name))) @definition.function

; Out-of-line members, named Class.member after the innermost scope:
; void Widget::draw() { … }  Widget::~Widget() { … }
; bool ns::Widget::operator==(const Widget &) const { … }
; template <class T> void Box<T>::put(T v) { … }
(function_definition
  declarator: [
    (function_declarator declarator: (qualified_identifier
      scope: [(namespace_identifier) @scope (template_type name: (type_identifier) @scope)]
      name: [(identifier) (destructor_name) (operator_name) (template_function name: (identifier))] @name))
    (function_declarator declarator: (qualified_identifier
      name: (qualified_identifier
        scope: [(namespace_identifier) @scope (template_type name: (type_identifier) @scope)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
    (function_declarator declarator: (qualified_identifier
      name: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @scope (template_type name: (type_identifier) @scope)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
      scope: [(namespace_identifier) @scope (template_type name: (type_identifier) @scope)]
      name: [(identifier) (operator_name)] @name)))
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
      name: (qualified_identifier
        scope: [(namespace_identifier) @scope (template_type name: (type_identifier) @scope)]
        name: [(identifier) (operator_name)] @name))))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
      scope: [(namespace_identifier) @scope (template_type name: (type_identifier) @scope)]
      name: [(identifier) (operator_name)] @name))))
    (reference_declarator (function_declarator declarator: (qualified_identifier
      scope: [(namespace_identifier) @scope (template_type name: (type_identifier) @scope)]
      name: [(identifier) (operator_name)] @name)))
    (reference_declarator (function_declarator declarator: (qualified_identifier
      name: (qualified_identifier
        scope: [(namespace_identifier) @scope (template_type name: (type_identifier) @scope)]
        name: [(identifier) (operator_name)] @name))))
  ]) @definition.method

; Constants

; A constexpr inside a function body is a local.
(compound_statement
  (declaration
    (type_qualifier) @skip
    declarator: (init_declarator declarator: (identifier) @name)) @definition.const)

; constexpr int kLimit = 5;  static constexpr size_t kMax = 10; (in a class)
(declaration
  (type_qualifier) @_q
  declarator: (init_declarator declarator: (identifier) @name)
  (#eq? @_q "constexpr")) @definition.const

(field_declaration
  (type_qualifier) @_q
  declarator: (field_identifier) @name
  (#eq? @_q "constexpr")) @definition.const
