; perl: tree-sitter-perl 2.0.0 (npm), rewritten to ABI 14

; Types

; package Foo::Bar;  — holds what follows it up to the next package of the
; same block, or the block's end (@section)
(package_statement
  name: (package) @name) @definition.module @section

; class Point 1.0;  class Point { … }  (the class feature of Perl 5.38)
(class_statement
  name: (package) @name) @definition.class @section

; Functions

; sub name { … }  sub name :lvalue ($x) { … }  my sub helper { … }
(subroutine_declaration_statement
  name: (bareword) @name) @definition.function

; method area { … }  (in a class)
(method_declaration_statement
  name: (bareword) @name) @definition.method
