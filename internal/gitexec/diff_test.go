package gitexec

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseNumstat: modified, binary and renamed files from git diff
// --numstat -z.
func TestParseNumstat(t *testing.T) {
	out := "3\t1\ta.go\x00-\t-\timg.png\x002\t0\t\x00old name.py\x00new\tname.py\x00"
	got, err := parseNumstat([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []FileDiff{
		{Old: "a.go", New: "a.go", Added: 3, Deleted: 1},
		{Old: "img.png", New: "img.png", Binary: true},
		{Old: "old name.py", New: "new\tname.py", Added: 2},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseNumstat (-want +got):\n%s", diff)
	}
	if _, err := parseNumstat([]byte("1\t2\t\x00only-old\x00")); err == nil {
		t.Error("a rename without its new path: no error")
	}
}

// TestParseHunks: hunks by new path, a deleted file's by its old path,
// quoted paths unquoted, counts of 0 and omitted counts read.
func TestParseHunks(t *testing.T) {
	patch := strings.Join([]string{
		"diff --git a/a.go b/a.go",
		"--- a/a.go",
		"+++ b/a.go",
		"@@ -3,2 +3,3 @@ func A() {",
		"-x",
		"+y",
		"@@ -10 +11,0 @@",
		`diff --git "a/t\tab.go" "b/t\tab.go"`,
		`--- "a/t\tab.go"`,
		`+++ "b/t\tab.go"`,
		"@@ -0,0 +1 @@",
		"diff --git a/gone.go b/gone.go",
		"--- a/gone.go",
		"+++ /dev/null",
		"@@ -1,4 +0,0 @@",
		"",
	}, "\n")
	got := parseHunks([]byte(patch))
	want := map[string][]Hunk{
		"a.go":        {{3, 2, 3, 3}, {10, 1, 11, 0}},
		"t\tab.go":    {{0, 0, 1, 1}},
		"\x00gone.go": {{1, 4, 0, 0}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseHunks (-want +got):\n%s", diff)
	}
}

// TestEnviron: git runs without the environment's GIT_* variables, a
// pager or an editor, and with the user's and system's configuration
// files left out.
func TestEnviron(t *testing.T) {
	t.Setenv("GIT_DIR", "/elsewhere")
	t.Setenv("GIT_EXTERNAL_DIFF", "/bin/evil")
	t.Setenv("PAGER", "/bin/evil")
	env := environ()
	for _, kv := range env {
		if strings.HasPrefix(kv, "GIT_DIR=") || strings.HasPrefix(kv, "GIT_EXTERNAL_DIFF=") || strings.HasPrefix(kv, "PAGER=") {
			t.Errorf("environ keeps %s", kv)
		}
	}
	for _, want := range []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_PAGER=cat"} {
		if !slices.Contains(env, want) {
			t.Errorf("environ lacks %s", want)
		}
	}
}
