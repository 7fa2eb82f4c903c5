package mcpserver

import (
	"bufio"
	"context"
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

// initialize is an initialize request of the 2025-11-25 revision.
const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`

// TestHTTPSessionEviction (issue 32, item 13): past the bound of
// sessions, the idle ones are ended first and one with a call in flight
// never: its call is answered and the session lives on. When every
// session has a call in flight, a new one is refused with 503.
func TestHTTPSessionEviction(t *testing.T) {
	t.Parallel()
	c, _, _ := newLimitTest(t, httpLimits{maxSessions: 3, sessionRate: 100})
	open := func() (int, string) {
		status, hd, _ := c.do("POST", initialize, nil)
		return status, hd.Get("Mcp-Session-Id")
	}
	_, busy := open()
	key := uniqueKey(t)
	answer := make(chan string, 1)
	go func() {
		_, _, body := c.do("POST", call(1, "test_block", map[string]string{"key": key}), map[string]string{"Mcp-Session-Id": busy})
		answer <- body
	}()
	waitStarted(t, key)
	for i := range 10 {
		if status, _ := open(); status != 200 {
			t.Fatalf("session %d: status %d; want 200 (an idle one ended for it)", i, status)
		}
	}
	release(key)
	if body := <-answer; !strings.Contains(body, "released") {
		t.Errorf("the call of the busy session: %s; want its answer", short(body))
	}
	if status, _, body := c.do("POST", ping(2), map[string]string{"Mcp-Session-Id": busy}); status != 200 {
		t.Errorf("ping in the session that had a call in flight: %d %s; want 200", status, short(body))
	}
	// Every session busy: the next initialize is refused.
	keys := []string{uniqueKey(t) + "a", uniqueKey(t) + "b", uniqueKey(t) + "c"}
	var ids []string
	for range keys {
		_, id := open()
		ids = append(ids, id)
	}
	done := make(chan struct{}, len(keys))
	for i, k := range keys {
		go func() {
			c.do("POST", call(1, "test_block", map[string]string{"key": k}), map[string]string{"Mcp-Session-Id": ids[i]})
			done <- struct{}{}
		}()
		waitStarted(t, k)
	}
	status, hd, body := c.do("POST", initialize, nil)
	if status != http.StatusServiceUnavailable || hd.Get("Retry-After") == "" {
		t.Errorf("initialize with every session busy: %d %s; want 503 with Retry-After", status, short(body))
	}
	for _, k := range keys {
		release(k)
		<-done
	}
}

// TestHTTPSessionRate (issue 32, item 13): one connection may open only so
// many sessions per window; past it, 429 with Retry-After. Another
// connection is not held back.
func TestHTTPSessionRate(t *testing.T) {
	t.Parallel()
	c, _, _ := newLimitTest(t, httpLimits{sessionWindow: time.Hour})
	conn := func() *http.Client { return &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}} }
	post := func(client *http.Client) (int, http.Header) {
		req, _ := http.NewRequest("POST", c.url, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, resp.Header
	}
	one := conn()
	for i := range defaultSessionRate {
		if status, _ := post(one); status != 200 {
			t.Fatalf("session %d of one connection: %d; want 200", i, status)
		}
	}
	if status, hd := post(one); status != http.StatusTooManyRequests || hd.Get("Retry-After") == "" {
		t.Errorf("session %d of one connection: %d (Retry-After %q); want 429 with Retry-After", defaultSessionRate+1, status, hd.Get("Retry-After"))
	}
	if status, _ := post(conn()); status != 200 {
		t.Errorf("a session of another connection: %d; want 200", status)
	}
}

// TestHTTPConnCap (issue 32, item 14): past the bound of connections, the
// one idle longest is closed to make room; when none is idle, the new one
// gets 503.
func TestHTTPConnCap(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, map[string]string{"main.go": "package main\n\nfunc main() {}\n"})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- s.ServeListener(ctx, ln, HTTPOptions{Loopback: true, limits: httpLimits{maxConns: 3}})
	}()
	defer func() { cancel(); <-served }()
	addr := ln.Addr().String()
	type kept struct {
		c  net.Conn
		br *bufio.Reader
	}
	// send posts body on a kept-alive connection and reads the answer.
	send := func(k kept, body string) (*http.Response, error) {
		fmt.Fprintf(k.c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", addr, len(body), body)
		k.c.SetReadDeadline(time.Now().Add(20 * time.Second))
		resp, err := http.ReadResponse(k.br, nil)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return resp, err
	}
	dial := func() kept {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return kept{c, bufio.NewReader(c)}
	}
	var conns []kept
	for i := range 3 {
		k := dial()
		if resp, err := send(k, ping(i)); err != nil || resp.StatusCode != 200 {
			t.Fatalf("ping %d: %v %v", i, resp, err)
		}
		conns = append(conns, k)
		time.Sleep(10 * time.Millisecond) // idle since distinct times
	}
	fourth := dial()
	if resp, err := send(fourth, ping(4)); err != nil || resp.StatusCode != 200 {
		t.Fatalf("ping on a fourth connection: %v %v; want 200", resp, err)
	}
	conns[0].c.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, err := conns[0].br.ReadByte(); err != io.EOF {
		t.Errorf("the connection idle longest: read %v; want it closed (EOF)", err)
	}
	// The three open connections busy: a fifth gets 503.
	key := uniqueKey(t)
	busy := append(conns[1:], fourth)
	done := make(chan struct{}, len(busy))
	for _, k := range busy {
		go func() {
			send(k, call(1, "test_block", map[string]string{"key": key}))
			done <- struct{}{}
		}()
	}
	waitStarted(t, key)
	deadline := time.Now().Add(10 * time.Second)
	for s.running.Load() < int64(len(busy)) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	resp, err := send(dial(), ping(5))
	if err != nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a connection past the bound with none idle: %v %v; want 503", resp, err)
	}
	release(key)
	for range busy {
		<-done
	}
}

// TestHTTPOriginOffLoopback (issue 32, item 9): a server beyond loopback
// takes only an Origin of its own host (and port), as the README says; a
// page of localhost is another origin there.
func TestHTTPOriginOffLoopback(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, map[string]string{"main.go": "package main\n\nfunc main() {}\n"})
	ts := httptest.NewServer(s.HTTPHandler(HTTPOptions{Token: "tok"}))
	t.Cleanup(ts.Close)
	c := &httpClient{t: t, url: ts.URL + "/mcp"}
	for _, tc := range []struct {
		host, origin string
		status       int
	}{
		{"zumba.example:7130", "http://zumba.example:7130", 200},
		{"zumba.example:7130", "http://ZUMBA.example:7130", 200},
		{"zumba.example", "http://zumba.example", 200},
		{"zumba.example", "http://zumba.example:80", 200},
		{"zumba.example:7130", "http://localhost:3000", 403},
		{"zumba.example:7130", "http://127.0.0.1:7130", 403},
		{"zumba.example:7130", "http://zumba.example:7131", 403},
		{"zumba.example:7130", "http://evil.example:7130", 403},
		{"zumba.example", "https://zumba.example", 200}, // behind a TLS proxy
		{"zumba.example:443", "https://zumba.example", 200},
		{"zumba.example:8443", "https://zumba.example", 403},
	} {
		status, _, body := c.do("POST", ping(1), map[string]string{"Authorization": "Bearer tok", "Host": tc.host, "Origin": tc.origin})
		if status != tc.status {
			t.Errorf("Host %s, Origin %s: %d %s; want %d", tc.host, tc.origin, status, short(body), tc.status)
		}
	}
}

// TestHTTPSessionChurn (issue 43, item 7): other clients opening sessions
// in a loop never cut an idle session off: one let go to make room is
// opened again when its client names it, as is one held before a
// restart. Only a session ended by DELETE, or an id zumba could not have
// given, gets 404.
func TestHTTPSessionChurn(t *testing.T) {
	t.Parallel()
	c, _, done := newLimitTest(t, httpLimits{maxSessions: 8, sessionRate: 1 << 20})
	go func() {
		for range done {
		}
	}()
	_, hd, _ := c.do("POST", initialize, nil)
	idle := hd.Get("Mcp-Session-Id")
	in := map[string]string{"Mcp-Session-Id": idle}
	if status, _, body := c.do("POST", call(1, "find_symbol", map[string]string{"name": "main"}), in); status != 200 {
		t.Fatalf("a call in a new session: %d %s", status, short(body))
	}
	for i := range 1100 {
		if status, _, body := c.do("POST", initialize, nil); status != 200 {
			t.Fatalf("churn session %d: %d %s", i, status, short(body))
		}
	}
	if status, _, body := c.do("POST", call(2, "find_symbol", map[string]string{"name": "main"}), in); status != 200 || !strings.Contains(body, "main.go:3") {
		t.Errorf("the idle session after 1,100 others: %d %s; want its answer", status, short(body))
	}
	// A server started again knows none of its sessions.
	restarted, _, rdone := newLimitTest(t, httpLimits{})
	go func() {
		for range rdone {
		}
	}()
	if status, _, body := restarted.do("POST", ping(3), in); status != 200 {
		t.Errorf("the session after a restart: %d %s; want 200", status, short(body))
	}
	if status, _, _ := c.do("DELETE", "", in); status != http.StatusNoContent {
		t.Fatalf("DELETE: %d", status)
	}
	if status, _, _ := c.do("POST", ping(4), in); status != http.StatusNotFound {
		t.Errorf("a session ended by DELETE: %d; want 404", status)
	}
	if status, _, _ := c.do("POST", ping(5), map[string]string{"Mcp-Session-Id": "not-an-id-of-ours"}); status != http.StatusNotFound {
		t.Errorf("an id zumba could not have given: %d; want 404", status)
	}
}
