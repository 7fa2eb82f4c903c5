; solidity: tree-sitter-solidity 1.2.11 (npm), ABI 14

; Types

; contract ERC20 is Context, IERC20 { … }  abstract contract Ownable { … }
(contract_declaration
  name: (identifier) @name) @definition.class

(interface_declaration
  name: (identifier) @name) @definition.interface

; library SafeMath { … }  — a namespace of functions
(library_declaration
  name: (identifier) @name) @definition.module

(struct_declaration
  name: (identifier) @name) @definition.struct

(enum_declaration
  name: (identifier) @name) @definition.enum

; event Transfer(address indexed from, …);  error Unauthorized(address);
; type Price is uint128;
(event_definition
  name: (identifier) @name) @definition.type

(error_declaration
  name: (identifier) @name) @definition.type

(user_defined_type_definition
  name: (identifier) @name) @definition.type

; Functions

(function_definition
  name: (identifier) @name) @definition.function

; modifier onlyOwner() { … }
(modifier_definition
  name: (identifier) @name) @definition.function

; constructor(…) { … }  receive() external payable { … }  fallback() …
(constructor_definition
  "constructor" @name) @definition.function

(fallback_receive_definition
  ["fallback" "receive"] @name) @definition.function

; Constants

; uint256 public constant MAX = 1e18;  address private immutable _owner;
(state_variable_declaration
  "constant"
  name: (identifier) @name) @definition.const

(state_variable_declaration
  (immutable)
  name: (identifier) @name) @definition.const

; uint256 constant MAX = 1e18;  at file level
(constant_variable_declaration
  name: (identifier) @name) @definition.const
