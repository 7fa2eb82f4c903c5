package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// newTestServer returns a server for a temporary project holding files
// (path → content), with the test tools of testTools registered besides
// the real ones. Server logs go to the test log.
func newTestServer(t testing.TB, files map[string]string) *Server {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Root: root, Log: testLog{t}})
	for _, tool := range testTools() {
		s.tools[tool.Name] = tool
	}
	return s
}

type testLog struct{ t testing.TB }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Logf("server log: %s", bytes.TrimSpace(p))
	return len(p), nil
}

// testTools are tools that exist only in tests, reachable by tools/call
// but not listed: one that panics, one that waits for its context or for
// a release, and one that sleeps for the milliseconds it is given.
func testTools() []*Tool {
	return append(slices.Clone(extraTestTools), []*Tool{
		{
			Name:   "test_panic",
			Params: []Param{{Name: "msg"}},
			Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
				panic("test panic: " + args["msg"])
			},
		},
		{
			Name:   "test_block",
			Params: []Param{{Name: "key"}},
			Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
				ch := blocker(args["key"])
				started(args["key"])
				select {
				case <-ctx.Done():
					return "cancelled", true
				case <-ch:
					return "released " + args["key"], false
				}
			},
		},
		{
			Name:   "test_big",
			Params: []Param{{Name: "bytes", Required: true}},
			Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
				var n int
				fmt.Sscan(args["bytes"], &n)
				return strings.Repeat("x", n), false
			},
		},
		{
			Name:   "test_sleep",
			Params: []Param{{Name: "ms", Required: true}},
			Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
				var ms int
				fmt.Sscan(args["ms"], &ms)
				time.Sleep(time.Duration(ms) * time.Millisecond)
				return "slept " + args["ms"], false
			},
		},
	}...)
}

// extraTestTools are test tools that the tests of one file add.
var extraTestTools []*Tool

var (
	blockMu  sync.Mutex
	blockers = map[string]chan struct{}{}
	starts   = map[string]chan struct{}{}
)

func blocker(key string) chan struct{} {
	blockMu.Lock()
	defer blockMu.Unlock()
	if blockers[key] == nil {
		blockers[key] = make(chan struct{})
	}
	return blockers[key]
}

func startedCh(key string) chan struct{} {
	blockMu.Lock()
	defer blockMu.Unlock()
	if starts[key] == nil {
		starts[key] = make(chan struct{})
	}
	return starts[key]
}

func started(key string) {
	ch := startedCh(key)
	blockMu.Lock()
	defer blockMu.Unlock()
	select {
	case <-ch:
	default:
		close(ch)
	}
}

// release lets every test_block call with this key return.
func release(key string) { close(blocker(key)) }

// waitStarted waits until a test_block call with this key is running.
func waitStarted(t testing.TB, key string) {
	t.Helper()
	select {
	case <-startedCh(key):
	case <-time.After(10 * time.Second):
		t.Fatalf("test_block %q never started", key)
	}
}

// serve runs s over input and returns its output lines, each checked to
// be a whole JSON-RPC response.
func serve(t testing.TB, s *Server, input string) []string {
	t.Helper()
	var out bytes.Buffer
	if err := s.Serve(context.Background(), strings.NewReader(input), &out); err != nil {
		t.Fatalf("Serve = %v; want nil", err)
	}
	return checkOutput(t, out.Bytes())
}

// checkOutput splits output into lines and checks that each one is a
// JSON-RPC 2.0 response: stdout carries nothing else.
func checkOutput(t testing.TB, out []byte) []string {
	t.Helper()
	if len(out) == 0 {
		return nil
	}
	if out[len(out)-1] != '\n' {
		t.Errorf("output does not end with a newline: %q", tail(out))
	}
	var lines []string
	for _, l := range strings.SplitAfter(string(out), "\n") {
		if l == "" {
			continue
		}
		l = strings.TrimSuffix(l, "\n")
		if err := checkResponse(l); err != nil {
			t.Errorf("output line %q: %v", short(l), err)
		}
		lines = append(lines, l)
	}
	return lines
}

func short(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

func tail(b []byte) []byte {
	if len(b) > 300 {
		return b[len(b)-300:]
	}
	return b
}

// checkResponse checks one line against JSON-RPC 2.0's response object.
func checkResponse(line string) error {
	if strings.ContainsAny(line, "\n\r") {
		return fmt.Errorf("a response holds a raw line break")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		return fmt.Errorf(`"jsonrpc" is %s; want "2.0"`, m["jsonrpc"])
	}
	id, ok := m["id"]
	if !ok || !validID(id) {
		return fmt.Errorf("id %s is not a string, number or null", id)
	}
	_, hasResult := m["result"]
	rawErr, hasError := m["error"]
	if hasResult == hasError {
		return fmt.Errorf("a response needs exactly one of result and error")
	}
	for k := range m {
		switch k {
		case "jsonrpc", "id", "result", "error":
		default:
			return fmt.Errorf("unexpected member %q", k)
		}
	}
	if hasError {
		var e struct {
			Code    *int    `json:"code"`
			Message *string `json:"message"`
		}
		if err := json.Unmarshal(rawErr, &e); err != nil || e.Code == nil || e.Message == nil {
			return fmt.Errorf("error %s lacks an integer code or a message", rawErr)
		}
		switch *e.Code {
		case CodeParseError, CodeInvalidRequest, CodeMethodNotFound, CodeInvalidParams, CodeInternalError, CodeUnsupportedProtocolVersion:
		default:
			return fmt.Errorf("unexpected error code %d", *e.Code)
		}
		if *e.Code == CodeParseError && string(id) != "null" {
			return fmt.Errorf("a parse error must have id null, not %s", id)
		}
	}
	return nil
}

// reply is a decoded response line.
type reply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

func decodeReply(t testing.TB, line string) reply {
	t.Helper()
	var r reply
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatalf("decode %q: %v", short(line), err)
	}
	return r
}

// toolText decodes a tools/call result.
func toolText(t testing.TB, r reply) (string, bool) {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("reply %s is error %d %q; want a tool result", r.ID, r.Error.Code, r.Error.Message)
	}
	var res toolResult
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatalf("decode result %s: %v", r.Result, err)
	}
	if len(res.Content) != 1 || res.Content[0].Type != "text" {
		t.Fatalf("result content = %+v; want one text item", res.Content)
	}
	return res.Content[0].Text, res.IsError
}

// session drives a server through pipes, as a client would.
type session struct {
	t     testing.TB
	in    *io.PipeWriter
	lines chan string
	done  chan struct{} // closed when Serve has returned err
	err   error
	mu    sync.Mutex
	raw   bytes.Buffer
}

// startSession runs s.Serve on pipes until the test ends.
func startSession(t testing.TB, s *Server) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ss := &session{t: t, in: inW, lines: make(chan string, 10000), done: make(chan struct{})}
	go func() {
		ss.err = s.Serve(context.Background(), inR, outW)
		outW.Close()
		close(ss.done)
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 256<<20)
		for sc.Scan() {
			ss.mu.Lock()
			ss.raw.Write(sc.Bytes())
			ss.raw.WriteByte('\n')
			ss.mu.Unlock()
			ss.lines <- sc.Text()
		}
		close(ss.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-ss.done:
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return after the end of input")
		}
	})
	return ss
}

func (ss *session) send(line string) {
	ss.t.Helper()
	if _, err := io.WriteString(ss.in, line+"\n"); err != nil {
		ss.t.Fatalf("write %q: %v", short(line), err)
	}
}

// next returns the next reply line, checked as a JSON-RPC response.
func (ss *session) next() string {
	ss.t.Helper()
	select {
	case l, ok := <-ss.lines:
		if !ok {
			ss.t.Fatal("output ended; want a reply")
		}
		if err := checkResponse(l); err != nil {
			ss.t.Fatalf("output line %q: %v", short(l), err)
		}
		return l
	case <-time.After(10 * time.Second):
		ss.t.Fatal("no reply within 10s")
	}
	return ""
}

// close ends the input, waits for Serve to return nil and returns every
// line written after the ones already taken.
func (ss *session) close() []string {
	ss.t.Helper()
	ss.in.Close()
	select {
	case <-ss.done:
		if ss.err != nil {
			ss.t.Fatalf("Serve = %v; want nil", ss.err)
		}
	case <-time.After(10 * time.Second):
		ss.t.Fatal("Serve did not return after the end of input")
	}
	var rest []string
	for l := range ss.lines {
		if err := checkResponse(l); err != nil {
			ss.t.Errorf("output line %q: %v", short(l), err)
		}
		rest = append(rest, l)
	}
	return rest
}

func ping(id any) string {
	b, _ := json.Marshal(id)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"ping"}`, b)
}

func call(id any, tool string, args any) string {
	b, _ := json.Marshal(id)
	a, _ := json.Marshal(args)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, b, tool, a)
}

// wantPong checks that line answers ping id.
func wantPong(t testing.TB, line string, id string) {
	t.Helper()
	r := decodeReply(t, line)
	if string(r.ID) != id || r.Error != nil || string(r.Result) != "{}" {
		t.Fatalf("reply %s; want the ping %s answered with {}", short(line), id)
	}
}
