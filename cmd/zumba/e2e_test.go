package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zumba-dev/zumba/mcpserver"
	"github.com/zumba-dev/zumba/search"
)

// zumbaBin is the binary under test: a link named zumba to this test
// binary, which runs as the command when started by that name (see
// TestMain), so the tests need no second build and link of the program.
var zumbaBin string

func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "zumba" {
		os.Exit(run(os.Args[1:]))
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "zumba-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	zumbaBin = filepath.Join(dir, "zumba")
	if err := os.Symlink(self, zumbaBin); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// project makes a small project folder.
func project(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"main.go":     "package main\n\ntype Server struct{}\n\nfunc (s *Server) Serve() {}\n\nfunc main() {}\n",
		"src/main.rs": "fn main() {}\n\nstruct Rpc;\n",
		"README.md":   "# Title\n\n## Part\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestOfficialSDKClient drives `zumba mcp DIR` with the official MCP Go
// SDK client: by default it speaks 2026-07-28 (server/discover, then
// requests carrying their version in _meta); pinned to 2025-11-25 it
// initializes first. Both check every reply's shape.
func TestOfficialSDKClient(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("version="+version, func(t *testing.T) {
			dir := project(t)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var stderr bytes.Buffer
			cmd := exec.Command(zumbaBin, "mcp", dir)
			cmd.Stderr = &stderr
			client := mcp.NewClient(&mcp.Implementation{Name: "zumba-e2e", Version: "1.0.0"}, nil)
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatalf("connect: %v (stderr: %s)", err, stderr.String())
			}
			defer cs.Close()
			exerciseSession(t, ctx, cs, version)
			if err := cs.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
			if stderr.Len() > 0 {
				t.Logf("server stderr: %s", stderr.String())
			}
		})
	}
}

// exerciseSession checks what an SDK client session sees of zumba: the
// negotiated version (2026-07-28 when version is ""), the server's
// identity, the tools and their annotations, and a call of each tool.
func exerciseSession(t *testing.T, ctx context.Context, cs *mcp.ClientSession, version string) {
	t.Helper()
	init := cs.InitializeResult()
	if version == "" {
		version = "2026-07-28"
	}
	if init.ProtocolVersion != version {
		t.Errorf("negotiated protocol version %q; want %q", init.ProtocolVersion, version)
	}
	if init.ServerInfo == nil || init.ServerInfo.Name != "zumba" || init.ServerInfo.Version != mcpserver.Version {
		t.Errorf("serverInfo = %+v; want zumba %s", init.ServerInfo, mcpserver.Version)
	}
	if init.Instructions == "" {
		t.Error("initialize has no instructions")
	}

	list, err := cs.ListTools(ctx, &mcp.ListToolsParams{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var sawOutline bool
	for _, tool := range list.Tools {
		a := tool.Annotations
		if a == nil {
			t.Errorf("%s: no annotations", tool.Name)
			continue
		}
		if !a.ReadOnlyHint || !a.IdempotentHint || a.DestructiveHint == nil || *a.DestructiveHint || a.OpenWorldHint == nil || *a.OpenWorldHint || a.Title == "" {
			t.Errorf("%s: annotations %+v; want read-only, idempotent, not destructive, closed world, titled", tool.Name, a)
		}
		sawOutline = sawOutline || tool.Name == "outline"
	}
	if !sawOutline {
		t.Fatalf("tools/list lacks outline: %v", list.Tools)
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "outline", Arguments: map[string]any{"path": "main.go"}})
	if err != nil {
		t.Fatalf("tools/call outline: %v", err)
	}
	if got, want := text(t, res), "3 struct Server\n5 method Server.Serve\n7 function main"; res.IsError || got != want {
		t.Errorf("outline main.go = %q (isError %v); want %q", got, res.IsError, want)
	}

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "outline", Arguments: map[string]any{"path": "../x"}})
	if err != nil {
		t.Fatalf("tools/call outline ../x: %v", err)
	}
	if got := text(t, res); !res.IsError || !strings.Contains(got, "outside the project") {
		t.Errorf("outline ../x = %q (isError %v); want an isError result saying it is outside", got, res.IsError)
	}

	// The project tools, through the same client.
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"find_symbol", map[string]any{"name": "Server.Serve"}, "main.go:5 method — func (s *Server) Serve() {}"},
		{"find_symbol", map[string]any{"name": "Rpc"}, "src/main.rs:3 struct — struct Rpc;"},
		{"find_references", map[string]any{"name": "Server"}, "main.go:3: type Server struct{}\nmain.go:5: func (s *Server) Serve() {}"},
		{"find_references", map[string]any{"name": "main", "path": "*.rs"}, "src/main.rs:1: fn main() {}"},
		{"diagnostics", map[string]any{}, "No diagnostics."},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("tools/call %s %v: %v", c.tool, c.args, err)
		}
		if got := text(t, res); res.IsError || got != c.want {
			t.Errorf("%s %v = %q (isError %v); want %q", c.tool, c.args, got, res.IsError, c.want)
		}
	}

	if err := cs.Ping(ctx, nil); err != nil {
		t.Errorf("ping: %v", err)
	}
	exercisePrompts(t, ctx, cs)
}

// exercisePrompts checks the prompts as a strict client uses them: listed,
// got with every argument bound to "$1", "$2", … (which must come back
// verbatim), got with real values, and refused with -32602.
func exercisePrompts(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
	t.Helper()
	list, err := cs.ListPrompts(ctx, &mcp.ListPromptsParams{})
	if err != nil {
		t.Fatalf("prompts/list: %v", err)
	}
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
		args := map[string]string{}
		for i, a := range p.Arguments {
			args[a.Name] = fmt.Sprintf("$%d", i+1)
		}
		got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.Name, Arguments: args})
		if err != nil {
			t.Errorf("prompts/get %s %v: %v", p.Name, args, err)
			continue
		}
		text := promptText(t, got)
		for _, ph := range args {
			if !strings.Contains(text, ph) || strings.Contains(text, `"`+ph) {
				t.Errorf("prompts/get %s: %s is not in the text verbatim:\n%s", p.Name, ph, text)
			}
		}
	}
	if want := "explain impact find orient"; strings.Join(names, " ") != want {
		t.Errorf("prompts/list = %v; want %s", names, want)
	}
	got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "explain", Arguments: map[string]string{"name": "Server.Serve"}})
	if err != nil {
		t.Fatalf("prompts/get explain Server.Serve: %v", err)
	}
	if text := promptText(t, got); !strings.Contains(text, "read_symbol with name Server.Serve ") {
		t.Errorf("prompts/get explain Server.Serve = %q; want it to read Server.Serve", text)
	}
	for _, bad := range []*mcp.GetPromptParams{
		{Name: "explain"},
		{Name: "no-such-prompt"},
		{Name: "orient", Arguments: map[string]string{"folder": "src"}},
	} {
		_, err := cs.GetPrompt(ctx, bad)
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != -32602 {
			t.Errorf("prompts/get %+v: %v; want error -32602", bad, err)
		}
	}
}

func promptText(t *testing.T, res *mcp.GetPromptResult) string {
	t.Helper()
	if len(res.Messages) != 1 || res.Messages[0].Role != "user" {
		t.Fatalf("prompt has messages %+v; want one from the user", res.Messages)
	}
	tc, ok := res.Messages[0].Content.(*mcp.TextContent)
	if !ok {
		t.Fatalf("prompt content is %T; want text", res.Messages[0].Content)
	}
	return tc.Text
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("result has %d content items; want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("result content is %T; want text", res.Content[0])
	}
	return tc.Text
}

// TestPrintfExample runs the reference page's example: one bare tools/call
// line piped into `zumba mcp DIR`, answered with one JSON-RPC line.
func TestPrintfExample(t *testing.T) {
	t.Parallel()
	dir := project(t)
	cmd := exec.Command(zumbaBin, "mcp", dir)
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"outline","arguments":{"path":"src/main.rs"}}}` + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("zumba mcp: %v (stderr %q)", err, stderr.String())
	}
	want := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"1 function main\n3 struct Rpc"}],"isError":false}}` + "\n"
	if got := stdout.String(); got != want {
		t.Errorf("stdout = %q; want %q", got, want)
	}
	// stderr carries the server's own log lines (the indexer's progress),
	// each "zumba: …"; nothing else, and never a panic.
	for _, line := range strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n") {
		if line != "" && (!strings.HasPrefix(line, "zumba: ") || strings.Contains(line, "panic")) {
			t.Errorf("stderr line %q; want only zumba's log lines", line)
		}
	}
}

// TestSignal: SIGTERM ends `zumba mcp` at once with status 0, even while
// the client keeps stdin open; a call in flight is still answered.
func TestSignal(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(zumbaBin, "mcp", project(t))
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
			line, err := bufio.NewReader(stdout).ReadString('\n')
			if err != nil || line != `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n" {
				t.Fatalf("ping = %q, %v", line, err)
			}
			cmd.Process.Signal(sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("zumba mcp after %v: %v; want exit 0", sig, err)
				}
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("zumba mcp still running 5s after %v", sig)
			}
		})
	}
}

// TestCLI checks the exit codes and the one-line messages of the command
// line: 0 on success, 1 on a failure, 2 on wrong usage.
func TestCLI(t *testing.T) {
	t.Parallel()
	dir := project(t)
	file := filepath.Join(dir, "main.go")
	cases := []struct {
		args       []string
		code       int
		stdout     string // a substring of stdout; "" for none at all
		stderrPart string // a substring of the one stderr line; "" for none
	}{
		{[]string{"version"}, 0, "zumba " + mcpserver.Version + "\ncommit ", ""},
		{[]string{"version"}, 0, runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n", ""},
		{[]string{"help"}, 0, "zumba mcp [DIR...]", ""},
		{[]string{"--help"}, 0, "zumba outline [--name NAME] [--exported] [--signatures] FILE | [--budget TOKENS] DIR", ""},
		{[]string{"help"}, 0, "--limit N", ""},
		{[]string{"help"}, 0, "--token-file FILE", ""},
		{[]string{"help", "refs"}, 0, "usage: zumba refs NAME", ""},
		{[]string{"help", "frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{[]string{"refs", "-h"}, 0, "--group definition", ""},
		{[]string{"refs", "NAME", "--help"}, 0, "usage: zumba refs NAME", ""},
		{[]string{"mcp", "-help"}, 0, "--http ADDR", ""},
		{[]string{"symbol", "-h"}, 0, "usage: zumba symbol NAME [DIR]", ""},
		{[]string{"version", "--help"}, 0, "usage: zumba version", ""},
		{[]string{"refs", "--", "-h", dir}, 0, "No references to -h.", ""},
		{[]string{"outline", file}, 0, "5 method Server.Serve", ""},
		{[]string{}, 2, "", "missing command"},
		{[]string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{[]string{"version", "x"}, 2, "", "version takes no arguments"},

		{[]string{"mcp", dir, filepath.Join(dir, "missing")}, 1, "", "does not exist"},
		{[]string{"mcp", "--bogus", dir}, 2, "", "usage: zumba mcp [DIR...]"},
		{[]string{"mcp", dir, "--diagnostics"}, 2, "", "usage: zumba mcp [DIR...]"},
		{[]string{"mcp", filepath.Join(dir, "missing")}, 1, "", "does not exist"},
		{[]string{"mcp", file}, 1, "", "is not a directory"},
		{[]string{"outline"}, 2, "", "usage: zumba outline [--name NAME] [--exported] [--signatures] FILE, or zumba outline [--budget TOKENS] DIR"},
		{[]string{"outline", file, file}, 2, "", "usage: zumba outline [--name NAME] [--exported] [--signatures] FILE"},
		{[]string{"outline", filepath.Join(dir, "missing.go")}, 1, "", "no such file"},
		{[]string{"outline", filepath.Join(dir, "src")}, 0, "1 file, 2 definitions under ./; showing the 2 most used\nmain.rs\n", ""},
		{[]string{"outline", "--budget", "50", dir}, 1, "", "must be an integer from 200 to 10000"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(zumbaBin, tc.args...)
			cmd.Stdin = strings.NewReader("")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Errorf("exit %d; want %d (stderr %q)", code, tc.code, stderr.String())
			}
			if tc.stdout == "" && stdout.Len() > 0 {
				t.Errorf("stdout = %q; want nothing", stdout.String())
			}
			if !strings.Contains(stdout.String(), tc.stdout) {
				t.Errorf("stdout = %q; want it to contain %q", stdout.String(), tc.stdout)
			}
			errText := stderr.String()
			if tc.stderrPart == "" {
				if errText != "" {
					t.Errorf("stderr = %q; want nothing", errText)
				}
				return
			}
			if strings.Count(errText, "\n") != 1 || !strings.HasSuffix(errText, "\n") || !strings.HasPrefix(errText, "zumba: ") {
				t.Errorf("stderr = %q; want one line starting with \"zumba: \"", errText)
			}
			if !strings.Contains(errText, tc.stderrPart) {
				t.Errorf("stderr = %q; want it to contain %q", errText, tc.stderrPart)
			}
		})
	}
}

// TestMCPStdoutOnlyJSON: whatever the input, every byte `zumba mcp` writes
// to stdout belongs to a JSON-RPC line.
func TestMCPStdoutOnlyJSON(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
		`not json`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"outline","arguments":{"path":"README.md"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"outline","arguments":{"path":"/etc/passwd"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"resources/list"}`,
		"\xff\xfe",
	}, "\n")
	cmd := exec.Command(zumbaBin, "mcp", project(t))
	cmd.Stdin = strings.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("zumba mcp: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != 7 {
		t.Errorf("got %d lines; want 7:\n%s", len(lines), stdout.String())
	}
	for _, l := range lines {
		var m struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil || m.JSONRPC != "2.0" || m.ID == nil {
			t.Errorf("stdout line %q is not a JSON-RPC response", l)
		}
	}
}

// TestOutlineMapTwin: `zumba outline DIR` prints the outline tool's map of
// the folder, byte for byte, from inside the project and from outside.
func TestOutlineMapTwin(t *testing.T) {
	t.Parallel()
	dir := project(t)
	root, err := search.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := mcpserver.New(mcpserver.Config{Root: root})
	for _, tc := range []struct {
		cwd  string
		args []string
		path string
	}{
		{"", []string{"outline", dir}, "."},
		{dir, []string{"outline", "."}, "."},
		{dir, []string{"outline", "src", "--budget", "300"}, "src"},
	} {
		want, isError := srv.CallArgs(context.Background(), "outline", map[string]string{"path": tc.path})
		if isError {
			t.Fatalf("outline %s: %s", tc.path, want)
		}
		cmd := exec.Command(zumbaBin, tc.args...)
		cmd.Dir = tc.cwd
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if got := strings.TrimSuffix(string(out), "\n"); got != want {
			t.Errorf("zumba %v = %q; want the tool's %q", tc.args, got, want)
		}
	}
}
