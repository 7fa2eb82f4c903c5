package lsptest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Client is a minimal Language Server Protocol client over a server's
// stdio; one request at a time.
type Client struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	root string

	mu     sync.Mutex
	nextID int
}

// Location is a reference's place: the path in the workspace,
// slash-separated, and the 1-based line.
type Location struct {
	Path string
	Line int
}

// Start starts the language server bin with args ("serve" for gopls,
// "--stdio" for pyright) in root, with env, and initializes it with
// root as its workspace; ctx bounds the server's life.
func Start(ctx context.Context, root string, env []string, bin string, args ...string) (*Client, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = root, env
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	l := &Client{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20), root: root}
	uri := FileURI(root)
	if _, err := l.Call("initialize", map[string]any{
		"processId":    os.Getpid(),
		"rootUri":      uri,
		"capabilities": map[string]any{},
		"workspaceFolders": []any{
			map[string]any{"uri": uri, "name": "ws"},
		},
	}); err != nil {
		l.Close()
		return nil, err
	}
	if err := l.notify("initialized", map[string]any{}); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// Close shuts the server down, killing it when it has not exited within
// 5 seconds.
func (l *Client) Close() {
	l.Call("shutdown", nil)
	l.notify("exit", nil)
	l.in.Close()
	done := make(chan struct{})
	go func() { l.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		l.cmd.Process.Kill()
		<-done
	}
}

// FileURI is the file:// URI of the local path p.
func FileURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

func (l *Client) write(msg map[string]any) error {
	msg["jsonrpc"] = "2.0"
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(l.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
	return err
}

func (l *Client) notify(method string, params any) error {
	return l.write(map[string]any{"method": method, "params": params})
}

// Call sends a request and reads until its reply, answering the server's
// own requests (configuration, progress, registrations) with null.
func (l *Client) Call(method string, params any) (json.RawMessage, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.nextID++
	id := l.nextID
	if err := l.write(map[string]any{"id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	for {
		msg, err := l.read()
		if err != nil {
			return nil, err
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(msg, &m); err != nil {
			return nil, err
		}
		switch {
		case m.Method != "" && len(m.ID) > 0:
			var result any
			if m.Method == "workspace/configuration" {
				var p struct{ Items []any }
				json.Unmarshal(m.Params, &p)
				result = make([]any, len(p.Items))
			}
			if err := l.write(map[string]any{"id": m.ID, "result": result}); err != nil {
				return nil, err
			}
		case m.Method != "":
			// A notification: logs, diagnostics, progress.
		case string(m.ID) == strconv.Itoa(id):
			if m.Error != nil {
				return nil, fmt.Errorf("%s: %s", method, m.Error.Message)
			}
			return m.Result, nil
		}
	}
}

func (l *Client) read() ([]byte, error) {
	n := -1
	for {
		line, err := l.out.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	if n < 0 {
		return nil, fmt.Errorf("lsp: a message without Content-Length")
	}
	b := make([]byte, n)
	_, err := io.ReadFull(l.out, b)
	return b, err
}

// A Ref is a reference the server gave: its path in the workspace,
// slash-separated, its 1-based line and its 0-based column as the
// server counts it (UTF-16 units).
type Ref struct {
	Path       string
	Line, Char int
}

// Refs asks for the references of the identifier at a 0-based line and
// column (UTF-16 units), declaration included: those inside the
// workspace (outside it: the standard library, a package's stubs).
func (l *Client) Refs(file string, line, col int) ([]Ref, error) {
	res, err := l.Call("textDocument/references", map[string]any{
		"textDocument": map[string]any{"uri": FileURI(file)},
		"position":     map[string]any{"line": line, "character": col},
		"context":      map[string]any{"includeDeclaration": true},
	})
	if err != nil {
		return nil, err
	}
	var locs []struct {
		URI   string `json:"uri"`
		Range struct {
			Start struct{ Line, Character int } `json:"start"`
		} `json:"range"`
	}
	if err := json.Unmarshal(res, &locs); err != nil {
		return nil, err
	}
	var out []Ref
	for _, loc := range locs {
		u, err := url.Parse(loc.URI)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(l.root, filepath.FromSlash(u.Path))
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		out = append(out, Ref{filepath.ToSlash(rel), loc.Range.Start.Line + 1, loc.Range.Start.Character})
	}
	return out, nil
}

// References is Refs by path and line (ASCII names: a column in bytes is
// one in UTF-16 units).
func (l *Client) References(ctx context.Context, file string, line, col int) ([]Location, error) {
	refs, err := l.Refs(file, line, col)
	var out []Location
	for _, r := range refs {
		out = append(out, Location{Path: r.Path, Line: r.Line})
	}
	return out, err
}

// ReferencesAt is Refs as "path:line:col", 1-based (ASCII names).
func (l *Client) ReferencesAt(ctx context.Context, file string, line, col int) ([]string, error) {
	refs, err := l.Refs(file, line, col)
	var out []string
	for _, r := range refs {
		out = append(out, fmt.Sprintf("%s:%d:%d", r.Path, r.Line, r.Char+1))
	}
	return out, err
}

// Callers asks gopls for the functions and methods that call the one at
// a 0-based line and column, and those that call them, to depth; each by
// "PATH:LINE" of its name, inside the workspace.
func (l *Client) Callers(ctx context.Context, file string, line, col, depth int) (map[string]bool, error) {
	res, err := l.Call("textDocument/prepareCallHierarchy", map[string]any{
		"textDocument": map[string]any{"uri": FileURI(file)},
		"position":     map[string]any{"line": line, "character": col},
	})
	if err != nil {
		return nil, err
	}
	var items []json.RawMessage
	if err := json.Unmarshal(res, &items); err != nil {
		return nil, err
	}
	out := map[string]bool{}
	seen := map[string]bool{}
	for level := 1; level <= depth && len(items) > 0; level++ {
		var next []json.RawMessage
		for _, item := range items {
			res, err := l.Call("callHierarchy/incomingCalls", map[string]any{"item": item})
			if err != nil {
				return nil, err
			}
			var calls []struct {
				From json.RawMessage `json:"from"`
			}
			if err := json.Unmarshal(res, &calls); err != nil {
				return nil, err
			}
			for _, c := range calls {
				var from struct {
					Kind           int    `json:"kind"`
					URI            string `json:"uri"`
					SelectionRange struct {
						Start struct{ Line int } `json:"start"`
					} `json:"selectionRange"`
				}
				if err := json.Unmarshal(c.From, &from); err != nil {
					return nil, err
				}
				u, err := url.Parse(from.URI)
				if err != nil {
					return nil, err
				}
				rel, err := filepath.Rel(l.root, filepath.FromSlash(u.Path))
				// 6: method, 12: function (LSP's SymbolKind).
				if err != nil || strings.HasPrefix(rel, "..") || (from.Kind != 6 && from.Kind != 12) {
					continue
				}
				key := filepath.ToSlash(rel) + ":" + strconv.Itoa(from.SelectionRange.Start.Line+1)
				out[key] = true
				if !seen[key] {
					seen[key] = true
					next = append(next, c.From)
				}
			}
		}
		items = next
	}
	return out, nil
}
