package mcpserver

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// rawPost opens a connection to ts and writes the head of a POST to /mcp
// whose body is Content-Length bytes long, without the body.
func rawPost(t testing.TB, ts *httptest.Server, contentLength int) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", ts.Listener.Addr(), contentLength)
	return c
}

// newLimitTest is newHTTPTest with these limits, on a server whose handler
// says on done when each request has been handled.
func newLimitTest(t testing.TB, lim httpLimits) (*httpClient, *httptest.Server, chan struct{}) {
	t.Helper()
	s := newTestServer(t, map[string]string{"main.go": "package main\n\nfunc main() {}\n"})
	h := s.HTTPHandler(HTTPOptions{Loopback: true, limits: lim})
	done := make(chan struct{}, 100)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() { done <- struct{}{} }()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return &httpClient{t: t, url: ts.URL + "/mcp", h: h}, ts, done
}

// TestHTTPBodyBound (issue 32, item 1): a body over the bound (1 MiB) gets
// 413, with a Content-Length (unread) or without one (read up to the
// bound); one of exactly the bound is served.
func TestHTTPBodyBound(t *testing.T) {
	t.Parallel()
	c, _ := newHTTPTest(t, HTTPOptions{})
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	padded := func(n int) string { return ping + strings.Repeat(" ", n-len(ping)) }
	post := func(body string, chunked bool) int {
		var src io.Reader = strings.NewReader(body)
		if chunked {
			src = io.MultiReader(src) // hides the length: sent chunked
		}
		req, _ := http.NewRequest("POST", c.url, src)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Logf("post of %d bytes: %v", len(body), err)
			return 0
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, chunked := range []bool{false, true} {
		if got := post(padded(1<<20), chunked); got != 200 {
			t.Errorf("chunked=%v: a body of %d bytes: status %d; want 200", chunked, 1<<20, got)
		}
		if got := post(padded(1<<20+1), chunked); got != 413 && got != 0 {
			t.Errorf("chunked=%v: a body of %d bytes: status %d; want 413", chunked, 1<<20+1, got)
		}
	}
	if got := post(ping, false); got != 200 {
		t.Errorf("ping after the long bodies: %d", got)
	}
}

// TestHTTPBodyBudget (issue 32, item 1): bodies being read hold room in a
// budget; when it is full a request waits for room, then gets 503 with
// Retry-After; when room comes back, requests are served again.
func TestHTTPBodyBudget(t *testing.T) {
	t.Parallel()
	c, ts, _ := newLimitTest(t, httpLimits{maxBody: 64 << 10, bodyBudget: 64 << 10, bodyWait: 300 * time.Millisecond})
	// A client announces the longest body and sends a little of it.
	slow := rawPost(t, ts, 64<<10)
	io.WriteString(slow, `{"jsonrpc":`)
	deadline := time.Now().Add(10 * time.Second)
	for c.h.bodies.TryAcquire(1) {
		c.h.bodies.Release(1)
		if time.Now().After(deadline) {
			t.Fatal("the slow body never took room in the budget")
		}
		time.Sleep(5 * time.Millisecond)
	}
	status, hd, body := c.do("POST", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, nil)
	if status != http.StatusServiceUnavailable || hd.Get("Retry-After") == "" {
		t.Errorf("ping while the budget is full: %d %q (Retry-After %q); want 503 with Retry-After", status, short(body), hd.Get("Retry-After"))
	}
	slow.Close()
	for time.Now().Before(deadline) {
		if status, _, _ = c.do("POST", `{"jsonrpc":"2.0","id":2,"method":"ping"}`, nil); status == 200 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("ping after the slow body left: %d; want 200", status)
}

// TestHTTPWriteDeadline (issue 32, item 3): a client that never reads its
// answer loses the connection once the write bound passes, and the
// handler (with the answer's buffer) is let go.
func TestHTTPWriteDeadline(t *testing.T) {
	t.Parallel()
	_, ts, done := newLimitTest(t, httpLimits{write: 200 * time.Millisecond})
	body := call(1, "test_big", map[string]string{"bytes": fmt.Sprint(64 << 20)})
	c := rawPost(t, ts, len(body))
	io.WriteString(c, body)
	// The client reads nothing.
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the handler still writes a 64 MiB answer nobody reads, 30 s on")
	}
}

// TestHTTPHalfClosed (issue 32, item 6): a client that half-closes its
// side after a whole request gets a whole answer or none, never a 200
// with an empty body.
func TestHTTPHalfClosed(t *testing.T) {
	t.Parallel()
	_, ts, _ := newLimitTest(t, httpLimits{})
	key := uniqueKey(t)
	defer release(key)
	body := call(1, "test_block", map[string]string{"key": key})
	c := rawPost(t, ts, len(body))
	io.WriteString(c, body)
	waitStarted(t, key)
	c.(*net.TCPConn).CloseWrite()
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	answer, err := io.ReadAll(c)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	if len(answer) == 0 {
		return
	}
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(answer))), nil)
	if err != nil {
		t.Fatalf("answer %q: %v", short(string(answer)), err)
	}
	got, _ := io.ReadAll(resp.Body)
	if err := checkResponse(string(got)); err != nil {
		t.Errorf("half-closed client got %s with body %q: %v; want a whole answer or none", resp.Status, short(string(got)), err)
	}
}
