package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/mcpserver/internal/conncap"
	"golang.org/x/sync/semaphore"
)

// The memory bounds of the HTTP transport against clients that send much,
// send slowly or never read. Every figure is a field of httpLimits, set
// from the defaults below; tests pass smaller ones through HTTPOptions.

// Default bounds of the HTTP transport.
const (
	// defaultMaxBody is the longest request body. zumba's requests are
	// small (the longest argument of any tool, a list of globs, is a few
	// hundred bytes), so 1 MiB leaves them room a thousandfold while
	// bounding what one request can make the server hold.
	defaultMaxBody = 1 << 20
	// defaultBodyBudget bounds the bytes all request bodies hold at once,
	// from their read to their answer: 32 bodies of the longest kind, or
	// tens of thousands of ordinary ones.
	defaultBodyBudget = 32 << 20
	// defaultBodyWait is how long a request waits for room in the body
	// budget before it gets 503 (and retries).
	defaultBodyWait = 5 * time.Second
	// defaultReadBody cuts off a client that sends its body slowly: 1 MiB
	// at 100 KiB/s.
	defaultReadBody = 10 * time.Second
	// defaultWrite cuts off a client that does not read its answer, and
	// lets the answer's buffer go.
	defaultWrite = 30 * time.Second
	// defaultMaxSessions bounds the sessions kept at once (a few hundred
	// bytes each); past it, the one idle longest with no call in flight
	// is let go, and opened again if its client names it.
	defaultMaxSessions = 16384
	// defaultSessionRate new sessions per sessionWindow are allowed to
	// one connection, so that one client cannot end everyone's sessions
	// by opening new ones.
	defaultSessionRate   = 4
	defaultSessionWindow = time.Second
)

// httpLimits are the bounds of one HTTP handler. A zero field takes its
// default.
type httpLimits struct {
	maxBody    int64
	bodyBudget int64
	bodyWait   time.Duration
	readBody   time.Duration
	write      time.Duration

	maxSessions   int
	sessionRate   int
	sessionWindow time.Duration
	maxConns      int
}

func (l httpLimits) withDefaults() httpLimits {
	def := func(v *int64, d int64) {
		if *v <= 0 {
			*v = d
		}
	}
	defDur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.maxBody, defaultMaxBody)
	def(&l.bodyBudget, defaultBodyBudget)
	l.maxBody = min(l.maxBody, l.bodyBudget)
	defDur(&l.bodyWait, defaultBodyWait)
	defDur(&l.readBody, defaultReadBody)
	defDur(&l.write, defaultWrite)
	defInt := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defInt(&l.maxSessions, defaultMaxSessions)
	defInt(&l.sessionRate, defaultSessionRate)
	defDur(&l.sessionWindow, defaultSessionWindow)
	maxConns := conncap.DefaultMax
	if fds := fdLimit(); fds > 0 {
		maxConns = max(16, min(maxConns, fds/2))
	}
	defInt(&l.maxConns, maxConns)
	return l
}

// Why a body was not read.
var (
	errBodyTooLong = errors.New("body too long")
	errBusy        = errors.New("too many request bodies held at once")
)

// readBody reads r's body within the handler's limits. Room for it is
// taken from the body budget first (its Content-Length, or the longest
// body when it has none), waiting at most bodyWait; the caller gives the
// room back with release once the request is answered. A body that says
// it is too long is refused unread.
func (h *HTTPHandler) readBody(w http.ResponseWriter, r *http.Request) (body []byte, release func(), err error) {
	lim := h.limits
	if r.ContentLength > lim.maxBody {
		return nil, nil, errBodyTooLong
	}
	need := lim.maxBody
	if r.ContentLength >= 0 {
		need = r.ContentLength
	}
	wctx, stop := context.WithTimeout(r.Context(), lim.bodyWait)
	err = h.bodies.Acquire(wctx, need)
	stop()
	if err != nil {
		if r.Context().Err() != nil {
			return nil, nil, r.Context().Err()
		}
		return nil, nil, errBusy
	}
	release = func() { h.bodies.Release(need) }
	http.NewResponseController(w).SetReadDeadline(time.Now().Add(lim.readBody))
	src := http.MaxBytesReader(w, r.Body, lim.maxBody)
	if r.ContentLength >= 0 {
		body = make([]byte, r.ContentLength)
		_, err = io.ReadFull(src, body)
	} else {
		body, err = io.ReadAll(src)
	}
	if err != nil {
		release()
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			err = errBodyTooLong
		}
		return nil, nil, err
	}
	return body, release, nil
}

// refuseBody answers a POST whose body could not be read.
func (h *HTTPHandler) refuseBody(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, errBodyTooLong):
		h.reply(w, http.StatusRequestEntityTooLarge, errorReply(nullID, CodeInvalidRequest, fmt.Sprintf("invalid request: body longer than %d bytes", h.limits.maxBody)))
	case errors.Is(err, errBusy):
		// 503 with Retry-After: clients retry it with backoff.
		h.s.log.Printf("http: %s: %v for %s", r.RemoteAddr, err, h.limits.bodyWait)
		w.Header().Set("Retry-After", "1")
		http.Error(w, "server busy: too many requests being read at once; retry", http.StatusServiceUnavailable)
	case r.Context().Err() != nil:
		abandon()
	default:
		http.Error(w, "cannot read the request body: "+project.Echo(err.Error()), http.StatusBadRequest)
	}
}

// abandon ends a request without an answer: the connection is closed
// without a status line, so a client that went away (or half-closed its
// side) never reads an empty 200 as a success.
func abandon() {
	panic(http.ErrAbortHandler)
}

// newBodyBudget is the semaphore of the body budget.
func newBodyBudget(l httpLimits) *semaphore.Weighted {
	return semaphore.NewWeighted(l.bodyBudget)
}
