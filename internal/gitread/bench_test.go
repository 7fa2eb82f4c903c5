package gitread

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/project"
)

// TestDiffTiming times Open and Diff against HEAD on the work tree named
// by ZUMBA_GITREAD_REPO (e.g. a git repository of the Linux tree with
// files edited), five times, and logs each phase:
//
//	ZUMBA_GITREAD_REPO=/work/trees/git-linux go test -run TestDiffTiming -v ./internal/gitread
func TestDiffTiming(t *testing.T) {
	dir := os.Getenv("ZUMBA_GITREAD_REPO")
	if dir == "" {
		t.Skip("set ZUMBA_GITREAD_REPO to a work tree to time Diff on it")
	}
	root, err := project.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		start := time.Now()
		r, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		head, err := r.Head()
		if err != nil {
			t.Fatal(err)
		}
		opened := time.Since(start)
		diffs, err := r.Diff(context.Background(), head, root)
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		t.Logf("open %v, diff %v: %d files", opened.Round(time.Millisecond), (time.Since(start) - opened).Round(time.Millisecond), len(diffs))
	}
}
