package search

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/index"
)

// TestIndexUnreadable: a file that cannot be read (permission denied, too
// many open files) is not remembered as empty: once it can be read again,
// with no edit to it, find_symbol finds its definition, in the running
// index (watching and sweeping) and after a restart from the disk cache
// written while it was unreadable (issue 12). Tests run as root, which
// ignores file modes, so the failure comes from the root's open hook.
func TestIndexUnreadable(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"watch", "sweep", "restart"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			fixture.WriteFile(t, dir, "a/locked.go", "package a\n\nfunc Locked() {}\n")
			fixture.WriteFile(t, dir, "a/open.go", "package a\n\nfunc Open() { Locked() }\n")
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
				root.OpenHook = hook
				ix := NewIndex(root, index.Options{CacheFile: cache, NoWatch: mode == "sweep"})
				ix.Start(context.Background())
				t.Cleanup(ix.Close)
				<-ix.Ready()
				return ix
			}
			find := func(ix *Index) []string {
				t.Helper()
				res, err := ix.Symbols(context.Background(), ParseSymbolQuery("Locked"))
				if err != nil {
					t.Fatal(err)
				}
				var found []string
				for _, d := range res.Defs {
					found = append(found, fmt.Sprintf("%s:%d %s %s", d.Path, d.Line, d.Kind, d.Text))
				}
				if res.Fuzzy || res.More || res.Searched != res.Files || res.Building {
					found = append(found, fmt.Sprintf("fuzzy %v, more %v, searched %d of %d, building %v", res.Fuzzy, res.More, res.Searched, res.Files, res.Building))
				}
				return found
			}
			ix := start()
			if got := find(ix); slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "a/locked.go:") }) {
				t.Fatalf("unreadable file read: %q", got)
			}
			if mode == "restart" {
				ix.Close()
				locked.Store(false)
				ix = start()
			} else {
				locked.Store(false)
			}
			want := []string{"a/locked.go:3 function func Locked() {}"}
			if got := find(ix); !slices.Equal(got, want) {
				t.Errorf("definitions of Locked once readable = %q; want %q", got, want)
			}
			refs, err := ix.References(context.Background(), "Locked", nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(refs.Refs, func(r Ref) bool { return r.Path == "a/locked.go" && r.Line == 3 }) {
				t.Errorf("references to Locked once readable: %+v", refs)
			}
		})
	}
}
