package mcpserver

import (
	"strings"
	"testing"
)

// TestAbuse sends hostile lines, each followed by a valid ping: each bad
// line gets at most one error reply, and the ping is always answered.
func TestAbuse(t *testing.T) {
	t.Parallel()
	deep := 100000
	// huge is the size of the huge inputs, far past anything sane and
	// under MaxLine; no bound of the server lies between -short's size
	// and the full one.
	huge := 8 << 20
	if testing.Short() {
		huge = 2 << 20
	}
	cases := []struct {
		name string
		line string
		code int // the error expected; 0 for a result, -1 for no reply
	}{
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\"}}", CodeParseError},
		{"invalid UTF-8 in id", "{\"jsonrpc\":\"2.0\",\"id\":\"\xc3\",\"method\":\"ping\"}", CodeParseError},
		{"invalid UTF-8 outside JSON", "\xff{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", CodeParseError},
		{"UTF-8 BOM", "\ufeff{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", CodeParseError},
		{"NUL byte", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\x00", CodeParseError},
		{"nested arrays 100k", strings.Repeat("[", deep) + strings.Repeat("]", deep), CodeParseError},
		{"nested objects 100k in params", `{"jsonrpc":"2.0","id":1,"method":"ping","params":` + strings.Repeat(`{"a":`, deep) + "1" + strings.Repeat("}", deep) + "}", CodeParseError},
		{"nested 100k in id", `{"jsonrpc":"2.0","id":` + strings.Repeat("[", deep) + strings.Repeat("]", deep) + `,"method":"ping"}`, CodeParseError},
		{"nested 100k unclosed", strings.Repeat("[", deep), CodeParseError},
		{"nested 9000 in params", `{"jsonrpc":"2.0","id":1,"method":"ping","params":` + strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + "}", 0},
		{"nested arguments", call(1, "outline", map[string]any{"path": nest(5000)}), 0},
		{"huge number id", `{"jsonrpc":"2.0","id":` + strings.Repeat("7", huge/8) + `,"method":"ping"}`, 0},
		{"huge exponent id", `{"jsonrpc":"2.0","id":1e999999999999,"method":"ping"}`, 0},
		{"huge string id", `{"jsonrpc":"2.0","id":"` + strings.Repeat("i", huge) + `","method":"ping"}`, 0},
		{"huge method", `{"jsonrpc":"2.0","id":1,"method":"` + strings.Repeat("m", huge) + `"}`, CodeMethodNotFound},
		{"huge path", call(1, "outline", map[string]string{"path": strings.Repeat("a/", huge/2)}), 0},
		{"huge unknown tool", call(1, strings.Repeat("t", huge/8), nil), CodeInvalidParams},
		{"huge argument name", call(1, "outline", map[string]string{strings.Repeat("k", huge/8): "x"}), 0},
		{"many members", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{` + strings.Repeat(`"a":1,`, 200000) + `"b":2}}`, 0},
		{"duplicate members", `{"jsonrpc":"2.0","id":1,"id":{},"method":"ping"}`, CodeInvalidRequest},
		{"duplicate method", `{"jsonrpc":"2.0","id":1,"method":"ping","method":"x/y"}`, CodeMethodNotFound},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, CodeInvalidRequest},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`, CodeInvalidRequest},
		{"empty batch", `[]`, CodeInvalidRequest},
		{"batch of notifications", `[{"jsonrpc":"2.0","method":"notifications/initialized"}]`, CodeInvalidRequest},
		{"two messages on a line", `{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}`, CodeParseError},
		{"lone surrogate id", `{"jsonrpc":"2.0","id":"\ud800","method":"ping"}`, 0},
		{"escaped NUL in method", `{"jsonrpc":"2.0","id":1,"method":"ping\u0000"}`, CodeMethodNotFound},
		{"only whitespace", " \t ", -1},
		{"carriage return only", "\r", -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if raceEnabled && len(tc.line) > 1<<20 {
				t.Skip("only sizes; slow under the race detector")
			}
			s := newTestServer(t, map[string]string{"a.go": "package a\n"})
			lines := serve(t, s, tc.line+"\n"+ping("after")+"\n")
			want := 2
			if tc.code == -1 {
				want = 1
			}
			if len(lines) != want {
				t.Fatalf("got %d replies; want %d: %q", len(lines), want, shortAll(lines))
			}
			// Tool calls run concurrently: the ping may come first.
			if string(decodeReply(t, lines[0]).ID) == `"after"` {
				lines[0], lines[len(lines)-1] = lines[len(lines)-1], lines[0]
			}
			wantPong(t, lines[len(lines)-1], `"after"`)
			if tc.code == -1 {
				return
			}
			r := decodeReply(t, lines[0])
			switch {
			case tc.code == 0 && r.Error != nil:
				t.Errorf("reply = error %d %q; want a result", r.Error.Code, short(r.Error.Message))
			case tc.code != 0 && (r.Error == nil || r.Error.Code != tc.code):
				t.Errorf("reply = %s; want error %d", short(lines[0]), tc.code)
			}
			if len(r.Error.messageOrEmpty()) > 1000 {
				t.Errorf("error message is %d bytes; a message must not echo huge input", len(r.Error.Message))
			}
		})
	}
}

func (e *rpcError) messageOrEmpty() string {
	if e == nil {
		return ""
	}
	return e.Message
}

func nest(n int) any {
	var v any = "x"
	for range n {
		v = []any{v}
	}
	return v
}

func shortAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = short(l)
	}
	return out
}

// TestInputEndsMidRequest: input that stops in the middle of a message gets
// one parse error, and Serve returns nil; a whole message without its final
// newline is served.
func TestInputEndsMidRequest(t *testing.T) {
	s := newTestServer(t, nil)
	lines := serve(t, s, ping(1)+"\n"+`{"jsonrpc":"2.0","id":2,"meth`)
	if len(lines) != 2 {
		t.Fatalf("got %d replies; want 2", len(lines))
	}
	wantPong(t, lines[0], "1")
	if r := decodeReply(t, lines[1]); r.Error == nil || r.Error.Code != CodeParseError {
		t.Errorf("reply to a cut message = %s; want -32700", lines[1])
	}
	lines = serve(t, s, ping(3))
	if len(lines) != 1 {
		t.Fatalf("got %d replies; want 1", len(lines))
	}
	wantPong(t, lines[0], "3")
	// And through a pipe that closes while a call runs.
	ss := startSession(t, s)
	ss.send(call(4, "test_sleep", map[string]string{"ms": "100"}))
	io := ss.in
	io.Write([]byte(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"outl`))
	rest := ss.close()
	if len(rest) != 2 {
		t.Fatalf("got %q; want the call in flight answered and one parse error", rest)
	}
}
