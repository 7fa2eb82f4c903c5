package main

import (
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/mcpserver"
	"github.com/zumba-dev/zumba/search"
)

// captureRun runs the command line and returns what it printed on stdout and
// its exit code. It swaps os.Stdout, so a test that calls it must not
// call t.Parallel (this package's parallel tests start after it).
func captureRun(t *testing.T, args ...string) (string, int) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	code := run(args)
	os.Stdout = old
	w.Close()
	out, _ := io.ReadAll(r)
	return string(out), code
}

// TestSearchCommands checks that zumba symbol, zumba refs and zumba code
// print the text the MCP tools answer.
func TestSearchCommands(t *testing.T) {
	// zumba code keeps the server's disk cache.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	src := "package p\n\ntype Server struct{}\n\nfunc (s *Server) Serve() {}\n\nfunc use() { new(Server).Serve() }\n"
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := search.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := mcpserver.New(mcpserver.Config{Root: root})
	ctx := context.Background()
	for _, tc := range []struct {
		args []string
		tool string
		call map[string]string
	}{
		{[]string{"symbol", "Server.Serve", dir}, "find_symbol", map[string]string{"name": "Server.Serve"}},
		{[]string{"refs", "Serve", dir}, "find_references", map[string]string{"name": "Serve"}},
		{[]string{"refs", "Serve", "--path", "*.go", dir}, "find_references", map[string]string{"name": "Serve", "path": "*.go"}},
		{[]string{"refs", "--path", "*.md", "Serve", dir}, "find_references", map[string]string{"name": "Serve", "path": "*.md"}},
		{[]string{"refs", "Serve", "--group", "definition", "--code", dir}, "find_references", map[string]string{"name": "Serve", "group": "definition", "code": "true"}},
		{[]string{"refs", "--code", "Serve", dir}, "find_references", map[string]string{"name": "Serve", "code": "true"}},
		{[]string{"refs", "Serve", "--depth", "2", dir}, "find_references", map[string]string{"name": "Serve", "depth": "2"}},
		{[]string{"code", "serve the server", dir}, "find_code", map[string]string{"query": "serve the server"}},
		{[]string{"code", "serve the server", dir}, "find_code", map[string]string{"query": "serve the server"}},
		{[]string{"code", "--path", "*.md", "serve", dir}, "find_code", map[string]string{"query": "serve", "path": "*.md"}},
	} {
		got, code := captureRun(t, tc.args...)
		want, isError := srv.CallArgs(ctx, tc.tool, tc.call)
		if code != 0 || isError || got != want+"\n" {
			t.Errorf("zumba %q = %q, exit %d; the tool answers %q", tc.args, got, code, want)
		}
	}
	for _, bad := range [][]string{{"symbol"}, {"refs"}, {"code"}, {"symbol", "a", "b", "c"}, {"code", "a", "b", "c"}, {"refs", "x", "--path"}, {"refs", "x", "--group", "file", dir}} {
		if _, code := captureRun(t, bad...); code != 2 {
			t.Errorf("zumba %q exits %d; want 2", bad, code)
		}
	}
	if _, code := captureRun(t, "refs", "x", "--path", "[", dir); code != 1 {
		t.Errorf("zumba refs with a bad glob exits %d; want 1", code)
	}
}

// TestCommandFlags: each command's usage line names every flag it takes,
// and zumba help lists each with what it does (issue 26, item 14).
func TestCommandFlags(t *testing.T) {
	var help strings.Builder
	for _, c := range commands {
		c.writeHelp(&help, false)
	}
	for _, c := range commands {
		fs := newFlagSet(c.name)
		fs.VisitAll(func(f *flag.Flag) {
			if !strings.Contains(c.usage, "--"+f.Name) {
				t.Errorf("zumba %s's usage %q does not name --%s", c.name, c.usage, f.Name)
			}
			if !strings.Contains(help.String(), "--"+f.Name) || !strings.Contains(help.String(), f.Usage) {
				t.Errorf("zumba help does not list --%s of %s", f.Name, c.name)
			}
		})
	}
}
