package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"
)

// TestVersionEcho (issue 32, item 5): -32022 repeats the requested version
// cut (a 1 MB version made an answer of 2 MB), and a version that is not a
// string is not repeated at all (it came back as raw JSON).
func TestVersionEcho(t *testing.T) {
	s := newTestServer(t, nil)
	withVersion := func(v any) string {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list",
			"params": map[string]any{"_meta": map[string]any{metaProtocolVersion: v}}})
		return string(b)
	}
	for what, v := range map[string]any{
		"1 MB version":     strings.Repeat("9", 1<<20),
		"object version":   map[string]any{"secret": strings.Repeat("s", 1000)},
		"number version":   7,
		"escape sequences": "2099\x1b[31m\n-01-01",
	} {
		lines := serve(t, s, withVersion(v)+"\n")
		if len(lines) != 1 {
			t.Fatalf("%s: %d replies", what, len(lines))
		}
		if len(lines[0]) > 1500 {
			t.Errorf("%s: a reply of %d bytes: %.200s…; want the version cut", what, len(lines[0]), lines[0])
		}
		r := decodeReply(t, lines[0])
		if r.Error == nil || r.Error.Code != CodeUnsupportedProtocolVersion {
			t.Fatalf("%s: %s; want -32022", what, short(lines[0]))
		}
		if strings.Contains(lines[0], "secret") || strings.Contains(lines[0], `"requested":7`) {
			t.Errorf("%s: %s; a version that is not a string must not be echoed", what, short(lines[0]))
		}
		if strings.ContainsFunc(r.Error.Message, unicode.IsControl) {
			t.Errorf("%s: message %q holds a control character", what, r.Error.Message)
		}
	}
}

// TestEchoesEscaped (issue 32, item 12): a name, method, path or argument
// holding a newline or a terminal escape sequence is echoed escaped, so
// the one-line error stays one line and shows the sequence as text.
func TestEchoesEscaped(t *testing.T) {
	s := newTestServer(t, map[string]string{"a.go": "package a\n\nfunc A() {}\n"})
	const evil = "x\x1b[31m\nnext\u2028line"
	text := func(r reply) string {
		if r.Error != nil {
			return r.Error.Message
		}
		got, _ := toolText(t, r)
		return got
	}
	for what, line := range map[string]string{
		"method":                   `{"jsonrpc":"2.0","id":1,"method":` + quoteJSON(evil) + `}`,
		"tool name":                call(1, evil, nil),
		"argument name":            call(1, "outline", map[string]string{"path": "a.go", evil: "1"}),
		"outline path":             call(1, "outline", map[string]string{"path": evil + ".go"}),
		"find_symbol name":         call(1, "find_symbol", map[string]string{"name": evil}),
		"read_symbol name":         call(1, "read_symbol", map[string]string{"name": evil}),
		"read_symbol path:line":    call(1, "read_symbol", map[string]string{"name": evil + ".go:3"}),
		"find_references name":     call(1, "find_references", map[string]string{"name": evil}),
		"find_references path":     call(1, "find_references", map[string]string{"name": "A", "path": evil}),
		"diagnostics path":         call(1, "diagnostics", map[string]string{"path": evil}),
		"find_references bad glob": call(1, "find_references", map[string]string{"name": "A", "path": "[" + evil}),
	} {
		lines := serve(t, s, line+"\n")
		if len(lines) != 1 {
			t.Fatalf("%s: %d replies", what, len(lines))
		}
		got := text(decodeReply(t, lines[0]))
		if strings.ContainsAny(got, "\n\x1b\u2028") {
			t.Errorf("%s: answer %q repeats a control character", what, got)
		}
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
