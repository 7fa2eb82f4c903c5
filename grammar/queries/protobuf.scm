; protobuf: tree-sitter-proto as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; A message is a struct, a service an interface and its rpcs its methods;
; SPEC.md has no kinds of their own for them.

; Types

(message
  (message_name (identifier) @name)) @definition.struct

(enum
  (enum_name (identifier) @name)) @definition.enum

(service
  (service_name (identifier) @name)) @definition.interface

; Functions

(rpc
  (rpc_name (identifier) @name)) @definition.function
