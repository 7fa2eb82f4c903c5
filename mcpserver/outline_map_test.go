package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// mapFiles is a small Go and Python project for the map's answers.
var mapFiles = map[string]string{
	"lib/core.go":   "package lib\n\n// Server serves.\ntype Server struct{}\n\nfunc (s *Server) Serve() error { return nil }\n\nfunc NewServer() *Server { return &Server{} }\n\nfunc helper() int { return 1 }\n",
	"lib/other.go":  "package lib\n\nfunc useHelper() int { return helper() }\n",
	"app/a.go":      "package app\n\nfunc A() { lib.NewServer().Serve() }\n",
	"app/b.go":      "package app\n\nfunc B() { lib.NewServer() }\n",
	"py/shapes.py":  "class Shape:\n    def area(self):\n        return 0\n",
	"py/use.py":     "from shapes import Shape\nShape().area()\n",
	"docs/guide.md": "# Guide\n\nNewServer\n",
}

func TestOutlineMap(t *testing.T) {
	s := newTestServer(t, mapFiles)
	for _, tc := range []struct {
		args    map[string]string
		want    string
		isError bool
	}{
		{map[string]string{"path": "."}, `7 files, 10 definitions under ./; showing the 10 most used
app/a.go
  3 function A — func A() { lib.NewServer().Serve() }
app/b.go
  3 function B — func B() { lib.NewServer() }
docs/guide.md
  1 heading Guide
lib/core.go
  4 struct Server — type Server struct{}
  6 method Server.Serve — func (s *Server) Serve() error { return nil }
  8 function NewServer — func NewServer() *Server { return &Server{} }
  10 function helper — func helper() int { return 1 }
lib/other.go
  3 function useHelper — func useHelper() int { return helper() }
py/shapes.py
  1 class Shape — class Shape:
    2 method area — def area(self):`, false},
		{map[string]string{"path": "lib/"}, `2 files, 5 definitions under lib/; showing the 5 most used
lib/core.go
  4 struct Server — type Server struct{}
  6 method Server.Serve — func (s *Server) Serve() error { return nil }
  8 function NewServer — func NewServer() *Server { return &Server{} }
  10 function helper — func helper() int { return 1 }
lib/other.go
  3 function useHelper — func useHelper() int { return helper() }`, false},
		// The smallest budget still holds the best.
		{map[string]string{"path": ".", "budget": "200"}, "", false},
		{map[string]string{"path": ".", "budget": "100"}, `outline: argument "budget" must be an integer from 200 to 10000`, true},
		{map[string]string{"path": ".", "budget": "many"}, `outline: argument "budget" must be an integer from 200 to 10000`, true},
		{map[string]string{"path": "lib", "name": "Server"}, "lib/ is a folder: name needs a file (outline lib/ maps the folder)", true},
		{map[string]string{"path": "nowhere/"}, "no such file: nowhere", true},
		{map[string]string{"path": "lib/core.go", "budget": "300"}, "4 struct Server\n6 method Server.Serve\n8 function NewServer\n10 function helper", false},
	} {
		text, isError := s.CallArgs(context.Background(), "outline", tc.args)
		if tc.want == "" {
			if isError || !strings.HasPrefix(text, "7 files, 10 definitions under ./; showing the") || len(text) > 200*4 {
				t.Errorf("outline %v = %q, %v", tc.args, text, isError)
			}
			continue
		}
		if diff := cmp.Diff(tc.want, text); diff != "" || isError != tc.isError {
			t.Errorf("outline %v: isError %v; (-want +got):\n%s", tc.args, isError, diff)
		}
	}
}

// TestOutlineMapBounds: a map holds at most maxMapLines lines and its
// budget's bytes, whatever the project.
func TestOutlineMapBounds(t *testing.T) {
	files := map[string]string{}
	for i := range 300 {
		var sb strings.Builder
		fmt.Fprintf(&sb, "package p%d\n\n", i%40)
		for j := range 20 {
			fmt.Fprintf(&sb, "// F%d_%d does things.\nfunc F%d_%d(a, b, c int) (string, error) { return %q, nil }\n\n", i, j, i, j, strings.Repeat("x", 200))
		}
		files[fmt.Sprintf("d%d/e%d/f%d.go", i%7, i%40, i)] = sb.String()
	}
	s := newTestServer(t, files)
	for _, budget := range []string{"200", "2000", "10000"} {
		text, isError := s.CallArgs(context.Background(), "outline", map[string]string{"path": ".", "budget": budget})
		lines := strings.Count(text, "\n") + 1
		var b int
		fmt.Sscan(budget, &b)
		if isError || lines > maxMapLines || len(text) > b*mapTokenBytes {
			t.Errorf("budget %s: %d lines, %d bytes, isError %v; want at most %d lines, %d bytes:\n%s", budget, lines, len(text), isError, maxMapLines, b*mapTokenBytes, text)
		}
		if !strings.HasPrefix(text, "300 files, 6000 definitions under ./; showing the ") {
			t.Errorf("budget %s: first line %q", budget, text[:strings.IndexByte(text, '\n')])
		}
	}
}

// TestOutlineMapIndexed: a server with a complete index maps a folder as
// one without does.
func TestOutlineMapIndexed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, mapFiles)
	direct := startTestServer(t, dir, false)
	indexed := startIndexedServer(t, dir)
	for _, p := range []string{".", "lib", "py/"} {
		want, _ := direct.tool("outline", map[string]any{"path": p, "budget": 300})
		got, isError := indexed.tool("outline", map[string]any{"path": p, "budget": 300})
		if diff := cmp.Diff(want, got); diff != "" || isError {
			t.Errorf("outline %s, indexed: isError %v (-direct +indexed):\n%s", p, isError, diff)
		}
	}
}

// TestOutlineMapEmpty: a folder with nothing to map says so, without an
// error.
func TestOutlineMapEmpty(t *testing.T) {
	s := newTestServer(t, map[string]string{"notes/a.txt": "text\n", ".gitignore": "gen/\n", "gen/x.go": "package gen\n\nfunc X() {}\n"})
	for _, p := range []string{"notes", "gen"} {
		text, isError := s.CallArgs(context.Background(), "outline", map[string]string{"path": p})
		if want := "No files with functions, types, constants or headings under " + p + "/ (files that .gitignore excludes are left out)."; text != want || isError {
			t.Errorf("outline %s = %q, %v; want %q", p, text, isError, want)
		}
	}
}

// TestOutlineMapStopped: a map without an index stopped by its time limit
// says so.
func TestOutlineMapStopped(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, mapFiles)
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	root.SymbolTimeLimit = -time.Second
	text, isError := New(Config{Root: root}).CallArgs(context.Background(), "outline", map[string]string{"path": "."})
	if want := "No files with definitions under ./ among the first 0 of 7 files, read before the time limit; the server's index ranks them all."; text != want || isError {
		t.Errorf("outline . stopped = %q, %v; want %q", text, isError, want)
	}
}
