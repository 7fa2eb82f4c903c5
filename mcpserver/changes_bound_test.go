package mcpserver

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/fixture"
)

// TestChangesBounded: a change of 5,000 files is answered within the
// call's time limit (what could not be read in time is counted, not
// waited for), in at most 200 lines and 100 KB.
func TestChangesBounded(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("writes and commits 5,000 files")
	}
	t.Parallel()
	fixture.NeedGit(t)
	dir := t.TempDir()
	fixture.GitInit(t, dir)
	const n = 5000
	files := map[string]string{}
	for i := range n {
		files[filepath.ToSlash(filepath.Join(fmt.Sprintf("p%d", i/100), fmt.Sprintf("f%d.go", i)))] = fmt.Sprintf("package p\n\n// F%d is one.\nfunc F%d() int {\n\treturn %d\n}\n\nfunc G%d() int { return F%d() }\n", i, i, i, i, i)
	}
	writeFiles(t, dir, files)
	run := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir, cmd.Env = dir, fixture.GitEnv(dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("add", "-A")
	run("commit", "-q", "-m", "base")
	for name, text := range files {
		files[name] = strings.Replace(text, "\treturn ", "\treturn 1 + ", 1)
	}
	writeFiles(t, dir, files)
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Root: root})
	start := time.Now()
	text, isError := s.CallArgs(context.Background(), "changes", nil)
	took := time.Since(start)
	if took > changesTimeLimit+time.Second {
		t.Errorf("changes of %d files took %v; want at most its limit, %v", n, took, changesTimeLimit)
	}
	if lines := strings.Count(text, "\n") + 1; lines > maxChangesLines || len(text) > maxOutlineAnswer {
		t.Errorf("changes of %d files: %d lines, %d bytes; want at most %d and %d", n, lines, len(text), maxChangesLines, maxOutlineAnswer)
	}
	first, _, _ := strings.Cut(text, "\n")
	if isError {
		// A machine too slow to read the change in time says so.
		if !strings.Contains(first, "not read in time") {
			t.Errorf("changes of %d files failed: %q", n, first)
		}
		return
	}
	if !strings.Contains(first, fmt.Sprintf("changed in %d files", n)) {
		t.Errorf("changes of %d files begins %q", n, first)
	}
	t.Logf("changes of %d files in %v: %s", n, took.Round(time.Millisecond), first)
}
