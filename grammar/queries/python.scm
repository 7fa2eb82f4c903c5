; python: tree-sitter-python as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; Python has no block scope: a name bound in the body of a module-level
; if/elif/else, try/except/finally, with, for, while or match is a module
; global. Those bodies are reached from (module …) through wildcards that
; carry "!name": def and class have a name field, so no wildcard chain
; enters a function or a class, and nothing inside them becomes a constant.
; A statement's parent is always a block or the module, and a block's
; parent is a statement (if, for, while, try, with, match, case) or one of
; its clauses (elif, else, except, finally). So a statement N blocks down
; is reached by N steps, each "(_ !name (block …))" into a statement's own
; body or "(_ !name (_ !name (block …)))" into a clause's body, up to 10
; nodes deep, which covers the version shims of six and trio (if/else, then
; try/except, then if).
;
; Each depth is an alternative inside one pattern rather than a pattern of
; its own: the query cursor keeps a state per pattern rooted at the module
; for the whole file, and lets a wildcard step match the nodes of every
; module-level expression, so ten patterns cost as much as the rest of the
; query. Nested alternatives share the steps of their common blocks, and
; the typed (block …) steps stop the wildcards one level below a statement.

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
  [
    (expression_statement
      (assignment
        left: (identifier) @name
        right: (lambda)) @definition.function)
    (_ !name
      (block
        (expression_statement
          (assignment
            left: (identifier) @name
            right: (lambda)) @definition.function)))
    (_ !name
      (_ !name
        (block
          (expression_statement
            (assignment
              left: (identifier) @name
              right: (lambda)) @definition.function))))
  ])

(class_definition
  body: (block
    [
      (expression_statement
        (assignment
          left: (identifier) @name
          right: (lambda)) @definition.function)
      (_ !name
        (block
          (expression_statement
            (assignment
              left: (identifier) @name
              right: (lambda)) @definition.function)))
      (_ !name
        (_ !name
          (block
            (expression_statement
              (assignment
                left: (identifier) @name
                right: (lambda)) @definition.function))))
    ]))

; Constants

; ALL_CAPS module globals, each name its own entry:
;   MAX_SIZE = 10    MAX_SIZE: Final = 10    MAX_SIZE: int   (in a .pyi stub)
;   RED, GREEN = 1, 2    (RED, GREEN) = …    [RED, GREEN] = …
;   NO = FALSE = OFF = 0   (up to four names in a chain)
; The entry spans the name only, so the names of one statement never nest
; in each other. Starred (*REST) and nested tuple targets are left out.
; Their statements are reached as the lambdas' are, up to 10 nodes deep.
(module
  [
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
    (_ !name
      (block
        [
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
          (_ !name
            (block
              [
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
                (_ !name
                  (block
                    [
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
                      (_ !name
                        (block
                          [
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
                            (_ !name
                              (block
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
                          ]))
                      (_ !name
                        (_ !name
                          (block
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
                    ]))
                (_ !name
                  (_ !name
                    (block
                      [
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
                        (_ !name
                          (block
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
                        (_ !name
                          (_ !name
                            (block
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
                      ])))
              ]))
          (_ !name
            (_ !name
              (block
                [
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
                  (_ !name
                    (block
                      [
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
                        (_ !name
                          (block
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
                        (_ !name
                          (_ !name
                            (block
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
                      ]))
                  (_ !name
                    (_ !name
                      (block
                        [
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
                          (_ !name
                            (block
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
                        ])))
                ])))
        ]))
    (_ !name
      (_ !name
        (block
          [
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
            (_ !name
              (block
                [
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
                  (_ !name
                    (block
                      [
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
                        (_ !name
                          (block
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
                        (_ !name
                          (_ !name
                            (block
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
                      ]))
                  (_ !name
                    (_ !name
                      (block
                        [
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
                          (_ !name
                            (block
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
                        ])))
                ]))
            (_ !name
              (_ !name
                (block
                  [
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
                    (_ !name
                      (block
                        [
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
                          (_ !name
                            (block
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
                        ]))
                    (_ !name
                      (_ !name
                        (block
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
                  ])))
          ])))
  ]
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))
