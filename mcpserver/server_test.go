package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestToolsList(t *testing.T) {
	s := newTestServer(t, nil)
	lines := serve(t, s, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`+"\n"+`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"x"}}`+"\n")
	if len(lines) != 2 {
		t.Fatalf("got %d replies; want 2", len(lines))
	}
	if lines[0] != strings.Replace(lines[1], `"id":2`, `"id":1`, 1) {
		t.Errorf("tools/list with a cursor differs from the first page:\n%s\n%s", lines[0], lines[1])
	}
	var res struct {
		Tools []struct {
			Name        string         `json:"name"`
			Title       string         `json:"title"`
			Description string         `json:"description"`
			InputSchema map[string]any `json:"inputSchema"`
			Annotations map[string]any `json:"annotations"`
		} `json:"tools"`
		NextCursor *string `json:"nextCursor"`
	}
	r := decodeReply(t, lines[0])
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatal(err)
	}
	if res.NextCursor != nil {
		t.Errorf("nextCursor = %q; want none, all tools fit one page", *res.NextCursor)
	}
	if len(res.Tools) != len(tools) {
		t.Errorf("tools/list has %d tools; the registry has %d", len(res.Tools), len(tools))
	}
	seen := map[string]bool{}
	for _, tool := range res.Tools {
		if strings.HasPrefix(tool.Name, "test_") {
			t.Errorf("test tool %s is listed", tool.Name)
		}
		if seen[tool.Name] {
			t.Errorf("tool %s is listed twice", tool.Name)
		}
		seen[tool.Name] = true
		if tool.Title == "" || tool.Description == "" {
			t.Errorf("%s: title %q, description %q; want both", tool.Name, tool.Title, tool.Description)
		}
		// Every token of a description is paid on every request.
		if n := len(strings.Fields(tool.Description)); n > 40 {
			t.Errorf("%s: description has %d words; keep it under 40", tool.Name, n)
		}
		want := map[string]any{"title": tool.Title, "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}
		for k, v := range want {
			if tool.Annotations[k] != v {
				t.Errorf("%s: annotation %s = %v; want %v", tool.Name, k, tool.Annotations[k], v)
			}
		}
		sc := tool.InputSchema
		if sc["type"] != "object" || sc["additionalProperties"] != false {
			t.Errorf("%s: schema type %v, additionalProperties %v; want a strict object", tool.Name, sc["type"], sc["additionalProperties"])
		}
		props, _ := sc["properties"].(map[string]any)
		for name, p := range props {
			pm, _ := p.(map[string]any)
			items, _ := pm["items"].(map[string]any)
			list := pm["type"] == "array" && items["type"] == "string" && pm["maxItems"] != nil
			if (pm["type"] != "string" && pm["type"] != "boolean" && pm["type"] != "integer" && !list) || pm["description"] == "" {
				t.Errorf("%s: property %s = %v; want a described string, boolean, integer or bounded list of strings", tool.Name, name, p)
			}
		}
		req, ok := sc["required"].([]any)
		if !ok {
			t.Errorf("%s: required = %v; want a list", tool.Name, sc["required"])
		}
		for _, n := range req {
			if _, ok := props[n.(string)]; !ok {
				t.Errorf("%s: required %v is not a property", tool.Name, n)
			}
		}
	}
	if !seen["outline"] {
		t.Error("tools/list lacks outline")
	}
}

func TestInitializeResult(t *testing.T) {
	s := newTestServer(t, nil)
	lines := serve(t, s, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`+"\n")
	var res struct {
		ServerInfo   struct{ Name, Version string } `json:"serverInfo"`
		Instructions string                         `json:"instructions"`
	}
	if err := json.Unmarshal(decodeReply(t, lines[0]).Result, &res); err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo.Name != "zumba" || res.ServerInfo.Version != Version {
		t.Errorf("serverInfo = %+v; want zumba %s", res.ServerInfo, Version)
	}
	for _, tool := range tools {
		if !strings.Contains(res.Instructions, tool.Name) {
			t.Errorf("instructions do not say when to use %s", tool.Name)
		}
	}
}

// TestIDsEchoedExactly checks ids byte for byte, which the JSON comparison
// of the conformance cases cannot.
func TestIDsEchoedExactly(t *testing.T) {
	ids := []string{`0`, `-0`, `1`, `-1`, `18446744073709551615`, `18446744073709551616`,
		`1.0`, `1.5e3`, `1E-7`, `1e400`, strings.Repeat("9", 5000), `""`, `"a"`, `"\u0061"`,
		`"<&>"`, `"\ud83d\ude00"`, `"😀"`, `"\/"`, `null`}
	var in strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%s,"method":"ping"}`+"\n", id)
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"test_sleep","arguments":{"ms":"0"}}}`+"\n", id)
	}
	s := newTestServer(t, nil)
	lines := serve(t, s, in.String())
	if len(lines) != 2*len(ids) {
		t.Fatalf("got %d replies; want %d", len(lines), 2*len(ids))
	}
	count := map[string]int{}
	for _, l := range lines {
		count[string(decodeReply(t, l).ID)]++
	}
	for _, id := range ids {
		if count[id] != 2 {
			t.Errorf("id %s echoed %d times; want 2 (ping and tools/call), ids seen: %v", short(id), count[id], keys(count))
		}
	}
}

func keys(m map[string]int) []string {
	var out []string
	for k := range m {
		out = append(out, short(k))
	}
	return out
}

func TestPanicInHandler(t *testing.T) {
	s := newTestServer(t, nil)
	lines := serve(t, s, call(1, "test_panic", map[string]string{"msg": "boom"})+"\n"+ping(2)+"\n"+call(3, "test_panic", nil)+"\n")
	if len(lines) != 3 {
		t.Fatalf("got %d replies; want 3", len(lines))
	}
	byID := map[string]reply{}
	for _, l := range lines {
		r := decodeReply(t, l)
		byID[string(r.ID)] = r
	}
	for _, id := range []string{"1", "3"} {
		r := byID[id]
		if r.Error == nil || r.Error.Code != CodeInternalError || !strings.Contains(r.Error.Message, "test panic") {
			t.Errorf("reply to the panicking call %s = %+v; want -32603 naming the panic", id, r)
		}
	}
	if r := byID["2"]; r.Error != nil || string(r.Result) != "{}" {
		t.Errorf("ping after a panic = %+v; want {}", r)
	}
}

// TestLongLines: a line of exactly MaxLine bytes is served, one byte more
// is refused with -32600 and skipped, and the server goes on. CRLF line
// ends are accepted.
func TestLongLines(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("reads three 64 MiB lines")
	}
	in := io.MultiReader(
		paddedPing(7, MaxLine), strings.NewReader("\r\n"),
		paddedPing(8, MaxLine+1), strings.NewReader("\n"+ping(9)+"\n"),
		paddedPing(10, MaxLine+1),
	)
	s := newTestServer(t, nil)
	var out strings.Builder
	if err := s.Serve(context.Background(), in, &out); err != nil {
		t.Fatal(err)
	}
	lines := checkOutput(t, []byte(out.String()))
	if len(lines) != 4 {
		t.Fatalf("got %d replies; want 4", len(lines))
	}
	wantPong(t, lines[0], "7")
	for _, l := range []string{lines[1], lines[3]} {
		r := decodeReply(t, l)
		if string(r.ID) != "null" || r.Error == nil || r.Error.Code != CodeInvalidRequest || !strings.Contains(r.Error.Message, "longer than") {
			t.Errorf("reply to an overlong line = %s; want -32600 with id null", short(l))
		}
	}
	wantPong(t, lines[2], "9")
}

// paddedPing reads as a ping of exactly n bytes, without holding them.
func paddedPing(id, n int) io.Reader {
	start := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"pad":"`, id)
	end := `"}}`
	return io.MultiReader(strings.NewReader(start), io.LimitReader(repeatByte('x'), int64(n-len(start)-len(end))), strings.NewReader(end))
}

// repeatByte reads as an endless run of one byte.
type repeatByte byte

func (r repeatByte) Read(p []byte) (int, error) {
	block := bytes.Repeat([]byte{byte(r)}, min(len(p), 64<<10))
	return copy(p, block), nil
}

// TestEndOfInput: when input ends, the calls in flight finish and their
// replies are written before Serve returns nil.
func TestEndOfInput(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	start := time.Now()
	lines := serve(t, s, call(1, "test_sleep", map[string]string{"ms": "300"})+"\n"+call(2, "test_sleep", map[string]string{"ms": "200"}))
	if len(lines) != 2 {
		t.Fatalf("got %d replies; want the 2 calls in flight at the end of input", len(lines))
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("Serve returned after %v, before the calls finished", d)
	}
}

func TestConcurrentBurst(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, map[string]string{"a.go": "package a\n\nfunc A() {}\n\ntype T struct{}\n\nfunc (t *T) M() {}\n"})
	ss := startSession(t, s)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var line string
			if i%2 == 0 {
				line = call(fmt.Sprintf("req-%d", i), "outline", map[string]string{"path": "a.go"})
			} else {
				line = call(i, "test_sleep", map[string]string{"ms": fmt.Sprint(i * 3)})
			}
			mu.Lock()
			ss.send(line)
			mu.Unlock()
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for range 20 {
		r := decodeReply(t, ss.next())
		text, isErr := toolText(t, r)
		var id any
		json.Unmarshal(r.ID, &id)
		switch id := id.(type) {
		case string:
			if isErr || text != "3 function A\n5 struct T\n7 method T.M" {
				t.Errorf("reply %s = %q; want the outline of a.go", id, text)
			}
		case float64:
			if want := fmt.Sprintf("slept %d", int(id)*3); text != want {
				t.Errorf("reply %v = %q; want %q", id, text, want)
			}
		}
		if seen[string(r.ID)] {
			t.Errorf("id %s answered twice", r.ID)
		}
		seen[string(r.ID)] = true
	}
	if rest := ss.close(); len(rest) != 0 {
		t.Errorf("unexpected replies after the burst: %q", rest)
	}
}

// TestThousandInFlight sends 1,000 calls without waiting; the server takes
// them maxInFlight at a time and answers each once.
func TestThousandInFlight(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, map[string]string{"a.md": "# A\n## B\n"})
	var in strings.Builder
	for i := range 1000 {
		if i%2 == 0 {
			in.WriteString(call(i, "test_sleep", map[string]string{"ms": "1"}) + "\n")
		} else {
			in.WriteString(call(i, "outline", map[string]string{"path": "a.md"}) + "\n")
		}
	}
	lines := serve(t, s, in.String())
	seen := map[string]bool{}
	for _, l := range lines {
		r := decodeReply(t, l)
		if text, isErr := toolText(t, r); isErr {
			t.Errorf("reply %s is an error: %s", r.ID, text)
		}
		seen[string(r.ID)] = true
	}
	if len(lines) != 1000 || len(seen) != 1000 {
		t.Errorf("got %d replies with %d distinct ids; want 1000", len(lines), len(seen))
	}
}

// TestDuplicateIDInFlight: a second call with the id of one still running
// is refused; the first one is answered normally.
func TestDuplicateIDInFlight(t *testing.T) {
	s := newTestServer(t, nil)
	ss := startSession(t, s)
	// A key of this run's own: a released key stays released (-count=2).
	key := fmt.Sprintf("dup %p", t)
	ss.send(call("dup", "test_block", map[string]string{"key": key}))
	waitStarted(t, key)
	ss.send(call("dup", "test_sleep", map[string]string{"ms": "0"}))
	r := decodeReply(t, ss.next())
	if string(r.ID) != `"dup"` || r.Error == nil || r.Error.Code != CodeInvalidRequest {
		t.Fatalf("reply to a duplicate id = %+v; want -32600 with the id", r)
	}
	// A string id written differently is the same id.
	ss.send(call("\u0064up", "test_sleep", map[string]string{"ms": "0"}))
	ss.send(strings.Replace(call("x", "test_sleep", map[string]string{"ms": "0"}), `"x"`, `"\u0064up"`, 1))
	for range 2 {
		if r := decodeReply(t, ss.next()); r.Error == nil || r.Error.Code != CodeInvalidRequest {
			t.Fatalf("reply to a duplicate id = %+v; want -32600", r)
		}
	}
	release(key)
	if text, _ := toolText(t, decodeReply(t, ss.next())); text != "released "+key {
		t.Errorf("first call answered %q; want released dup", text)
	}
	// Once answered, the id may be used again.
	ss.send(call("dup", "test_sleep", map[string]string{"ms": "0"}))
	if text, _ := toolText(t, decodeReply(t, ss.next())); text != "slept 0" {
		t.Errorf("reused id answered %q", text)
	}
	ss.close()
}

// TestCancelled: notifications/cancelled stops the named call, which then
// gets no reply; a slow call never delays ping.
func TestCancelled(t *testing.T) {
	s := newTestServer(t, nil)
	ss := startSession(t, s)
	ss.send(call(7, "test_block", map[string]string{"key": "cancel7"}))
	ss.send(call("s", "test_block", map[string]string{"key": "cancel-s"}))
	waitStarted(t, "cancel7")
	waitStarted(t, "cancel-s")
	for i := range 3 {
		ss.send(ping(100 + i))
		wantPong(t, ss.next(), fmt.Sprint(100+i))
	}
	ss.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}`)
	ss.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"\u0073"}}`)
	// A cancellation of an unknown or finished request is ignored.
	ss.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12345}}`)
	ss.send(ping(200))
	wantPong(t, ss.next(), "200")
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := s.running.Load()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d calls still in flight after their cancellation", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	ss.send(ping(201))
	wantPong(t, ss.next(), "201")
	if rest := ss.close(); len(rest) != 0 {
		t.Errorf("cancelled calls were answered: %q", rest)
	}
}

// TestContextCancel: cancelling Serve's context ends it at once, even while
// the client keeps its input open and says nothing (a signal).
func TestContextCancel(t *testing.T) {
	s := newTestServer(t, nil)
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var out strings.Builder
	go func() { done <- s.Serve(ctx, inR, &syncWriter{w: &out}) }()
	io.WriteString(inW, ping(1)+"\n")
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve = %v; want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after its context was cancelled")
	}
	if got := out.String(); got != `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n" {
		t.Errorf("output = %q", got)
	}
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// TestWriteFailure: when the output breaks, Serve stops with an error
// instead of serving a client that can no longer hear it.
func TestWriteFailure(t *testing.T) {
	s := newTestServer(t, nil)
	inR, inW := io.Pipe()
	defer inW.Close()
	done := make(chan error, 1)
	go func() { done <- s.Serve(context.Background(), inR, failWriter{}) }()
	io.WriteString(inW, ping(1)+"\n")
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "write output") {
			t.Errorf("Serve = %v; want a write error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after its output failed")
	}
}

type failWriter struct{}

func (failWriter) Write(p []byte) (int, error) { return 0, errors.New("broken pipe") }

// TestBackPressure: a client that stops reading replies makes the server
// stop reading requests once maxInFlight calls wait to write, so its
// memory stays bounded; when the client reads again, every request is
// answered.
func TestBackPressure(t *testing.T) {
	t.Parallel()
	const n = 5000
	s := newTestServer(t, nil)
	in := &lineSource{n: n, line: func(i int) string { return call(i, "test_sleep", map[string]string{"ms": "0"}) }}
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- s.Serve(context.Background(), in, outW)
		outW.Close()
	}()
	// Stalled: nothing more read over five polls in a row (a loaded
	// machine can leave the server a single poll without reading).
	var consumed int64
	for still, polls := 0, 0; still < 5 && polls < 250; polls++ {
		time.Sleep(20 * time.Millisecond)
		now := in.consumed()
		if now == consumed && now > 0 {
			still++
		} else {
			still = 0
		}
		consumed = now
	}
	time.Sleep(200 * time.Millisecond)
	if now := in.consumed(); now != consumed {
		t.Fatalf("the server kept reading (%d, then %d bytes) while nobody read its replies", consumed, now)
	}
	lineLen := int64(len(in.line(n)) + 1)
	// What may be read ahead: the input buffer, the line the reader holds,
	// the line waiting for a slot, and the calls in flight.
	limit := 2*64<<10 + (maxInFlight+4)*lineLen
	t.Logf("stalled after reading %d bytes (%d lines); limit %d", consumed, consumed/lineLen, limit)
	if consumed > limit || consumed == int64(n)*lineLen {
		t.Fatalf("the server read %d bytes of requests while its replies were not read; want at most %d", consumed, limit)
	}
	lines := checkOutput(t, mustReadAll(t, outR))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(lines) != n {
		t.Errorf("got %d replies; want %d", len(lines), n)
	}
}

func mustReadAll(t *testing.T, r io.Reader) []byte {
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// lineSource reads as n generated lines and counts the bytes read.
type lineSource struct {
	n    int
	line func(i int) string
	mu   sync.Mutex
	i    int
	buf  []byte
	read int64
}

func (s *lineSource) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.buf) == 0 {
		if s.i == s.n {
			return 0, io.EOF
		}
		s.buf = []byte(s.line(s.i) + "\n")
		s.i++
	}
	k := copy(p, s.buf)
	s.buf = s.buf[k:]
	s.read += int64(k)
	return k, nil
}

func (s *lineSource) consumed() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.read
}

// TestPromptErrors: what prompts/get refuses, each with -32602 naming it.
func TestPromptErrors(t *testing.T) {
	for _, c := range []struct{ params, want string }{
		{`{}`, "name is missing"},
		{`[]`, "takes an object"},
		{`{"name":"nope"}`, "unknown prompt nope"},
		{`{"name":"explain"}`, "argument name is required"},
		{`{"name":"explain","arguments":{"name":""}}`, "argument name is required"},
		{`{"name":"explain","arguments":{"name":7}}`, "argument name must be a string"},
		{`{"name":"explain","arguments":{"name":"x","nmae":"y"}}`, "takes no argument nmae"},
		{`{"name":"find","arguments":{}}`, "argument description is required"},
	} {
		_, rerr := getPrompt(json.RawMessage(c.params))
		if rerr == nil || rerr.Code != CodeInvalidParams || !strings.Contains(rerr.Message, c.want) {
			t.Errorf("prompts/get %s = %+v; want -32602 saying %q", c.params, rerr, c.want)
		}
	}
}

// TestPromptGet: prompts/get's result is the prompt's description and one
// user text, the text the command-line twin gives.
func TestPromptGet(t *testing.T) {
	res, rerr := getPrompt(json.RawMessage(`{"name":"explain","arguments":{"name":"Server.Serve"}}`))
	if rerr != nil {
		t.Fatal(rerr.Message)
	}
	want, err := PromptText("explain", []string{"Server.Serve"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Description == "" || len(res.Messages) != 1 || res.Messages[0].Role != "user" || res.Messages[0].Content.Type != "text" || res.Messages[0].Content.Text != want {
		t.Errorf("prompts/get explain = %+v; want its description and one user text %q", res, want)
	}
}
