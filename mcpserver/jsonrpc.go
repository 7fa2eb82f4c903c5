package mcpserver

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
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
	// version is params._meta's protocol version, when hasVersion.
	version    string
	hasVersion bool
	// modern: the request is served the 2026-07-28 way (requestEra), or
	// a transport knows it is though its params do not say so.
	modern bool
	// refusal, when set, is the error the request gets instead of an
	// answer: its version is one zumba does not speak.
	refusal *rpcError
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

// parse checks a message's envelope. It returns either a request to serve,
// or a reply to send at once (an error), or neither (a notification that
// needs nothing).
func parse(line []byte) (*request, *response) {
	line = bytes.TrimSpace(line)
	if !utf8.Valid(line) {
		return nil, errorReply(nullID, CodeParseError, "parse error: not valid UTF-8")
	}
	if !json.Valid(line) {
		return nil, errorReply(nullID, CodeParseError, "parse error: not valid JSON (or nested deeper than 10000 levels)")
	}
	switch line[0] {
	case '[':
		return nil, errorReply(nullID, CodeInvalidRequest, "invalid request: batches are not supported; send one message per line")
	case '{':
	default:
		return nil, errorReply(nullID, CodeInvalidRequest, "invalid request: a message must be a JSON object")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return nil, errorReply(nullID, CodeParseError, "parse error: "+err.Error())
	}
	id, hasID := m["id"]
	if hasID && !validID(id) {
		return nil, errorReply(nullID, CodeInvalidRequest, "invalid request: id must be a string or a number")
	}
	replyID := id
	if !hasID {
		replyID = nullID
	}
	// A reply from the client (a result or an error) gets no reply. Any
	// other message that is not a valid request gets -32600, with a null
	// id when it has none, as JSON-RPC 2.0's own examples answer
	// {"jsonrpc": "2.0", "method": 1, "params": "bar"} and {"foo": "boo"}.
	_, isResult := m["result"]
	_, isError := m["error"]
	if isResult || isError {
		if _, hasMethod := m["method"]; !hasMethod {
			return nil, nil
		}
	}
	var version string
	if err := json.Unmarshal(m["jsonrpc"], &version); err != nil || version != "2.0" {
		return nil, errorReply(replyID, CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	}
	var method string
	if err := json.Unmarshal(m["method"], &method); err != nil || method == "" {
		return nil, errorReply(replyID, CodeInvalidRequest, `invalid request: "method" must be a non-empty string`)
	}
	if params, ok := m["params"]; ok && !validParams(params) {
		return nil, errorReply(replyID, CodeInvalidRequest, `invalid request: "params" must be an object or an array`)
	}
	req := &request{method: method, params: m["params"]}
	if hasID {
		req.id = id
	}
	req.version, req.hasVersion = metaVersion(req.params)
	req.modern, req.refusal = requestEra(req)
	return req, nil
}

func errorReply(id json.RawMessage, code int, msg string) *response {
	return &response{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: code, Message: msg}}
}

func resultReply(id json.RawMessage, result any) *response {
	return &response{JSONRPC: "2.0", ID: id, Result: result}
}

// encodeReply marshals a reply as one line. HTML escaping is off so that
// ids are echoed byte for byte and "<", ">" and "&" in tool text stay
// readable. A reply that cannot be encoded becomes an internal error.
func encodeReply(r *response) []byte {
	b, err := encode(r)
	if err != nil {
		b, _ = encode(errorReply(r.ID, CodeInternalError, "internal error: cannot encode reply: "+err.Error()))
	}
	return b
}

func encode(r *response) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
