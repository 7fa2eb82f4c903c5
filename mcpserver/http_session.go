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
//
// A session holds nothing but its calls in flight, so one zumba no longer
// holds (made room for past maxSessions, or lost with a restart) is opened
// again under its id when a client names it: a client never sees 404 for
// a session it did not end itself. That matters because a strict client
// treats 404 as a fault of configuration and never retries it, so one
// process opening sessions in a loop would otherwise cut every idle agent
// off. Only a session ended by DELETE gets 404 (the last
// maxEndedSessions of them are remembered).

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

// maxEndedSessions is how many sessions ended by DELETE are remembered,
// so that a request naming one gets 404 rather than a new session.
const maxEndedSessions = 4096

// newSession opens a session for the client at remote (its connection's
// address), under id, or a new random id when id is "". A connection may
// open sessionRate sessions per sessionWindow. Past maxSessions, the
// session idle longest with no call in flight is let go to make room (it
// is opened again if its client names it); a session with a call in
// flight never is.
func (h *HTTPHandler) newSession(remote string, srv *Server, id string) (*httpSession, error) {
	if id == "" {
		var b [16]byte
		rand.Read(b[:])
		id = hex.EncodeToString(b[:])
	}
	now := time.Now()
	sess := &httpSession{id: id, calls: newCallSet(), srv: srv, used: now}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sessions[id] != nil {
		// Named by two requests at once: both are served in one.
		return h.sessions[id], nil
	}
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
		delete(h.sessions, oldest.id)
		h.s.log.Printf("http: %d sessions open; let the one idle longest go (opened again if its client comes back)", h.limits.maxSessions)
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

// sessionID reports whether id has the form of the ids zumba gives: 32
// lowercase hex digits. Only such an id is opened again when named.
func sessionID(id string) bool {
	if len(id) != 32 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// ended reports whether the session id was ended by DELETE.
func (h *HTTPHandler) ended(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.endedIDs[id]
}

// endSession ends a session and cancels its calls in flight; its id is
// remembered as ended.
func (h *HTTPHandler) endSession(id string) bool {
	h.mu.Lock()
	sess := h.sessions[id]
	delete(h.sessions, id)
	if sess != nil && !h.endedIDs[id] {
		if len(h.endedOrder) >= maxEndedSessions {
			delete(h.endedIDs, h.endedOrder[0])
			h.endedOrder = h.endedOrder[1:]
		}
		h.endedIDs[id] = true
		h.endedOrder = append(h.endedOrder, id)
	}
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
