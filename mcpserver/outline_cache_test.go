package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
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
	root, err := openRoot(dir)
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

// TestOutlineConcurrentCalls: calls for a file being outlined share that
// outline, and each gets the file's answer, also when the first caller
// gives up before the outline ends.
func TestOutlineConcurrentCalls(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "a.ts")
	old := time.Now().Add(-time.Hour)
	write := func(name string) string {
		t.Helper()
		var src strings.Builder
		for i := range 3000 {
			fmt.Fprintf(&src, "function %s%d() {}\n", name, i)
		}
		if err := os.WriteFile(p, []byte(src.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
		want, _ := outlineSource(context.Background(), "a.ts", []byte(src.String()))
		return want
	}
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Root: root})
	for _, name := range []string{"f", "g"} {
		want := write(name)
		// The first caller gives up at once; the others wait for an answer.
		quick, cancel := context.WithCancel(context.Background())
		cancel()
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx := context.Background()
				if i == 0 {
					ctx = quick
				}
				got, isError := s.CallArgs(ctx, "outline", map[string]string{"path": "a.ts"})
				if i > 0 && (isError || got != want) {
					t.Errorf("%s: outline = %.80q… (isError %v); want %.80q…", name, got, isError, want)
				}
			}()
		}
		wg.Wait()
	}
}
