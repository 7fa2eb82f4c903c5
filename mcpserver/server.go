package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/internal/diagfile"
	"github.com/zumba-dev/zumba/search"
)

// Version is zumba's version, reported as serverInfo.version.
var Version = "0.1.0"

// MaxLine is the longest message accepted, in bytes, without its newline.
const MaxLine = 64 << 20

// maxInFlight bounds the tool calls running at once; past it the server
// stops reading input until one finishes, so a client that floods it or
// stops reading replies cannot grow its memory without bound.
const maxInFlight = 64

// protocolVersions are the published MCP versions, newest first.
var protocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"}

//go:embed instructions.md
var instructions string

// Config is what a server needs to know about its project.
type Config struct {
	// Root is the project folder.
	Root *search.Root
	// Diagnostics is the editor's diagnostics file, "" for none.
	Diagnostics string
	// Log receives diagnostics about the server itself; nil discards them.
	Log io.Writer
	// Index, when set, makes Serve index the project in the background
	// with these options, for find_symbol and find_references to answer
	// from; without it they search the files on every call.
	Index *search.IndexOptions
}

// Server answers MCP requests for one project.
type Server struct {
	cfg   Config
	log   *log.Logger
	tools map[string]*Tool
	diag  *diagSource
	// search is what find_symbol and find_references search: the project
	// index while Serve runs with Config.Index, else the files themselves
	// (Config.Root).
	search atomic.Pointer[searcherBox]

	mu       sync.Mutex
	inflight map[string]context.CancelFunc

	outlines outlineCache
	// parses keeps the parses find_references' options need.
	parses search.ParseCache
}

// New returns a server for the project in cfg.
func New(cfg Config) *Server {
	w := cfg.Log
	if w == nil {
		w = io.Discard
	}
	s := &Server{
		cfg:      cfg,
		log:      log.New(w, "zumba: ", 0),
		tools:    map[string]*Tool{},
		inflight: map[string]context.CancelFunc{},
	}
	for _, t := range tools {
		s.tools[t.Name] = t
	}
	s.diag = newDiagSource(cfg.Diagnostics, s.log, diagfile.Options{})
	s.search.Store(&searcherBox{cfg.Root})
	return s
}

// Serve reads requests from r, one per line, and writes replies to w until r
// ends or ctx is cancelled. At the end of input it waits for the requests in
// flight, then returns nil. It returns an error only when r or w fails.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	out := newLineWriter(w)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if s.cfg.Index != nil {
		defer s.serveIndex(ctx)()
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	sem := make(chan struct{}, maxInFlight)
	// Lines are read in their own goroutine so that a cancelled ctx (a
	// signal) ends Serve even while the client keeps stdin open and quiet.
	// The channel is unbuffered: the reader holds at most one line while
	// the loop below waits, which keeps back-pressure intact.
	lines := make(chan inputLine)
	done := make(chan struct{})
	defer close(done)
	go readLines(r, lines, done)
	for {
		var in inputLine
		select {
		case <-ctx.Done():
			return nil
		case <-out.broken:
			return fmt.Errorf("write output: %w", out.failure())
		case in = <-lines:
		}
		if in.tooLong {
			out.send(errorReply(nullID, CodeInvalidRequest, fmt.Sprintf("invalid request: message longer than %d bytes; skipped", MaxLine)))
		} else if len(bytes.TrimSpace(in.line)) > 0 {
			req, reply := parse(in.line)
			if reply != nil {
				out.send(reply)
			} else if req != nil {
				s.dispatch(ctx, req, out, sem, &wg)
			}
		}
		if in.err != nil {
			if errors.Is(in.err, io.EOF) {
				return nil
			}
			return fmt.Errorf("read input: %w", in.err)
		}
	}
}

// inputLine is one line of input, or the end of it.
type inputLine struct {
	line    []byte
	tooLong bool
	err     error
}

// readLines sends r's lines on lines until r fails or done is closed. The
// last line sent carries the read error (io.EOF at the end of input).
func readLines(r io.Reader, lines chan<- inputLine, done <-chan struct{}) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, tooLong, err := readLine(br, MaxLine)
		select {
		case lines <- inputLine{line: line, tooLong: tooLong, err: err}:
		case <-done:
			return
		}
		if err != nil {
			return
		}
	}
}

// readLine reads one line without its "\n" (and "\r"). A line longer than
// max is consumed and reported as tooLong, without keeping it in memory.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, e := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+2 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		if e != nil {
			err = e
		}
		break
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	if !tooLong && len(line) > max {
		tooLong, line = true, nil
	}
	return line, tooLong, err
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
	return req, nil
}

func errorReply(id json.RawMessage, code int, msg string) *response {
	return &response{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: code, Message: msg}}
}

func resultReply(id json.RawMessage, result any) *response {
	return &response{JSONRPC: "2.0", ID: id, Result: result}
}

// dispatch serves one request. Quick methods are answered in line, so a
// slow tool call never delays them; tool calls run concurrently.
func (s *Server) dispatch(ctx context.Context, req *request, out *lineWriter, sem chan struct{}, wg *sync.WaitGroup) {
	if req.id == nil {
		s.notification(req)
		return
	}
	if req.method != "tools/call" {
		out.send(s.safeHandle(ctx, req))
		return
	}
	select {
	case sem <- struct{}{}:
	case <-ctx.Done():
		return
	}
	key := idKey(req.id)
	cctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	if _, dup := s.inflight[key]; dup {
		s.mu.Unlock()
		cancel()
		<-sem
		out.send(errorReply(req.id, CodeInvalidRequest, "invalid request: a request with this id is already in flight"))
		return
	}
	s.inflight[key] = cancel
	s.mu.Unlock()
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { <-sem }()
		reply := s.safeHandle(cctx, req)
		s.mu.Lock()
		delete(s.inflight, key)
		s.mu.Unlock()
		cancelled := cctx.Err() != nil && ctx.Err() == nil
		cancel()
		if !cancelled {
			out.send(reply)
		}
	}()
}

// notification handles a message without an id; none gets a reply.
func (s *Server) notification(req *request) {
	key, ok := cancelledCall(req)
	if !ok {
		return
	}
	s.mu.Lock()
	cancel := s.inflight[key]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// cancelledCall returns the key of the call a notifications/cancelled
// message names; ok is false for any other notification.
func cancelledCall(req *request) (key string, ok bool) {
	if req.method != "notifications/cancelled" {
		return "", false
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(req.params, &p) != nil || len(p.RequestID) == 0 {
		return "", false
	}
	return idKey(p.RequestID), true
}

// safeHandle turns a panic in a handler into an internal error reply.
func (s *Server) safeHandle(ctx context.Context, req *request) (reply *response) {
	defer func() {
		if v := recover(); v != nil {
			s.log.Printf("panic serving %s: %v\n%s", req.method, v, debug.Stack())
			reply = errorReply(req.id, CodeInternalError, fmt.Sprintf("internal error: %v", v))
		}
	}()
	return s.handle(ctx, req)
}

func (s *Server) handle(ctx context.Context, req *request) *response {
	modern, rerr := requestEra(req)
	if rerr != nil {
		return &response{JSONRPC: "2.0", ID: req.id, Error: rerr}
	}
	modern = modern || req.modern
	switch req.method {
	case "server/discover":
		return resultReply(req.id, discover())
	case "initialize":
		if len(req.params) > 0 && req.params[0] == '[' {
			return errorReply(req.id, CodeInvalidParams, "invalid params: initialize takes an object")
		}
		return resultReply(req.id, s.initialize(req.params))
	case "ping":
		if modern {
			return resultReply(req.id, map[string]any{"resultType": "complete"})
		}
		return resultReply(req.id, struct{}{})
	case "tools/list":
		if modern {
			return resultReply(req.id, map[string]any{
				"tools":      toolList(),
				"resultType": "complete",
				"ttlMs":      listTTL.Milliseconds(),
				"cacheScope": "public",
			})
		}
		return resultReply(req.id, map[string]any{"tools": toolList()})
	case "tools/call":
		res, rerr := s.callTool(ctx, req.params)
		if rerr != nil {
			return &response{JSONRPC: "2.0", ID: req.id, Error: rerr}
		}
		if modern {
			res.ResultType = "complete"
		}
		return resultReply(req.id, res)
	}
	return errorReply(req.id, CodeMethodNotFound, "method not found: "+clip(req.method))
}

func (s *Server) initialize(params json.RawMessage) any {
	// A protocolVersion that is missing or not a string is a version the
	// server does not know: it answers with its newest. 2026-07-28 has no
	// initialize, so asking for it here is asking for the newest revision
	// that has one.
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(params, &p)
	version := protocolVersions[0]
	for _, v := range protocolVersions {
		if v == p.ProtocolVersion {
			version = v
		}
	}
	return map[string]any{
		"protocolVersion": version,
		"capabilities":    capabilities(),
		"serverInfo":      serverInfo(),
		"instructions":    instructions,
	}
}

// lineWriter writes whole replies, one per line, from any goroutine. Once
// a write fails it drops every later reply and closes broken.
type lineWriter struct {
	mu     sync.Mutex
	w      *bufio.Writer
	err    error
	broken chan struct{}
}

func newLineWriter(w io.Writer) *lineWriter {
	return &lineWriter{w: bufio.NewWriter(w), broken: make(chan struct{})}
}

// encode marshals a reply as one line. HTML escaping is off so that ids
// are echoed byte for byte and "<", ">" and "&" in tool text stay readable.
func encode(r *response) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (lw *lineWriter) send(r *response) {
	b, err := encode(r)
	if err != nil {
		b, _ = encode(errorReply(r.ID, CodeInternalError, "internal error: cannot encode reply: "+err.Error()))
	}
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.err != nil {
		return
	}
	_, err = lw.w.Write(b)
	if err == nil {
		err = lw.w.Flush()
	}
	if err != nil {
		lw.err = err
		close(lw.broken)
	}
}

func (lw *lineWriter) failure() error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.err
}
