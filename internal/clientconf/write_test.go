package clientconf

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
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
	f, err := ReadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte(`{"x": 1}`)); err == nil || !strings.Contains(err.Error(), "read-only") {
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
	f, err := ReadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	backup, err := f.Write([]byte("new"))
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
	if backup, err := (File{Path: newPath, Real: newPath}).Write([]byte("{}")); err != nil || backup != "" {
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

// TestWriteChanged: another program's change between setup's read and
// its write is not lost: Write refuses with ErrChanged and writes
// nothing, whether the file was changed, created, removed, or its link
// pointed elsewhere (issue 43, item 12).
func TestWriteChanged(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before string // "" : no file
		change func(t *testing.T, path string)
	}{
		{"changed", "{}\n", func(t *testing.T, path string) { os.WriteFile(path, []byte("{\"other\": 1}\n"), 0o644) }},
		{"same size", "{\"a\": 1}\n", func(t *testing.T, path string) { os.WriteFile(path, []byte("{\"a\": 2}\n"), 0o644) }},
		{"created", "", func(t *testing.T, path string) { os.WriteFile(path, []byte("{\"other\": 1}\n"), 0o644) }},
		{"removed", "{}\n", func(t *testing.T, path string) { os.Remove(path) }},
		{"replaced", "{}\n", func(t *testing.T, path string) {
			// Same bytes, another file: an editor's save by rename.
			tmp := path + ".new"
			os.WriteFile(tmp, []byte("{}\n"), 0o644)
			os.Rename(tmp, path)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "mcp.json")
			if tc.before != "" {
				if err := os.WriteFile(path, []byte(tc.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f, err := ReadConfig(path)
			if err != nil {
				t.Fatal(err)
			}
			tc.change(t, path)
			after, _ := os.ReadFile(path)
			if _, err := f.Write([]byte("{\"zumba\": 1}\n")); !errors.Is(err, ErrChanged) {
				t.Fatalf("Write after another program's change: %v; want ErrChanged", err)
			}
			if now, _ := os.ReadFile(path); string(now) != string(after) {
				t.Errorf("the other program's file %q is now %q", after, now)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if e.Name() != "mcp.json" {
					t.Errorf("left beside it: %s", e.Name())
				}
			}
		})
	}
}

// TestWriteLinkRetargeted: a link that leads elsewhere since it was read
// is not written through.
func TestWriteLinkRetargeted(t *testing.T) {
	dir := t.TempDir()
	a, b, link := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"), filepath.Join(dir, "mcp.json")
	os.WriteFile(a, []byte("{}\n"), 0o644)
	os.WriteFile(b, []byte("{}\n"), 0o644)
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	f, err := ReadConfig(link)
	if err != nil || f.Real != a {
		t.Fatalf("ReadConfig: %+v %v", f, err)
	}
	os.Remove(link)
	os.Symlink(b, link)
	if _, err := f.Write([]byte("{\"zumba\": 1}\n")); !errors.Is(err, ErrChanged) {
		t.Errorf("Write through a link retargeted: %v; want ErrChanged", err)
	}
	for _, p := range []string{a, b} {
		if got, _ := os.ReadFile(p); string(got) != "{}\n" {
			t.Errorf("%s is now %q", p, got)
		}
	}
}

// TestParseLinear: a file of many comments is read in time and memory
// linear in its size (issue 43, item 15: each /* */ copied the rest of
// the file, 24 s for 100,000 of them). Counted in bytes allocated, which
// the machine's load does not change.
func TestParseLinear(t *testing.T) {
	const n = 20000
	src := []byte("{\n" + strings.Repeat("  /* a comment */\n", n) + "  \"mcpServers\": {}\n}\n")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out, changed, err := editJSON(src, []string{"mcpServers"}, "", "zumba", commandArgs("/z", []string{"mcp", "."}))
	runtime.ReadMemStats(&after)
	if err != nil || !changed || !bytes.Contains(out, []byte(`"zumba"`)) {
		t.Fatalf("editJSON: %v %v", changed, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 40*uint64(len(src)) {
		t.Errorf("editJSON of %d bytes (%d comments) allocated %d bytes; want under 40 times the file", len(src), n, got)
	}
}
