package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/tools/txtar"
)

// FuzzHandleLine feeds one line to a server: a line gets no reply or
// exactly one reply, always a whole JSON-RPC response, with the line's id
// when the line is a request. It never panics or hangs.
func FuzzHandleLine(f *testing.F) {
	files, _ := filepath.Glob("../testdata/mcp/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, af := range ar.Files {
			if af.Name == "client" {
				for _, l := range bytes.Split(af.Data, []byte("\n")) {
					f.Add(l)
				}
			}
		}
	}
	for _, l := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"outline","arguments":{"path":"src/lib.rs"}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"outline","arguments":{"path":"link/../a.go"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_panic","arguments":{}}}`,
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"a\":\"\xff\"}}",
		`{"jsonrpc":"2.0","id":1e999,"method":"ping"}`,
	} {
		f.Add([]byte(l))
	}
	s := newTestServer(f, map[string]string{
		"a.go":       "package a\n\nfunc A() {}\n",
		"src/lib.rs": "pub struct S;\nimpl S { fn f(&self) {} }\n",
		"doc.md":     "# T\n\n## U\n",
	})
	s.log.SetOutput(io.Discard) // f.Logf may not be called inside the target
	// Keep the panicking tool; the fuzzer would find the ones that wait.
	delete(s.tools, "test_block")
	delete(s.tools, "test_sleep")
	f.Fuzz(func(t *testing.T, line []byte) {
		line = bytes.ReplaceAll(line, []byte("\n"), []byte(" "))
		var out bytes.Buffer
		if err := s.Serve(context.Background(), bytes.NewReader(line), &out); err != nil {
			t.Fatalf("Serve = %v", err)
		}
		if !utf8.Valid(out.Bytes()) {
			t.Fatalf("output is not UTF-8: %q", out.Bytes())
		}
		replies := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if out.Len() == 0 {
			replies = nil
		}
		if len(replies) > 1 {
			t.Fatalf("%d replies to one line: %q", len(replies), replies)
		}
		if len(replies) == 1 {
			if err := checkResponse(replies[0]); err != nil {
				t.Fatalf("reply %q: %v", replies[0], err)
			}
		}
		// An independent reading of the line: a well-formed request must get
		// exactly one reply with its id; a notification none.
		var m map[string]any
		d := json.NewDecoder(bytes.NewReader(bytes.TrimSpace(line)))
		d.UseNumber()
		if !utf8.Valid(line) || !json.Valid(bytes.TrimSpace(line)) || d.Decode(&m) != nil || m["jsonrpc"] != "2.0" {
			return
		}
		method, ok := m["method"].(string)
		if !ok || method == "" {
			return
		}
		if p, ok := m["params"]; ok && p != nil {
			switch p.(type) {
			case map[string]any, []any:
			default:
				return
			}
		}
		id, hasID := m["id"]
		switch id.(type) {
		case string, json.Number, nil:
		default:
			return
		}
		if !hasID {
			if len(replies) != 0 {
				t.Fatalf("notification %q answered %q", line, replies)
			}
			return
		}
		if len(replies) != 1 {
			t.Fatalf("request %q got no reply", line)
		}
		var r struct {
			ID any `json:"id"`
		}
		rd := json.NewDecoder(strings.NewReader(replies[0]))
		rd.UseNumber()
		if err := rd.Decode(&r); err != nil {
			t.Fatal(err)
		}
		if r.ID != id {
			t.Fatalf("request id %v answered with id %v", id, r.ID)
		}
	})
}
