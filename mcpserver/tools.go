package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/zumba-dev/zumba/internal/project"
)

// Tool is one MCP tool: what it is called, what it takes, and its handler.
type Tool struct {
	Name        string
	Title       string
	Description string
	Params      []Param
	// Handle answers a call whose arguments have been checked against
	// Params. It returns the tool's text; isError marks a tool failure.
	Handle func(ctx context.Context, s *Server, args Args) (text string, isError bool)
}

// Param is one argument of a tool: a string, a boolean when Bool is set,
// or an integer when Int is.
type Param struct {
	Name        string
	Description string
	Required    bool
	// Bool: the argument is true or false (the strings "true" and "false"
	// are accepted too); Args holds "true" or "".
	Bool bool
	// Enum, when set, lists the values a string argument may take.
	Enum []string
	// Int: the argument is an integer from Min to Max (a string of its
	// digits is accepted too); Args holds it in decimal.
	Int      bool
	Min, Max int
	// List: the argument is an array of at most List strings (one string
	// is accepted too); Args holds them joined by listSep (see
	// Args.List).
	List int
}

// listSep joins a list argument's strings in Args.
const listSep = "\x00"

// List is the list argument name's strings; none when it is absent.
func (a Args) List(name string) []string {
	if a[name] == "" {
		return nil
	}
	return strings.Split(a[name], listSep)
}

// Args are a call's arguments by name; an absent optional one is "".
type Args map[string]string

// tools is the registry, in the order tools/list shows them.
var tools = []*Tool{
	outlineTool,
	findSymbolTool,
	readSymbolTool,
	findReferencesTool,
	findCodeTool,
	changesTool,
	diagnosticsTool,
}

func (t *Tool) schema() map[string]any {
	props := map[string]any{}
	required := []string{}
	for _, p := range t.Params {
		prop := map[string]any{"type": "string", "description": p.Description}
		if p.Bool {
			prop["type"] = "boolean"
		}
		if p.Int {
			prop["type"], prop["minimum"], prop["maximum"] = "integer", p.Min, p.Max
		}
		if len(p.Enum) > 0 {
			prop["enum"] = p.Enum
		}
		if p.List > 0 {
			prop["type"], prop["items"], prop["maxItems"] = "array", map[string]any{"type": "string"}, p.List
		}
		props[p.Name] = prop
		if p.Required {
			required = append(required, p.Name)
		}
	}
	return map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}
}

func toolList() []any {
	list := make([]any, 0, len(tools))
	for _, t := range tools {
		list = append(list, map[string]any{
			"name":        t.Name,
			"title":       t.Title,
			"description": t.Description,
			"inputSchema": t.schema(),
			"annotations": map[string]any{
				"title":           t.Title,
				"readOnlyHint":    true,
				"destructiveHint": false,
				"idempotentHint":  true,
				"openWorldHint":   false,
			},
		})
	}
	return list
}

// toolResult is the result of tools/call.
type toolResult struct {
	Content []textContent `json:"content"`
	IsError bool          `json:"isError"`
	// ResultType is "complete" for a 2026-07-28 request, absent otherwise.
	ResultType string `json:"resultType,omitempty"`
}

type textContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func (s *Server) callTool(ctx context.Context, params json.RawMessage) (*toolResult, *rpcError) {
	var p struct {
		Name      *string         `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if len(params) == 0 || params[0] != '{' || json.Unmarshal(params, &p) != nil {
		return nil, &rpcError{Code: CodeInvalidParams, Message: "invalid params: tools/call takes an object with name and arguments"}
	}
	if p.Name == nil {
		return nil, &rpcError{Code: CodeInvalidParams, Message: "invalid params: missing tool name"}
	}
	t := s.tools[*p.Name]
	if t == nil {
		return nil, &rpcError{Code: CodeInvalidParams, Message: fmt.Sprintf("invalid params: unknown tool %s; the tools are %s", project.Quote(*p.Name), toolNames())}
	}
	text, isError := s.Call(ctx, t.Name, p.Arguments)
	return &toolResult{Content: []textContent{{Type: "text", Text: text}}, IsError: isError}, nil
}

// quoteList is "a" or "b" for a message.
func quoteList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, " or ")
}

func toolNames() string {
	names := make([]string, 0, len(tools))
	for _, t := range tools {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// Call runs the tool name with raw JSON arguments (an object, or empty) and
// returns its text. The command line uses it too, so both print the same.
func (s *Server) Call(ctx context.Context, name string, raw json.RawMessage) (text string, isError bool) {
	t := s.tools[name]
	if t == nil {
		return fmt.Sprintf("unknown tool %s; the tools are %s", project.Quote(name), toolNames()), true
	}
	args, err := t.decode(raw)
	if err != nil {
		return err.Error(), true
	}
	if s.multi {
		return s.callRoots(ctx, t, args)
	}
	return t.Handle(ctx, s, args)
}

// run runs the tool t with decoded arguments on s's root.
func (s *Server) run(ctx context.Context, t *Tool, args Args) (string, bool) {
	return t.Handle(ctx, s, args)
}

// CallArgs is Call with arguments given as strings.
func (s *Server) CallArgs(ctx context.Context, name string, args map[string]string) (string, bool) {
	raw, _ := json.Marshal(args)
	return s.Call(ctx, name, raw)
}

func (t *Tool) decode(raw json.RawMessage) (Args, error) {
	var m map[string]json.RawMessage
	trimmed := strings.TrimSpace(string(raw))
	if trimmed != "" && trimmed != "null" {
		if trimmed[0] != '{' || json.Unmarshal(raw, &m) != nil {
			return nil, fmt.Errorf("%s: arguments must be an object", t.Name)
		}
	}
	args := Args{}
	known := map[string]bool{}
	for _, p := range t.Params {
		known[p.Name] = true
		v, ok := m[p.Name]
		if !ok || string(v) == "null" {
			if p.Required {
				return nil, fmt.Errorf("%s: missing argument %q", t.Name, p.Name)
			}
			continue
		}
		var str string
		if p.Bool {
			var b bool
			if json.Unmarshal(v, &b) != nil {
				if json.Unmarshal(v, &str) != nil || (str != "true" && str != "false") {
					return nil, fmt.Errorf("%s: argument %q must be true or false", t.Name, p.Name)
				}
				b = str == "true"
			}
			if b {
				args[p.Name] = "true"
			}
			continue
		}
		if p.List > 0 {
			list, err := decodeList(v, p)
			if err != nil {
				return nil, fmt.Errorf("%s: argument %q must be an array of at most %d strings", t.Name, p.Name, p.List)
			}
			args[p.Name] = strings.Join(list, listSep)
			continue
		}
		if p.Int {
			n, err := decodeInt(v, p)
			if err != nil {
				return nil, fmt.Errorf("%s: argument %q must be an integer from %d to %d", t.Name, p.Name, p.Min, p.Max)
			}
			args[p.Name] = strconv.Itoa(n)
			continue
		}
		if json.Unmarshal(v, &str) != nil {
			return nil, fmt.Errorf("%s: argument %q must be a string", t.Name, p.Name)
		}
		if len(p.Enum) > 0 && str != "" && !slices.Contains(p.Enum, str) {
			return nil, fmt.Errorf("%s: argument %q must be %s", t.Name, p.Name, quoteList(p.Enum))
		}
		args[p.Name] = str
	}
	var extra []string
	for k := range m {
		if !known[k] {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return nil, fmt.Errorf("%s: unknown argument %s", t.Name, project.Quote(extra[0]))
	}
	return args, nil
}

// decodeList reads a list argument of p: an array of at most p.List
// strings without NUL bytes, or one string.
func decodeList(v json.RawMessage, p Param) ([]string, error) {
	var list []string
	if err := json.Unmarshal(v, &list); err != nil {
		var one string
		if json.Unmarshal(v, &one) != nil {
			return nil, err
		}
		list = []string{one}
	}
	if len(list) > p.List || slices.ContainsFunc(list, func(s string) bool { return strings.Contains(s, listSep) }) {
		return nil, fmt.Errorf("too many")
	}
	return list, nil
}

// decodeInt reads an integer argument of p: a JSON integer, or a string
// of its digits, from p.Min to p.Max.
func decodeInt(v json.RawMessage, p Param) (int, error) {
	var n int
	if err := json.Unmarshal(v, &n); err != nil {
		var str string
		if json.Unmarshal(v, &str) != nil {
			return 0, err
		}
		if n, err = strconv.Atoi(strings.TrimSpace(str)); err != nil {
			return 0, err
		}
	}
	if n < p.Min || n > p.Max {
		return 0, fmt.Errorf("out of range")
	}
	return n, nil
}
