package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLongNames: a name longer than any identifier is a one-line error,
// and an answer repeats at most 300 characters of a name (issue 11,
// defect 10: a 60 MB name came back whole).
func TestLongNames(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nfunc A() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Root: root})
	for _, tool := range []string{"find_symbol", "find_references"} {
		got, isError := s.CallArgs(context.Background(), tool, map[string]string{"name": strings.Repeat("x", 1<<20)})
		if !isError || !strings.Contains(got, "name too long (1048576 bytes; the limit is 1000)") || len(got) > 400 {
			t.Errorf("%s(1 MB name) = %.120q, isError %v; want a short error saying the name is too long", tool, got, isError)
		}
		got, isError = s.CallArgs(context.Background(), tool, map[string]string{"name": strings.Repeat("y", 900)})
		if isError || len(got) > 420 || !strings.Contains(got, strings.Repeat("y", 300)+"…") {
			t.Errorf("%s(900-byte name) = %.120q (%d bytes), isError %v; want the name cut at 300 characters", tool, got, len(got), isError)
		}
	}
}
