package mcpserver

import "testing"

// TestFindSymbolGoPackages: a Go package is named by its package clause
// as well as by its folder, and a Go stack-trace frame names what the
// qualified name names (issue 26, item 3).
func TestFindSymbolGoPackages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"cmd/app/main.go":         "package main\n\nfunc run() {}\n\nfunc main() { run() }\n",
		"net/http/server.go":      "package http\n\ntype Server struct{}\n\nfunc (s *Server) Serve() {}\n\nfunc getNoBody() {}\n",
		"net/http/export_test.go": "package http_test\n\nfunc testHelper() {}\n",
		"misc/cgo/test/test.go":   "// Copyright 2011.\n\n/* A block\n   comment. */\n\n//go:build cgo\n\npackage cgotest\n\nfunc stack104() {}\n",
		"github.com/x/y/z/t.go":   "package z\n\ntype T[E any] struct{}\n\nfunc (t *T[E]) M() {}\n",
		"lib/other/other.go":      "package other\n\nfunc run() {}\n",
		"py/main.py":              "def run():\n    pass\n",
	})
	for _, indexed := range []bool{false, true} {
		c := startTestServer(t, dir, indexed)
		for _, tc := range []struct{ name, want string }{
			// py/main.py is module main: its run is main.run too.
			{"main.run", "cmd/app/main.go:3 function — func run() {}\npy/main.py:1 function — def run():"},
			{"http.getNoBody", "net/http/server.go:7 function — func getNoBody() {}"},
			{"http_test.testHelper", "net/http/export_test.go:3 function — func testHelper() {}"},
			{"cgotest.stack104", "misc/cgo/test/test.go:10 function — func stack104() {}"},
			{"net/http.(*Server).Serve", "net/http/server.go:5 method — func (s *Server) Serve() {}"},
			{"main.main", "cmd/app/main.go:5 function — func main() { run() }"},
			{"main.main()", "cmd/app/main.go:5 function — func main() { run() }"},
			{"github.com/x/y/z.(*T[...]).M", "github.com/x/y/z/t.go:5 method — func (t *T[E]) M() {}"},
			{"github.com/x/y/z.(*T).M.func1", "github.com/x/y/z/t.go:5 method — func (t *T[E]) M() {}"},
		} {
			if got, isError := c.tool("find_symbol", map[string]any{"name": tc.name}); isError || got != tc.want {
				t.Errorf("indexed %v: find_symbol %s = %q, %v; want %q", indexed, tc.name, got, isError, tc.want)
			}
		}
	}
}
