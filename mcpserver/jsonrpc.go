package mcpserver

import (
	"encoding/json"
	"strings"
)

// JSON-RPC 2.0 error codes.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603

	// CodeHeaderMismatch (2026-07-28, HTTP only): the MCP-Protocol-Version,
	// Mcp-Method or Mcp-Name header is missing or disagrees with the body.
	CodeHeaderMismatch = -32020
	// CodeUnsupportedProtocolVersion (2026-07-28): the request's
	// _meta protocol version is one zumba does not speak.
	CodeUnsupportedProtocolVersion = -32022
)

// nullID is the id of a reply to a message whose id could not be read.
var nullID = json.RawMessage("null")

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// request is an incoming message after its envelope has been checked.
type request struct {
	id     json.RawMessage // nil for a notification
	method string
	params json.RawMessage
	// modern is set by a transport that knows the request is in the
	// 2026-07-28 revision though its params do not say so.
	modern bool
}

// validID reports whether raw is an id JSON-RPC allows: a string, a number
// or null.
func validID(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	switch raw[0] {
	case '"', 'n', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	}
	return false
}

// validParams reports whether raw is params JSON-RPC allows: an object, an
// array, or null (taken as absent).
func validParams(raw json.RawMessage) bool {
	return len(raw) > 0 && (raw[0] == '{' || raw[0] == '[' || raw[0] == 'n')
}

// idKey is the key of a request id among those in flight: the id itself,
// with a string id decoded and re-encoded so that "\u0061" and "a" are the
// same request, as they are to the client.
func idKey(id json.RawMessage) string {
	if len(id) > 0 && id[0] == '"' {
		var s string
		if json.Unmarshal(id, &s) == nil {
			b, _ := json.Marshal(s)
			return string(b)
		}
	}
	return string(id)
}

// clip cuts a name taken from a message to a length fit for an error
// message, so a megabyte-long method or tool name is not sent back.
func clip(s string) string {
	const max = 100
	if len(s) <= max {
		return s
	}
	return strings.ToValidUTF8(s[:max], "") + "…"
}
