package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSetupOpenCode: OpenCode's global file, opencode.jsonc when there is
// one (with its comments), else opencode.json (made when missing, with
// OpenCode's $schema); the entry under mcp, or mcp.servers where the
// file keeps its servers there; the project "." without DIR; a dry run,
// a second run and a broken file as for the other clients.
func TestSetupOpenCode(t *testing.T) {
	self, err := os.Executable()
	if err == nil {
		self, err = filepath.EvalSymlinks(self)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file, old string
		want            []string // in the new file
	}{
		{"new", "opencode.json", "",
			[]string{"\"$schema\": \"https://opencode.ai/config.json\",\n  \"mcp\": {\n    \"zumba\": {\n      \"type\": \"local\",\n      \"command\": [\n        \"" + self + "\",\n        \"mcp\",\n        \".\"\n      ],\n      \"enabled\": true\n    }\n  }\n}\n"}},
		{"jsonc", "opencode.jsonc",
			"{\n  // my servers\n  \"mcp\": {\n    \"gh\": {\"type\": \"remote\", \"url\": \"https://example.com/mcp\"}, // github\n  },\n  /* theme */ \"theme\": \"opencode\",\n}\n",
			[]string{"  // my servers\n", "// github\n", "/* theme */ \"theme\": \"opencode\",\n", "\"zumba\": {"}},
		{"mcp.servers", "opencode.json",
			"{\n  \"mcp\": {\n    \"servers\": {\n      \"gh\": {\"type\": \"remote\", \"url\": \"https://example.com/mcp\"}\n    }\n  }\n}\n",
			[]string{"\"servers\": {\n      \"gh\": {\"type\": \"remote\", \"url\": \"https://example.com/mcp\"},\n      \"zumba\": {\n        \"type\": \"local\","}},
		{"older", "opencode.json",
			"{\"mcp\": {\"zumba\": {\"type\": \"local\", \"command\": [\"/old/zumba\", \"mcp\", \"/old\"], \"enabled\": false, \"environment\": {\"A\": \"1\"}}}}\n",
			[]string{"\"enabled\": true, \"environment\": {\"A\": \"1\"}}}}\n", "\"command\": [\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := setupHome(t)
			dir := filepath.Join(home, ".config", "opencode")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, tc.file)
			if tc.old != "" {
				writeFile(t, path, tc.old, 0o644)
			}
			if code, out := setupWithin(t, "--dry-run"); code != 0 || !strings.Contains(out, "OpenCode: would set the server zumba (mcp .) in "+path+":\n") {
				t.Errorf("dry run: exit %d:\n%s", code, out)
			}
			if b, _ := os.ReadFile(path); string(b) != tc.old {
				t.Fatalf("a dry run wrote %s", path)
			}
			code, out := setupWithin(t)
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, out)
			}
			b, _ := os.ReadFile(path)
			for _, w := range tc.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("%s lacks %q:\n%s", tc.file, w, b)
				}
			}
			if tc.old != "" {
				if bk, _ := os.ReadFile(path + ".zumba-backup"); string(bk) != tc.old {
					t.Errorf("backup: %q", bk)
				}
			}
			if code, out := setupWithin(t, "--client", "opencode"); code != 0 || !strings.Contains(out, "nothing changed") {
				t.Errorf("second run: exit %d:\n%s", code, out)
			}
		})
	}

	t.Run("broken", func(t *testing.T) {
		home := setupHome(t)
		path := filepath.Join(home, ".config", "opencode", "opencode.jsonc")
		writeFile(t, path, "{\"mcp\": {,}}\n", 0o644)
		code, out := setupWithin(t, "--client", "opencode")
		if code != 1 || !strings.Contains(out, "OpenCode: "+path+" cannot be read: ") {
			t.Errorf("exit %d:\n%s", code, out)
		}
		if b, _ := os.ReadFile(path); string(b) != "{\"mcp\": {,}}\n" {
			t.Errorf("the broken file changed: %q", b)
		}
	})

	t.Run("variables", func(t *testing.T) {
		home := setupHome(t)
		project := filepath.Join(t.TempDir(), "{env:HOME}")
		if err := os.Mkdir(project, 0o755); err != nil {
			t.Fatal(err)
		}
		code, out := setupWithin(t, "--client", "opencode", project)
		if code != 1 || !strings.Contains(out, "OpenCode: the project path "+project+" holds \"{env:\", which OpenCode would replace") {
			t.Errorf("exit %d:\n%s", code, out)
		}
		if _, err := os.Stat(filepath.Join(home, ".config", "opencode")); err == nil {
			t.Error("OpenCode's folder was made")
		}
	})
}

// TestSetupAnotherWriter: a client's file changed by another program
// between setup's read and its write keeps that change: setup reads it
// again and edits the new file; a file that keeps changing is left as
// the other program wrote it, and named (issue 43, item 12).
func TestSetupAnotherWriter(t *testing.T) {
	home := setupHome(t)
	path := filepath.Join(home, ".claude.json")
	writeFile(t, path, "{}\n", 0o600)
	writes := 0
	testBeforeWrite = func(p string) {
		if p == path && writes < 1 {
			writes++
			writeFile(t, path, "{\"numStartups\": 7}\n", 0o600)
		}
	}
	defer func() { testBeforeWrite = nil }()
	code, out := setupWithin(t, "--client", "claude")
	b, _ := os.ReadFile(path)
	if code != 0 || !strings.Contains(string(b), `"numStartups": 7`) || !strings.Contains(string(b), `"zumba"`) {
		t.Errorf("exit %d:\n%s\nthe file:\n%s", code, out, b)
	}

	writeFile(t, path, "{}\n", 0o600)
	n := 0
	testBeforeWrite = func(p string) {
		n++
		writeFile(t, path, strings.Repeat(" ", n)+"{}\n", 0o600)
	}
	code, out = setupWithin(t, "--client", "claude")
	if code != 1 || !strings.Contains(out, "changed by another program") || n != 3 {
		t.Errorf("exit %d after %d tries:\n%s", code, n, out)
	}
	if b, _ := os.ReadFile(path); string(b) != "   {}\n" {
		t.Errorf("the other program's last write is now %q", b)
	}
}
