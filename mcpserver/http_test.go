package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/search"
)

// httpClient posts to one test server.
type httpClient struct {
	t   testing.TB
	url string
	h   *HTTPHandler
}

func newHTTPTest(t testing.TB, opts HTTPOptions) (*httpClient, *Server) {
	t.Helper()
	s := newTestServer(t, map[string]string{"main.go": "package main\n\nfunc main() {}\n"})
	opts.Loopback = true
	h := s.HTTPHandler(opts)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return &httpClient{t: t, url: ts.URL + "/mcp", h: h}, s
}

// modernHeaders are the headers of a 2026-07-28 request.
func modernHeaders(method, name string) map[string]string {
	h := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}
	if name != "" {
		h["Mcp-Name"] = name
	}
	return h
}

const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// do sends one request and returns the status, headers and body.
func (c *httpClient) do(method, body string, headers map[string]string) (int, http.Header, string) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.url, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, body, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// wantError checks that body is a JSON-RPC error with this code.
func wantError(t testing.TB, what, body string, code int) {
	t.Helper()
	var r struct {
		Error *rpcError `json:"error"`
	}
	if json.Unmarshal([]byte(body), &r) != nil || r.Error == nil || r.Error.Code != code {
		t.Errorf("%s: body %s; want a JSON-RPC error %d", what, short(body), code)
	}
}

func TestHTTPModern(t *testing.T) {
	t.Parallel()
	c, _ := newHTTPTest(t, HTTPOptions{})
	status, hd, body := c.do("POST", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+meta+`}}`, modernHeaders("server/discover", ""))
	if status != 200 || hd.Get("Content-Type") != "application/json" || !strings.Contains(body, `"supportedVersions":["2026-07-28"`) || hd.Get("Mcp-Session-Id") != "" {
		t.Errorf("server/discover = %d %v %s; want 200 application/json with the versions, no session", status, hd, short(body))
	}
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"outline","arguments":{"path":"main.go"},` + meta + `}}`
	status, _, body = c.do("POST", call, modernHeaders("tools/call", "outline"))
	if want := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"3 function main"}],"isError":false,"resultType":"complete"}}` + "\n"; status != 200 || body != want {
		t.Errorf("tools/call = %d %s; want 200 %s", status, body, want)
	}
	// The tool name may come Base64-encoded.
	h := modernHeaders("tools/call", "=?base64?b3V0bGluZQ==?=")
	if status, _, body = c.do("POST", call, h); status != 200 {
		t.Errorf("tools/call with a Base64 Mcp-Name = %d %s; want 200", status, short(body))
	}
	// Without _meta, the header names the version (the SDKs send ping so).
	status, _, body = c.do("POST", `{"jsonrpc":"2.0","id":5,"method":"ping"}`, modernHeaders("ping", ""))
	if want := `{"jsonrpc":"2.0","id":5,"result":{"resultType":"complete"}}` + "\n"; status != 200 || body != want {
		t.Errorf("ping with the 2026-07-28 header = %d %s; want %s", status, body, want)
	}
	for _, tc := range []struct {
		what    string
		body    string
		headers map[string]string
		status  int
		code    int
	}{
		{"no version header", call, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "outline"}, 400, CodeHeaderMismatch},
		{"other version header", call, map[string]string{"MCP-Protocol-Version": "2025-11-25", "Mcp-Method": "tools/call", "Mcp-Name": "outline"}, 400, CodeHeaderMismatch},
		{"no method header", call, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Name": "outline"}, 400, CodeHeaderMismatch},
		{"other method header", call, modernHeaders("tools/list", "outline"), 400, CodeHeaderMismatch},
		{"no name header", call, modernHeaders("tools/call", ""), 400, CodeHeaderMismatch},
		{"other name header", call, modernHeaders("tools/call", "find_symbol"), 400, CodeHeaderMismatch},
		{"unknown version", strings.ReplaceAll(call, "2026-07-28", "2099-01-01"), map[string]string{"MCP-Protocol-Version": "2099-01-01", "Mcp-Method": "tools/call", "Mcp-Name": "outline"}, 400, CodeUnsupportedProtocolVersion},
		{"unknown method", `{"jsonrpc":"2.0","id":3,"method":"resources/list","params":{` + meta + `}}`, modernHeaders("resources/list", ""), 404, CodeMethodNotFound},
		{"bad params", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope",` + meta + `}}`, modernHeaders("tools/call", "nope"), 200, CodeInvalidParams},
	} {
		status, _, body := c.do("POST", tc.body, tc.headers)
		if status != tc.status {
			t.Errorf("%s: status %d; want %d (%s)", tc.what, status, tc.status, short(body))
		}
		wantError(t, tc.what, body, tc.code)
	}
}

func TestHTTPLegacy(t *testing.T) {
	t.Parallel()
	c, _ := newHTTPTest(t, HTTPOptions{})
	status, hd, body := c.do("POST", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`, nil)
	sid := hd.Get("Mcp-Session-Id")
	if status != 200 || sid == "" || !strings.Contains(body, `"protocolVersion":"2025-06-18"`) || strings.Contains(body, "resultType") {
		t.Fatalf("initialize = %d %v %s; want 200 with a session and the version asked for", status, hd, short(body))
	}
	inSession := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-06-18"}
	if status, _, body = c.do("POST", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, inSession); status != 202 || body != "" {
		t.Errorf("notifications/initialized = %d %q; want 202 and no body", status, body)
	}
	status, _, body = c.do("POST", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, inSession)
	if status != 200 || !strings.Contains(body, `"name":"outline"`) || strings.Contains(body, "ttlMs") {
		t.Errorf("tools/list = %d %s; want the tools as before", status, short(body))
	}
	// A call without initialize (no session) is answered, as on stdio.
	status, _, body = c.do("POST", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"outline","arguments":{"path":"main.go"}}}`, nil)
	if want := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"3 function main"}],"isError":false}}` + "\n"; status != 200 || body != want {
		t.Errorf("tools/call without a session = %d %s; want %s", status, body, want)
	}
	for _, tc := range []struct {
		what    string
		method  string
		body    string
		headers map[string]string
		status  int
	}{
		{"GET", "GET", "", inSession, 405},
		{"unknown version header", "POST", `{"jsonrpc":"2.0","id":3,"method":"ping"}`, map[string]string{"MCP-Protocol-Version": "1999-01-01"}, 400},
		{"unknown session", "POST", `{"jsonrpc":"2.0","id":3,"method":"ping"}`, map[string]string{"Mcp-Session-Id": "nope"}, 404},
		{"not JSON", "POST", `{"jsonrpc"`, nil, 400},
		{"batch", "POST", `[{"jsonrpc":"2.0","id":3,"method":"ping"}]`, nil, 400},
		{"other content type", "POST", `{"jsonrpc":"2.0","id":3,"method":"ping"}`, map[string]string{"Content-Type": "text/plain"}, 415},
		{"accepts no JSON", "POST", `{"jsonrpc":"2.0","id":3,"method":"ping"}`, map[string]string{"Accept": "text/html"}, 406},
		{"other path", "POST", "", nil, 0},
		{"DELETE no session", "DELETE", "", nil, 400},
		{"DELETE unknown session", "DELETE", "", map[string]string{"Mcp-Session-Id": "nope"}, 404},
		{"DELETE", "DELETE", "", inSession, 204},
		{"after DELETE", "POST", `{"jsonrpc":"2.0","id":4,"method":"ping"}`, inSession, 404},
	} {
		if tc.status == 0 {
			continue
		}
		if status, _, body := c.do(tc.method, tc.body, tc.headers); status != tc.status {
			t.Errorf("%s: status %d; want %d (%s)", tc.what, status, tc.status, short(body))
		}
	}
	resp, err := http.Post(strings.TrimSuffix(c.url, "/mcp")+"/other", "application/json", strings.NewReader(`{}`))
	if err != nil || resp.StatusCode != 404 {
		t.Errorf("POST /other = %v, %v; want 404", resp, err)
	}
}

func TestHTTPSecurity(t *testing.T) {
	t.Parallel()
	c, _ := newHTTPTest(t, HTTPOptions{Token: "s3cret-token"})
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	auth := "Bearer s3cret-token"
	for _, tc := range []struct {
		what    string
		headers map[string]string
		status  int
	}{
		{"no token", nil, 401},
		{"wrong token", map[string]string{"Authorization": "Bearer s3cret-tokem"}, 401},
		{"token prefix", map[string]string{"Authorization": "Bearer s3cret"}, 401},
		{"token longer", map[string]string{"Authorization": "Bearer s3cret-token2"}, 401},
		{"other scheme", map[string]string{"Authorization": "Basic s3cret-token"}, 401},
		{"token", map[string]string{"Authorization": auth}, 200},
		{"scheme in lower case", map[string]string{"Authorization": "bearer s3cret-token"}, 200},
		{"cross-origin", map[string]string{"Authorization": auth, "Origin": "https://evil.example"}, 403},
		{"null origin", map[string]string{"Authorization": auth, "Origin": "null"}, 403},
		{"origin on a loopback name", map[string]string{"Authorization": auth, "Origin": "http://evil.example.localhost.evil.example"}, 403},
		{"local origin", map[string]string{"Authorization": auth, "Origin": "http://localhost:5173"}, 200},
		{"origin under localhost", map[string]string{"Authorization": auth, "Origin": "http://evil.localhost:5173"}, 403},
		{"host under localhost", map[string]string{"Authorization": auth, "Host": "evil.localhost:7130"}, 403},
		{"localhost in capitals", map[string]string{"Authorization": auth, "Host": "LocalHost:7130"}, 200},
		{"loopback IPv6 host", map[string]string{"Authorization": auth, "Host": "[::1]:7130"}, 200},
		{"local IP origin", map[string]string{"Authorization": auth, "Origin": "http://127.0.0.1:6274"}, 200},
		{"rebound host", map[string]string{"Authorization": auth, "Host": "evil.example:7130"}, 403},
		{"cross-origin without token", map[string]string{"Origin": "https://evil.example"}, 403},
	} {
		status, hd, body := c.do("POST", ping, tc.headers)
		if status != tc.status {
			t.Errorf("%s: status %d; want %d (%s)", tc.what, status, tc.status, short(body))
		}
		if status == 401 && !strings.HasPrefix(hd.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: 401 without WWW-Authenticate: Bearer", tc.what)
		}
	}

}

// TestLoopbackHost: only localhost itself and loopback addresses are this
// machine (issue 32, item 10).
func TestLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST": true, "127.0.0.1": true, "127.1.2.3": true, "::1": true,
		"evil.localhost": false, "localhost.evil.example": false, "evil.example": false,
		"0.0.0.0": false, "": false, "::": false, "10.0.0.1": false,
	} {
		if got := LoopbackHost(host); got != want {
			t.Errorf("LoopbackHost(%q) = %v; want %v", host, got, want)
		}
	}
}

// TestHTTPBodyTooLarge: a body of 65 MiB (as long as stdio's longest line)
// gets 413, with or without a Content-Length, and the server keeps serving.
func TestHTTPBodyTooLarge(t *testing.T) {
	t.Parallel()
	if raceEnabled {
		t.Skip("pushes 64 MiB through the race detector")
	}
	c, _ := newHTTPTest(t, HTTPOptions{Token: "s3cret-token"})
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	auth := "Bearer s3cret-token"
	// Its Content-Length says it is too long: the server refuses it unread
	// and closes the connection, and the client stops writing.
	big := func() io.Reader { return io.LimitReader(spaces{}, MaxLine+1<<20) }
	req, _ := http.NewRequest("POST", c.url, big())
	req.ContentLength = MaxLine + 1<<20
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", auth)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		// The server may close the connection while the client still
		// writes; then the status is lost with it.
		t.Logf("65 MiB body: %v", err)
	} else {
		resp.Body.Close()
		if resp.StatusCode != 413 {
			t.Errorf("65 MiB body: status %d; want 413", resp.StatusCode)
		}
	}
	if status, _, body := c.do("POST", ping, map[string]string{"Authorization": auth}); status != 200 {
		t.Errorf("ping after the big body: %d %s; want 200", status, body)
	}
	// The same without a Content-Length: read up to the bound, then 413.
	req, _ = http.NewRequest("POST", c.url, big())
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", auth)
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Logf("65 MiB chunked body: %v", err)
	} else {
		resp.Body.Close()
		if resp.StatusCode != 413 {
			t.Errorf("65 MiB chunked body: status %d; want 413", resp.StatusCode)
		}
	}
	if status, _, body := c.do("POST", ping, map[string]string{"Authorization": auth}); status != 200 {
		t.Errorf("ping after the big chunked body: %d %s; want 200", status, body)
	}
}

// spaces reads as endless spaces.
type spaces struct{}

func (spaces) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// TestHTTPSessionCancel: a session's notifications/cancelled stops its own
// call, never another session's call with the same id; DELETE cancels the
// session's calls.
func TestHTTPSessionCancel(t *testing.T) {
	c, _ := newHTTPTest(t, HTTPOptions{})
	open := func() map[string]string {
		_, hd, _ := c.do("POST", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`, nil)
		return map[string]string{"Mcp-Session-Id": hd.Get("Mcp-Session-Id")}
	}
	a, b := open(), open()
	if a["Mcp-Session-Id"] == b["Mcp-Session-Id"] {
		t.Fatalf("two initializes got the same session %q", a["Mcp-Session-Id"])
	}
	type result struct {
		status int
		body   string
	}
	run := func(h map[string]string, key string) chan result {
		ch := make(chan result, 1)
		go func() {
			status, _, body := c.do("POST", fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"test_block","arguments":{"key":%q}}}`, key), h)
			ch <- result{status, body}
		}()
		return ch
	}
	ka, kb := uniqueKey(t)+"/a", uniqueKey(t)+"/b"
	ra, rb := run(a, ka), run(b, kb)
	waitStarted(t, ka)
	waitStarted(t, kb)
	if status, _, _ := c.do("POST", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`, a); status != 202 {
		t.Errorf("notifications/cancelled: status %d; want 202", status)
	}
	got := <-ra
	wantError(t, "cancelled call", got.body, CodeInternalError)
	select {
	case got := <-rb:
		t.Fatalf("the other session's call 7 ended too: %v", got)
	case <-time.After(100 * time.Millisecond):
	}
	if status, _, _ := c.do("DELETE", "", b); status != 204 {
		t.Errorf("DELETE: status %d", status)
	}
	select {
	case got := <-rb:
		wantError(t, "call of a deleted session", got.body, CodeInternalError)
	case <-time.After(10 * time.Second):
		t.Fatal("DELETE did not cancel the session's call")
	}
	release(ka)
	release(kb)
}

// TestHTTPShared: ServeListener serves many clients at once from one
// index, and stops gracefully: a call in flight when it is told to stop
// is answered.
func TestHTTPShared(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{}
	for i := 0; i < 20; i++ {
		files[fmt.Sprintf("pkg%d/f.go", i)] = fmt.Sprintf("package pkg%d\n\nfunc Shared%d() {}\n", i, i)
	}
	writeFiles(t, dir, files)
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Root: root, Log: testLog{t}, Index: &search.IndexOptions{}})
	for _, tool := range testTools() {
		s.tools[tool.Name] = tool
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.ServeListener(ctx, ln, HTTPOptions{Loopback: true}) }()
	c := &httpClient{t: t, url: "http://" + ln.Addr().String() + "/mcp"}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"find_symbol","arguments":{"name":"Shared%d"}}}`, i, i)
			status, _, got := c.do("POST", body, nil)
			if want := fmt.Sprintf("pkg%d/f.go:3 function", i); status != 200 || !strings.Contains(got, want) {
				t.Errorf("client %d: %d %s; want %q", i, status, short(got), want)
			}
		}(i)
	}
	wg.Wait()
	key := uniqueKey(t)
	inflight := make(chan string, 1)
	go func() {
		_, _, body := c.do("POST", fmt.Sprintf(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"test_block","arguments":{"key":%q}}}`, key), nil)
		inflight <- body
	}()
	waitStarted(t, key)
	stop()
	time.Sleep(50 * time.Millisecond)
	release(key)
	if body := <-inflight; !strings.Contains(body, "released") {
		t.Errorf("call in flight at shutdown = %s; want its answer", short(body))
	}
	if err := <-served; err != nil {
		t.Errorf("ServeListener = %v; want nil", err)
	}
}

// TestHTTPInFlightBound: at most maxInFlight tool calls run at once over
// HTTP; the next one waits for a place.
func TestHTTPInFlightBound(t *testing.T) {
	c, _ := newHTTPTest(t, HTTPOptions{})
	key := uniqueKey(t)
	done := make(chan string, maxInFlight+1)
	for i := 0; i < maxInFlight; i++ {
		go func(i int) {
			_, _, body := c.do("POST", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"test_block","arguments":{"key":%q}}}`, i, key), nil)
			done <- body
		}(i)
	}
	waitStarted(t, key)
	deadline := time.Now().Add(10 * time.Second)
	for len(c.h.core.sem) < maxInFlight && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	extra := make(chan string, 1)
	go func() {
		_, _, body := c.do("POST", `{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"test_sleep","arguments":{"ms":"0"}}}`, nil)
		extra <- body
	}()
	select {
	case body := <-extra:
		t.Fatalf("call %d ran while %d were in flight: %s", maxInFlight+1, maxInFlight, body)
	case <-time.After(200 * time.Millisecond):
	}
	// Quick methods are not held back.
	if status, _, _ := c.do("POST", `{"jsonrpc":"2.0","id":"p","method":"ping"}`, nil); status != 200 {
		t.Errorf("ping while the calls are full: %d", status)
	}
	release(key)
	if body := <-extra; !strings.Contains(body, "slept 0") {
		t.Errorf("waiting call = %s", body)
	}
	for i := 0; i < maxInFlight; i++ {
		<-done
	}
}

// uniqueKey is a test_block key no other run of the test uses.
func uniqueKey(t testing.TB) string {
	return fmt.Sprintf("%s/%d", t.Name(), time.Now().UnixNano())
}

// BenchmarkAuthorized shows that checking a token takes the same time
// whether it differs from the server's in its first byte, its last byte or
// its length: both are hashed and the digests compared in constant time.
// Run: go test ./mcpserver -run '^$' -bench Authorized
func BenchmarkAuthorized(b *testing.B) {
	secret := strings.Repeat("k", 64)
	h := (&Server{}).HTTPHandler(HTTPOptions{Token: secret})
	for _, tc := range []struct{ name, token string }{
		{"right", secret},
		{"first byte wrong", "x" + secret[1:]},
		{"last byte wrong", secret[:63] + "x"},
		{"short", "k"},
		{"long", secret + secret},
	} {
		r := httptest.NewRequest("POST", "/mcp", nil)
		r.Header.Set("Authorization", "Bearer "+tc.token)
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				h.authorized(r)
			}
		})
	}
}
