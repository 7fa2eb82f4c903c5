package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/search"
	"github.com/zumba-dev/zumba/search/findcode"
)

// openRoot opens the project dir for a test: its find_symbol answers must
// not depend on the machine's load, so the time limit is a minute.
func openRoot(dir string) (*search.Root, error) {
	root, err := search.OpenRoot(dir)
	if err == nil {
		root.SymbolTimeLimit = time.Minute
	}
	return root, err
}

// pipeClient drives a server through Serve over pipes, one request at a
// time.
type pipeClient struct {
	t    *testing.T
	w    *io.PipeWriter
	r    *bufio.Reader
	done chan error
	id   int
}

// startServer serves dir without an index.
func startServer(t *testing.T, dir string) *pipeClient {
	t.Helper()
	return startTestServer(t, dir, false)
}

// startIndexedServer serves dir with a project index, once it is complete.
func startIndexedServer(t *testing.T, dir string) *pipeClient {
	t.Helper()
	return startTestServer(t, dir, true)
}

func startTestServer(t *testing.T, dir string, indexed bool) *pipeClient {
	t.Helper()
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg, ready := testConfig(root, indexed)
	c := startServerWith(t, cfg)
	<-ready
	return c
}

func startServerWith(t *testing.T, cfg Config) *pipeClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &pipeClient{t: t, w: inW, r: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() {
		err := New(cfg).Serve(context.Background(), inR, outW)
		outW.Close()
		c.done <- err
	}()
	t.Cleanup(func() {
		inW.Close()
		if err := <-c.done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return c
}

// call sends one request and returns its result.
func (c *pipeClient) call(method string, params any) map[string]any {
	c.t.Helper()
	c.id++
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	if _, err := c.w.Write(append(msg, '\n')); err != nil {
		c.t.Fatal(err)
	}
	line, err := c.r.ReadBytes('\n')
	if err != nil {
		c.t.Fatalf("read reply: %v", err)
	}
	var resp struct {
		ID     int            `json:"id"`
		Result map[string]any `json:"result"`
		Error  map[string]any `json:"error"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		c.t.Fatalf("reply %s: %v", line, err)
	}
	if resp.ID != c.id || resp.Error != nil {
		c.t.Fatalf("%s: reply %s", method, line)
	}
	return resp.Result
}

// tool calls a tool and returns its text and isError.
func (c *pipeClient) tool(name string, args map[string]any) (string, bool) {
	c.t.Helper()
	res := c.call("tools/call", map[string]any{"name": name, "arguments": args})
	content := res["content"].([]any)
	if len(content) != 1 {
		c.t.Fatalf("%s: %d content items", name, len(content))
	}
	text := content[0].(map[string]any)["text"].(string)
	return text, res["isError"].(bool)
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSearchToolsListed(t *testing.T) {
	c := startServer(t, t.TempDir())
	res := c.call("tools/list", nil)
	want := map[string][]string{"find_symbol": {"name"}, "find_references": {"name", "path"}}
	seen := 0
	for _, raw := range res["tools"].([]any) {
		tool := raw.(map[string]any)
		props, ok := want[tool["name"].(string)]
		if !ok {
			continue
		}
		seen++
		schema := tool["inputSchema"].(map[string]any)
		if schema["additionalProperties"] != false {
			t.Errorf("%s: schema allows other properties", tool["name"])
		}
		for _, p := range props {
			if _, ok := schema["properties"].(map[string]any)[p]; !ok {
				t.Errorf("%s: no property %q", tool["name"], p)
			}
		}
		if req := fmt.Sprint(schema["required"]); req != "[name]" {
			t.Errorf("%s: required = %s; want [name]", tool["name"], req)
		}
		ann := tool["annotations"].(map[string]any)
		if ann["readOnlyHint"] != true || ann["destructiveHint"] != false || ann["idempotentHint"] != true || ann["openWorldHint"] != false || ann["title"] == "" {
			t.Errorf("%s: annotations %v", tool["name"], ann)
		}
	}
	if seen != 2 {
		t.Errorf("tools/list has %d of find_symbol and find_references", seen)
	}
}

func TestSearchToolsOverPipes(t *testing.T) {
	t.Parallel()
	searchToolsOverPipes(t, startServer)
}

func searchToolsOverPipes(t *testing.T, startServer func(*testing.T, string) *pipeClient) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"server.go":     "package server\n\ntype Server struct{}\n\nfunc (s *Server) Serve() error { return nil }\n",
		"main.go":       "package main\n\nfunc main() { s.Serve() }\n",
		".gitignore":    "gen/\n",
		"gen/server.go": "package gen\n\nfunc (s *Server) Serve() {}\n",
	})
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := startServer(t, dir)
	ctx := context.Background()
	for _, tc := range []struct {
		tool    string
		args    map[string]any
		want    string
		isError bool
	}{
		{"find_symbol", map[string]any{"name": "Server.Serve"}, "server.go:5 method — func (s *Server) Serve() error { return nil }", false},
		{"find_symbol", map[string]any{"name": "Missing"}, "No definition of Missing and no names containing it.", false},
		{"find_symbol", map[string]any{"name": ""}, "find_symbol: name is empty", true},
		{"find_symbol", map[string]any{}, `find_symbol: missing argument "name"`, true},
		{"find_symbol", map[string]any{"name": "x", "path": "*.go"}, `find_symbol: unknown argument "path"`, true},
		{"find_references", map[string]any{"name": "Serve"}, "main.go:3: func main() { s.Serve() }\nserver.go:5: func (s *Server) Serve() error { return nil }", false},
		{"find_references", map[string]any{"name": "Serve", "path": "server.go"}, "server.go:5: func (s *Server) Serve() error { return nil }", false},
		{"find_references", map[string]any{"name": "Serve", "path": "src/[x"}, `invalid glob "src/[x" in path: check its brackets and braces`, true},
		{"find_references", map[string]any{"name": "Nothing"}, "No references to Nothing.", false},
		{"find_references", map[string]any{"name": 3}, `find_references: argument "name" must be a string`, true},
	} {
		text, isError := c.tool(tc.tool, tc.args)
		if text != tc.want || isError != tc.isError {
			t.Errorf("%s %v = %q, isError %v; want %q, isError %v", tc.tool, tc.args, text, isError, tc.want, tc.isError)
		}
		// The command line prints the same text.
		var cli string
		var cliErr bool
		name, _ := tc.args["name"].(string)
		switch {
		case len(tc.args) != 1 && tc.tool == "find_symbol", tc.args["name"] == 3:
			continue
		case tc.tool == "find_symbol":
			cli, cliErr = New(Config{Root: root}).CallArgs(ctx, "find_symbol", map[string]string{"name": name})
		default:
			path, _ := tc.args["path"].(string)
			cli, cliErr = New(Config{Root: root}).CallArgs(ctx, "find_references", map[string]string{"name": name, "path": path})
		}
		if cli != text || cliErr != isError {
			t.Errorf("%s %v: command line gives %q, %v; the server %q, %v", tc.tool, tc.args, cli, cliErr, text, isError)
		}
	}
}

// TestSearchToolsFresh changes the project between calls: each answer
// reflects the files at the time of the call.
func TestSearchToolsFresh(t *testing.T) {
	t.Parallel()
	searchToolsFresh(t, startServer)
}

func searchToolsFresh(t *testing.T, startServer func(*testing.T, string) *pipeClient) {
	dir := t.TempDir()
	c := startServer(t, dir)
	check := func(tool, name, want string) {
		t.Helper()
		text, isError := c.tool(tool, map[string]any{"name": name})
		if text != want || isError {
			t.Errorf("%s %s = %q, %v; want %q", tool, name, text, isError, want)
		}
	}
	check("find_references", "Fresh", "No references to Fresh.")
	writeFiles(t, dir, map[string]string{"a.go": "package a\n\nfunc Fresh() {}\n"})
	check("find_references", "Fresh", "a.go:3: func Fresh() {}")
	check("find_symbol", "Fresh", "a.go:3 function — func Fresh() {}")
	writeFiles(t, dir, map[string]string{"a.go": "package a\n\n\nfunc Fresh() {}\n"})
	check("find_symbol", "Fresh", "a.go:4 function — func Fresh() {}")
	writeFiles(t, dir, map[string]string{".gitignore": "a.go\n"})
	check("find_references", "Fresh", "No references to Fresh.")
	os.Remove(filepath.Join(dir, ".gitignore"))
	check("find_references", "Fresh", "a.go:4: func Fresh() {}")
	os.Remove(filepath.Join(dir, "a.go"))
	check("find_symbol", "Fresh", "No definition of Fresh and no names containing it.")
}

// TestStillListingTexts checks the answers given before the index being
// built had listed the project's files: each says nothing was searched
// yet and that a later call will be complete (and so reads as incomplete
// to the answer of several roots), never "No references to X" alone.
func TestStillListingTexts(t *testing.T) {
	want := "the project's files were still being listed at the time limit; the index is still being built, so a later call will be complete"
	texts := map[string]string{
		"find_references":       refsText("Close", "", nil, &search.RefResult{Building: true}),
		"find_symbol":           symbolsText(search.SymbolQuery{Name: "Close"}, &search.SymbolResult{Building: true}),
		"find_references group": formatSites(&search.Sites{Building: true}, "Close", "", search.RefOptions{Group: true}),
		"find_code":             codeText("close the file", "", &findcode.Result{Words: []string{"close", "file"}, Building: true}, 0),
	}
	for tool, text := range texts {
		if !strings.Contains(text, want) || !incomplete(text) {
			t.Errorf("%s before the walk = %q; want it to say %q", tool, text, want)
		}
	}
	if got, want := texts["find_references"], "No references to Close yet: "+want+"."; got != want {
		t.Errorf("find_references before the walk = %q; want %q", got, want)
	}
}
