// Package conncap caps the connections a listener keeps open: past the
// bound, the one idle longest is closed to make room, or the newcomer is
// answered 503 (HTTP) and closed.
package conncap

import (
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"
)

// DefaultMax bounds the connections open at once: each holds a
// descriptor and two buffers, and a server out of descriptors can open
// neither files nor new connections. The bound is lowered to half the
// descriptor limit where that is lower (fdLimit), leaving the other half to
// the files the tools and the index read.
const DefaultMax = 4096

// Listener is a listener that keeps at most max connections open. When a
// connection comes past the bound, the one idle longest (no request in
// progress: kept alive between requests, or not yet sending) is closed to
// make room; when none is idle, the newcomer gets 503 and is closed.
type Listener struct {
	net.Listener
	max int
	log *log.Logger

	mu    sync.Mutex
	conns map[net.Conn]*connIdle
}

// connIdle is when a connection became idle; the zero time while it
// serves a request.
type connIdle struct{ since time.Time }

// New returns ln capped at max connections open at once; the State
// method must be the http.Server's ConnState. logger logs the closings.
func New(ln net.Listener, max int, logger *log.Logger) *Listener {
	return &Listener{Listener: ln, max: max, log: logger, conns: map[net.Conn]*connIdle{}}
}

// overloaded is what a connection past the bound reads when no open one
// can be closed for it.
const overloaded = "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 40\r\n\r\nserver busy: too many connections; retry"

// Accept accepts the next connection, making room for it past the bound.
func (cc *Listener) Accept() (net.Conn, error) {
	for {
		c, err := cc.Listener.Accept()
		if err != nil {
			return nil, err
		}
		cc.mu.Lock()
		var victim net.Conn
		if len(cc.conns) >= cc.max {
			victim = cc.idleLongest()
			if victim != nil {
				delete(cc.conns, victim)
			}
		}
		full := len(cc.conns) >= cc.max
		if !full {
			cc.conns[c] = &connIdle{since: time.Now()}
		}
		cc.mu.Unlock()
		if victim != nil {
			victim.Close()
		}
		if !full {
			return c, nil
		}
		cc.log.Printf("http: %d connections open, none idle; refused %s", cc.max, c.RemoteAddr())
		// A new connection's send buffer is empty: this write does not
		// wait, and the deadline makes sure of it.
		c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
		io.WriteString(c, overloaded)
		c.Close()
	}
}

// idleLongest returns the connection idle longest, or nil. cc.mu is held.
func (cc *Listener) idleLongest() net.Conn {
	var oldest net.Conn
	var since time.Time
	for c, idle := range cc.conns {
		if !idle.since.IsZero() && (oldest == nil || idle.since.Before(since)) {
			oldest, since = c, idle.since
		}
	}
	return oldest
}

// State follows the connections' states (http.Server.ConnState).
func (cc *Listener) State(c net.Conn, st http.ConnState) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	idle := cc.conns[c]
	switch st {
	case http.StateClosed, http.StateHijacked:
		delete(cc.conns, c)
	case http.StateActive:
		if idle != nil {
			idle.since = time.Time{}
		}
	case http.StateIdle, http.StateNew:
		if idle != nil {
			idle.since = time.Now()
		}
	}
}
