package mcpserver

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"time"
)

// Sessions of the revisions before 2026-07-28 over HTTP: initialize opens
// one, DELETE ends it, and its calls can be cancelled by name.

// httpSession is a client of the earlier revisions between its initialize
// and its DELETE. It holds what cancellation needs: its calls in flight.
type httpSession struct {
	id    string
	calls *callSet
	// srv is the server of the endpoint that opened it: its requests go
	// to that endpoint alone.
	srv  *Server
	used time.Time // guarded by HTTPHandler.mu
}

// Why a session was not opened.
var (
	errSessionRate  = errors.New("too many new sessions from this connection")
	errSessionsBusy = errors.New("every session has a call in flight")
)

// newSession opens a session for the client at remote (its connection's
// address). A connection may open sessionRate sessions per sessionWindow.
// Past maxSessions, the session idle longest with no call in flight is
// ended to make room; a session with a call in flight is never ended so.
func (h *HTTPHandler) newSession(remote string, srv *Server) (*httpSession, error) {
	var b [16]byte
	rand.Read(b[:])
	now := time.Now()
	sess := &httpSession{id: hex.EncodeToString(b[:]), calls: newCallSet(), srv: srv, used: now}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.openings.allow(remote, now, h.limits.sessionRate, h.limits.sessionWindow) {
		return nil, errSessionRate
	}
	if len(h.sessions) >= h.limits.maxSessions {
		var oldest *httpSession
		for _, s := range h.sessions {
			if !s.calls.busy() && (oldest == nil || s.used.Before(oldest.used)) {
				oldest = s
			}
		}
		if oldest == nil {
			return nil, errSessionsBusy
		}
		oldest.calls.end()
		delete(h.sessions, oldest.id)
		h.s.log.Printf("http: %d sessions open; ended the one idle longest", h.limits.maxSessions)
	}
	h.sessions[sess.id] = sess
	return sess, nil
}

// openings counts the sessions each connection opened in its current
// window.
type openings map[string]*opening

type opening struct {
	start time.Time
	n     int
}

// allow reports whether the connection at remote may open one more
// session now, and counts it. Windows that have passed are dropped as the
// map grows, so it holds about the connections that opened a session in
// the last window.
func (o openings) allow(remote string, now time.Time, rate int, window time.Duration) bool {
	op := o[remote]
	if op == nil || now.Sub(op.start) >= window {
		if len(o) >= 1024 {
			for k, v := range o {
				if now.Sub(v.start) >= window {
					delete(o, k)
				}
			}
		}
		op = &opening{start: now}
		o[remote] = op
	}
	if op.n >= rate {
		return false
	}
	op.n++
	return true
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
		sess.calls.end()
	}
	return sess != nil
}

func (h *HTTPHandler) closeSessions() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for id, sess := range h.sessions {
		sess.calls.end()
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
