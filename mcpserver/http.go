package mcpserver

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/mcpserver/internal/conncap"
	"golang.org/x/sync/semaphore"
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
	// idleTimeout closes kept-alive connections nobody uses.
	idleTimeout = 2 * time.Minute
	// maxHeaderBytes bounds a request's headers.
	maxHeaderBytes = 1 << 20
	// shutdownGrace is how long a stopping server waits for calls in
	// flight before it closes their connections.
	shutdownGrace = 30 * time.Second
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

	// limits overrides the transport's bounds (http_limits.go) in tests.
	limits httpLimits
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
	capped := conncap.New(ln, h.limits.maxConns, s.log)
	srv := &http.Server{
		Handler:           h,
		ConnState:         capped.State,
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          s.log,
		// Calls outlive a client's cancellation of the server's context
		// only until shutdown: their own contexts come from requests.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(capped) }()
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
	lim := opts.limits.withDefaults()
	h := &HTTPHandler{
		s:        s,
		core:     newCallCore(s),
		loopback: opts.Loopback,
		limits:   lim,
		bodies:   newBodyBudget(lim),
		sessions: map[string]*httpSession{},
		openings: openings{},
		endedIDs: map[string]bool{},
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
	// core serves the requests; its bound of calls in flight holds
	// across all clients.
	core   *callCore
	limits httpLimits
	// bodies is the body budget: the bytes of request bodies held at
	// once, from their read to their answer.
	bodies *semaphore.Weighted

	mu       sync.Mutex
	sessions map[string]*httpSession
	openings openings
	// endedIDs are the sessions ended by DELETE, the last
	// maxEndedSessions in endedOrder.
	endedIDs   map[string]bool
	endedOrder []string
}

func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	srv := h.serverFor(r.URL.Path)
	if srv == nil {
		http.Error(w, "zumba serves MCP at "+endpointPath+h.rootPaths(), http.StatusNotFound)
		return
	}
	if msg := h.refuseOrigin(r); msg != "" {
		h.s.log.Printf("http: refused %s from %s: %s", r.Method, r.RemoteAddr, msg)
		h.reply(w, http.StatusForbidden, errorReply(nullID, CodeInvalidRequest, msg))
		return
	}
	if !h.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="zumba"`)
		h.reply(w, http.StatusUnauthorized, errorReply(nullID, CodeInvalidRequest, "unauthorized: send the server's token as Authorization: Bearer TOKEN"))
		return
	}
	switch r.Method {
	case http.MethodPost:
		h.post(w, r, srv)
	case http.MethodDelete:
		h.delete(w, r)
	default:
		// Nothing is ever pushed to a client, so there is no stream to
		// open with GET.
		w.Header().Set("Allow", "POST, DELETE")
		http.Error(w, "method not allowed: send JSON-RPC messages with POST", http.StatusMethodNotAllowed)
	}
}

// serverFor is the server of the endpoint at p: /mcp, or /mcp/NAME for
// the root NAME alone of a server of several roots; nil for any other.
func (h *HTTPHandler) serverFor(p string) *Server {
	if p == endpointPath {
		return h.s
	}
	name, ok := strings.CutPrefix(p, endpointPath+"/")
	if !ok || name == "" || strings.Contains(name, "/") || !h.s.multi {
		return nil
	}
	return h.s.view(name)
}

// rootPaths lists the endpoints of the roots for a message: "" for a
// server of one.
func (h *HTTPHandler) rootPaths() string {
	roots := h.s.rootList(context.Background())
	if len(roots) < 2 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString(" (and one root alone at")
	for _, r := range roots {
		sb.WriteString(" " + endpointPath + "/" + r.cfg.name)
	}
	sb.WriteString(")")
	return sb.String()
}

// reply sends one JSON-RPC reply as the response body. A client that does
// not take it within the write bound loses its connection, and the reply's
// buffer is let go.
func (h *HTTPHandler) reply(w http.ResponseWriter, status int, reply *response) {
	b := encodeReply(reply)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(h.limits.write))
	w.WriteHeader(status)
	w.Write(b)
}

func (h *HTTPHandler) post(w http.ResponseWriter, r *http.Request, srv *Server) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		h.reply(w, http.StatusUnsupportedMediaType, errorReply(nullID, CodeInvalidRequest, "invalid request: the body must be JSON (Content-Type: application/json)"))
		return
	}
	if !acceptsJSON(r.Header.Values("Accept")) {
		http.Error(w, "zumba answers application/json; the request's Accept header refuses it", http.StatusNotAcceptable)
		return
	}
	body, release, err := h.readBody(w, r)
	if err != nil {
		h.refuseBody(w, r, err)
		return
	}
	defer release()
	req, reply := parse(body)
	if reply != nil {
		h.reply(w, http.StatusBadRequest, reply)
		return
	}
	if req == nil {
		// A response or an invalid notification: nothing to do.
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if req.refusal != nil {
		h.refuse(w, req, http.StatusBadRequest, req.refusal)
		return
	}
	if !req.hasVersion && req.method != "initialize" && r.Header.Get(headerVersion) == modernVersion {
		// No _meta (the SDKs send ping so): the header names the version.
		req.modern = true
	}
	if req.modern {
		h.postModern(w, r, req, srv)
		return
	}
	h.postLegacy(w, r, req, srv)
}

// refuse answers req with an error: a request with its id, a notification
// without.
func (h *HTTPHandler) refuse(w http.ResponseWriter, req *request, status int, e *rpcError) {
	id := req.id
	if id == nil {
		id = nullID
	}
	h.reply(w, status, &response{JSONRPC: "2.0", ID: id, Error: e})
}

// postModern serves a 2026-07-28 request: no session, and headers that
// must agree with the body.
func (h *HTTPHandler) postModern(w http.ResponseWriter, r *http.Request, req *request, srv *Server) {
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
	reply := h.call(r.Context(), srv, nil, req)
	if reply == nil {
		abandon()
	}
	status := http.StatusOK
	if reply.Error != nil && reply.Error.Code == CodeMethodNotFound {
		status = http.StatusNotFound
	}
	h.reply(w, status, reply)
}

// postLegacy serves a request of the earlier revisions: initialize opens
// a session, and a request naming a session is served in it. A request
// naming no session is served all the same, as on stdio, where a
// tools/call needs no initialize.
func (h *HTTPHandler) postLegacy(w http.ResponseWriter, r *http.Request, req *request, srv *Server) {
	if v := r.Header.Get(headerVersion); v != "" && req.method != "initialize" {
		if !knownVersion(v) {
			h.refuse(w, req, http.StatusBadRequest, &rpcError{Code: CodeInvalidRequest, Message: fmt.Sprintf("invalid request: %s %s is no version zumba speaks (%s)", headerVersion, project.Quote(v), strings.Join(supportedVersions(), ", "))})
			return
		}
	}
	var sess *httpSession
	if req.method == "initialize" {
		if req.id != nil {
			var err error
			if sess, err = h.newSession(r.RemoteAddr, srv, ""); err != nil {
				h.refuseSession(w, req, err)
				return
			}
		}
	} else if id := r.Header.Get(headerSession); id != "" {
		sess = h.session(id)
		switch {
		case sess == nil && h.ended(id):
			h.refuse(w, req, http.StatusNotFound, &rpcError{Code: CodeInvalidRequest, Message: "invalid request: this session was ended (DELETE); initialize again"})
			return
		case sess == nil && sessionID(id):
			// Let go to make room, or held by the server before a
			// restart: opened again (see http_session.go).
			var err error
			if sess, err = h.newSession(r.RemoteAddr, srv, id); err != nil {
				h.refuseSession(w, req, err)
				return
			}
		case sess == nil:
			h.refuse(w, req, http.StatusNotFound, &rpcError{Code: CodeInvalidRequest, Message: "invalid request: no such session; initialize again"})
			return
		case sess.srv != srv:
			h.refuse(w, req, http.StatusNotFound, &rpcError{Code: CodeInvalidRequest, Message: "invalid request: this session belongs to another endpoint; initialize again"})
			return
		}
	}
	if req.id == nil {
		if sess != nil {
			sess.calls.notify(req)
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	reply := h.call(r.Context(), srv, sess, req)
	if reply == nil {
		if sess != nil && req.method == "initialize" {
			h.endSession(sess.id)
		}
		abandon()
	}
	if req.method == "initialize" {
		if reply.Error != nil {
			h.endSession(sess.id)
		} else {
			w.Header().Set(headerSession, sess.id)
		}
	}
	h.reply(w, http.StatusOK, reply)
}

// refuseSession answers an initialize that could not open a session, with
// a status clients retry after a pause.
func (h *HTTPHandler) refuseSession(w http.ResponseWriter, req *request, err error) {
	status := http.StatusServiceUnavailable
	if errors.Is(err, errSessionRate) {
		status = http.StatusTooManyRequests
	}
	w.Header().Set("Retry-After", "1")
	h.refuse(w, req, status, &rpcError{Code: CodeInternalError, Message: "server busy: " + err.Error() + "; retry"})
}

// call serves one request; tool calls count against the transport's bound
// of calls in flight and, in a session, can be cancelled by name. It
// returns nil when the client went away before an answer.
func (h *HTTPHandler) call(ctx context.Context, srv *Server, sess *httpSession, req *request) *response {
	if req.method != "tools/call" {
		return srv.safeHandle(ctx, req)
	}
	var set *callSet
	if sess != nil {
		set = sess.calls
	}
	cl, reply := h.core.admit(ctx, set, req)
	if cl == nil {
		return reply
	}
	cl.srv = srv
	defer cl.release()
	reply, cancelled := cl.run()
	if ctx.Err() != nil {
		return nil
	}
	if cancelled {
		// HTTP owes the POST an answer even when the call was cancelled.
		return errorReply(req.id, CodeInternalError, "request cancelled")
	}
	return reply
}
