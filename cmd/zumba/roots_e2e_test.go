package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHTTPRootsE2E (issue 31): one `zumba mcp A B C --http` serves three
// worktrees of a project to three agents of the official SDK, each at its
// root's endpoint (/mcp/NAME) and confined to it: its own change is found,
// the others' are not, and a path into another worktree is refused.
func TestHTTPRootsE2E(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	names := []string{"wt-a", "wt-b", "wt-c"}
	var dirs []string
	for _, n := range names {
		dir := filepath.Join(base, n)
		files := map[string]string{
			"go.mod":      "module example.com/app\n\ngo 1.22\n",
			"app/app.go":  "package app\n\n// Run starts the app.\nfunc Run() {}\n",
			"app/task.go": fmt.Sprintf("package app\n\n// Task%s is this worktree's change.\nfunc Task%s() { Run() }\n", strings.ToUpper(n[3:]), strings.ToUpper(n[3:])),
		}
		for p, content := range files {
			f := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dirs = append(dirs, dir)
	}
	hs := startHTTP(t, dirs[0], nil, dirs[1:]...)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Run(n, func(t *testing.T) {
				client := mcp.NewClient(&mcp.Implementation{Name: "zumba-e2e", Version: "1.0.0"}, nil)
				cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.url + "/" + n}, nil)
				if err != nil {
					t.Fatalf("connect to %s/%s: %v", hs.url, n, err)
				}
				defer cs.Close()
				call := func(tool string, args map[string]any) string {
					res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
					if err != nil {
						t.Fatalf("%s %v: %v", tool, args, err)
					}
					return res.Content[0].(*mcp.TextContent).Text
				}
				own := "Task" + strings.ToUpper(n[3:])
				if got, want := call("find_symbol", map[string]any{"name": own}), n+"/app/task.go:4 function"; !strings.HasPrefix(got, want) {
					t.Errorf("find_symbol %s = %q; want %q…", own, got, want)
				}
				other := "Task" + strings.ToUpper(names[(i+1)%3][3:])
				if got := call("find_symbol", map[string]any{"name": other}); !strings.HasPrefix(got, "No definition of "+other) {
					t.Errorf("find_symbol %s (another worktree's) = %q; want none", other, got)
				}
				if got := call("find_references", map[string]any{"name": "Run"}); strings.Count(got, "app/app.go") != 2 || !strings.Contains(got, n+"/app/task.go:4") || strings.Contains(got, names[(i+1)%3]) {
					t.Errorf("find_references Run = %q; want this worktree's two files alone", got)
				}
				path := filepath.ToSlash(filepath.Join(dirs[(i+1)%3], "app", "task.go"))
				if got := call("outline", map[string]any{"path": path}); !strings.Contains(got, "outside the project") {
					t.Errorf("outline of another worktree's file = %q; want it refused", got)
				}
			})
		}()
	}
	wg.Wait()
	// One index per worktree (their lines come as each completes).
	for deadline := time.Now().Add(20 * time.Second); strings.Count(hs.log(), "index complete") < 3; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not every worktree's index completed:\n%s", hs.log())
		}
	}
	if n := strings.Count(hs.log(), "index complete"); n != 3 {
		t.Errorf("%d indexes completed; want one per worktree:\n%s", n, hs.log())
	}
}
