package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSetup runs zumba setup on a home folder with every client: a dry
// run writes nothing and shows each edit; a run writes them (a broken
// file named and left as it was, exit 1); a second run changes nothing.
func TestSetup(t *testing.T) {
	home := setupHome(t)
	configDir, err := os.UserConfigDir()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		filepath.Join(home, ".claude.json"):                            "{\n  \"mcpServers\": {}\n}\n",
		filepath.Join(home, ".codex", "config.toml"):                   "model = \"o4\"\n",
		filepath.Join(home, ".cursor", "mcp.json"):                     "{}",
		filepath.Join(configDir, "Code", "User", "mcp.json"):           "{\n\t// mine\n\t\"servers\": {},\n}\n",
		filepath.Join(home, ".gemini", "settings.json"):                "{\"theme\": \"dark\"}\n",
		filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"): "{broken\n",
	}
	for path, data := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	project := t.TempDir()
	unchanged := func() {
		t.Helper()
		for path, data := range files {
			if b, _ := os.ReadFile(path); string(b) != data {
				t.Errorf("%s changed: %q", path, b)
			}
		}
	}

	var out bytes.Buffer
	code := setup(&out, []string{"--dry-run", "--project", project})
	unchanged()
	if _, err := os.Stat(filepath.Join(project, "AGENTS.md")); err == nil {
		t.Error("a dry run wrote AGENTS.md")
	}
	for _, want := range []string{"Claude Code: would set", "Codex: would set", "Cursor: would set", "VS Code: would set", "Gemini CLI: would set", "+[mcp_servers.zumba]", "AGENTS.md: would set", "Windsurf: " + filepath.Join(home, ".codeium", "windsurf", "mcp_config.json") + " cannot be read", "Dry run: nothing was written."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("dry run says no %q:\n%s", want, out.String())
		}
	}
	if code != 1 {
		t.Errorf("dry run with a broken file: exit %d", code)
	}

	out.Reset()
	if code := setup(&out, []string{"--project", project}); code != 1 {
		t.Errorf("exit %d with a broken file:\n%s", code, out.String())
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".codeium", "windsurf", "mcp_config.json")); string(b) != "{broken\n" {
		t.Errorf("the broken file was changed: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".codex", "config.toml")); !strings.Contains(string(b), "args = [\"mcp\", \""+project+"\"]") {
		t.Errorf("codex: %s", b)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude.json") + ".zumba-backup"); err != nil {
		t.Errorf("no backup: %v", err)
	}

	out.Reset()
	setup(&out, []string{"--project", "--client", "claude,codex", "--client", "vscode", project})
	if got := strings.Count(out.String(), "nothing changed"); got != 4 {
		t.Errorf("second run: %d files unchanged, want 4 (3 clients, AGENTS.md):\n%s", got, out.String())
	}

	if code := setup(&out, []string{"--client", "emacs"}); code != 2 {
		t.Errorf("unknown client: exit %d", code)
	}
}

// TestServerFor: a zumba run from npx's cache is registered as npx and
// the package (the cache may be emptied); any other by its path.
func TestServerFor(t *testing.T) {
	npx := filepath.Join("/home/u/.npm/_npx/3b1e/node_modules/zumba-mcp-linux-x64/bin/zumba")
	if got := serverFor(npx); strings.Join(got, " ") != "npx -y zumba-mcp" {
		t.Errorf("serverFor(%s) = %q", npx, got)
	}
	if got := serverFor("/usr/local/bin/zumba"); len(got) != 1 || got[0] != "/usr/local/bin/zumba" {
		t.Errorf("serverFor(/usr/local/bin/zumba) = %q", got)
	}
}

// TestSetupReadOnly: a client's read-only file is named and left as it
// is, with no backup beside it; the exit code is 1.
func TestSetupReadOnly(t *testing.T) {
	home := setupHome(t)
	path := filepath.Join(home, ".cursor", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	const old = "{\"mcpServers\": {\"a\": {\"command\": \"a\"}}}\n"
	if err := os.WriteFile(path, []byte(old), 0o444); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if code := setup(&out, []string{"--client", "cursor", t.TempDir()}); code != 1 || !strings.Contains(out.String(), path+" is read-only") {
		t.Errorf("exit %d:\n%s", code, out.String())
	}
	if b, _ := os.ReadFile(path); string(b) != old {
		t.Errorf("the read-only file is now %q", b)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("beside it: %v", entries)
	}
}
