package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServer is a running `zumba mcp DIR --http 127.0.0.1:0`.
type httpServer struct {
	url    string
	cmd    *exec.Cmd
	mu     sync.Mutex
	stderr bytes.Buffer
	done   chan struct{}
}

// startHTTP starts zumba serving dir over HTTP on a free loopback port and
// returns once it has printed its URL. env is added to the environment.
func startHTTP(t testing.TB, dir string, env []string, args ...string) *httpServer {
	t.Helper()
	cmd := exec.Command(zumbaBin, append([]string{"mcp", dir, "--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	hs := &httpServer{cmd: cmd, done: make(chan struct{})}
	urls := make(chan string, 1)
	go func() {
		defer close(hs.done)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			hs.mu.Lock()
			hs.stderr.WriteString(line + "\n")
			hs.mu.Unlock()
			if u, ok := strings.CutPrefix(line, "zumba: serving MCP at "); ok {
				urls <- u
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	select {
	case hs.url = <-urls:
	case <-hs.done:
		t.Fatalf("zumba exited before serving: %s", hs.log())
	case <-time.After(20 * time.Second):
		t.Fatalf("zumba printed no URL in 20 s: %s", hs.log())
	}
	return hs
}

func (hs *httpServer) log() string {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	return hs.stderr.String()
}

// stop sends SIGTERM and returns the exit error.
func (hs *httpServer) stop(t testing.TB) error {
	t.Helper()
	hs.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { <-hs.done; done <- hs.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatalf("zumba still running 20 s after SIGTERM")
		return nil
	}
}

// bearer adds a bearer token to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// TestHTTPOfficialSDKClient: two agents, one on the SDK's default
// 2026-07-28 path and one pinned to 2025-11-25, use one `zumba mcp --http`
// server at the same time, with a token from a file; the project is
// indexed once for both. SIGTERM then stops the server with status 0.
func TestHTTPOfficialSDKClient(t *testing.T) {
	t.Parallel()
	dir := project(t)
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("tok-e2e-123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hs := startHTTP(t, dir, nil, "--token-file", tokenFile)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	httpClient := &http.Client{Transport: bearer{"tok-e2e-123", http.DefaultTransport}}

	var wg sync.WaitGroup
	for _, version := range []string{"", "2025-11-25"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Run("version="+version, func(t *testing.T) {
				client := mcp.NewClient(&mcp.Implementation{Name: "zumba-e2e", Version: "1.0.0"}, nil)
				cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.url, HTTPClient: httpClient}, &mcp.ClientSessionOptions{ProtocolVersion: version})
				if err != nil {
					t.Fatalf("connect: %v", err)
				}
				defer cs.Close()
				if got := cs.ID() != ""; got != (version != "") {
					t.Errorf("session id %q: a session only for 2025-11-25", cs.ID())
				}
				exerciseSession(t, ctx, cs, version)
				if err := cs.Close(); err != nil {
					t.Errorf("close: %v", err)
				}
			})
		}()
	}
	wg.Wait()

	// Without the token, the same client cannot connect.
	client := mcp.NewClient(&mcp.Implementation{Name: "zumba-e2e", Version: "1.0.0"}, nil)
	if cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.url, MaxRetries: -1}, nil); err == nil {
		cs.Close()
		t.Errorf("connected without the token")
	}

	if err := hs.stop(t); err != nil {
		t.Errorf("zumba after SIGTERM: %v; want exit 0 (stderr %s)", err, hs.log())
	}
	if n := strings.Count(hs.log(), "index complete"); n > 1 {
		t.Errorf("the project was indexed %d times for two clients; want once:\n%s", n, hs.log())
	}
}

// TestHTTPNeedsToken: an address reachable from other machines is refused
// without a token, before anything listens.
func TestHTTPNeedsToken(t *testing.T) {
	t.Parallel()
	dir := project(t)
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		cmd := exec.Command(zumbaBin, "mcp", dir, "--http", addr)
		cmd.Env = append(os.Environ(), "ZUMBA_TOKEN=")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "token") {
			t.Errorf("zumba mcp --http %s without a token: %v, stderr %q; want exit 1 asking for a token", addr, err, stderr.String())
		}
	}
	for _, args := range [][]string{
		{"--http", "nohostport"},
		{"--token-file", "/nonexistent"},
	} {
		cmd := exec.Command(zumbaBin, append([]string{"mcp", dir}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err == nil {
			t.Errorf("zumba mcp %v: started; want a usage error", args)
		}
	}
	// ZUMBA_TOKEN is enforced on a loopback server too.
	hs := startHTTP(t, dir, []string{"ZUMBA_TOKEN=env-token"})
	for _, tc := range []struct {
		auth   string
		status int
	}{{"", 401}, {"Bearer wrong", 401}, {"Bearer env-token", 200}} {
		req, _ := http.NewRequest("POST", hs.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("ping with Authorization %q: %d; want %d", tc.auth, resp.StatusCode, tc.status)
		}
	}
	if err := hs.stop(t); err != nil {
		t.Errorf("zumba after SIGTERM: %v", err)
	}
}
