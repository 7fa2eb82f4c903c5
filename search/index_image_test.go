package search

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/zumba-dev/zumba/internal/diskcache"
	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/search/findcode"
)

// TestImageRestart: a restart takes the project's image (the whole index
// as its completion saved it) for the files the snapshot has as they
// are, reads the files changed, added or gone since, and answers as an
// index built from the files does; a damaged image is not used.
func TestImageRestart(t *testing.T) {
	t.Parallel()
	dir := freshProject(t)
	touchPast(t, dir)
	cache := filepath.Join(t.TempDir(), "files")
	image := filepath.Join(filepath.Dir(cache), diskcache.ImageName)
	ix, _, logs := testIndex(t, dir, cache, true)
	ix.Close()
	if _, err := os.Stat(image); err != nil {
		t.Fatalf("no image after the index completed: %v; log:\n%s", err, logs)
	}
	names := []string{"shared", "Old03", "Changed", "Added", "Old05", "T05.Method", "Method", "Usage"}
	queries := []string{"shared method", "usage", "changed"}
	check := func(what string, wantCached string) {
		t.Helper()
		ix, root, logs := testIndex(t, dir, cache, true)
		defer ix.Close()
		if strings.Contains(logs.String(), "image") {
			t.Errorf("%s: image not used; log:\n%s", what, logs)
		}
		if m := fromCacheRE.FindStringSubmatch(logs.String()); m == nil || m[2] != wantCached {
			t.Errorf("%s: want %s files from the cache; log:\n%s", what, wantCached, logs)
		}
		sameAnswers(t, what, ix, root, names)
		cold, _, _ := testIndex(t, dir, "-", true)
		for _, q := range queries {
			want, err := cold.Code(context.Background(), q, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ix.Code(context.Background(), q, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got, resultOpts, cmpopts.IgnoreUnexported(findcode.Def{})); d != "" {
				t.Errorf("%s: find_code %q (-cold +image):\n%s", what, q, d)
			}
		}
	}
	check("unchanged", "22")

	fixture.WriteFile(t, dir, "pkg0/f03.go", "package pkg\n\nfunc Changed() { shared() }\n")
	os.Remove(filepath.Join(dir, "pkg2/f05.go"))
	fixture.WriteFile(t, dir, "pkg1/added.go", "package pkg\n\n// Added does nothing.\nfunc Added() {}\n")
	touchPast(t, dir)
	check("changed", "20")

	// The image as the last restart left it, its middle damaged.
	b, err := os.ReadFile(image)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.WriteFile(image, b, 0o600); err != nil {
		t.Fatal(err)
	}
	ix2, root, logs2 := testIndex(t, dir, cache, true)
	if !strings.Contains(logs2.String(), "not used") && !strings.Contains(logs2.String(), "discarded") {
		t.Errorf("damaged image not reported; log:\n%s", logs2)
	}
	sameAnswers(t, "damaged image", ix2, root, names)
}

// TestImageNewCheckout: a new checkout of files the store holds (a copy
// of a project indexed before, as a task's worktree is) writes no image
// on its first run, only its snapshot; its next run loads from the store
// and writes the image, which the run after takes. A cold build writes
// its image at once.
func TestImageNewCheckout(t *testing.T) {
	t.Parallel()
	a := freshProject(t)
	touchPast(t, a)
	caches := t.TempDir() // one store for both projects, as the user's cache folder
	cacheA, cacheB := filepath.Join(caches, "a", "files"), filepath.Join(caches, "b", "files")
	imageA, imageB := filepath.Join(caches, "a", diskcache.ImageName), filepath.Join(caches, "b", diskcache.ImageName)
	ix, _, logs := testIndex(t, a, cacheA, true)
	ix.Close()
	if _, err := os.Stat(imageA); err != nil {
		t.Fatalf("cold build: no image: %v; log:\n%s", err, logs)
	}
	b := t.TempDir()
	filepath.Walk(a, func(p string, fi os.FileInfo, err error) error {
		if err != nil || !fi.Mode().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(a, p)
		fixture.WriteFile(t, b, filepath.ToSlash(rel), string(data))
		return nil
	})
	touchPast(t, b)
	run := func(what string) string {
		t.Helper()
		ix, _, logs := testIndex(t, b, cacheB, true)
		ix.Close()
		if m := fromCacheRE.FindStringSubmatch(logs.String()); m == nil || m[1] != m[2] {
			t.Errorf("%s: want every file from the cache; log:\n%s", what, logs)
		}
		return logs.String()
	}
	if log := run("new checkout"); !strings.Contains(log, "its image waits for its next run") {
		t.Errorf("new checkout: no word of the image waiting; log:\n%s", log)
	}
	if _, err := os.Stat(imageB); !os.IsNotExist(err) {
		t.Fatalf("new checkout wrote an image (%v)", err)
	}
	if _, err := os.Stat(cacheB); err != nil {
		t.Fatalf("new checkout wrote no snapshot: %v", err)
	}
	run("its next run")
	if _, err := os.Stat(imageB); err != nil {
		t.Fatalf("next run of the checkout: no image: %v", err)
	}
	if log := run("the run after"); strings.Contains(log, "image") {
		t.Errorf("the run after: image not used; log:\n%s", log)
	}
}
