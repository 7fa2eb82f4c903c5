package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The npm clients are pinned; they are installed once per machine into
// the temporary folder and reused.
const (
	tsSDK     = "@modelcontextprotocol/sdk@1.32.2"
	inspector = "@modelcontextprotocol/inspector@2.12.0"
)

// npmInstall installs pkg into its own folder and returns the folder. The
// test is skipped unless ZUMBA_NPM_E2E=1 (CI sets it), or when node or npm
// is missing.
func npmInstall(t *testing.T, pkg string) string {
	t.Helper()
	if os.Getenv("ZUMBA_NPM_E2E") != "1" {
		t.Skip("set ZUMBA_NPM_E2E=1 to run the npm clients (it installs " + pkg + ")")
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is missing", tool)
		}
	}
	dir := filepath.Join(os.TempDir(), "zumba-e2e-npm", strings.NewReplacer("/", "_", "@", "_").Replace(pkg))
	if _, err := os.Stat(filepath.Join(dir, "installed")); err == nil {
		return dir
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--silent", "--prefix", dir, pkg)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("npm install %s: %v\n%s", pkg, err, out.String())
	}
	if err := os.WriteFile(filepath.Join(dir, "installed"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// npmWantTools is tools/list's tools, in order.
var npmWantTools = []string{"outline", "find_symbol", "read_symbol", "find_references", "find_code", "changes", "diagnostics"}

// TestHTTPTypeScriptSDKClient: the official TypeScript SDK's Streamable
// HTTP client connects with the token, lists the tools, calls each one and
// ends its session.
func TestHTTPTypeScriptSDKClient(t *testing.T) {
	dir := npmInstall(t, tsSDK)
	script, err := os.ReadFile("../../testdata/e2e/ts_http_client.mjs")
	if err != nil {
		t.Fatal(err)
	}
	scriptPath := filepath.Join(dir, "ts_http_client.mjs")
	if err := os.WriteFile(scriptPath, script, 0o644); err != nil {
		t.Fatal(err)
	}
	hs := startHTTP(t, project(t), []string{"ZUMBA_TOKEN=ts-token"})
	cmd := exec.Command("node", scriptPath, hs.url, "ts-token")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := runFor(cmd, 60*time.Second); err != nil {
		t.Fatalf("node: %v\nstderr: %s\nzumba: %s", err, stderr.String(), hs.log())
	}
	var got struct {
		ProtocolVersion string
		SessionID       string
		Server          struct{ Name string }
		Tools           []string
		Calls           []struct {
			Name    string
			IsError bool
			Text    string
		}
		Prompts []struct {
			Name string
			Args map[string]string
			Text string
		}
		Explain      string
		MissingError *int
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("output %q: %v", stdout.String(), err)
	}
	if got.ProtocolVersion != "2025-11-25" || got.SessionID == "" || got.Server.Name != "zumba" {
		t.Errorf("version %q, session %q, server %q; want 2025-11-25, a session, zumba", got.ProtocolVersion, got.SessionID, got.Server.Name)
	}
	if strings.Join(got.Tools, " ") != strings.Join(npmWantTools, " ") {
		t.Errorf("tools = %v; want %v", got.Tools, npmWantTools)
	}
	want := map[string]string{
		"outline":         "3 struct Server\n5 method Server.Serve\n7 function main",
		"find_symbol":     "main.go:5 method — func (s *Server) Serve() {}",
		"find_references": "src/main.rs:1: fn main() {}",
		"diagnostics":     "No diagnostics.",
	}
	for _, c := range got.Calls {
		if c.IsError || c.Text != want[c.Name] {
			t.Errorf("%s = %q (isError %v); want %q", c.Name, c.Text, c.IsError, want[c.Name])
		}
	}
	if len(got.Calls) != len(want) {
		t.Errorf("%d calls answered; want %d", len(got.Calls), len(want))
	}
	var prompts []string
	for _, p := range got.Prompts {
		prompts = append(prompts, p.Name)
		for _, ph := range p.Args {
			if !strings.Contains(p.Text, ph) || strings.Contains(p.Text, `"`+ph) {
				t.Errorf("prompt %s: %s is not in its text verbatim:\n%s", p.Name, ph, p.Text)
			}
		}
	}
	if strings.Join(prompts, " ") != "explain impact find orient" {
		t.Errorf("prompts = %v; want explain impact find orient", prompts)
	}
	if !strings.Contains(got.Explain, "read_symbol with name Server.Serve ") {
		t.Errorf("prompt explain Server.Serve = %q; want it to read Server.Serve", got.Explain)
	}
	if got.MissingError == nil || *got.MissingError != -32602 {
		t.Errorf("prompt explain without name: error code %v; want -32602", got.MissingError)
	}
}

// TestHTTPInspectorCLI: the MCP Inspector's CLI, with --transport http and
// the token as a header, lists the tools and calls one.
func TestHTTPInspectorCLI(t *testing.T) {
	dir := npmInstall(t, inspector)
	bin := filepath.Join(dir, "node_modules", ".bin", "mcp-inspector")
	hs := startHTTP(t, project(t), []string{"ZUMBA_TOKEN=insp-token"})
	inspect := func(args ...string) string {
		t.Helper()
		all := append([]string{"--cli", hs.url, "--transport", "http", "--header", "Authorization: Bearer insp-token"}, args...)
		cmd := exec.Command(bin, all...)
		cmd.Env = append(os.Environ(), "MCP_CATALOG_PATH="+filepath.Join(t.TempDir(), "mcp.json"))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := runFor(cmd, 60*time.Second); err != nil {
			t.Fatalf("inspector %v: %v\nstderr: %s", args, err, stderr.String())
		}
		return stdout.String()
	}
	var list struct {
		Tools []struct{ Name string }
	}
	out := inspect("--method", "tools/list")
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list.Tools) != len(npmWantTools) {
		t.Errorf("tools/list = %q (%v); want the %d tools", out, err, len(npmWantTools))
	}
	var res struct {
		Content []struct{ Text string }
		IsError bool
	}
	out = inspect("--method", "tools/call", "--tool-name", "find_symbol", "--tool-arg", "name=Rpc")
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.IsError || len(res.Content) != 1 || res.Content[0].Text != "src/main.rs:3 struct — struct Rpc;" {
		t.Errorf("tools/call find_symbol Rpc = %q (%v)", out, err)
	}
}

// runFor runs cmd, killing it after d.
func runFor(cmd *exec.Cmd, d time.Duration) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	timer := time.AfterFunc(d, func() { cmd.Process.Kill() })
	defer timer.Stop()
	return cmd.Wait()
}
