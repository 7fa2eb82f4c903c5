package clientconf

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// fixtures are the files a client may already have: none, one with other
// servers, comments and settings, one with an older zumba entry (and a
// setting of the user's in it), and one that does not parse.
var fixtures = map[string]map[string]string{
	"claude": {
		"others": "{\n  \"numStartups\": 3,\n  \"mcpServers\": {\n    \"other\": {\n      \"type\": \"stdio\",\n      \"command\": \"other-server\",\n      \"args\": []\n    }\n  },\n  \"projects\": {}\n}\n",
		"older":  "{\n  \"mcpServers\": {\n    \"zumba\": {\n      \"type\": \"stdio\",\n      \"command\": \"/old/zumba\",\n      \"args\": [\"mcp\", \".\"],\n      \"env\": {\"GOMEMLIMIT\": \"1GiB\"}\n    }\n  }\n}\n",
		"broken": "{\"mcpServers\": {\n",
	},
	"codex": {
		"others": "# my settings\nmodel = \"o4\"\n\n[mcp_servers.other]\ncommand = \"other\"\nargs = [\"x\"] # keep this\n\n[profiles.fast]\nmodel = \"o4-mini\"\n",
		"older":  "[mcp_servers.zumba]\ncommand = \"/old/zumba\" # where it was\nargs = [\n  \"mcp\",\n  \"/old/project\",\n]\nenv = { GOMEMLIMIT = \"1GiB\" }\n\n[other]\nx = 1\n",
		"broken": "[mcp_servers.zumba\ncommand = 1\n",
	},
	"cursor": {
		"others": "{\"mcpServers\": {\"a\": {\"command\": \"a\"}}}",
		"older":  "{\n  \"mcpServers\": {\n    \"zumba\": {\"command\": \"/old/zumba\", \"args\": [\"mcp\"]}\n  }\n}\n",
		"broken": "not json",
	},
	"vscode": {
		"others": "{\n\t// my servers\n\t\"servers\": {\n\t\t\"gh\": {\"type\": \"http\", \"url\": \"https://example.com/mcp\"}, // github\n\t},\n\t/* inputs */\n\t\"inputs\": [],\n}\n",
		"older":  "{\n\t\"servers\": {\n\t\t\"zumba\": {\n\t\t\t\"type\": \"stdio\",\n\t\t\t\"command\": \"/old/zumba\",\n\t\t\t\"args\": [\"mcp\", \"${workspaceFolder}\"], // mine\n\t\t},\n\t},\n}\n",
		"broken": "{\n\t\"servers\": {,}\n}\n",
	},
	"gemini": {
		"others": "{ \"theme\": \"dark\" }",
		"older":  "{\"mcpServers\": {\"zumba\": {\"command\": \"/old/zumba\", \"args\": [\"mcp\", \".\"], \"trust\": true}}}\n",
		"broken": "{\"theme\": }",
	},
	"opencode": {
		"others": "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  // servers\n  \"mcp\": {\n    \"gh\": {\"type\": \"remote\", \"url\": \"https://example.com/mcp\", \"enabled\": true},\n  },\n  \"theme\": \"opencode\",\n}\n",
		"older":  "{\n  \"mcp\": {\n    \"zumba\": {\n      \"type\": \"local\",\n      \"command\": [\"/old/zumba\", \"mcp\", \".\"],\n      \"enabled\": false,\n      \"environment\": {\"GOMEMLIMIT\": \"1GiB\"}\n    }\n  }\n}\n",
		"broken": "{\n  \"mcp\": {\n    \"zumba\": {\"type\": \"local\",,}\n  }\n}\n",
	},
	"windsurf": {
		"others": "{\n    \"mcpServers\": {}\n}\n",
		"older":  "{\n    \"mcpServers\": {\n        \"zumba\": {\n            \"command\": \"/old/zumba\",\n            \"args\": [\"mcp\", \"/old/project\"]\n        }\n    }\n}\n",
		"broken": "{\"mcpServers\": []}",
	},
}

// userSetting is the setting of its own the user gave zumba's entry in
// the "older" fixture, which setup keeps.
var userSetting = map[string]string{"claude": "env", "codex": "env", "gemini": "trust", "opencode": "environment"}

// TestPlan sets zumba up for every client in every fixture: the result
// reads back (as the client's format) with zumba's entry, keeps every
// line of the old file that is not zumba's, keeps the user's own settings
// of the entry, and a second run changes nothing; a broken file is an
// error naming it.
func TestPlan(t *testing.T) {
	const command = "/usr/local/bin/zumba"
	for _, c := range Clients("/home/u", "/home/u/.config", "/home/u/.config") {
		if c.Program != "" {
			continue
		}
		for _, state := range []string{"none", "others", "older", "broken"} {
			t.Run(c.Name+"/"+state, func(t *testing.T) {
				home := t.TempDir()
				c := clientIn(t, c.Name, home)
				old, known := fixtures[c.Name][state]
				if known {
					if err := os.MkdirAll(filepath.Dir(c.Path), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(c.Path, []byte(old), 0o600); err != nil {
						t.Fatal(err)
					}
				}
				e, err := Plan(c, []string{command}, "/src/project")
				if state == "broken" {
					if err == nil || !strings.Contains(err.Error(), c.Path) {
						t.Fatalf("Plan of a broken file: %v; want an error naming %s", err, c.Path)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if !e.Changed {
					t.Fatal("nothing changed")
				}
				entry := readEntry(t, c, e.New)
				if c.Name == "opencode" {
					if !reflect.DeepEqual(entry["command"], []any{command, "mcp", "/src/project"}) || entry["type"] != "local" || entry["enabled"] != true {
						t.Errorf("entry %v", entry)
					}
				} else if entry["command"] != command || !reflect.DeepEqual(entry["args"], []any{"mcp", "/src/project"}) {
					t.Errorf("entry %v", entry)
				}
				if (c.Name == "claude" || c.Name == "vscode") && entry["type"] != "stdio" {
					t.Errorf("entry %v has no type stdio", entry)
				}
				if own := userSetting[c.Name]; state == "older" && own != "" && entry[own] == nil {
					t.Errorf("the user's own setting %s of the entry is gone: %v", own, entry)
				}
				if state == "others" {
					keptLines(t, old, string(e.New))
					if got, want := withoutZumba(t, c, e.New), withoutZumba(t, c, []byte(old)); !reflect.DeepEqual(got, want) {
						t.Errorf("the other settings changed: %v, were %v", got, want)
					}
				}
				var v any
				if !c.toml && c.Name != "vscode" && c.Name != "opencode" && json.Unmarshal(e.New, &v) != nil {
					t.Errorf("a plain JSON file is no longer plain JSON:\n%s", e.New)
				}
				// Applied, a second run changes nothing.
				if _, err := e.File.Write(e.New); err != nil {
					t.Fatal(err)
				}
				again, err := Plan(c, []string{command}, "/src/project")
				if err != nil || again.Changed {
					t.Errorf("second run: changed %v, %v:\n%s", again.Changed, err, Diff(c.Path, again.File.Data, again.New))
				}
			})
		}
	}
}

// clientIn is the client called name with its files under home.
func clientIn(t *testing.T, name, home string) Client {
	for _, c := range Clients(home, filepath.Join(home, ".config"), filepath.Join(home, ".config")) {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no client %s", name)
	return Client{}
}

// withoutZumba is the whole file as the client reads it, zumba's entry
// left out (and a servers object it leaves empty).
func withoutZumba(t *testing.T, c Client, data []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	if c.toml {
		if _, err := toml.Decode(string(data), &doc); err != nil {
			t.Fatal(err)
		}
	} else {
		n, err := parseJSONC(data)
		if err != nil {
			t.Fatal(err)
		}
		doc = n.plain(data).(map[string]any)
	}
	key := "mcp_servers"
	if !c.toml {
		key = c.key[0]
	}
	if servers, ok := doc[key].(map[string]any); ok {
		delete(servers, "zumba")
		if len(servers) == 0 {
			delete(doc, key)
		}
	}
	return doc
}

// readEntry reads zumba's entry from a client's file as the client would.
func readEntry(t *testing.T, c Client, data []byte) map[string]any {
	t.Helper()
	if c.toml {
		var doc map[string]any
		if _, err := toml.Decode(string(data), &doc); err != nil {
			t.Fatalf("not TOML: %v\n%s", err, data)
		}
		e, _ := doc["mcp_servers"].(map[string]any)["zumba"].(map[string]any)
		return e
	}
	n, err := parseJSONC(data)
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	m := n.plain(data).(map[string]any)
	for _, k := range c.key {
		m, _ = m[k].(map[string]any)
	}
	if in, ok := m[c.inner].(map[string]any); ok && c.inner != "" && !isServerMap(in) {
		m = in
	}
	e, _ := m["zumba"].(map[string]any)
	return e
}

// keptLines fails unless new is old with text inserted (every byte of old
// is in new, in order: nothing was deleted).
func keptLines(t *testing.T, old, new string) {
	t.Helper()
	j := 0
	for i := 0; i < len(old); i++ {
		for j < len(new) && new[j] != old[i] {
			j++
		}
		if j == len(new) {
			t.Errorf("the old file's text from %q on is not kept:\n%s", old[i:], new)
			return
		}
		j++
	}
}

// TestEditTOMLForms: the forms a TOML value may take around zumba's
// command and args (multi-line and literal strings, quoted keys, arrays
// over lines, comments, CRLF) are edited in place, and every other key
// is kept (issue 43, item 13: a multi-line command deleted the keys
// after it).
func TestEditTOMLForms(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"multi-line basic",
			"[mcp_servers.zumba]\ncommand = \"\"\"\n/old\"\"\"\nenv = { SECRET = \"s\" }\n",
			"[mcp_servers.zumba]\nargs = [\"mcp\", \".\"]\ncommand = \"/z\"\nenv = { SECRET = \"s\" }\n"},
		{"multi-line literal, quotes at its end",
			"[mcp_servers.zumba]\ncommand = '''/old'''''\nargs = []\nx = 1\n",
			"[mcp_servers.zumba]\ncommand = \"/z\"\nargs = [\"mcp\", \".\"]\nx = 1\n"},
		{"escaped quotes",
			"[mcp_servers.zumba]\ncommand = \"\"\"a\\\"\"\"\"\"\nargs = [\"\\\"]\"] # c\nx = 1\n",
			"[mcp_servers.zumba]\ncommand = \"/z\"\nargs = [\"mcp\", \".\"] # c\nx = 1\n"},
		{"quoted keys and header",
			"[ mcp_servers . \"zumba\" ]\n\"command\" = 'x'\n'args' = ['a']\n",
			"[ mcp_servers . \"zumba\" ]\n\"command\" = \"/z\"\n'args' = [\"mcp\", \".\"]\n"},
		{"array over lines with comments and nested arrays",
			"[mcp_servers.zumba]\nargs = [\n  \"mcp\", # the command\n  \".]\",\n]\nm = [[1], [2]]\ncommand = \"/old\"\n[next]\ny = [\n[3],\n]\n",
			"[mcp_servers.zumba]\nargs = [\"mcp\", \".\"]\nm = [[1], [2]]\ncommand = \"/z\"\n[next]\ny = [\n[3],\n]\n"},
		{"CRLF",
			"[mcp_servers.zumba]\r\ncommand = \"/old\"\r\nargs = []\r\nx = 1\r\n",
			"[mcp_servers.zumba]\r\ncommand = \"/z\"\r\nargs = [\"mcp\", \".\"]\r\nx = 1\r\n"},
		{"inline table over a brace in a string",
			"[mcp_servers.zumba]\nenv = { A = \"}\", B = { C = 'x' } }\ncommand = \"/old\"\n",
			"[mcp_servers.zumba]\nargs = [\"mcp\", \".\"]\nenv = { A = \"}\", B = { C = 'x' } }\ncommand = \"/z\"\n"},
		{"header at the end of the file",
			"x = 1\n[mcp_servers.zumba]",
			"x = 1\n[mcp_servers.zumba]\ncommand = \"/z\"\nargs = [\"mcp\", \".\"]\n"},
		{"a sub-table after it",
			"[mcp_servers.zumba]\ncommand = \"/old\"\n[mcp_servers.zumba.env]\ncommand = \"not zumba's\"\n",
			"[mcp_servers.zumba]\nargs = [\"mcp\", \".\"]\ncommand = \"/z\"\n[mcp_servers.zumba.env]\ncommand = \"not zumba's\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := tomlEntry([]byte(tc.in), "zumba"); err != nil {
				t.Fatalf("the input is not TOML: %v", err)
			}
			out, changed, err := editTOML([]byte(tc.in), "zumba", "/z", []string{"mcp", "."})
			if err != nil || !changed || string(out) != tc.want {
				t.Errorf("editTOML(%q) = %q, %v, %v; want %q", tc.in, out, changed, err, tc.want)
			}
		})
	}
	// Forms zumba does not edit in place: refused, not damaged.
	for _, in := range []string{
		"mcp_servers = { zumba = { command = \"/old\", args = [] } }\n",
		"[mcp_servers]\nzumba.command = \"/old\"\n",
		"[mcp_servers]\nzumba = { command = \"/old\" }\n",
		"mcp_servers = { other = { command = \"x\" } }\n",
	} {
		if out, _, err := editTOML([]byte(in), "zumba", "/z", []string{"mcp"}); err == nil {
			t.Errorf("editTOML(%q) = %q; want a refusal", in, out)
		}
	}
}
