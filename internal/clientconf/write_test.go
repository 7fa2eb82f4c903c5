package clientconf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteReadOnly: a read-only file is refused and left as it was, with
// no backup and no temporary file beside it.
func TestWriteReadOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, []byte("{}\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(path, []byte("{}\n"), []byte(`{"x": 1}`)); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("Write of a read-only file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "{}\n" {
		t.Errorf("the file is now %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left beside it: %v", entries)
	}
}

// TestWriteBackup: the old file is kept beside the new one, and the
// file's mode stays.
func TestWriteBackup(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	backup, err := Write(path, []byte("old"), []byte("new"))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(backup); string(b) != "old" || backup != path+BackupSuffix {
		t.Errorf("backup %s holds %q", backup, b)
	}
	info, _ := os.Stat(path)
	if b, _ := os.ReadFile(path); string(b) != "new" || info.Mode().Perm() != 0o600 {
		t.Errorf("the file holds %q, mode %v", b, info.Mode())
	}
	// A new file in a folder that does not exist yet: no backup.
	newPath := filepath.Join(dir, "sub", "mcp.json")
	if backup, err := Write(newPath, nil, []byte("{}")); err != nil || backup != "" {
		t.Errorf("new file: backup %q, %v", backup, err)
	}
}

// TestBlock: the guidance block is appended once, replaced in place, and
// a file with one marker alone is refused.
func TestBlock(t *testing.T) {
	out, changed, err := Block(nil)
	if err != nil || !changed || !strings.HasPrefix(string(out), blockBegin) {
		t.Fatalf("new file: %q %v %v", out, changed, err)
	}
	doc := "# Agents\n\nRun the tests.\n"
	out, changed, err = Block([]byte(doc))
	if err != nil || !changed || !strings.HasPrefix(string(out), doc+"\n"+blockBegin) {
		t.Fatalf("appended: %q %v %v", out, changed, err)
	}
	if again, changed, _ := Block(out); changed || string(again) != string(out) {
		t.Errorf("second run changed it:\n%s", again)
	}
	stale := doc + "\n" + blockBegin + "\nold advice\n" + blockEnd + "\n\n## After\n"
	out, changed, err = Block([]byte(stale))
	if err != nil || !changed || strings.Contains(string(out), "old advice") || !strings.HasSuffix(string(out), blockEnd+"\n\n## After\n") || !strings.HasPrefix(string(out), doc) {
		t.Errorf("replaced: %q %v %v", out, changed, err)
	}
	if _, _, err := Block([]byte(doc + blockBegin + "\n")); err == nil {
		t.Error("one marker alone: no error")
	}
}

// TestDiff: one hunk with 3 lines of context.
func TestDiff(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\n"
	got := Diff("f.toml", []byte(old), []byte("a\nb\nc\nd\nX\ne\nf\n"))
	want := "--- f.toml\n+++ f.toml\n@@ -2,5 +2,6 @@\n b\n c\n d\n+X\n e\n f\n"
	if got != want {
		t.Errorf("Diff = %q; want %q", got, want)
	}
	if got := Diff("f", []byte(old), []byte(old)); got != "" {
		t.Errorf("no change: %q", got)
	}
}

// TestParseJSONC: comments, trailing commas, comment-like text in strings
// and a byte order mark are JSON with comments; the rest is an error with
// its line and column.
func TestParseJSONC(t *testing.T) {
	src := "\uFEFF{\n  // a\n  \"u\": \"http://x/*y*/\", /* b */\n  \"l\": [1, 2,],\n  \"e\": \"\\\"q\\\"\",\n}\n"
	n, err := parseJSONC([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m := n.plain([]byte(src)).(map[string]any)
	if m["u"] != "http://x/*y*/" || m["e"] != `"q"` || len(m["l"].([]any)) != 2 {
		t.Errorf("read %v", m)
	}
	for _, bad := range []string{"{", "{\"a\" 1}", "{\"a\": tru}", "[1 2]", "{} x", "{\"a\": \"b\n\"}", "/* open"} {
		if _, err := parseJSONC([]byte(bad)); err == nil || !strings.Contains(err.Error(), "line") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestEditTOMLKeepsComments: rewriting an older entry keeps the comments
// and the other keys of its table.
func TestEditTOMLKeepsComments(t *testing.T) {
	out, changed, err := editTOML([]byte(fixtures["codex"]["older"]), "zumba", "/z", []string{"mcp", "."})
	if err != nil || !changed {
		t.Fatal(changed, err)
	}
	want := "[mcp_servers.zumba]\ncommand = \"/z\" # where it was\nargs = [\"mcp\", \".\"]\nenv = { GOMEMLIMIT = \"1GiB\" }\n\n[other]\nx = 1\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	// A table written inline cannot be edited in place: refused.
	if _, _, err := editTOML([]byte("mcp_servers = { zumba = { command = \"/old\", args = [] } }\n"), "zumba", "/z", []string{"mcp"}); err == nil {
		t.Error("inline table: no error")
	}
}
