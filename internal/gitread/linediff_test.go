package gitread

import (
	"bytes"

	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/internal/fixture"
)

// TestLineDiff: small cases whose hunks git gives (checked by hand with
// git diff -U0).
func TestLineDiff(t *testing.T) {
	for _, c := range []struct {
		old, new string
		want     []Hunk
	}{
		{"a\nb\nc\n", "a\nb\nc\n", nil},
		{"", "a\nb\n", []Hunk{{0, 0, 1, 2}}},
		{"a\nb\n", "", []Hunk{{1, 2, 0, 0}}},
		{"a\nb\nc\n", "a\nx\nc\n", []Hunk{{2, 1, 2, 1}}},
		{"a\nb\nc\n", "a\nc\n", []Hunk{{2, 1, 1, 0}}},
		{"a\nc\n", "a\nb\nc\n", []Hunk{{1, 0, 2, 1}}},
		{"a\nb", "a\nb\n", []Hunk{{2, 1, 2, 1}}},
		// A function added between two: the blank line goes after it.
		{"func A() {}\n\nfunc B() {}\n", "func A() {}\n\nfunc C() {}\n\nfunc B() {}\n", []Hunk{{2, 0, 3, 2}}},
	} {
		got, _, _ := LineDiff([]byte(c.old), []byte(c.new))
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("LineDiff(%q, %q) (-want +got):\n%s", c.old, c.new, diff)
		}
	}
}

// TestLineDiffGit compares LineDiff with git diff --no-index -U0 on files
// of the Go tree, each edited at random: lines deleted, added, duplicated,
// blocks moved, blank lines and braces inserted (where git's choices
// among equal lines show).
func TestLineDiffGit(t *testing.T) {
	fixture.NeedGit(t)
	gosrc := fixture.GoSrc(t)
	var files []string
	filepath.WalkDir(filepath.Join(gosrc, lineDiffDir()), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 50 {
		t.Skipf("only %d Go files under net/http", len(files))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	os.MkdirAll(a, 0o755)
	os.MkdirAll(b, 0o755)
	cases := map[string][2][]byte{}
	for i, p := range files[:min(len(files), lineDiffFiles())] {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		edited := mutate(rng, data, 1+i%lineDiffEdits())
		name := fmt.Sprintf("f%03d.go", i)
		os.WriteFile(filepath.Join(a, name), data, 0o644)
		os.WriteFile(filepath.Join(b, name), edited, 0o644)
		cases[name] = [2][]byte{data, edited}
	}
	want := gitNoIndexHunks(t, a, b)
	counts := gitNoIndexNumstat(t, a, b)
	agree := 0
	for name, c := range cases {
		got, added, deleted := LineDiff(c[0], c[1])
		if diff := cmp.Diff(want[name], got); diff != "" {
			t.Errorf("LineDiff(%s) (-git +LineDiff):\n%s", name, diff)
			continue
		}
		if w := counts[name]; w != [2]int{added, deleted} {
			t.Errorf("LineDiff(%s) counts +%d -%d; git diff --numstat +%d -%d", name, added, deleted, w[0], w[1])
			continue
		}
		agree++
	}
	t.Logf("%d of %d files' hunks agree with git", agree, len(cases))
}

// mutate makes n random edits to data's lines.
func mutate(rng *rand.Rand, data []byte, n int) []byte {
	lines := splitLines(data)
	for range n {
		if len(lines) < 4 {
			break
		}
		i := rng.IntN(len(lines))
		switch rng.IntN(7) {
		case 0: // delete a few lines
			j := min(len(lines), i+1+rng.IntN(5))
			lines = slices.Delete(lines, i, j)
		case 1: // insert new lines
			var add [][]byte
			for k := range 1 + rng.IntN(4) {
				add = append(add, fmt.Appendf(nil, "\tx%d := %d\n", k, rng.IntN(100)))
			}
			lines = slices.Insert(lines, i, add...)
		case 2: // duplicate a block
			j := min(len(lines), i+1+rng.IntN(8))
			lines = slices.Insert(lines, j, slices.Clone(lines[i:j])...)
		case 3: // move a block
			j := min(len(lines), i+1+rng.IntN(10))
			block := slices.Clone(lines[i:j])
			lines = slices.Delete(lines, i, j)
			k := rng.IntN(len(lines) + 1)
			lines = slices.Insert(lines, k, block...)
		case 4: // a function with blank lines around it
			lines = slices.Insert(lines, i, []byte("\n"), []byte("func added() {\n"), []byte("\treturn\n"), []byte("}\n"), []byte("\n"))
		case 5: // change a line
			lines[i] = append(bytes.TrimRight(slices.Clone(lines[i]), "\n"), []byte(" // edited\n")...)
		case 6: // a closing brace and blank line
			lines = slices.Insert(lines, i, []byte("}\n"), []byte("\n"))
		}
	}
	return bytes.Join(lines, nil)
}

// gitNoIndexHunks runs git diff --no-index -U0 on folders a and b and
// returns each file's hunks by name.
func gitNoIndexHunks(t *testing.T, a, b string) map[string][]Hunk {
	t.Helper()
	cmd := exec.Command("git", "-c", "diff.noprefix=false", "diff", "--no-index", "--no-color", "--no-ext-diff", "-U0", a, b)
	cmd.Env = fixture.GitEnv(t.TempDir())
	out, err := cmd.Output()
	if err != nil && cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("git diff --no-index: %v", err)
	}
	hunks := map[string][]Hunk{}
	var name string
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "+++ "):
			name = filepath.Base(strings.TrimSpace(line[4:]))
		case strings.HasPrefix(line, "@@ "):
			f := strings.Fields(line)
			var h Hunk
			h.OldStart, h.OldCount = hunkRange(t, f[1][1:])
			h.NewStart, h.NewCount = hunkRange(t, f[2][1:])
			hunks[name] = append(hunks[name], h)
		}
	}
	return hunks
}

// gitNoIndexNumstat is git diff --no-index --numstat's counts by name.
func gitNoIndexNumstat(t *testing.T, a, b string) map[string][2]int {
	t.Helper()
	cmd := exec.Command("git", "diff", "--no-index", "--no-color", "--no-ext-diff", "--numstat", a, b)
	cmd.Env = fixture.GitEnv(t.TempDir())
	out, err := cmd.Output()
	if err != nil && cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("git diff --no-index --numstat: %v", err)
	}
	counts := map[string][2]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		added, _ := strconv.Atoi(f[0])
		deleted, _ := strconv.Atoi(f[1])
		counts[filepath.Base(f[len(f)-1])] = [2]int{added, deleted}
	}
	return counts
}

func hunkRange(t *testing.T, s string) (start, count int) {
	a, b, comma := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil {
		t.Fatalf("hunk range %q", s)
	}
	count = 1
	if comma {
		count, _ = strconv.Atoi(b)
	}
	return start, count
}

// lineDiffFiles and lineDiffEdits size TestLineDiffGit: LINEDIFF_FILES
// files (150), each with up to LINEDIFF_EDITS edits (6); LINEDIFF_DIR is
// the folder of the Go tree they come from (net/http).
func lineDiffFiles() int { return envInt("LINEDIFF_FILES", 150) }
func lineDiffEdits() int { return envInt("LINEDIFF_EDITS", 6) }

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

func lineDiffDir() string {
	if d := os.Getenv("LINEDIFF_DIR"); d != "" {
		return d
	}
	return "net/http"
}
