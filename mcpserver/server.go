package mcpserver

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/zumba-dev/zumba/internal/diagfile"
	"github.com/zumba-dev/zumba/internal/parsecache"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/mcpserver/internal/prompts"
	"github.com/zumba-dev/zumba/search"
)

// Version is zumba's version, reported as serverInfo.version.
var Version = "0.1.0"

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
	// Roots, when set, are several project folders served at once (Root
	// is then unused): see roots.go.
	Roots []NamedRoot
	// ClientRoots makes the server serve the roots its client names
	// (MCP roots/list, over stdio), following their changes; Root is
	// served when the client names none.
	ClientRoots bool

	// name is the root's name in a server of several roots.
	name string
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

	// running counts the tool calls in flight, over every transport.
	running atomic.Int64

	outlines parsecache.Cache[outlineAnswer]
	// parses keeps the parses find_references' options need.
	parses search.ParseCache
	// multi: the server serves several roots (Config.Roots or the
	// client's), roots, which answer the tool calls (see roots.go).
	multi   bool
	rootsMu sync.RWMutex
	roots   []*Server
	// parent is the server of several roots this one is a root of.
	parent *Server
	// client is what a server of the client's roots knows of them (see
	// client_roots.go).
	client clientRoots
	// views serve one root each over HTTP (see Server.view).
	viewsMu sync.Mutex
	views   map[string]*Server
}

// New returns a server for the project in cfg.
func New(cfg Config) *Server {
	w := cfg.Log
	if w == nil {
		w = io.Discard
	}
	if cfg.Index != nil && cfg.Index.Shared == nil && (len(cfg.Roots) > 0 || cfg.ClientRoots) {
		// The roots' indexes share their words and records: a root
		// whose files are mostly another's costs little (issue 31).
		opts := *cfg.Index
		opts.Shared = search.NewShared()
		cfg.Index = &opts
	}
	s := &Server{
		cfg:      cfg,
		log:      log.New(w, "zumba: ", 0),
		tools:    map[string]*Tool{},
		outlines: parsecache.Cache[outlineAnswer]{Max: maxOutlineCache},
	}
	for _, t := range tools {
		s.tools[t.Name] = t
	}
	if len(cfg.Roots) > 0 {
		s.roots, s.multi = joinRoots(cfg), true
		s.cfg.Root = s.roots[0].cfg.Root
		for _, r := range s.roots {
			r.parent = s
		}
	}
	if cfg.ClientRoots {
		s.multi = true
		s.client.init()
	}
	s.diag = newDiagSource(cfg.Diagnostics, s.log, diagfile.Options{})
	s.search.Store(&searcherBox{s.cfg.Root})
	return s
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
	if req.refusal != nil {
		return &response{JSONRPC: "2.0", ID: req.id, Error: req.refusal}
	}
	modern := req.modern
	switch req.method {
	case "server/discover":
		return resultReply(req.id, discover())
	case "initialize":
		if len(req.params) > 0 && req.params[0] == '[' {
			return errorReply(req.id, CodeInvalidParams, "invalid params: initialize takes an object")
		}
		reply := resultReply(req.id, s.initialize(req.params))
		s.initialized(req.params)
		return reply
	case "ping":
		if modern {
			return resultReply(req.id, map[string]any{"resultType": "complete"})
		}
		return resultReply(req.id, struct{}{})
	case "tools/list":
		return resultReply(req.id, listResult("tools", toolList(), modern))
	case "prompts/list":
		return resultReply(req.id, listResult("prompts", prompts.List(), modern))
	case "prompts/get":
		res, rerr := getPrompt(req.params)
		if rerr != nil {
			return &response{JSONRPC: "2.0", ID: req.id, Error: rerr}
		}
		if modern {
			res.ResultType = "complete"
		}
		return resultReply(req.id, res)
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
	return errorReply(req.id, CodeMethodNotFound, "method not found: "+project.Echo(req.method))
}

// listResult is the result of tools/list or prompts/list: the list under
// key, and for a 2026-07-28 request the result type and the cache hints
// (the lists are fixed for the life of the binary).
func listResult(key string, list []any, modern bool) map[string]any {
	res := map[string]any{key: list}
	if modern {
		res["resultType"] = "complete"
		res["ttlMs"] = listTTL.Milliseconds()
		res["cacheScope"] = "public"
	}
	return res
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

// promptResult is the result of prompts/get.
type promptResult struct {
	Description string          `json:"description"`
	Messages    []promptMessage `json:"messages"`
	// ResultType is "complete" for a 2026-07-28 request, absent otherwise.
	ResultType string `json:"resultType,omitempty"`
}

type promptMessage struct {
	Role    string      `json:"role"`
	Content textContent `json:"content"`
}

// getPrompt answers prompts/get (package prompts). Every fault of the
// request is -32602 naming it.
func getPrompt(params json.RawMessage) (*promptResult, *rpcError) {
	description, text, err := prompts.Get(params)
	if err != nil {
		return nil, &rpcError{Code: CodeInvalidParams, Message: "invalid params: " + err.Error()}
	}
	return &promptResult{
		Description: description,
		Messages:    []promptMessage{{Role: "user", Content: textContent{Type: "text", Text: text}}},
	}, nil
}

// PromptText is the text prompts/get gives for the prompt name, with args
// bound in the order the prompt declares its arguments (zumba prompt's
// twin of prompts/get).
func PromptText(name string, args []string) (string, error) { return prompts.Text(name, args) }

// PromptHelp lists the prompts, one line each: the name, its arguments
// (optional ones in brackets) and what it does.
func PromptHelp() string { return prompts.Help() }
