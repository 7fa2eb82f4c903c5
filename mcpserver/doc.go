// Package mcpserver serves zumba's tools over MCP (JSON-RPC 2.0), on two
// transports that share everything past the bytes they carry:
//
//   - stdio (stdio.go, Serve): one message per line in, one reply per line
//     out, for the one client that started the process.
//   - Streamable HTTP (http.go, ServeListener and HTTPHandler): one message
//     per POST to /mcp, answered in the response body, for many clients
//     at once; http_guard.go checks who may call (Host, Origin, token),
//     http_limits.go bounds what clients can make it hold (bodies, answers
//     not read), internal/conncap caps the connections, and http_session.go
//     keeps the sessions of the revisions before 2026-07-28.
//
// Both parse a message once (jsonrpc.go: the envelope and the protocol
// revision it asks for, revision.go) and hand it to the call core
// (core.go): quick methods are answered at once; a tool call takes one of
// the transport's places in flight, is registered under its id in its
// client's set of calls (a stdio stream or an HTTP session) so that
// notifications/cancelled can stop it, and leaves both when it ends.
// Replies are encoded in one place (encodeReply).
//
// Protocol faults (bad JSON, unknown methods, bad params, internal panics)
// are JSON-RPC errors; a tool that cannot answer returns a result with
// isError set and one line saying why, so the model can correct itself.
// Each tool lives in its own file with its arguments, schema, description
// and handler; tools.go holds the registry. How a definition's source is
// read and shown (folded to a budget, its place, the names it uses) is
// package srcview's, which read_symbol prints with. The prompts' texts
// and arguments are package internal/prompts's (prompts/list, prompts/get).
//
// A server of several roots (roots.go, Config.Roots) is a server per root
// (its index, watcher and caches) behind one that answers the protocol:
// it routes a tool call by the root a path or glob names, or asks every
// root and puts their answers one after another; each root shows its
// paths after its name (Server.shown). Over HTTP, /mcp/NAME serves one
// root alone (Server.view).
package mcpserver
