package search

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/search/resolve"
	"github.com/zumba-dev/zumba/search/resolve/tsjs"
)

// TestResolvedTypeScriptIndexAndRoot: the index's answer for a
// TypeScript definition (its facts the records of kindTSFacts, a barrel
// without definitions parsed for the call) is the direct search's; the
// uses through the barrel resolve, another class's method of the name
// does not.
func TestResolvedTypeScriptIndexAndRoot(t *testing.T) {
	dir := t.TempDir()
	fixture.WriteFile(t, dir, "lib/file.ts", "export class File {\n  close(): void {}\n}\n\nexport function open(): File {\n  return new File();\n}\n")
	fixture.WriteFile(t, dir, "lib/conn.ts", "export class Conn {\n  close(): void {}\n}\n")
	fixture.WriteFile(t, dir, "lib/index.ts", "export * from './file';\nexport { Conn } from './conn';\n")
	for i := range 6 {
		fixture.WriteFile(t, dir, fmt.Sprintf("app/use%d.ts", i), fmt.Sprintf(`import { open, Conn } from '../lib';

export function use%d(c: Conn) {
  open().close();
  c.close();
}
`, i))
	}
	touchPast(t, dir)
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(root, index.Options{CacheFile: "-", NoWatch: true, SyncTimeout: testSyncTimeout})
	ix.Start(t.Context())
	t.Cleanup(ix.Close)
	select {
	case <-ix.Ready():
	case <-time.After(time.Minute):
		t.Fatal("the index was not built in a minute")
	}
	q := ResolveQuery{Name: "File.close"}
	want, err := root.Resolved(t.Context(), q, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ix.Resolved(t.Context(), q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(Def{})); d != "" {
		t.Errorf("Resolved File.close (-direct +index):\n%s", d)
	}
	if got.Lang != "TypeScript/JavaScript" || got.Uses != 7 || got.Through != 0 || got.Unresolved != 0 {
		t.Errorf("Resolved File.close: %s, %d uses, %d through, %d not resolved; want TypeScript/JavaScript, 7, 0, 0", got.Lang, got.Uses, got.Through, got.Unresolved)
	}
	for _, s := range got.Sites {
		if s.Class != resolve.Match || s.Path != "lib/file.ts" && s.Text != "open().close();" {
			t.Errorf("listed %s:%d: %s (class %d)", s.Path, s.Line, s.Text, s.Class)
		}
	}
	// The facts are in the index's spill file: once it is gone (closed
	// with the index), a file's facts are parsed again.
	src := newLangFacts(ix, kindTSFacts, tsjs.Reads, tsjs.DecodeIn, tsjs.Parse)
	f := src.Facts("lib/file.ts")
	ix.Close()
	if g := src.Facts("lib/file.ts"); f == nil || g == nil || len(g.Decls) != len(f.Decls) {
		t.Errorf("facts of lib/file.ts read back %+v, then parsed %+v; want the same", f, g)
	}
}

// TestResolvedTypeScriptFromCache: an index restarted from its disk
// cache (the facts' records exported with the store's numbering of
// their strings and imported back) answers as the index that saved it.
func TestResolvedTypeScriptFromCache(t *testing.T) {
	dir := t.TempDir()
	fixture.WriteFile(t, dir, "lib/file.ts", "export class File {\n  close(): void {}\n}\n")
	fixture.WriteFile(t, dir, "lib/index.ts", "export * from './file';\n")
	fixture.WriteFile(t, dir, "app/use.ts", "import { File } from '../lib';\n\nexport function use(f: File) {\n  f.close();\n}\n")
	touchPast(t, dir)
	cache := filepath.Join(t.TempDir(), "files")
	q := ResolveQuery{Name: "File.close"}
	first, _, _ := testIndex(t, dir, cache, true)
	want, err := first.Resolved(t.Context(), q, nil)
	if err != nil {
		t.Fatal(err)
	}
	first.Close()
	again, _, logs := testIndex(t, dir, cache, true)
	if !strings.Contains(logs.String(), "(3 from cache)") {
		t.Fatalf("the restart did not read the files from the cache; log:\n%s", logs)
	}
	got, err := again.Resolved(t.Context(), q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(Def{})); d != "" {
		t.Errorf("Resolved File.close (-built +restarted):\n%s", d)
	}
	if got.Uses != 2 {
		t.Errorf("Resolved File.close: %d uses; want 2 (the declaration, f.close())", got.Uses)
	}
}
