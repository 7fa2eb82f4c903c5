package mcpserver

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// MCP's Streamable HTTP transport: one endpoint, /mcp, that takes one
// JSON-RPC message per POST and answers it with one application/json
// body. Requests are served by the same code as on stdio (parse, handle);
// this file adds only what HTTP needs: the security checks, the era's
// headers, and the sessions of the earlier revisions.

// Bounds of the HTTP transport.
const (
	// readHeaderTimeout cuts off a client that sends its headers slowly.
	readHeaderTimeout = 10 * time.Second
	// readBodyTimeout cuts off a client that sends its body slowly: 64 MiB
	// at 1 MiB/s.
	readBodyTimeout = 64 * time.Second
	// idleTimeout closes kept-alive connections nobody uses.
	idleTimeout = 2 * time.Minute
	// maxHeaderBytes bounds a request's headers.
	maxHeaderBytes = 1 << 20
	// shutdownGrace is how long a stopping server waits for calls in
	// flight before it closes their connections.
	shutdownGrace = 30 * time.Second
	// maxSessions bounds the sessions kept at once; past it, the one
	// used least recently is ended.
	maxSessions = 1024
)

// Headers of the transport.
const (
	headerSession  = "Mcp-Session-Id"
	headerVersion  = "Mcp-Protocol-Version"
	headerMethod   = "Mcp-Method"
	headerName     = "Mcp-Name"
	endpointPath   = "/mcp"
	base64Sentinel = "=?base64?"
)

// HTTPOptions configures the HTTP transport.
type HTTPOptions struct {
	// Token, when not empty, is the bearer token every request must carry
	// in its Authorization header.
	Token string
	// Loopback tells that the server listens on a loopback address only;
	// then requests must also name a loopback host (Host header), which
	// defeats DNS rebinding.
	Loopback bool
}

// ServeListener serves MCP over Streamable HTTP at /mcp on ln until ctx is
// cancelled. Every session shares the server's one index. When ctx ends it
// stops accepting connections, lets the calls in flight finish (for up to
// 30 s), and returns nil.
func (s *Server) ServeListener(ctx context.Context, ln net.Listener, opts HTTPOptions) error {
	// The index outlives ctx until the calls in flight have finished.
	ictx, stopIndex := context.WithCancel(context.WithoutCancel(ctx))
	defer stopIndex()
	if s.cfg.Index != nil {
		defer s.serveIndex(ictx)()
		defer stopIndex()
	}
	h := s.HTTPHandler(opts)
	defer h.closeSessions()
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          s.log,
		// Calls outlive a client's cancellation of the server's context
		// only until shutdown: their own contexts come from requests.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve http: %w", err)
	case <-ctx.Done():
	}
	sctx, stop := context.WithTimeout(context.Background(), shutdownGrace)
	defer stop()
	if err := srv.Shutdown(sctx); err != nil {
		s.log.Printf("shutdown: %v; closing the connections still open", err)
		srv.Close()
	}
	<-served
	return nil
}

// HTTPHandler returns the handler of the /mcp endpoint. It answers from
// the index only while ServeListener or Serve runs with Config.Index.
func (s *Server) HTTPHandler(opts HTTPOptions) *HTTPHandler {
	h := &HTTPHandler{
		s:        s,
		loopback: opts.Loopback,
		sem:      make(chan struct{}, maxInFlight),
		sessions: map[string]*httpSession{},
	}
	if opts.Token != "" {
		h.token = sha256.Sum256([]byte(opts.Token))
		h.hasToken = true
	}
	return h
}

// HTTPHandler serves the Streamable HTTP transport.
type HTTPHandler struct {
	s        *Server
	loopback bool
	hasToken bool
	token    [sha256.Size]byte
	// sem bounds the tool calls running at once across all clients.
	sem chan struct{}

	mu       sync.Mutex
	sessions map[string]*httpSession
}

// httpSession is a client of the earlier revisions between its initialize
// and its DELETE. It holds what cancellation needs: its calls in flight.
type httpSession struct {
	id     string
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	calls  map[string]context.CancelFunc
	used   time.Time // guarded by HTTPHandler.mu
}

func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != endpointPath {
		http.Error(w, "zumba serves MCP at "+endpointPath, http.StatusNotFound)
		return
	}
	if msg := h.refuseOrigin(r); msg != "" {
		h.s.log.Printf("http: refused %s from %s: %s", r.Method, r.RemoteAddr, msg)
		writeReply(w, http.StatusForbidden, errorReply(nullID, CodeInvalidRequest, msg))
		return
	}
	if !h.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="zumba"`)
		writeReply(w, http.StatusUnauthorized, errorReply(nullID, CodeInvalidRequest, "unauthorized: send the server's token as Authorization: Bearer TOKEN"))
		return
	}
	switch r.Method {
	case http.MethodPost:
		h.post(w, r)
	case http.MethodDelete:
		h.delete(w, r)
	default:
		// Nothing is ever pushed to a client, so there is no stream to
		// open with GET.
		w.Header().Set("Allow", "POST, DELETE")
		http.Error(w, "method not allowed: send JSON-RPC messages with POST", http.StatusMethodNotAllowed)
	}
}

// refuseOrigin says why r must be refused, or "". A browser names the
// page that sent a request in Origin; only pages of this machine (or of
// the server's own host, when it listens beyond loopback) may call. On a
// loopback server the Host header must also be a loopback name: a DNS
// rebinding attack reaches 127.0.0.1 under the attacker's name.
func (h *HTTPHandler) refuseOrigin(r *http.Request) string {
	if h.loopback && !loopbackHost(hostname(r.Host)) {
		return fmt.Sprintf("forbidden: host %q is not a loopback name", clip(r.Host))
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return ""
	}
	u, err := url.Parse(origin)
	if err == nil && u.Host != "" && (loopbackHost(u.Hostname()) || (!h.loopback && strings.EqualFold(u.Host, r.Host))) {
		return ""
	}
	return fmt.Sprintf("forbidden: origin %q may not call this server", clip(origin))
}

// hostname is host without its port.
func hostname(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
}

// loopbackHost reports whether host names this machine: localhost (or a
// name under it) or a loopback IP.
func loopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// authorized checks the bearer token. Both sides are hashed first, so the
// comparison takes the same time whatever the token sent: its length and
// its first differing byte are not revealed.
func (h *HTTPHandler) authorized(r *http.Request) bool {
	if !h.hasToken {
		return true
	}
	auth := r.Header.Get("Authorization")
	scheme, token, _ := strings.Cut(auth, " ")
	sum := sha256.Sum256([]byte(strings.TrimSpace(token)))
	ok := subtle.ConstantTimeCompare(sum[:], h.token[:]) == 1
	return ok && strings.EqualFold(scheme, "Bearer")
}

// writeReply sends one JSON-RPC reply as the response body.
func writeReply(w http.ResponseWriter, status int, reply *response) {
	b, err := encode(reply)
	if err != nil {
		b, _ = encode(errorReply(reply.ID, CodeInternalError, "internal error: cannot encode reply: "+err.Error()))
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b)
}

func (h *HTTPHandler) post(w http.ResponseWriter, r *http.Request) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		writeReply(w, http.StatusUnsupportedMediaType, errorReply(nullID, CodeInvalidRequest, "invalid request: the body must be JSON (Content-Type: application/json)"))
		return
	}
	if !acceptsJSON(r.Header.Values("Accept")) {
		http.Error(w, "zumba answers application/json; the request's Accept header refuses it", http.StatusNotAcceptable)
		return
	}
	http.NewResponseController(w).SetReadDeadline(time.Now().Add(readBodyTimeout))
	body, err := readBody(w, r)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) || r.ContentLength > MaxLine {
			writeReply(w, http.StatusRequestEntityTooLarge, errorReply(nullID, CodeInvalidRequest, fmt.Sprintf("invalid request: body longer than %d bytes", MaxLine)))
			return
		}
		http.Error(w, "cannot read the request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	req, reply := parse(body)
	if reply != nil {
		writeReply(w, http.StatusBadRequest, reply)
		return
	}
	if req == nil {
		// A response or an invalid notification: nothing to do.
		w.WriteHeader(http.StatusAccepted)
		return
	}
	modern, rerr := requestEra(req)
	if rerr != nil {
		h.refuse(w, req, http.StatusBadRequest, rerr)
		return
	}
	if _, present := metaVersion(req.params); !present && req.method != "initialize" && r.Header.Get(headerVersion) == modernVersion {
		// No _meta (the SDKs send ping so): the header names the version.
		modern, req.modern = true, true
	}
	if modern {
		h.postModern(w, r, req)
		return
	}
	h.postLegacy(w, r, req)
}

// readBody reads a request body of at most MaxLine bytes. A body that says
// it is longer is refused unread.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.ContentLength > MaxLine {
		return nil, errors.New("body too long")
	}
	return io.ReadAll(http.MaxBytesReader(w, r.Body, MaxLine))
}

// acceptsJSON reports whether an Accept header allows application/json.
// No Accept header accepts anything.
func acceptsJSON(values []string) bool {
	if len(values) == 0 {
		return true
	}
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err == nil && (mt == "application/json" || mt == "application/*" || mt == "*/*") {
				return true
			}
		}
	}
	return false
}

// refuse answers req with an error: a request with its id, a notification
// without.
func (h *HTTPHandler) refuse(w http.ResponseWriter, req *request, status int, e *rpcError) {
	id := req.id
	if id == nil {
		id = nullID
	}
	writeReply(w, status, &response{JSONRPC: "2.0", ID: id, Error: e})
}

// postModern serves a 2026-07-28 request: no session, and headers that
// must agree with the body.
func (h *HTTPHandler) postModern(w http.ResponseWriter, r *http.Request, req *request) {
	if msg := headerMismatch(r.Header, req); msg != "" {
		h.refuse(w, req, http.StatusBadRequest, &rpcError{Code: CodeHeaderMismatch, Message: "header mismatch: " + msg})
		return
	}
	if req.id == nil {
		// The revision defines no client notifications over HTTP:
		// cancelling is closing the connection.
		w.WriteHeader(http.StatusAccepted)
		return
	}
	reply := h.call(r.Context(), nil, req)
	if reply == nil {
		return
	}
	status := http.StatusOK
	if reply.Error != nil && reply.Error.Code == CodeMethodNotFound {
		status = http.StatusNotFound
	}
	writeReply(w, status, reply)
}

// headerMismatch says how the 2026-07-28 headers disagree with req's body,
// or "".
func headerMismatch(hd http.Header, req *request) string {
	v, present := metaVersion(req.params)
	got := hd.Get(headerVersion)
	switch {
	case present && got == "":
		return headerVersion + " is missing"
	case present && got != v:
		return fmt.Sprintf("%s %q differs from the body's %q", headerVersion, clip(got), clip(v))
	case !present && got != "" && !knownVersion(got):
		// server/discover without _meta: the header is the version.
		return fmt.Sprintf("%s %q is no version zumba speaks", headerVersion, clip(got))
	}
	if m := hd.Get(headerMethod); m != req.method {
		if m == "" {
			return headerMethod + " is missing"
		}
		return fmt.Sprintf("%s %q differs from the body's method %q", headerMethod, clip(m), clip(req.method))
	}
	if req.method == "tools/call" {
		var p struct {
			Name *string `json:"name"`
		}
		if json.Unmarshal(req.params, &p) == nil && p.Name != nil {
			raw := hd.Get(headerName)
			name, ok := decodeHeaderValue(raw)
			switch {
			case raw == "":
				return headerName + " is missing"
			case !ok:
				return fmt.Sprintf("%s %q is not valid", headerName, clip(raw))
			case name != *p.Name:
				return fmt.Sprintf("%s %q differs from the body's tool name %q", headerName, clip(name), clip(*p.Name))
			}
		}
	}
	return ""
}

// decodeHeaderValue undoes the revision's Base64 form of a header value,
// =?base64?...?=, used for values that are not plain ASCII.
func decodeHeaderValue(v string) (string, bool) {
	if !strings.HasPrefix(v, base64Sentinel) || !strings.HasSuffix(v, "?=") || len(v) < len(base64Sentinel)+2 {
		return v, true
	}
	b, err := base64.StdEncoding.DecodeString(v[len(base64Sentinel) : len(v)-2])
	if err != nil {
		return "", false
	}
	return string(b), true
}

// postLegacy serves a request of the earlier revisions: initialize opens
// a session, and a request naming a session is served in it. A request
// naming no session is served all the same, as on stdio, where a
// tools/call needs no initialize.
func (h *HTTPHandler) postLegacy(w http.ResponseWriter, r *http.Request, req *request) {
	if v := r.Header.Get(headerVersion); v != "" && req.method != "initialize" {
		if !knownVersion(v) {
			h.refuse(w, req, http.StatusBadRequest, &rpcError{Code: CodeInvalidRequest, Message: fmt.Sprintf("invalid request: %s %q is no version zumba speaks (%s)", headerVersion, clip(v), strings.Join(supportedVersions(), ", "))})
			return
		}
	}
	var sess *httpSession
	if req.method == "initialize" {
		if req.id != nil {
			sess = h.newSession()
		}
	} else if id := r.Header.Get(headerSession); id != "" {
		if sess = h.session(id); sess == nil {
			h.refuse(w, req, http.StatusNotFound, &rpcError{Code: CodeInvalidRequest, Message: "invalid request: no such session (it ended, or the server restarted); initialize again"})
			return
		}
	}
	if req.id == nil {
		if sess != nil {
			sess.notification(req)
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	reply := h.call(r.Context(), sess, req)
	if reply == nil {
		return
	}
	if req.method == "initialize" {
		if reply.Error != nil {
			h.endSession(sess.id)
		} else {
			w.Header().Set(headerSession, sess.id)
		}
	}
	writeReply(w, http.StatusOK, reply)
}

// call serves one request; tool calls count against the server's bound of
// calls in flight and, in a session, can be cancelled by name. It returns
// nil when the client went away before an answer.
func (h *HTTPHandler) call(ctx context.Context, sess *httpSession, req *request) *response {
	if req.method != "tools/call" {
		return h.s.safeHandle(ctx, req)
	}
	select {
	case h.sem <- struct{}{}:
	case <-ctx.Done():
		return nil
	}
	defer func() { <-h.sem }()
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if sess != nil {
		stop := context.AfterFunc(sess.ctx, cancel)
		defer stop()
		key := idKey(req.id)
		sess.mu.Lock()
		if _, dup := sess.calls[key]; dup {
			sess.mu.Unlock()
			return errorReply(req.id, CodeInvalidRequest, "invalid request: a request with this id is already in flight")
		}
		sess.calls[key] = cancel
		sess.mu.Unlock()
		defer func() {
			sess.mu.Lock()
			delete(sess.calls, key)
			sess.mu.Unlock()
		}()
	}
	reply := h.s.safeHandle(cctx, req)
	if ctx.Err() != nil {
		return nil
	}
	if cctx.Err() != nil {
		// HTTP owes the POST an answer even when the call was cancelled.
		return errorReply(req.id, CodeInternalError, "request cancelled")
	}
	return reply
}

// notification handles a session's notification: a cancellation stops a
// call of this session only.
func (sess *httpSession) notification(req *request) {
	key, ok := cancelledCall(req)
	if !ok {
		return
	}
	sess.mu.Lock()
	cancel := sess.calls[key]
	sess.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (h *HTTPHandler) newSession() *httpSession {
	var b [16]byte
	rand.Read(b[:])
	ctx, cancel := context.WithCancel(context.Background())
	sess := &httpSession{id: hex.EncodeToString(b[:]), ctx: ctx, cancel: cancel, calls: map[string]context.CancelFunc{}, used: time.Now()}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.sessions) >= maxSessions {
		var oldest *httpSession
		for _, s := range h.sessions {
			if oldest == nil || s.used.Before(oldest.used) {
				oldest = s
			}
		}
		oldest.cancel()
		delete(h.sessions, oldest.id)
		h.s.log.Printf("http: %d sessions open; ended the one idle longest", maxSessions)
	}
	h.sessions[sess.id] = sess
	return sess
}

func (h *HTTPHandler) session(id string) *httpSession {
	h.mu.Lock()
	defer h.mu.Unlock()
	sess := h.sessions[id]
	if sess != nil {
		sess.used = time.Now()
	}
	return sess
}

// endSession ends a session and cancels its calls in flight.
func (h *HTTPHandler) endSession(id string) bool {
	h.mu.Lock()
	sess := h.sessions[id]
	delete(h.sessions, id)
	h.mu.Unlock()
	if sess != nil {
		sess.cancel()
	}
	return sess != nil
}

func (h *HTTPHandler) closeSessions() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for id, sess := range h.sessions {
		sess.cancel()
		delete(h.sessions, id)
	}
}

// delete ends the session named by the request.
func (h *HTTPHandler) delete(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(headerSession)
	if id == "" {
		http.Error(w, "DELETE ends a session: name it in "+headerSession, http.StatusBadRequest)
		return
	}
	if !h.endSession(id) {
		http.Error(w, "no such session", http.StatusNotFound)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
