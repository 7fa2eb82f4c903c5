package mcpserver

import (
	"strings"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/search"
)

// testConfig is the configuration a test server serves root with, with a
// project index when indexed, and a channel closed once the server is
// ready for the test's calls (for an index: once it is complete).
func testConfig(root *search.Root, indexed bool) (Config, <-chan struct{}) {
	ready := make(chan struct{})
	if !indexed {
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
	t.Parallel()
	t.Run("OverPipes", func(t *testing.T) { t.Parallel(); searchToolsOverPipes(t, startIndexedServer) })
	t.Run("Fresh", func(t *testing.T) { t.Parallel(); searchToolsFresh(t, startIndexedServer) })
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
	cfg, _ := testConfig(root, true)
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
