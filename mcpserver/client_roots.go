package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/zumba-dev/zumba/search"
)

// The roots a client names (issue 31): `zumba mcp` without a folder asks
// its client for them over stdio (roots/list, when the client declares the
// roots capability in initialize), serves them, and asks again at each
// notifications/roots/list_changed. A client without the capability, or
// one that names no folder, gets Config.Root (the current folder).

// rootsWait bounds how long a tool call waits for the client's first
// answer to roots/list before it is served from Config.Root.
const rootsWait = 3 * time.Second

// maxClientRoots bounds the roots a client may name: each is an index.
const maxClientRoots = 16

// clientRoots is what a server of the client's roots knows of them.
type clientRoots struct {
	mu sync.Mutex
	// ready is closed once the roots are first known.
	ready     chan struct{}
	readyOnce sync.Once
	// wants: the client declared the roots capability.
	wants bool
	// send writes a request to the client (set by the transport).
	send func(b []byte)
	seq  int
	// pending are the requests sent, by id, waiting for their answer.
	pending map[string]chan json.RawMessage
	// asking: a goroutine is asking for the roots; again: the roots
	// changed since it asked, so it asks once more when it is done. At
	// most one ask is in flight and one pending, however many changes
	// the client announces (a storm of a million announcements once
	// held a goroutine each, 4 GiB).
	asking, again bool
	// ctx is the context the roots' indexes run in while the server
	// indexes (nil otherwise); stops stops each root's index.
	ctx   context.Context
	stops map[*Server]func()
}

func (c *clientRoots) init() {
	c.ready = make(chan struct{})
	c.pending = map[string]chan json.RawMessage{}
	c.stops = map[*Server]func(){}
}

// rootList is the roots s serves now. A server of the client's roots
// waits (up to rootsWait) for the client's first answer; without one it
// serves Config.Root.
func (s *Server) rootList(ctx context.Context) []*Server {
	if s.cfg.ClientRoots {
		t := time.NewTimer(rootsWait)
		defer t.Stop()
		select {
		case <-s.client.ready:
		case <-t.C:
			s.setRoots(nil)
		case <-ctx.Done():
		}
	}
	s.rootsMu.RLock()
	defer s.rootsMu.RUnlock()
	return s.roots
}

// several reports whether s serves more than one root now.
func (s *Server) several() bool {
	s.rootsMu.RLock()
	defer s.rootsMu.RUnlock()
	return len(s.roots) > 1
}

// initialized is told of the client's initialize: a client without the
// roots capability is served Config.Root at once.
func (s *Server) initialized(params json.RawMessage) {
	if !s.cfg.ClientRoots {
		return
	}
	var p struct {
		Capabilities struct {
			Roots *json.RawMessage `json:"roots"`
		} `json:"capabilities"`
	}
	_ = json.Unmarshal(params, &p)
	s.client.mu.Lock()
	s.client.wants = p.Capabilities.Roots != nil && s.client.send != nil
	wants := s.client.wants
	s.client.mu.Unlock()
	if !wants {
		s.setRoots(nil)
	}
}

// notified is told of a notification from the client: once it is
// initialized, and whenever its roots change, the roots are asked for.
func (s *Server) notified(ctx context.Context, method string) {
	if !s.cfg.ClientRoots || method != "notifications/initialized" && method != "notifications/roots/list_changed" {
		return
	}
	s.client.mu.Lock()
	defer s.client.mu.Unlock()
	if !s.client.wants {
		return
	}
	if s.client.asking {
		s.client.again = true
		return
	}
	s.client.asking = true
	go s.askRootsLoop(ctx)
}

// askRootsLoop asks for the roots until no change was announced while it
// asked. It ends with ctx, the stream's, which the stream waits for.
func (s *Server) askRootsLoop(ctx context.Context) {
	for {
		s.askRoots(ctx)
		s.client.mu.Lock()
		if !s.client.again || ctx.Err() != nil {
			s.client.asking, s.client.again = false, false
			s.client.mu.Unlock()
			return
		}
		s.client.again = false
		s.client.mu.Unlock()
	}
}

// askRoots sends roots/list and serves the folders of the answer. An
// answer that does not come within rootsWait, or that names no folder
// zumba can open, leaves Config.Root served.
func (s *Server) askRoots(ctx context.Context) {
	s.client.mu.Lock()
	s.client.seq++
	id := fmt.Sprintf("zumba-roots-%d", s.client.seq)
	ch := make(chan json.RawMessage, 1)
	s.client.pending[id] = ch
	send := s.client.send
	s.client.mu.Unlock()
	defer func() {
		s.client.mu.Lock()
		delete(s.client.pending, id)
		s.client.mu.Unlock()
	}()
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "roots/list"})
	send(append(b, '\n'))
	t := time.NewTimer(rootsWait)
	defer t.Stop()
	var result json.RawMessage
	select {
	case result = <-ch:
	case <-t.C:
		s.log.Printf("roots/list: no answer from the client in %v; serving %s", rootsWait, s.cfg.Root.Dir)
		s.setRoots(nil)
		return
	case <-ctx.Done():
		return
	}
	var r struct {
		Roots []struct {
			URI string `json:"uri"`
		} `json:"roots"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		s.log.Printf("roots/list: the client's answer is not a list of roots; serving %s", s.cfg.Root.Dir)
		s.setRoots(nil)
		return
	}
	var dirs []string
	for _, root := range r.Roots {
		if dir, ok := fileURIPath(root.URI); ok && len(dirs) < maxClientRoots {
			dirs = append(dirs, dir)
		}
	}
	s.setRoots(dirs)
}

// answered gives the client's answer to a request of the server to the
// call waiting for it; false when line is no such answer.
func (s *Server) answered(line []byte) bool {
	if !s.cfg.ClientRoots {
		return false
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(line, &m) != nil {
		return false
	}
	var id string
	if json.Unmarshal(m.ID, &id) != nil {
		return false
	}
	s.client.mu.Lock()
	ch := s.client.pending[id]
	s.client.mu.Unlock()
	if ch == nil {
		return false
	}
	if m.Result == nil {
		m.Result = json.RawMessage("null")
	}
	select {
	case ch <- m.Result:
	default:
	}
	return true
}

// fileURIPath is the local folder a file:// URI names.
func fileURIPath(uri string) (string, bool) {
	if len(uri) < 7 || !strings.EqualFold(uri[:7], "file://") {
		return "", false
	}
	u, err := url.Parse(uri)
	if err != nil || u.Host != "" && u.Host != "localhost" || u.Path == "" {
		return "", false
	}
	return filepath.FromSlash(u.Path), true
}

// setRoots serves the folders dirs (none: Config.Root): the roots already
// served stay as they are, the new ones get a server (and, while the
// server indexes, an index), and those no longer named are stopped.
func (s *Server) setRoots(dirs []string) {
	var named []NamedRoot
	names := RootNames(dirs)
	for i, d := range dirs {
		root, err := search.OpenRoot(d)
		if err != nil {
			s.log.Printf("roots/list: %v; left out", err)
			continue
		}
		root.SymbolTimeLimit = s.cfg.Root.SymbolTimeLimit
		if j := slices.IndexFunc(named, func(n NamedRoot) bool { return n.Root.Real == root.Real }); j >= 0 {
			// One folder named twice (or through a link) is one root:
			// served twice, every hit came twice and its index too.
			s.log.Printf("roots/list: %s is %s again; served once", d, named[j].Root.Dir)
			continue
		}
		named = append(named, NamedRoot{Name: names[i], Root: root})
	}
	if len(named) == 0 {
		named = []NamedRoot{{Name: RootNames([]string{s.cfg.Root.Dir})[0], Root: s.cfg.Root}}
	}
	s.rootsMu.Lock()
	old := s.roots
	var roots []*Server
	for _, n := range named {
		var r *Server
		for _, o := range old {
			if o.cfg.name == n.Name && o.cfg.Root.Real == n.Root.Real {
				r = o
			}
		}
		if r == nil {
			cfg := s.cfg
			cfg.Roots, cfg.ClientRoots, cfg.Root, cfg.name = nil, false, n.Root, n.Name
			r = New(cfg)
			r.parent = s
		}
		roots = append(roots, r)
	}
	s.roots = roots
	s.rootsMu.Unlock()
	s.client.mu.Lock()
	for _, r := range roots {
		if _, ok := s.client.stops[r]; !ok && s.client.ctx != nil && s.cfg.Index != nil {
			s.client.stops[r] = r.serveIndex(s.client.ctx)
		}
	}
	for _, o := range old {
		if stop, ok := s.client.stops[o]; ok && !slices.Contains(roots, o) {
			delete(s.client.stops, o)
			stop()
		}
	}
	s.client.mu.Unlock()
	s.client.readyOnce.Do(func() { close(s.client.ready) })
}

// serveRootIndexes starts the index of every root s serves, and for the
// client's roots, of those it will serve; the function it returns stops
// them all.
func (s *Server) serveRootIndexes(ctx context.Context) func() {
	if !s.cfg.ClientRoots {
		roots := s.rootList(ctx)
		stops := make([]func(), len(roots))
		for i, r := range roots {
			stops[i] = r.serveIndex(ctx)
		}
		return func() {
			for _, stop := range stops {
				stop()
			}
		}
	}
	s.rootsMu.RLock()
	roots := s.roots
	s.rootsMu.RUnlock()
	s.client.mu.Lock()
	s.client.ctx = ctx
	for _, r := range roots {
		if _, ok := s.client.stops[r]; !ok {
			s.client.stops[r] = r.serveIndex(ctx)
		}
	}
	s.client.mu.Unlock()
	return func() {
		s.client.mu.Lock()
		s.client.ctx = nil
		stops := s.client.stops
		s.client.stops = map[*Server]func(){}
		s.client.mu.Unlock()
		for _, stop := range stops {
			stop()
		}
	}
}
