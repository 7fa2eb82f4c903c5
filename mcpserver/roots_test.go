package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// newRootsServer serves two roots, api and web, each a temporary folder
// holding its files.
func newRootsServer(t testing.TB) (*Server, map[string]string) {
	t.Helper()
	trees := map[string]map[string]string{
		"api": {
			"src/x.go":  "package src\n\n// Serve serves.\nfunc Serve() {}\n\nfunc helper() { Serve() }\n",
			"README.md": "# API\n",
		},
		"web": {
			"lib/y.go": "package lib\n\nfunc Serve() int { return 1 }\n\ntype Client struct{}\n\nfunc (c *Client) Do() { Serve() }\n",
			"src/x.go": "package src\n\nfunc Other() {}\n",
		},
	}
	dirs := map[string]string{}
	var roots []NamedRoot
	for _, name := range []string{"api", "web"} {
		dir := filepath.Join(t.TempDir(), name)
		for p, content := range trees[name] {
			f := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		root, err := openRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		dirs[name] = dir
		roots = append(roots, NamedRoot{Name: name, Root: root})
	}
	return New(Config{Roots: roots, Log: testLog{t}}), dirs
}

// TestRoots: a server of several roots shows each path after its root's
// name, routes a path or glob naming a root to it alone, asks every root
// otherwise and leaves out the roots that found nothing.
func TestRoots(t *testing.T) {
	t.Parallel()
	s, dirs := newRootsServer(t)
	for _, tc := range []struct {
		tool    string
		args    map[string]string
		want    string
		isError bool
	}{
		{"find_symbol", map[string]string{"name": "Serve"}, "api/src/x.go:4 function — func Serve() {}\n\nweb/lib/y.go:3 function — func Serve() int { return 1 }", false},
		{"find_symbol", map[string]string{"name": "Other"}, "web/src/x.go:3 function — func Other() {}", false},
		{"find_symbol", map[string]string{"name": "Nope"}, "No definition of Nope and no names containing it.", false},
		{"find_references", map[string]string{"name": "Serve", "path": "web/**"}, "web/lib/y.go:3: func Serve() int { return 1 }\nweb/lib/y.go:7: func (c *Client) Do() { Serve() }", false},
		{"find_references", map[string]string{"name": "Serve", "path": "src/**"}, "api/src/x.go:3: // Serve serves.\napi/src/x.go:4: func Serve() {}\napi/src/x.go:6: func helper() { Serve() }", false},
		{"find_references", map[string]string{"name": "Serve", "path": "web/src/**"}, "No references to Serve in files matching src/**.", false},
		{"find_references", map[string]string{"name": "Serve", "path": "other/**"}, "No references to Serve in files matching other/**.", false},
		{"find_references", map[string]string{"name": "Serve", "group": "definition", "code": "true", "path": "api/"}, "1 code hit in 1 file under 1 definition\napi/src/x.go:4 function Serve (definition)\napi/src/x.go:6 function helper\n  6: func helper() { Serve() }", false},
		{"outline", map[string]string{"path": "api/src/x.go"}, "4 function Serve\n6 function helper", false},
		{"outline", map[string]string{"path": "lib/y.go"}, "3 function Serve\n5 struct Client\n7 method Client.Do", false},
		{"outline", map[string]string{"path": "web/src/x.go"}, "3 function Other", false},
		{"outline", map[string]string{"path": "web/lib"}, "1 file, 3 definitions under web/lib/; showing the 3 most used\nweb/lib/y.go\n  3 function Serve — func Serve() int { return 1 }\n  5 struct Client — type Client struct{}\n  7 method Client.Do — func (c *Client) Do() { Serve() }", false},
		{"outline", map[string]string{"path": filepath.Join(dirs["web"], "lib", "y.go")}, "3 function Serve\n5 struct Client\n7 method Client.Do", false},
		{"read_symbol", map[string]string{"name": "web/lib/y.go:7"}, "web/lib/y.go:7-7 method Client.Do\nfunc (c *Client) Do() { Serve() }\nUses in this file: 3 Serve", false},
		{"read_symbol", map[string]string{"name": "helper"}, "api/src/x.go:6-6 function helper\nfunc helper() { Serve() }\nUses in this file: 4 Serve", false},
		{"find_code", map[string]string{"query": "serves", "path": "api/"}, "api/src/x.go:4 function Serve (2 lines) — Serve serves.\napi/src/x.go:6 function helper (1 line) — func helper() { Serve() }", false},
	} {
		got, isError := s.CallArgs(context.Background(), tc.tool, tc.args)
		if d := cmp.Diff(tc.want, got); d != "" || isError != tc.isError {
			t.Errorf("%s %v: isError %v (-want +got)\n%s", tc.tool, tc.args, isError, d)
		}
	}
	// The whole project: each root's map.
	got, _ := s.CallArgs(context.Background(), "outline", map[string]string{"path": "."})
	for _, want := range []string{"under api/; showing", "api/src/x.go\n  4 function Serve", "under web/; showing", "web/lib/y.go\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("outline . = %q; want it to hold %q", got, want)
		}
	}
	// Errors name the path as the agent gave it; a path no root has says
	// how paths start.
	for _, tc := range []struct{ path, want string }{
		{"nope.go", "no such file: nope.go (a path starts with a root's name: api/, web/)"},
		{"api/nope.go", "no such file: api/nope.go"},
		{"web/lib/../../api/src/x.go", "path outside the project: web/lib/../../api/src/x.go"},
		{"web/./nope.go", "no such file: nope.go (in root web)"},
	} {
		got, isError := s.CallArgs(context.Background(), "outline", map[string]string{"path": tc.path})
		if got != tc.want || !isError {
			t.Errorf("outline %s = %q, %v; want %q, an error", tc.path, got, isError, tc.want)
		}
	}
	if got, isError := s.CallArgs(context.Background(), "read_symbol", map[string]string{"name": "web/nope.go:3"}); got != "no such file: web/nope.go" || !isError {
		t.Errorf("read_symbol web/nope.go:3 = %q, %v; want the path named as given, an error", got, isError)
	}
}

// TestRootsHTTP: the endpoint /mcp/NAME serves its root alone; a session
// opened there cannot reach another root, by name, path or session.
func TestRootsHTTP(t *testing.T) {
	t.Parallel()
	s, dirs := newRootsServer(t)
	h := s.HTTPHandler(HTTPOptions{Loopback: true})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	api := &httpClient{t: t, url: ts.URL + "/mcp/api", h: h}
	web := &httpClient{t: t, url: ts.URL + "/mcp/web", h: h}
	all := &httpClient{t: t, url: ts.URL + "/mcp", h: h}
	status, hd, _ := api.do("POST", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`, nil)
	sid := hd.Get("Mcp-Session-Id")
	if status != 200 || sid == "" {
		t.Fatalf("initialize at /mcp/api = %d, session %q", status, sid)
	}
	inSession := map[string]string{"Mcp-Session-Id": sid}
	for _, tc := range []struct {
		c         *httpClient
		args      string
		want, not string
	}{
		{api, `{"name":"find_symbol","arguments":{"name":"Serve"}}`, "api/src/x.go:4", "web/"},
		{api, `{"name":"find_symbol","arguments":{"name":"Other"}}`, "No definition of Other", "web/"},
		{api, `{"name":"outline","arguments":{"path":"web/lib/y.go"}}`, "no such file", "function Serve"},
		{api, `{"name":"outline","arguments":{"path":"` + filepath.ToSlash(filepath.Join(dirs["web"], "lib", "y.go")) + `"}}`, "outside the project", "function Serve"},
		{api, `{"name":"outline","arguments":{"path":"../web/lib/y.go"}}`, "outside the project", "function Serve"},
		{api, `{"name":"find_references","arguments":{"name":"Serve","path":"web/**"}}`, "No references to Serve", "web/lib"},
		{api, `{"name":"outline","arguments":{"path":"."}}`, "under api/", "web/"},
		{all, `{"name":"find_symbol","arguments":{"name":"Serve"}}`, "web/lib/y.go:3", ""},
	} {
		status, _, body := tc.c.do("POST", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":`+tc.args+`}`, inSession)
		if tc.c != api {
			status, _, body = tc.c.do("POST", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":`+tc.args+`}`, nil)
		}
		if status != 200 || !strings.Contains(body, tc.want) || tc.not != "" && strings.Contains(body, tc.not) {
			t.Errorf("%s %s = %d %s; want %q and not %q", tc.c.url, tc.args, status, short(body), tc.want, tc.not)
		}
	}
	// The session of /mcp/api is unknown at /mcp/web and at /mcp.
	for _, c := range []*httpClient{web, all} {
		if status, _, body := c.do("POST", `{"jsonrpc":"2.0","id":2,"method":"ping"}`, inSession); status != 404 {
			t.Errorf("ping at %s with api's session = %d %s; want 404", c.url, status, short(body))
		}
	}
	for _, p := range []string{"/mcp/other", "/mcp/api/x", "/mcp/"} {
		c := &httpClient{t: t, url: ts.URL + p, h: h}
		if status, _, _ := c.do("POST", `{"jsonrpc":"2.0","id":3,"method":"ping"}`, nil); status != 404 {
			t.Errorf("POST %s = %d; want 404", p, status)
		}
	}
}

func TestRootNames(t *testing.T) {
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	// "." is the current folder, named as it is; "/" has no name.
	got := RootNames([]string{"/src/app", "/other/app", "/x/web/", ".", "/src/app", "/", "/x/web/."})
	want := []string{"app", "app-2", "web", filepath.Base(cwd), "app-3", "root", "web-2"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("RootNames (-want +got)\n%s", d)
	}
}

// TestClientRoots: a server of the client's roots asks for them after
// initialize, serves what the answer names, and asks again when they
// change; a client without the capability gets the fallback folder.
func TestClientRoots(t *testing.T) {
	t.Parallel()
	_, dirs := newRootsServer(t)
	fallback, err := openRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Root: fallback, ClientRoots: true, Log: testLog{t}})
	ss := startSession(t, s)
	ss.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true}}}}`)
	ss.next()
	ss.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	answer := func(uris ...string) {
		t.Helper()
		var req struct {
			ID     string `json:"id"`
			Method string `json:"method"`
		}
		select {
		case l := <-ss.lines:
			if json.Unmarshal([]byte(l), &req) != nil || req.Method != "roots/list" || req.ID == "" {
				t.Fatalf("line %s; want a roots/list request", short(l))
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no roots/list request")
		}
		var roots []string
		for _, u := range uris {
			roots = append(roots, fmt.Sprintf(`{"uri":%q}`, u))
		}
		ss.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"result":{"roots":[%s]}}`, req.ID, strings.Join(roots, ",")))
	}
	uri := func(dir string) string { return "file://" + filepath.ToSlash(dir) }
	answer(uri(dirs["api"]), uri(dirs["web"]), "https://example.com/not-a-folder")
	ss.send(call(1, "find_symbol", map[string]string{"name": "Serve"}))
	if got, _ := toolText(t, decodeReply(t, ss.next())); got != "api/src/x.go:4 function — func Serve() {}\n\nweb/lib/y.go:3 function — func Serve() int { return 1 }" {
		t.Errorf("find_symbol in the client's two roots = %q", got)
	}
	// The roots change: one root alone, its paths without its name.
	ss.send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	answer(uri(dirs["web"]))
	deadline := time.Now().Add(10 * time.Second)
	for {
		ss.send(call(2, "find_symbol", map[string]string{"name": "Serve"}))
		got, _ := toolText(t, decodeReply(t, ss.next()))
		if got == "lib/y.go:3 function — func Serve() int { return 1 }" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("find_symbol after the roots changed = %q; want web's alone", got)
		}
		time.Sleep(10 * time.Millisecond)
	}

	// No roots capability: the fallback folder, at once.
	s2 := New(Config{Root: fallback, ClientRoots: true, Log: testLog{t}})
	ss2 := startSession(t, s2)
	ss2.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}`)
	ss2.next()
	ss2.send(call(1, "find_symbol", map[string]string{"name": "Serve"}))
	if got, _ := toolText(t, decodeReply(t, ss2.next())); got != "No definition of Serve and no names containing it." {
		t.Errorf("find_symbol without roots = %q; want the empty fallback folder's answer", got)
	}
}

// TestJoinAnswers: the roots' answers together stay within the bound.
func TestJoinAnswers(t *testing.T) {
	a, b, c := strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40)
	for _, tc := range []struct {
		max  int
		want string
	}{
		{1000, a + "\n\n" + b + "\n\n" + c},
		{90, a + "\n\n" + b + "\n\n… 1 more root's answer left out; name a root in the path (ROOT/…) to see its"},
		{10, a + "\n\n… 2 more roots' answers left out; name a root in the path (ROOT/…) to see its"},
	} {
		if got := joinAnswers([]string{a, b, c}, tc.max); got != tc.want {
			t.Errorf("joinAnswers(max %d) = %q; want %q", tc.max, got, tc.want)
		}
	}
}
