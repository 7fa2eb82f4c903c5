package diskcache

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPruneImages: past MaxImages, the least recently written images of
// other projects go; the kept project's image, however old, and every
// other file of the projects stay.
func TestPruneImages(t *testing.T) {
	// A glob's special characters in the cache folder's path.
	root := filepath.Join(t.TempDir(), "cache [1]*")
	now := time.Now()
	image := func(p string) string { return filepath.Join(root, p, ImageName) }
	for i, p := range []string{"p0", "p1", "p2", "p3", "p4", "p5"} {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{image(p), filepath.Join(root, p, FileName)} {
			if err := os.WriteFile(f, []byte(p), 0o644); err != nil {
				t.Fatal(err)
			}
			// p0 oldest, p5 newest.
			at := now.Add(time.Duration(i-10) * time.Minute)
			if err := os.Chtimes(f, at, at); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "store"), 0o755); err != nil {
		t.Fatal(err)
	}

	PruneImages(image("p0"), 4)

	for p, want := range map[string]bool{"p0": true, "p1": false, "p2": false, "p3": true, "p4": true, "p5": true} {
		_, err := os.Stat(image(p))
		if got := err == nil; got != want {
			t.Errorf("%s's image kept = %v, want %v", p, got, want)
		}
		if _, err := os.Stat(filepath.Join(root, p, FileName)); err != nil {
			t.Errorf("%s's snapshot removed: %v", p, err)
		}
	}
}
