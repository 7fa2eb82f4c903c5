package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/zumba-dev/zumba/search"
)

// TestReferenceCases runs testdata/refs/*.txtar: each archive holds a
// project's files and "$ refs NAME [--group definition] [--code] [--path
// GLOBS] [--depth N] [--limit N]" sections with find_references' answer, which must be the same
// without an index, before the index is ready, and from a complete index.
// A comment line "> repeat FILE N TEXT" writes N lines of TEXT (%d: the
// line's number). -update rewrites the answers.
func TestReferenceCases(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../testdata/refs/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases in testdata/refs: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			for _, f := range ar.Files {
				if !strings.HasPrefix(f.Name, "$ ") {
					writeFiles(t, dir, map[string]string{f.Name: string(f.Data)})
				}
			}
			for _, line := range strings.Split(string(ar.Comment), "\n") {
				rest, ok := strings.CutPrefix(line, "> repeat ")
				if !ok {
					continue
				}
				f := strings.SplitN(rest, " ", 3)
				n, _ := strconv.Atoi(f[1])
				var sb strings.Builder
				for i := 1; i <= n; i++ {
					sb.WriteString(strings.ReplaceAll(f[2], "%d", strconv.Itoa(i)) + "\n")
				}
				writeFiles(t, dir, map[string]string{f[0]: sb.String()})
			}
			root, err := openRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			// Answers must not depend on the machine's load.
			root.SiteTimeLimit, root.CountTimeLimit = time.Hour, time.Hour
			ctx := context.Background()
			direct := New(Config{Root: root})
			// Before its word index is built, an index answers as the
			// direct search does.
			early := New(Config{Root: root})
			earlyIndex := search.NewIndex(root, search.IndexOptions{CacheFile: "-", NoWatch: true})
			defer earlyIndex.Close()
			early.search.Store(&searcherBox{earlyIndex})
			indexed := New(Config{Root: root})
			ix := search.NewIndex(root, search.IndexOptions{CacheFile: "-", NoWatch: true})
			defer ix.Close()
			ix.Build(ctx)
			indexed.search.Store(&searcherBox{ix})
			changed := false
			for i := range ar.Files {
				f := &ar.Files[i]
				cmdline, ok := strings.CutPrefix(f.Name, "$ refs ")
				if !ok {
					continue
				}
				raw := refsArgs(t, cmdline)
				got := callText(ctx, direct, raw)
				for which, s := range map[string]*Server{"an index not yet built": early, "a complete index": indexed} {
					if other := callText(ctx, s, raw); other != got {
						t.Errorf("refs %s: with %s (-without +with)\n%s", cmdline, which, cmp.Diff(got, other))
					}
				}
				if got == string(f.Data) {
					continue
				}
				if *update {
					f.Data, changed = []byte(got), true
					continue
				}
				t.Errorf("refs %s (-want +got)\n%s", cmdline, cmp.Diff(string(f.Data), got))
			}
			if changed {
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// refsArgs turns "NAME [--group G] [--code] [--path P] [--depth N] [--limit N]" into
// arguments.
func refsArgs(t *testing.T, cmdline string) json.RawMessage {
	fields := strings.Fields(cmdline)
	args := map[string]any{"name": fields[0]}
	for i := 1; i < len(fields); i++ {
		switch fields[i] {
		case "--code":
			args["code"] = true
		case "--group", "--path":
			if i+1 == len(fields) {
				t.Fatalf("%s needs a value: %s", fields[i], cmdline)
			}
			args[strings.TrimPrefix(fields[i], "--")] = fields[i+1]
			i++
		case "--depth", "--limit":
			if i+1 == len(fields) {
				t.Fatalf("%s needs a value: %s", fields[i], cmdline)
			}
			n, err := strconv.Atoi(fields[i+1])
			if err != nil {
				t.Fatalf("%s takes a number: %s", fields[i], cmdline)
			}
			args[strings.TrimPrefix(fields[i], "--")] = n
			i++
		default:
			t.Fatalf("unknown flag %s in %s", fields[i], cmdline)
		}
	}
	raw, _ := json.Marshal(args)
	return raw
}

func callText(ctx context.Context, s *Server, raw json.RawMessage) string {
	text, isError := s.Call(ctx, "find_references", raw)
	if isError {
		text = "error: " + text
	}
	return text + "\n"
}

// TestReferenceOptionArgs: the options' arguments are checked, "false"
// and false are the default answer, and the schema says what they take.
func TestReferenceOptionArgs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.go": "package a\n\n// f is here\nfunc f() { f() }\n"})
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Root: root})
	ctx := context.Background()
	plain, _ := s.Call(ctx, "find_references", json.RawMessage(`{"name":"f"}`))
	tests := []struct {
		args    string
		want    string
		isError bool
	}{
		{`{"name":"f","code":false}`, plain, false},
		{`{"name":"f","code":"false"}`, plain, false},
		{`{"name":"f","group":""}`, plain, false},
		{`{"name":"f","code":true}`, "1 code hit in 1 file\na.go:4: func f() { f() }", false},
		{`{"name":"f","code":"true"}`, "1 code hit in 1 file\na.go:4: func f() { f() }", false},
		{`{"name":"f","limit":1}`, "2 hits in 1 file\na.go:3: // f is here\n… 1 more hit in 1 file; narrow it with path", false},
		{`{"name":"f","limit":"80"}`, "2 hits in 1 file\na.go:3: // f is here\na.go:4: func f() { f() }", false},
		{`{"name":"f","limit":0}`, `find_references: argument "limit" must be an integer from 1 to 80`, true},
		{`{"name":"f","limit":81}`, `find_references: argument "limit" must be an integer from 1 to 80`, true},
		{`{"name":"f","path":"!a.go"}`, "No references to f in files matching !a.go.", false},
		{`{"name":"f","code":"yes"}`, `find_references: argument "code" must be true or false`, true},
		{`{"name":"f","code":1}`, `find_references: argument "code" must be true or false`, true},
		{`{"name":"f","group":"file"}`, `find_references: argument "group" must be "definition"`, true},
		{`{"name":"f","group":true}`, `find_references: argument "group" must be a string`, true},
		{`{"name":" ","code":true}`, `find_references: name is empty`, true},
		{`{"name":"f","depth":1}`, plain, false},
		{`{"name":"f","depth":"1"}`, plain, false},
		{`{"name":"f","depth":2}`, "No code references to f outside its own definitions.", false},
		{`{"name":"f","depth":"3"}`, "No code references to f outside its own definitions.", false},
		{`{"name":"f","depth":0}`, `find_references: argument "depth" must be an integer from 1 to 3`, true},
		{`{"name":"f","depth":4}`, `find_references: argument "depth" must be an integer from 1 to 3`, true},
		{`{"name":"f","depth":1.5}`, `find_references: argument "depth" must be an integer from 1 to 3`, true},
		{`{"name":"f","depth":"two"}`, `find_references: argument "depth" must be an integer from 1 to 3`, true},
		{`{"name":"f","code":true,"path":"[x"}`, `invalid glob "[x" in path: check its brackets and braces`, true},
	}
	for _, tt := range tests {
		got, isError := s.Call(ctx, "find_references", json.RawMessage(tt.args))
		if got != tt.want || isError != tt.isError {
			t.Errorf("find_references %s = %q, %v; want %q, %v", tt.args, got, isError, tt.want, tt.isError)
		}
	}
	schema := findReferencesTool.schema()["properties"].(map[string]any)
	if got := schema["code"].(map[string]any)["type"]; got != "boolean" {
		t.Errorf("code's type is %v; want boolean", got)
	}
	if got := schema["group"].(map[string]any)["enum"]; !cmp.Equal(got, []string{"definition"}) {
		t.Errorf("group's enum is %v; want [definition]", got)
	}
	if got := schema["depth"].(map[string]any); got["type"] != "integer" || got["minimum"] != 1 || got["maximum"] != 3 {
		t.Errorf("depth's schema is %v; want an integer from 1 to 3", got)
	}
	if got := schema["limit"].(map[string]any); got["type"] != "integer" || got["minimum"] != 1 || got["maximum"] != 80 {
		t.Errorf("limit's schema is %v; want an integer from 1 to 80", got)
	}
	if len(tools) > 8 {
		t.Errorf("%d tools; a strict client shows at most 8", len(tools))
	}
}
