package mcpserver

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/zumba-dev/zumba/search"
)

// The call core: what stdio and HTTP share once a message has been parsed.
// A quick method is answered at once; a tool call waits for one of the
// transport's places (the in-flight bound), is registered under its id in
// the set of calls its client can name, runs with its own context, and
// leaves both when it ends. Each transport decides only how messages arrive
// and how replies leave (stdio.go, http.go).

// maxInFlight bounds the tool calls running at once; past it the server
// stops reading input until one finishes, so a client that floods it or
// stops reading replies cannot grow its memory without bound.
const maxInFlight = 64

// callAnswerBy is how long after it arrives a tool call must be answered
// by: clients wait 5 s, and the strict one reports a call answered later
// as an uncertain outcome. Whatever a call waits for before its search
// starts (a place among the calls in flight, the client's roots) comes out
// of the search's own time (search.AnswerBy).
const callAnswerBy = 4 * time.Second

// callCore serves parsed requests for one transport.
type callCore struct {
	s *Server
	// sem bounds the tool calls running at once.
	sem chan struct{}
}

func newCallCore(s *Server) *callCore {
	return &callCore{s: s, sem: make(chan struct{}, maxInFlight)}
}

// callSet is the calls one client can name: those of one stdio stream, or
// of one HTTP session. A cancellation reaches only the calls of its own
// set, and ending the set cancels them all.
type callSet struct {
	mu    sync.Mutex
	calls map[string]context.CancelFunc
	ended bool
}

func newCallSet() *callSet {
	return &callSet{calls: map[string]context.CancelFunc{}}
}

// add registers a call's cancel under key; ok is false when a call with
// that key is already in flight. A call added to an ended set is cancelled
// at once.
func (cs *callSet) add(key string, cancel context.CancelFunc) (ok bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if _, dup := cs.calls[key]; dup {
		return false
	}
	cs.calls[key] = cancel
	if cs.ended {
		cancel()
	}
	return true
}

func (cs *callSet) remove(key string) {
	cs.mu.Lock()
	delete(cs.calls, key)
	cs.mu.Unlock()
}

// busy reports whether a call of the set is in flight.
func (cs *callSet) busy() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return len(cs.calls) > 0
}

// end cancels every call of the set, and those added later.
func (cs *callSet) end() {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.ended = true
	for _, cancel := range cs.calls {
		cancel()
	}
}

// notify handles a notification of the set's client; none gets a reply.
// notifications/cancelled stops the call it names.
func (cs *callSet) notify(req *request) {
	if req.method != "notifications/cancelled" {
		return
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(req.params, &p) != nil || len(p.RequestID) == 0 {
		return
	}
	cs.mu.Lock()
	cancel := cs.calls[idKey(p.RequestID)]
	cs.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// inFlightCall is a tool call admitted to run.
type inFlightCall struct {
	core   *callCore
	req    *request
	parent context.Context
	ctx    context.Context
	cancel context.CancelFunc
	set    *callSet
	key    string
	// srv serves the call: the transport's server unless set otherwise
	// (an HTTP endpoint of one root).
	srv *Server
}

// admit waits for a place for the tool call req and registers it in set
// (nil: a call no message can name). It returns the call to run, or a
// reply to send at once (its id is already in flight), or neither when
// ctx ends first.
func (c *callCore) admit(ctx context.Context, set *callSet, req *request) (*inFlightCall, *response) {
	arrived := time.Now()
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, nil
	}
	cctx, cancel := context.WithCancel(search.AnswerBy(ctx, arrived.Add(callAnswerBy)))
	cl := &inFlightCall{core: c, req: req, parent: ctx, ctx: cctx, cancel: cancel, set: set, srv: c.s}
	if set != nil {
		cl.key = idKey(req.id)
		if !set.add(cl.key, cancel) {
			cancel()
			<-c.sem
			return nil, errorReply(req.id, CodeInvalidRequest, "invalid request: a request with this id is already in flight")
		}
	}
	c.s.running.Add(1)
	return cl, nil
}

// run serves the call and gives back its id. cancelled reports that the
// call was stopped by name or by the end of its set, not by the end of the
// context it was admitted with. The call keeps its place until release,
// which the transport calls once the reply has left (stdio), so that a
// client that does not read its replies stops the server reading more.
func (cl *inFlightCall) run() (reply *response, cancelled bool) {
	reply = cl.srv.safeHandle(cl.ctx, cl.req)
	if cl.set != nil {
		cl.set.remove(cl.key)
	}
	cl.core.s.running.Add(-1)
	cancelled = cl.ctx.Err() != nil && cl.parent.Err() == nil
	cl.cancel()
	return reply, cancelled
}

// release gives back the call's place among those in flight.
func (cl *inFlightCall) release() { <-cl.core.sem }

// handle answers a request, turning a panic in a handler into an
// internal error reply.
func (c *callCore) handle(ctx context.Context, req *request) *response {
	return c.s.safeHandle(ctx, req)
}
