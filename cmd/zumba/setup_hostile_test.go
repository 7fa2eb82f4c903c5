package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The tests of this file are issue 43's reproductions against setup: a
// cloned repository, a client's file or another program on the machine
// trying to make setup read, copy, hang on or damage what it should not.

// setupHome gives the test a home folder of its own (HOME and
// XDG_CONFIG_HOME) and returns it.
func setupHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	// No client's program (zuno) from the machine's PATH.
	t.Setenv("PATH", t.TempDir())
	return home
}

// writeFile writes data at path, making its folder.
func writeFile(t *testing.T, path, data string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}

// setupWithin runs setup and fails the test when it takes more than 20 s
// (a read that blocks on a FIFO never returns).
func setupWithin(t *testing.T, args ...string) (int, string) {
	t.Helper()
	type result struct {
		code int
		out  string
	}
	done := make(chan result, 1)
	go func() {
		var out bytes.Buffer
		code := setup(&out, args)
		done <- result{code, out.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.out
	case <-time.After(20 * time.Second):
		t.Fatalf("zumba setup %s: no answer after 20 s", strings.Join(args, " "))
		return 0, ""
	}
}

// TestSetupProjectLinkOut: a project's AGENTS.md (or CLAUDE.md) that is
// a link leading out of the project is refused, and nothing of what it
// points to is copied into the project (issue 43, item 3).
func TestSetupProjectLinkOut(t *testing.T) {
	setupHome(t)
	secret := filepath.Join(t.TempDir(), "id_ed25519")
	writeFile(t, secret, "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n", 0o600)
	project := t.TempDir()
	for _, name := range []string{"AGENTS.md", "CLAUDE.md"} {
		if err := os.Symlink(secret, filepath.Join(project, name)); err != nil {
			t.Fatal(err)
		}
	}
	code, out := setupWithin(t, "--client", "codex", "--project", project)
	if code != 1 {
		t.Errorf("exit %d; want 1:\n%s", code, out)
	}
	for _, name := range []string{"AGENTS.md", "CLAUDE.md"} {
		if !strings.Contains(out, name+": "+filepath.Join(project, name)+" is a link leading out of the project") {
			t.Errorf("no refusal of %s:\n%s", name, out)
		}
		path := filepath.Join(project, name)
		if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer the link: %v %v", name, fi, err)
		}
		if _, err := os.Lstat(path + ".zumba-backup"); err == nil {
			t.Errorf("%s has a backup (a copy of the link's target)", name)
		}
	}
	if b, _ := os.ReadFile(secret); string(b) != "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n" {
		t.Errorf("the link's target changed: %q", b)
	}
	if entries, _ := os.ReadDir(project); len(entries) != 2 {
		t.Errorf("the project holds %v; want the two links alone", entries)
	}
}

// TestSetupProjectLinkIn: a project's AGENTS.md that is a link to another
// file of the project is edited there, and stays a link (issue 43, item
// 3: before, it became a copy that diverged from its target).
func TestSetupProjectLinkIn(t *testing.T) {
	setupHome(t)
	project := t.TempDir()
	writeFile(t, filepath.Join(project, "docs", "agents.md"), "# Agents\n", 0o644)
	if err := os.Symlink(filepath.Join("docs", "agents.md"), filepath.Join(project, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("AGENTS.md", filepath.Join(project, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	code, out := setupWithin(t, "--client", "codex", "--project", project)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, name := range []string{"AGENTS.md", "CLAUDE.md"} {
		if fi, err := os.Lstat(filepath.Join(project, name)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v %v", name, fi, err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(project, "docs", "agents.md"))
	if !strings.HasPrefix(string(b), "# Agents\n") || strings.Count(string(b), "<!-- zumba:begin") != 1 {
		t.Errorf("docs/agents.md holds:\n%s", b)
	}
	// A second run changes nothing.
	if code, out := setupWithin(t, "--client", "codex", "--project", project); code != 0 || strings.Count(out, "nothing changed") != 3 {
		t.Errorf("second run: exit %d:\n%s", code, out)
	}
}

// TestSetupConfigLink: a client's configuration file that is a link to a
// regular file of the user's (a dotfiles repository) is edited at its
// target and stays a link (issue 43, item 3).
func TestSetupConfigLink(t *testing.T) {
	home := setupHome(t)
	dotfiles := filepath.Join(t.TempDir(), "dotfiles")
	writeFile(t, filepath.Join(dotfiles, "claude.json"), "{\n  \"numStartups\": 1\n}\n", 0o600)
	link := filepath.Join(home, ".claude.json")
	if err := os.Symlink(filepath.Join(dotfiles, "claude.json"), link); err != nil {
		t.Fatal(err)
	}
	code, out := setupWithin(t, "--client", "claude", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("~/.claude.json is no longer a link: %v %v", fi, err)
	}
	b, _ := os.ReadFile(filepath.Join(dotfiles, "claude.json"))
	if !strings.Contains(string(b), `"zumba"`) || !strings.Contains(string(b), `"numStartups": 1`) {
		t.Errorf("the link's target holds:\n%s", b)
	}
	if fi, err := os.Stat(filepath.Join(dotfiles, "claude.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the target's mode: %v %v", fi, err)
	}
}

// TestSetupTooLarge: a configuration file over 16 MiB is named and left
// alone, unread (issue 43, items 11 and 15).
func TestSetupTooLarge(t *testing.T) {
	home := setupHome(t)
	path := filepath.Join(home, ".cursor", "mcp.json")
	big := "{\"pad\": \"" + strings.Repeat("x", 16<<20) + "\"}\n"
	writeFile(t, path, big, 0o644)
	code, out := setupWithin(t, "--client", "cursor", t.TempDir())
	if code != 1 || !strings.Contains(out, path+" is larger than 16 MiB") {
		t.Errorf("exit %d:\n%.300s", code, out)
	}
	if fi, _ := os.Stat(path); fi.Size() != int64(len(big)) {
		t.Errorf("the file changed: %d bytes", fi.Size())
	}
}

// TestSetupTOMLMultilineCommand: a Codex entry whose command is a
// multi-line string keeps every key after it (issue 43, item 13: env
// was deleted and setup said it had set the entry).
func TestSetupTOMLMultilineCommand(t *testing.T) {
	home := setupHome(t)
	path := filepath.Join(home, ".codex", "config.toml")
	for _, old := range []string{
		"[mcp_servers.zumba]\ncommand = \"\"\"\n/old/zumba\"\"\"\nargs = [\"mcp\", \".\"]\nenv = { SECRET = \"s3\" }\nstartup_timeout_sec = 20\n",
		"[mcp_servers.zumba]\ncommand = '''\n/old/zumba'''\nenv = { SECRET = \"s3\" }\nstartup_timeout_sec = 20\n",
		"[mcp_servers.zumba]\nnote = \"\"\"\ncommand = \"not a key\"\n\"\"\"\ncommand = \"/old/zumba\"\nenv = { SECRET = \"s3\" }\nstartup_timeout_sec = 20\n",
		"[mcp_servers.zumba]\ncommand = \"/old/zumba\"\nmatrix = [\n  [1, 2],\n  [3, 4],\n]\nenv = { SECRET = \"s3\" }\nstartup_timeout_sec = 20\n",
	} {
		writeFile(t, path, old, 0o600)
		project := t.TempDir()
		code, out := setupWithin(t, "--client", "codex", project)
		b, _ := os.ReadFile(path)
		if code != 0 {
			t.Errorf("exit %d:\n%s\n%s", code, out, b)
			continue
		}
		for _, want := range []string{"env = { SECRET = \"s3\" }\n", "startup_timeout_sec = 20\n", "args = [\"mcp\", \"" + project + "\"]"} {
			if !strings.Contains(string(b), want) {
				t.Errorf("from\n%s\nsetup wrote\n%s\nwhich lacks %q", old, b, want)
			}
		}
		if strings.Contains(old, "note") && !strings.Contains(string(b), "command = \"not a key\"\n") {
			t.Errorf("the string that looks like a key was changed:\n%s", b)
		}
		if strings.Contains(old, "matrix") && !strings.Contains(string(b), "matrix = [\n  [1, 2],\n  [3, 4],\n]\n") {
			t.Errorf("the array of arrays was changed:\n%s", b)
		}
	}
}

// TestSetupNonUTF8Project: a project path that is not UTF-8 cannot be
// written into a JSON or TOML file (it became another path, with
// U+FFFD); setup refuses it (issue 43, item 17).
func TestSetupNonUTF8Project(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a file name that is not UTF-8")
	}
	home := setupHome(t)
	project := filepath.Join(t.TempDir(), "caf\xe9")
	if err := os.Mkdir(project, 0o755); err != nil {
		t.Fatal(err)
	}
	code, out := setupWithin(t, "--client", "claude,codex", project)
	if code != 1 || strings.Count(out, "is not UTF-8") != 2 {
		t.Errorf("exit %d:\n%s", code, out)
	}
	for _, p := range []string{filepath.Join(home, ".claude.json"), filepath.Join(home, ".codex", "config.toml")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
}

// TestSetupDollarBrace: a project path holding "${" would be expanded by
// the clients that replace ${…} in their files (VS Code, Cursor, …) when
// they start the server: refused for them (issue 43, item 17).
func TestSetupDollarBrace(t *testing.T) {
	home := setupHome(t)
	project := filepath.Join(t.TempDir(), "${HOME}")
	if err := os.Mkdir(project, 0o755); err != nil {
		t.Fatal(err)
	}
	code, out := setupWithin(t, "--client", "vscode,cursor,codex", project)
	if code != 1 {
		t.Errorf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{"VS Code: the project path " + project + " holds \"${\"", "Cursor: the project path " + project + " holds \"${\"", "Codex: set"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(home, ".cursor", "mcp.json")); err == nil {
		t.Error("Cursor's file was written")
	}
}
