package mcpserver

import "testing"

// TestFindSymbolOnlyInTests: when every exact match is in a test file,
// the own code's names containing the name come after them, under their
// own heading (issue 26, item 1); an exact match in own code leaves the
// answer as it was.
func TestFindSymbolOnlyInTests(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"srv/server.go":      "package srv\n\nfunc ServeHTTPRequest() {}\n",
		"srv/server_test.go": "package srv\n\nconst ServeHTTP = \"x\"\n",
		"src/parse.ts":       "export function parseOptions() {}\n",
		"src/parse.spec.ts":  "const parse = 1;\n",
		"pkg/conf.py":        "def load_config():\n    pass\n",
		"tests/test_conf.py": "def load():\n    pass\n",
		"pkg/own.py":         "def own():\n    pass\n",
		"tests/test_own.py":  "def own_case():\n    pass\n",
	})
	for _, indexed := range []bool{false, true} {
		c := startTestServer(t, dir, indexed)
		for _, tc := range []struct{ name, want string }{
			{"ServeHTTP", "srv/server_test.go:3 const — const ServeHTTP = \"x\"\n" + symbolOutsideTests + "\nsrv/server.go:3 function — func ServeHTTPRequest() {}"},
			{"parse", "src/parse.spec.ts:1 const — const parse = 1;\n" + symbolOutsideTests + "\nsrc/parse.ts:1 function — export function parseOptions() {}"},
			{"load", "tests/test_conf.py:1 function — def load():\n" + symbolOutsideTests + "\npkg/conf.py:1 function — def load_config():"},
			{"own", "pkg/own.py:1 function — def own():"},
		} {
			if got, isError := c.tool("find_symbol", map[string]any{"name": tc.name}); isError || got != tc.want {
				t.Errorf("indexed %v: find_symbol %s = %q, %v; want %q", indexed, tc.name, got, isError, tc.want)
			}
		}
	}
}
