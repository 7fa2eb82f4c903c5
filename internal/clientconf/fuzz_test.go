package clientconf

import (
	"reflect"
	"testing"
)

// FuzzEditTOML: whatever a TOML file holds, editTOML either refuses it or
// writes a file that reads back with zumba's command and args and
// nothing else changed (editTOML checks the latter itself); it never
// panics.
func FuzzEditTOML(f *testing.F) {
	for _, c := range fixtures["codex"] {
		f.Add(c)
	}
	f.Add("[mcp_servers.zumba]\ncommand = \"\"\"\n/old\"\"\"\nenv = { SECRET = \"s\" }\n")
	f.Add("a.b = [[1], {x = '''}'''}]\n[mcp_servers.zumba]\nargs = [\n# c\n]\n")
	f.Fuzz(func(t *testing.T, in string) {
		out, changed, err := editTOML([]byte(in), "zumba", "/z", []string{"mcp", "."})
		if err != nil || !changed {
			return
		}
		_, entry, err := tomlEntry(out, "zumba")
		if err != nil || entry["command"] != "/z" || !reflect.DeepEqual(entry["args"], []any{"mcp", "."}) {
			t.Errorf("editTOML(%q) = %q: entry %v, %v", in, out, entry, err)
		}
	})
}

// FuzzEditJSON: the same for JSON with comments.
func FuzzEditJSON(f *testing.F) {
	for _, name := range []string{"claude", "vscode", "opencode", "gemini"} {
		for _, c := range fixtures[name] {
			f.Add(c)
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, changed, err := editJSON([]byte(in), []string{"mcp"}, "servers", "zumba", localCommand("/z", []string{"mcp", "."}))
		if err != nil || !changed {
			return
		}
		n, err := parseJSONC(out)
		if err != nil {
			t.Fatalf("editJSON(%q) = %q, which does not parse: %v", in, out, err)
		}
		m, _ := n.plain(out).(map[string]any)["mcp"].(map[string]any)
		if s, ok := m["servers"].(map[string]any); ok && !isServerMap(s) {
			m = s
		}
		e, _ := m["zumba"].(map[string]any)
		if !reflect.DeepEqual(e["command"], []any{"/z", "mcp", "."}) {
			t.Errorf("editJSON(%q) = %q: entry %v", in, out, e)
		}
	})
}
