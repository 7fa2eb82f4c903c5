package search

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestIndexUnreadable: a file that cannot be read (permission denied, too
// many open files) is not remembered as empty: once it can be read again,
// with no edit to it, find_symbol finds its definition, in the running
// index (watching and sweeping) and after a restart from the disk cache
// written while it was unreadable (issue 12). Tests run as root, which
// ignores file modes, so the failure comes from the root's open hook.
func TestIndexUnreadable(t *testing.T) {
	for _, mode := range []string{"watch", "sweep", "restart"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "a/locked.go", "package a\n\nfunc Locked() {}\n")
			writeFile(t, dir, "a/open.go", "package a\n\nfunc Open() { Locked() }\n")
			touchPast(t, dir)
			var locked atomic.Bool
			locked.Store(true)
			hook := func(rel string) error {
				if locked.Load() && rel == "a/locked.go" {
					return &fs.PathError{Op: "open", Path: rel, Err: fs.ErrPermission}
				}
				return nil
			}
			cache := filepath.Join(t.TempDir(), "files")
			start := func() *Index {
				t.Helper()
				root, err := OpenRoot(dir)
				if err != nil {
					t.Fatal(err)
				}
				root.SymbolTimeLimit = time.Hour
				root.openHook = hook
				ix := NewIndex(root, IndexOptions{CacheFile: cache, NoWatch: mode == "sweep"})
				ix.Start(context.Background())
				t.Cleanup(ix.Close)
				<-ix.Ready()
				return ix
			}
			find := func(ix *Index) string {
				t.Helper()
				text, err := symbolAnswer(context.Background(), ix, "Locked")
				if err != nil {
					t.Fatal(err)
				}
				return text
			}
			ix := start()
			if got := find(ix); strings.Contains(got, "locked.go:3") {
				t.Fatalf("unreadable file read: %s", got)
			}
			if mode == "restart" {
				ix.Close()
				locked.Store(false)
				ix = start()
			} else {
				locked.Store(false)
			}
			want := "a/locked.go:3 function — func Locked() {}"
			if got := find(ix); got != want {
				t.Errorf("find_symbol Locked once readable = %q; want %q", got, want)
			}
			refs, err := refsAnswer(context.Background(), ix, "Locked", "")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(refs, "a/locked.go:3:") {
				t.Errorf("find_references Locked once readable:\n%s", refs)
			}
		})
	}
}
