package mcpserver

import (
	"strings"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/search"
)

// indexedServers makes startServer serve with a project index, and wait
// until it is complete.
var indexedServers bool

// testConfig is the configuration startServer serves root with, and a
// channel closed once the server is ready for the test's calls.
func testConfig(root *search.Root) (Config, <-chan struct{}) {
	ready := make(chan struct{})
	if !indexedServers {
		close(ready)
		return Config{Root: root}, ready
	}
	done := false
	log := func(format string, args ...any) {
		if !done && strings.HasPrefix(format, "index complete") {
			done = true
			close(ready)
		}
	}
	return Config{Root: root, Index: &search.IndexOptions{CacheFile: "-", Log: log}}, ready
}

// TestSearchToolsIndexed runs the search tools' tests on a server with a
// complete index: the same answers, as fresh.
func TestSearchToolsIndexed(t *testing.T) {
	indexedServers = true
	defer func() { indexedServers = false }()
	t.Run("OverPipes", TestSearchToolsOverPipes)
	t.Run("Fresh", TestSearchToolsFresh)
}

// TestInitializeWhileIndexing: initialize and ping answer at once while
// the index is being built.
func TestInitializeWhileIndexing(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 300 {
		files[strings.Repeat("d/", i%5)+"f"+string(rune('a'+i%26))+strings.Repeat("x", i/26)+".go"] = "package p\n\nfunc F() {}\n"
	}
	writeFiles(t, dir, files)
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	indexedServers = true
	cfg, _ := testConfig(root)
	indexedServers = false
	c := startServerWith(t, cfg)
	start := time.Now()
	c.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"}})
	c.call("ping", map[string]any{})
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("initialize and ping took %v while indexing", d)
	}
	if text, _ := c.tool("find_symbol", map[string]any{"name": "F"}); !strings.HasPrefix(text, "d/d/d/d/fa") && !strings.HasPrefix(text, "d/") {
		t.Errorf("find_symbol F while indexing: %q", text)
	}
}
