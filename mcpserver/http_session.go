package mcpserver

import (
	"crypto/rand"
	"encoding/hex"
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
	used  time.Time // guarded by HTTPHandler.mu
}

func (h *HTTPHandler) newSession() *httpSession {
	var b [16]byte
	rand.Read(b[:])
	sess := &httpSession{id: hex.EncodeToString(b[:]), calls: newCallSet(), used: time.Now()}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.sessions) >= maxSessions {
		var oldest *httpSession
		for _, s := range h.sessions {
			if oldest == nil || s.used.Before(oldest.used) {
				oldest = s
			}
		}
		oldest.calls.end()
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
