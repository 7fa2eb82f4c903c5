; python: tree-sitter-python as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; Python has no block scope: a name bound in the body of a module-level
; if/elif/else, try/except/finally, with, for, while or match is a module
; global. Those bodies are reached from (module …) through wildcards that
; carry "!name": def and class have a name field, so no wildcard chain
; enters a function or a class, and nothing inside them becomes a constant.
; A statement's parent is always a block or the module, so a chain of N
; wildcards reaches statements N-1 blocks down: 2 for an if body, 3 for an
; else or except body, 4 for an if inside an if, … up to 10, which covers
; the version shims of six and trio (if/else, then try/except, then if).

; Types

(class_definition
  name: (identifier) @name) @definition.class

; type Vector = list[float]    type Pair[T] = tuple[T, T]   (Python 3.12)
(type_alias_statement
  .
  (type
    [
      (identifier) @name
      (generic_type
        .
        (identifier) @name)
    ])) @definition.type

; Functions

; def and async def, decorated or not, in any class or function: the
; decorated_definition around it is left out, so its line is the def's.
(function_definition
  name: (identifier) @name) @definition.function

; square = lambda x: x * x   at module level and in a class body (where it
; is a method), also in their if/else bodies
(module
  (expression_statement
    (assignment
      left: (identifier) @name
      right: (lambda)) @definition.function))

(module
  (_ !name
    (_ !name
      (expression_statement
        (assignment
          left: (identifier) @name
          right: (lambda)) @definition.function))))

(module
  (_ !name
    (_ !name
      (_ !name
        (expression_statement
          (assignment
            left: (identifier) @name
            right: (lambda)) @definition.function)))))

(class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @name
        right: (lambda)) @definition.function)))

(class_definition
  body: (block
    (_ !name
      (_ !name
        (expression_statement
          (assignment
            left: (identifier) @name
            right: (lambda)) @definition.function)))))

(class_definition
  body: (block
    (_ !name
      (_ !name
        (_ !name
          (expression_statement
            (assignment
              left: (identifier) @name
              right: (lambda)) @definition.function))))))

; Constants

; ALL_CAPS module globals, each name its own entry:
;   MAX_SIZE = 10    MAX_SIZE: Final = 10    MAX_SIZE: int   (in a .pyi stub)
;   RED, GREEN = 1, 2    (RED, GREEN) = …    [RED, GREEN] = …
;   NO = FALSE = OFF = 0   (up to four names in a chain)
; The entry spans the name only, so the names of one statement never nest
; in each other. Starred (*REST) and nested tuple targets are left out.
(module
  (expression_statement
    [
      (assignment
        left: [
          (identifier) @name @definition.const
          (pattern_list
            (identifier) @name @definition.const)
          (tuple_pattern
            (identifier) @name @definition.const)
          (list_pattern
            (identifier) @name @definition.const)
        ])
      (assignment
        right: (assignment
          left: (identifier) @name @definition.const))
      (assignment
        right: (assignment
          right: (assignment
            left: (identifier) @name @definition.const)))
      (assignment
        right: (assignment
          right: (assignment
            right: (assignment
              left: (identifier) @name @definition.const))))
    ])
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

(module
  (_ !name
    (_ !name
      (expression_statement
        [
          (assignment
            left: [
              (identifier) @name @definition.const
              (pattern_list
                (identifier) @name @definition.const)
              (tuple_pattern
                (identifier) @name @definition.const)
              (list_pattern
                (identifier) @name @definition.const)
            ])
          (assignment
            right: (assignment
              left: (identifier) @name @definition.const))
          (assignment
            right: (assignment
              right: (assignment
                left: (identifier) @name @definition.const)))
          (assignment
            right: (assignment
              right: (assignment
                right: (assignment
                  left: (identifier) @name @definition.const))))
        ])))
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

(module
  (_ !name
    (_ !name
      (_ !name
        (expression_statement
          [
            (assignment
              left: [
                (identifier) @name @definition.const
                (pattern_list
                  (identifier) @name @definition.const)
                (tuple_pattern
                  (identifier) @name @definition.const)
                (list_pattern
                  (identifier) @name @definition.const)
              ])
            (assignment
              right: (assignment
                left: (identifier) @name @definition.const))
            (assignment
              right: (assignment
                right: (assignment
                  left: (identifier) @name @definition.const)))
            (assignment
              right: (assignment
                right: (assignment
                  right: (assignment
                    left: (identifier) @name @definition.const))))
          ]))))
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

(module
  (_ !name
    (_ !name
      (_ !name
        (_ !name
          (expression_statement
            [
              (assignment
                left: [
                  (identifier) @name @definition.const
                  (pattern_list
                    (identifier) @name @definition.const)
                  (tuple_pattern
                    (identifier) @name @definition.const)
                  (list_pattern
                    (identifier) @name @definition.const)
                ])
              (assignment
                right: (assignment
                  left: (identifier) @name @definition.const))
              (assignment
                right: (assignment
                  right: (assignment
                    left: (identifier) @name @definition.const)))
              (assignment
                right: (assignment
                  right: (assignment
                    right: (assignment
                      left: (identifier) @name @definition.const))))
            ])))))
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

(module
  (_ !name
    (_ !name
      (_ !name
        (_ !name
          (_ !name
            (expression_statement
              [
                (assignment
                  left: [
                    (identifier) @name @definition.const
                    (pattern_list
                      (identifier) @name @definition.const)
                    (tuple_pattern
                      (identifier) @name @definition.const)
                    (list_pattern
                      (identifier) @name @definition.const)
                  ])
                (assignment
                  right: (assignment
                    left: (identifier) @name @definition.const))
                (assignment
                  right: (assignment
                    right: (assignment
                      left: (identifier) @name @definition.const)))
                (assignment
                  right: (assignment
                    right: (assignment
                      right: (assignment
                        left: (identifier) @name @definition.const))))
              ]))))))
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

(module
  (_ !name
    (_ !name
      (_ !name
        (_ !name
          (_ !name
            (_ !name
              (expression_statement
                [
                  (assignment
                    left: [
                      (identifier) @name @definition.const
                      (pattern_list
                        (identifier) @name @definition.const)
                      (tuple_pattern
                        (identifier) @name @definition.const)
                      (list_pattern
                        (identifier) @name @definition.const)
                    ])
                  (assignment
                    right: (assignment
                      left: (identifier) @name @definition.const))
                  (assignment
                    right: (assignment
                      right: (assignment
                        left: (identifier) @name @definition.const)))
                  (assignment
                    right: (assignment
                      right: (assignment
                        right: (assignment
                          left: (identifier) @name @definition.const))))
                ])))))))
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

(module
  (_ !name
    (_ !name
      (_ !name
        (_ !name
          (_ !name
            (_ !name
              (_ !name
                (expression_statement
                  [
                    (assignment
                      left: [
                        (identifier) @name @definition.const
                        (pattern_list
                          (identifier) @name @definition.const)
                        (tuple_pattern
                          (identifier) @name @definition.const)
                        (list_pattern
                          (identifier) @name @definition.const)
                      ])
                    (assignment
                      right: (assignment
                        left: (identifier) @name @definition.const))
                    (assignment
                      right: (assignment
                        right: (assignment
                          left: (identifier) @name @definition.const)))
                    (assignment
                      right: (assignment
                        right: (assignment
                          right: (assignment
                            left: (identifier) @name @definition.const))))
                  ]))))))))
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

(module
  (_ !name
    (_ !name
      (_ !name
        (_ !name
          (_ !name
            (_ !name
              (_ !name
                (_ !name
                  (expression_statement
                    [
                      (assignment
                        left: [
                          (identifier) @name @definition.const
                          (pattern_list
                            (identifier) @name @definition.const)
                          (tuple_pattern
                            (identifier) @name @definition.const)
                          (list_pattern
                            (identifier) @name @definition.const)
                        ])
                      (assignment
                        right: (assignment
                          left: (identifier) @name @definition.const))
                      (assignment
                        right: (assignment
                          right: (assignment
                            left: (identifier) @name @definition.const)))
                      (assignment
                        right: (assignment
                          right: (assignment
                            right: (assignment
                              left: (identifier) @name @definition.const))))
                    ])))))))))
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

(module
  (_ !name
    (_ !name
      (_ !name
        (_ !name
          (_ !name
            (_ !name
              (_ !name
                (_ !name
                  (_ !name
                    (expression_statement
                      [
                        (assignment
                          left: [
                            (identifier) @name @definition.const
                            (pattern_list
                              (identifier) @name @definition.const)
                            (tuple_pattern
                              (identifier) @name @definition.const)
                            (list_pattern
                              (identifier) @name @definition.const)
                          ])
                        (assignment
                          right: (assignment
                            left: (identifier) @name @definition.const))
                        (assignment
                          right: (assignment
                            right: (assignment
                              left: (identifier) @name @definition.const)))
                        (assignment
                          right: (assignment
                            right: (assignment
                              right: (assignment
                                left: (identifier) @name @definition.const))))
                      ]))))))))))
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

(module
  (_ !name
    (_ !name
      (_ !name
        (_ !name
          (_ !name
            (_ !name
              (_ !name
                (_ !name
                  (_ !name
                    (_ !name
                      (expression_statement
                        [
                          (assignment
                            left: [
                              (identifier) @name @definition.const
                              (pattern_list
                                (identifier) @name @definition.const)
                              (tuple_pattern
                                (identifier) @name @definition.const)
                              (list_pattern
                                (identifier) @name @definition.const)
                            ])
                          (assignment
                            right: (assignment
                              left: (identifier) @name @definition.const))
                          (assignment
                            right: (assignment
                              right: (assignment
                                left: (identifier) @name @definition.const)))
                          (assignment
                            right: (assignment
                              right: (assignment
                                right: (assignment
                                  left: (identifier) @name @definition.const))))
                        ])))))))))))
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))
