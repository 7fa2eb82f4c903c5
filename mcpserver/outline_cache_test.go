package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/search"
)

// TestOutlineCache: an unchanged file is answered from the cache; a change
// of size, time or inode, or a file too recently modified to trust its
// stat, is outlined again.
func TestOutlineCache(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.go")
	write := func(src string, mtime time.Time) {
		t.Helper()
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	root, err := search.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Root: root})
	ask := func(want string) {
		t.Helper()
		got, isError := s.CallArgs(context.Background(), "outline", map[string]string{"path": "a.go"})
		if isError || got != want {
			t.Errorf("outline = %q (isError %v); want %q", got, isError, want)
		}
	}

	// Modified just now: racy, so a same-size, same-time rewrite is seen.
	now := time.Now()
	write("package p\nfunc A() {}\n", now)
	ask("2 function A")
	write("package p\nfunc B() {}\n", now)
	ask("2 function B")

	// Modified long ago: a rewrite that keeps size, time and inode is
	// still seen, by its status change time (issue 11, defect 8).
	old := now.Add(-time.Hour)
	write("package p\nfunc C() {}\n", old)
	ask("2 function C")
	time.Sleep(20 * time.Millisecond) // past the kernel's coarse clock tick
	write("package p\nfunc D() {}\n", old)
	ask("2 function D")

	// A new size or time is outlined again.
	write("package p\nfunc E() {}\n\n", old)
	ask("2 function E")
	write("package p\nfunc F() {}\n\n", old.Add(time.Second))
	ask("2 function F")

	// Another inode (write-and-rename) is outlined again.
	tmp := filepath.Join(dir, "a.go.tmp")
	if err := os.WriteFile(tmp, []byte("package p\nfunc G() {}\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(tmp, old.Add(time.Second), old.Add(time.Second))
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	ask("2 function G")
}
