; objc: tree-sitter-objc 3.0.2 (npm), ABI 14
; inherits: c
;
; C's functions, prototypes, structs, unions, enums, typedefs and macros
; come from c.scm. Methods are named by their selector ("drawInRect:
; withColor:"), and categories by their class and category
; ("UIView(WebCache)"): grammar's objcName reads both from the source
; from @name on, since no one node holds them.

; Types

; @interface Shape (Geometry)  @interface Shape ()  — a category or a
; class extension, before the class pattern so that it names the match
(class_interface
  "@interface"
  .
  (identifier) @name
  "(") @definition.extension

(class_implementation
  "@implementation"
  .
  (identifier) @name
  "(") @definition.extension

; @interface Shape : NSObject <Drawable>  @implementation Shape
(class_interface
  "@interface"
  .
  (identifier) @name) @definition.class

(class_implementation
  "@implementation"
  .
  (identifier) @name) @definition.class

; @protocol Drawable <NSObject> … @end  (not "@protocol Later;")
(protocol_declaration
  "@protocol"
  .
  (identifier) @name) @definition.protocol

; Functions

; - (void)drawInRect:(CGRect)rect withColor:(id)color { … }  and its
; declaration in an @interface or @protocol; the first label is @name
(method_definition
  (method_type)
  .
  (identifier) @name) @definition.method

(method_definition
  ["+" "-"]
  .
  (identifier) @name) @definition.method

(method_definition
  (attribute_specifier)
  .
  (identifier) @name) @definition.method

(method_declaration
  (method_type)
  .
  (identifier) @name) @definition.method

(method_declaration
  ["+" "-"]
  .
  (identifier) @name) @definition.method

(method_declaration
  [(attribute_specifier) (attribute_declaration)]
  .
  (identifier) @name) @definition.method

; @property (nonatomic, copy) NSString *name;  — a property declares its
; getter, a method of the property's name; each name of "int a, b;"
(property_declaration
  (struct_declaration
    (struct_declarator
      [
        (identifier) @name
        (pointer_declarator declarator: (identifier) @name)
        (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
        (function_declarator declarator: (parenthesized_declarator (block_pointer_declarator declarator: (identifier) @name)))
        (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
        (array_declarator declarator: (identifier) @name)
      ]))) @definition.method
