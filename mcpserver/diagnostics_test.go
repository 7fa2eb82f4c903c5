package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/zumba-dev/zumba/internal/diagfile"
	"github.com/zumba-dev/zumba/internal/fixture"
)

var update = flag.Bool("update", false, "rewrite the expected answers of the testdata cases (diagnostics, outline, refs, read_symbol)")

const diagCorpus = "../testdata/diagnostics"

// Times the corpus gives its files: project files were saved before the
// editor wrote its diagnostics file, except the ones a case marks stale.
var (
	savedAt   = time.Now().Add(-time.Hour)
	writtenAt = time.Now().Add(-30 * time.Minute)
	staleAt   = time.Now().Add(-10 * time.Minute)
)

// TestDiagnosticsCorpus runs every case of testdata/diagnostics/*.txtar.
// In an archive, "diagnostics.json" is the editor's file (written outside
// the project), "want" the answer without arguments and "want path=P" the
// answer for path P; every other file is a project file. In the file and
// in P, $PROJECT is the project folder and $OUTSIDE a folder beside it.
// Comment lines "stale: P" mark project files saved after the diagnostics
// file; "convert: govet" means the diagnostics file is `go vet -json`
// output, converted with vetToFlat.
func TestDiagnosticsCorpus(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join(diagCorpus, "*.txtar"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases in %s: %v", diagCorpus, err)
	}
	for _, file := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			tmp := t.TempDir()
			project, outside := filepath.Join(tmp, "project"), filepath.Join(tmp, "outside")
			expand := strings.NewReplacer("$PROJECT", project, "$OUTSIDE", outside).Replace
			var diag []byte
			var wants []int
			for i, f := range ar.Files {
				switch {
				case f.Name == "diagnostics.json":
					diag = []byte(expand(string(f.Data)))
				case f.Name == "want" || strings.HasPrefix(f.Name, "want "):
					wants = append(wants, i)
				default:
					writeFile(t, filepath.Join(project, f.Name), f.Data, savedAt)
				}
			}
			for _, dir := range []string{project, outside} {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if len(wants) == 0 {
				t.Fatal("no want file")
			}
			for _, line := range strings.Split(string(ar.Comment), "\n") {
				if p, ok := strings.CutPrefix(line, "stale: "); ok {
					touch(t, filepath.Join(project, p), staleAt)
				}
				if line == "convert: govet" {
					if diag, err = vetToFlat(diag); err != nil {
						t.Fatal(err)
					}
				}
			}
			diagFile := filepath.Join(outside, "diagnostics.json")
			writeFile(t, diagFile, diag, writtenAt)
			s := newDiagServer(t, project, diagFile)
			for _, i := range wants {
				args := map[string]string{}
				if p, ok := strings.CutPrefix(ar.Files[i].Name, "want path="); ok {
					args["path"] = expand(p)
				}
				got, isError := s.CallArgs(context.Background(), "diagnostics", args)
				if isError {
					got = "isError: " + got
				}
				got += "\n"
				if *update {
					ar.Files[i].Data = []byte(got)
					continue
				}
				if diff := cmp.Diff(string(ar.Files[i].Data), got); diff != "" {
					t.Errorf("%s: diagnostics(%v) mismatch (-want +got):\n%s", ar.Files[i].Name, args, diff)
				}
			}
			if *update {
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func newDiagServer(t testing.TB, project, diagFile string) *Server {
	t.Helper()
	root, err := openRoot(project)
	if err != nil {
		t.Fatal(err)
	}
	return New(Config{Root: root, Diagnostics: diagFile})
}

func writeFile(t testing.TB, path string, data []byte, mtime time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	touch(t, path, mtime)
}

func touch(t testing.TB, path string, mtime time.Time) {
	t.Helper()
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// vetToFlat converts the output of `go vet -json` into the flat list shape.
// go vet prints, per package, "# import/path" on stderr and
// {"import/path": {"analyzer": [{"posn": "file:line:col", "message": …}]}}
// on stdout; an analyzer that failed has {"error": …} instead of a list.
// Its findings are warnings, as gopls shows them.
func vetToFlat(vet []byte) ([]byte, error) {
	var kept bytes.Buffer
	for _, line := range strings.SplitAfter(string(vet), "\n") {
		if !strings.HasPrefix(line, "#") {
			kept.WriteString(line)
		}
	}
	type entry struct {
		File     string `json:"file"`
		Line     int    `json:"line"`
		Column   int    `json:"column"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
		Source   string `json:"source"`
	}
	var out []entry
	dec := json.NewDecoder(&kept)
	for dec.More() {
		var pkgs map[string]map[string]json.RawMessage
		if err := dec.Decode(&pkgs); err != nil {
			return nil, fmt.Errorf("read go vet output: %w", err)
		}
		for _, analyzers := range pkgs {
			for name, raw := range analyzers {
				var found []struct{ Posn, Message string }
				if json.Unmarshal(raw, &found) != nil {
					continue
				}
				for _, f := range found {
					file, line, col := splitPosn(f.Posn)
					out = append(out, entry{file, line, col, "warning", f.Message, name})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
	})
	return json.MarshalIndent(out, "", "  ")
}

// splitPosn splits go/token's "file:line:col" (or "file:line"); the file
// may itself contain colons.
func splitPosn(posn string) (file string, line, col int) {
	file = posn
	var nums []int
	for range 2 {
		i := strings.LastIndexByte(file, ':')
		if i < 0 {
			break
		}
		n, err := strconv.Atoi(file[i+1:])
		if err != nil {
			break
		}
		nums = append([]int{n}, nums...)
		file = file[:i]
	}
	switch len(nums) {
	case 2:
		return file, nums[0], nums[1]
	case 1:
		return file, nums[0], 0
	}
	return posn, 0, 0
}

// diagFixture is a project folder with one file and a diagnostics file
// beside it, not yet written.
func diagFixture(t *testing.T) (project, diagFile string) {
	t.Helper()
	tmp := t.TempDir()
	project = filepath.Join(tmp, "project")
	writeFile(t, filepath.Join(project, "src", "a.go"), []byte("package a\n"), savedAt)
	return project, filepath.Join(tmp, "editor", "diagnostics.json")
}

func callDiagnostics(t *testing.T, s *Server, path string) (string, bool) {
	t.Helper()
	args := map[string]string{}
	if path != "" {
		args["path"] = path
	}
	return s.CallArgs(context.Background(), "diagnostics", args)
}

func wantAnswer(t *testing.T, s *Server, path, want string, wantErr bool) {
	t.Helper()
	got, isError := callDiagnostics(t, s, path)
	if got != want || isError != wantErr {
		t.Errorf("diagnostics(%q) = %q, isError %v; want %q, isError %v", path, got, isError, want, wantErr)
	}
}

func TestDiagnosticsNoFile(t *testing.T) {
	project, diagFile := diagFixture(t)
	root, err := openRoot(project)
	if err != nil {
		t.Fatal(err)
	}
	// No --diagnostics flag.
	s := New(Config{Root: root})
	wantAnswer(t, s, "", "No diagnostics.", false)
	wantAnswer(t, s, "src/a.go", "No diagnostics.", false)
	wantAnswer(t, s, "../elsewhere.go", "path outside the project: ../elsewhere.go", true)

	// A file that does not exist yet: said once on the log, at start-up.
	var log bytes.Buffer
	s = New(Config{Root: root, Diagnostics: diagFile, Log: &log})
	wantAnswer(t, s, "", "No diagnostics.", false)
	wantAnswer(t, s, "src/a.go", "No diagnostics.", false)
	wantLog := fmt.Sprintf("zumba: diagnostics file %s does not exist yet; the diagnostics tool answers \"No diagnostics.\" until it does\n", diagFile)
	if log.String() != wantLog {
		t.Errorf("log = %q; want %q", log.String(), wantLog)
	}

	// Once the editor writes it, it is read.
	writeFile(t, diagFile, []byte(`[{"path":"src/a.go","line":1,"column":1,"severity":"error","message":"m"}]`), writtenAt)
	wantAnswer(t, s, "", "src/a.go:1:1: error: m", false)
	// An empty file, or null, or an empty list, has nothing to report.
	for _, data := range []string{"", "  \n", "null", "[]", "{}", `{"runs":[]}`, `{"version":"2.1.0","runs":[{"results":[]}]}`} {
		writeFile(t, diagFile, []byte(data), writtenAt.Add(time.Duration(len(data))*time.Second))
		wantAnswer(t, s, "", "No diagnostics.", false)
	}
	// Removed again: nothing to report.
	if err := os.Remove(diagFile); err != nil {
		t.Fatal(err)
	}
	wantAnswer(t, s, "", "No diagnostics.", false)
	if strings.Count(log.String(), "does not exist") != 1 {
		t.Errorf("log = %q; want the missing file mentioned once", log.String())
	}

	// A file that exists at start-up is not mentioned.
	writeFile(t, diagFile, []byte("[]"), writtenAt)
	log.Reset()
	New(Config{Root: root, Diagnostics: diagFile, Log: &log})
	if log.Len() != 0 {
		t.Errorf("log = %q; want nothing", log.String())
	}
}

func TestDiagnosticsMalformed(t *testing.T) {
	project, diagFile := diagFixture(t)
	s := newDiagServer(t, project, diagFile)
	for _, tc := range []struct{ data, want string }{
		{`{"uri": "file:///x", "diagnostics": [`, "is not valid JSON: unexpected end of input (line 1, column 38)"},
		{"[\n  {\"path\": \"a\"},\n  {\"path\": 'b'}\n]", "is not valid JSON: invalid character '\\'' looking for beginning of value (line 3, column 12)"},
		{`[{"path": "a"}] xyz`, "is not valid JSON: invalid character 'x' looking for beginning of value (line 1, column 17)"},
		{`42`, "has a shape zumba does not read: it holds a JSON number; expected an object or a list"},
		{`"diagnostics"`, "has a shape zumba does not read: it holds a JSON string; expected an object or a list"},
		{`[1]`, "has a shape zumba does not read: entry 1 of the list is a JSON number; expected an object"},
		{`[{"path":"a.go","line":1},{"line":2,"message":"where?"}]`, "has a shape zumba does not read: entry 2 of the list has no path, file or uri"},
		{`{"src/a.go": {"line": 1}}`, `has a shape zumba does not read: the value of "src/a.go" is a JSON object; expected a list of diagnostics`},
		{`{"src/a.go": ["x"]}`, `has a shape zumba does not read: diagnostic 1 in the value of "src/a.go" is a JSON string; expected an object`},
		{`{"uri": "file:///a.go", "diagnostics": 3}`, "has a shape zumba does not read: diagnostics of entry 1 is a JSON number; expected a list of diagnostics"},
		{`{"version": "2.1.0", "runs": {}}`, "has a shape zumba does not read: SARIF runs is a JSON object; expected a list"},
		{`{"runs": [7]}`, "has a shape zumba does not read: SARIF run 1 is a JSON number; expected an object"},
	} {
		writeFile(t, diagFile, []byte(tc.data), writtenAt)
		got, isError := callDiagnostics(t, s, "")
		want := "diagnostics file " + diagFile + " " + tc.want
		if got != want || !isError {
			t.Errorf("file %q: diagnostics() = %q, isError %v;\nwant %q, isError true", tc.data, got, isError, want)
		}
	}
}

func TestDiagnosticsUnreadable(t *testing.T) {
	project, diagFile := diagFixture(t)
	s := newDiagServer(t, project, diagFile)
	if err := os.MkdirAll(diagFile, 0o755); err != nil {
		t.Fatal(err)
	}
	wantAnswer(t, s, "", "cannot read diagnostics file "+diagFile+": it is a directory", true)
	if err := os.Remove(diagFile); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		return // root reads a file whatever its mode
	}
	writeFile(t, diagFile, []byte("[]"), writtenAt)
	if err := os.Chmod(diagFile, 0); err != nil {
		t.Fatal(err)
	}
	wantAnswer(t, s, "", "cannot read diagnostics file "+diagFile+": permission denied", true)
}

// TestDiagnosticsFIFO: a named pipe given as the diagnostics file is
// refused at once; the call neither waits for a writer nor holds the
// file's lock for the calls after it (issue 11, defect 11).
func TestDiagnosticsFIFO(t *testing.T) {
	project, diagFile := diagFixture(t)
	if err := os.MkdirAll(filepath.Dir(diagFile), 0o755); err != nil {
		t.Fatal(err)
	}
	fixture.Mkfifo(t, diagFile)
	s := newDiagServer(t, project, diagFile)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 2 {
			wantAnswer(t, s, "", "cannot read diagnostics file "+diagFile+": it is not a regular file", true)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("diagnostics waits on a named pipe")
	}
}

// TestDiagnosticsHalfWritten catches the editor writing the file: the
// first read sees it cut short (or empty), the second, after a pause, whole.
func TestDiagnosticsHalfWritten(t *testing.T) {
	project, diagFile := diagFixture(t)
	s := newDiagServer(t, project, diagFile)
	whole := `[{"path":"src/a.go","line":2,"column":3,"severity":"warning","message":"whole"}]`
	for _, part := range []string{whole[:30], ""} {
		writeFile(t, diagFile, []byte(part), time.Now())
		retries := 0
		s.diag = newDiagSource(diagFile, s.log, diagfile.Options{BeforeRetry: func() {
			retries++
			if err := os.WriteFile(diagFile, []byte(whole), 0o644); err != nil {
				t.Error(err)
			}
		}})
		wantAnswer(t, s, "", "src/a.go:2:3: warning: whole", false)
		if retries != 1 {
			t.Errorf("file %q: read again %d times; want 1", part, retries)
		}
		if err := os.Remove(diagFile); err != nil {
			t.Fatal(err)
		}
	}
	// Still cut short after the pause: the error names the file.
	s.diag = newDiagSource(diagFile, s.log, diagfile.Options{})
	writeFile(t, diagFile, []byte(whole[:30]), time.Now())
	wantAnswer(t, s, "", "diagnostics file "+diagFile+" is not valid JSON: unexpected end of input (line 1, column 31)", true)
}

// TestDiagnosticsRewritten rewrites the file between two calls: the second
// sees the new content, also when the new file has the same size and
// modification time (a file system with coarse times), or replaces the
// old one by a rename.
func TestDiagnosticsRewritten(t *testing.T) {
	project, diagFile := diagFixture(t)
	s := newDiagServer(t, project, diagFile)
	entry := func(line int, msg string) []byte {
		return []byte(fmt.Sprintf(`[{"path":"src/a.go","line":%d,"column":1,"severity":"error","message":%q}]`, line, msg))
	}
	want := func(line int, msg string) string { return fmt.Sprintf("src/a.go:%d:1: error: %s", line, msg) }

	writeFile(t, diagFile, entry(1, "first"), writtenAt)
	wantAnswer(t, s, "", want(1, "first"), false)
	wantAnswer(t, s, "", want(1, "first"), false) // from the cache

	// Another size, later time.
	writeFile(t, diagFile, entry(2, "second, longer"), writtenAt.Add(time.Second))
	wantAnswer(t, s, "", want(2, "second, longer"), false)

	// Same size and same time, just written: the content tells.
	now := time.Now().Truncate(time.Second)
	writeFile(t, diagFile, entry(3, "third"), now)
	wantAnswer(t, s, "", want(3, "third"), false)
	writeFile(t, diagFile, entry(4, "forth"), now)
	wantAnswer(t, s, "", want(4, "forth"), false)

	// Replaced by a rename with the same size and an old time: another file.
	writeFile(t, diagFile, entry(5, "fifth"), writtenAt)
	wantAnswer(t, s, "", want(5, "fifth"), false)
	next := diagFile + ".tmp"
	writeFile(t, next, entry(6, "sixth"), writtenAt)
	if err := os.Rename(next, diagFile); err != nil {
		t.Fatal(err)
	}
	wantAnswer(t, s, "", want(6, "sixth"), false)

	// Rewritten in place, same size, its old time set back: the status
	// change time tells (issue 11, defect 8).
	time.Sleep(20 * time.Millisecond) // past the kernel's coarse clock tick
	writeFile(t, diagFile, entry(8, "eight"), writtenAt)
	wantAnswer(t, s, "", want(8, "eight"), false)

	// Malformed, then fixed.
	writeFile(t, diagFile, []byte(`{"a": 1}`), writtenAt.Add(2*time.Second))
	if _, isError := callDiagnostics(t, s, ""); !isError {
		t.Error("malformed file: want isError")
	}
	writeFile(t, diagFile, entry(7, "seventh"), writtenAt.Add(3*time.Second))
	wantAnswer(t, s, "", want(7, "seventh"), false)
}

func TestDiagnosticsCap(t *testing.T) {
	project, diagFile := diagFixture(t)
	var entries []string
	for i := 1; i <= 250; i++ {
		file := "src/a.go"
		if i%2 == 0 {
			file = "src/b.go"
		}
		entries = append(entries, fmt.Sprintf(`{"path":%q,"line":%d,"column":1,"severity":"warning","message":"m%d"}`, file, i, i))
	}
	writeFile(t, diagFile, []byte("["+strings.Join(entries, ",\n")+"]"), writtenAt)
	s := newDiagServer(t, project, diagFile)

	got, _ := callDiagnostics(t, s, "")
	lines := strings.Split(got, "\n")
	if len(lines) != 201 || lines[200] != "… more; narrow it with path" {
		t.Fatalf("diagnostics() has %d lines ending %q; want 200 and the line … more; narrow it with path", len(lines), lines[len(lines)-1])
	}
	if lines[0] != "src/a.go:1:1: warning: m1" || lines[124] != "src/a.go:249:1: warning: m249" || lines[125] != "src/b.go:2:1: warning: m2" {
		t.Errorf("diagnostics() not sorted by path and line: %q %q %q", lines[0], lines[124], lines[125])
	}
	got, _ = callDiagnostics(t, s, "src/b.go")
	if lines := strings.Split(got, "\n"); len(lines) != 125 || lines[124] != "src/b.go:250:1: warning: m250" {
		t.Errorf("diagnostics(src/b.go) has %d lines ending %q; want 125", len(lines), lines[len(lines)-1])
	}
}

// TestDiagnosticsRealPath opens the project through a symbolic link: paths
// under the link and under the real folder are both the project's.
func TestDiagnosticsRealPath(t *testing.T) {
	project, diagFile := diagFixture(t)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(project, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	data := fmt.Sprintf(`{"%s/src/a.go": [{"range":{"start":{"line":0,"character":0}},"message":"real"}],
"file://%s/src/a.go": [{"range":{"start":{"line":1,"character":0}},"message":"link"}]}`, project, link)
	writeFile(t, diagFile, []byte(data), writtenAt)
	s := newDiagServer(t, link, diagFile)
	wantAnswer(t, s, "", "src/a.go:1:1: error: real\nsrc/a.go:2:1: error: link", false)
	wantAnswer(t, s, project+"/src/a.go", "src/a.go:1:1: error: real\nsrc/a.go:2:1: error: link", false)
}

func TestFoldMessage(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"one line", "one line"},
		{"  padded\t", "padded"},
		{"first\nsecond", "first second"},
		{"first\r\n\r\n   second\r\n", "first second"},
		{"tab\there", "tab here"},
		{strings.Repeat("a", 300), strings.Repeat("a", 300)},
		{strings.Repeat("a", 301), strings.Repeat("a", 299) + "…"},
		{strings.Repeat("a", 298) + " bc", strings.Repeat("a", 298) + "…"},
		{strings.Repeat("日", 301), strings.Repeat("日", 299) + "…"},
	} {
		if got := foldMessage(tc.in); got != tc.want {
			t.Errorf("foldMessage(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestVetToFlat(t *testing.T) {
	for _, tc := range []struct {
		posn      string
		file      string
		line, col int
	}{
		{"/a/b.go:3:4", "/a/b.go", 3, 4},
		{"C:/a/b.go:3:4", "C:/a/b.go", 3, 4},
		{"/a/b.go:3", "/a/b.go", 3, 0},
		{"/a/b.go", "/a/b.go", 0, 0},
	} {
		file, line, col := splitPosn(tc.posn)
		if file != tc.file || line != tc.line || col != tc.col {
			t.Errorf("splitPosn(%q) = %q, %d, %d; want %q, %d, %d", tc.posn, file, line, col, tc.file, tc.line, tc.col)
		}
	}
	// An analyzer that failed reports {"error": …}: no diagnostic.
	got, err := vetToFlat([]byte("# example.com/p\n{\"example.com/p\": {\"printf\": {\"error\": \"boom\"}}}\n"))
	if err != nil || string(got) != "null" {
		t.Errorf("vetToFlat(analyzer error) = %s, %v; want null", got, err)
	}
}

// TestDiagnosticsMCP drives the tool through the server over pipes: listed
// with its schema, called, the file rewritten, called again.
func TestDiagnosticsMCP(t *testing.T) {
	project, diagFile := diagFixture(t)
	writeFile(t, diagFile, []byte(`{"file://`+project+`/src/a.go": [{"range":{"start":{"line":0,"character":8}},"severity":1,"message":"expected ';', found 'EOF'"}]}`), writtenAt)
	s := newDiagServer(t, project, diagFile)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- s.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	replies := bufio.NewScanner(outR)
	replies.Buffer(nil, 1<<20)
	exchange := func(req string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(inW, req+"\n"); err != nil {
			t.Fatal(err)
		}
		if !replies.Scan() {
			t.Fatalf("no reply to %s: %v", req, replies.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(replies.Bytes(), &m); err != nil {
			t.Fatalf("reply %s: %v", replies.Bytes(), err)
		}
		return m
	}
	call := func(id int, args string) (string, bool) {
		t.Helper()
		m := exchange(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"diagnostics","arguments":%s}}`, id, args))
		res, ok := m["result"].(map[string]any)
		if !ok {
			t.Fatalf("tools/call %s: no result in %v", args, m)
		}
		content := res["content"].([]any)[0].(map[string]any)
		return content["text"].(string), res["isError"].(bool)
	}

	exchange(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	list := exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	var tool map[string]any
	for _, v := range list["result"].(map[string]any)["tools"].([]any) {
		if m := v.(map[string]any); m["name"] == "diagnostics" {
			tool = m
		}
	}
	if tool == nil {
		t.Fatalf("tools/list has no diagnostics tool: %v", list)
	}
	schema, _ := json.Marshal(tool["inputSchema"])
	wantSchema := `{"additionalProperties":false,"properties":{"path":{"description":"Only this file (or folder), relative to the project.","type":"string"}},"required":[],"type":"object"}`
	if string(schema) != wantSchema {
		t.Errorf("inputSchema = %s; want %s", schema, wantSchema)
	}
	if ann := tool["annotations"].(map[string]any); ann["readOnlyHint"] != true || ann["openWorldHint"] != false {
		t.Errorf("annotations = %v", ann)
	}

	for _, tc := range []struct {
		args, want string
		isError    bool
	}{
		{`{}`, "src/a.go:1:9: error: expected ';', found 'EOF'", false},
		{`{"path":"src/a.go"}`, "src/a.go:1:9: error: expected ';', found 'EOF'", false},
		{`{"path":"src/b.go"}`, "No diagnostics.", false},
		{`{"path":"/etc/passwd"}`, "path outside the project: /etc/passwd", true},
		{`{"path":3}`, `diagnostics: argument "path" must be a string`, true},
		{`{"file":"src/a.go"}`, `diagnostics: unknown argument "file"`, true},
	} {
		if got, isError := call(3, tc.args); got != tc.want || isError != tc.isError {
			t.Errorf("diagnostics %s = %q, isError %v; want %q, isError %v", tc.args, got, isError, tc.want, tc.isError)
		}
	}

	// The editor rewrites the file; the next call sees it.
	writeFile(t, diagFile, []byte(`[{"path":"src/a.go","line":1,"column":1,"severity":"hint","message":"fixed"}]`), writtenAt.Add(time.Minute))
	if got, _ := call(4, `{}`); got != "src/a.go:1:1: hint: fixed" {
		t.Errorf("after a rewrite: diagnostics = %q; want the new content", got)
	}
	writeFile(t, diagFile, []byte(`{"runs": 1}`), writtenAt.Add(2*time.Minute))
	if got, isError := call(5, `{}`); !isError || !strings.Contains(got, diagFile) {
		t.Errorf("malformed: diagnostics = %q, isError %v; want an error naming the file", got, isError)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// FuzzDiagnosticsFile feeds arbitrary files to the parser and the printer:
// neither may panic, and what they print keeps to the format.
func FuzzDiagnosticsFile(f *testing.F) {
	cases, _ := filepath.Glob(filepath.Join(diagCorpus, "*.txtar"))
	for _, file := range cases {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, af := range ar.Files {
			if af.Name == "diagnostics.json" {
				f.Add(af.Data)
			}
		}
	}
	f.Add([]byte(`{"runs":[{"originalUriBaseIds":{"A":{"uri":"x/","uriBaseId":"A"}},"results":[{"locations":[{"physicalLocation":{"artifactLocation":{"uri":"y","uriBaseId":"A"}}}]}]}]}`))
	f.Add([]byte(`[{"path":"a","line":1e300,"column":-5,"severity":[],"message":{"value":7}}]`))
	project := f.TempDir()
	root, err := openRoot(project)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := diagfile.Parse(data)
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.Line < 1 || e.Col < 1 || severityRank[e.Severity] == 0 && e.Severity != "error" {
				t.Fatalf("entry %+v: want 1-based position and a known severity", e)
			}
		}
		text := renderDiagnostics(root, entries, "", writtenAt, func(p string) string { return p })
		lines := strings.Split(text, "\n")
		if len(lines) > maxDiagnostics+1 {
			t.Fatalf("%d lines; want at most %d", len(lines), maxDiagnostics+1)
		}
		for _, l := range lines {
			if l != noDiagnostics && l != "… more; narrow it with path" && !diagLineRE.MatchString(l) {
				t.Fatalf("line %q is not PATH:LINE:COL: SEVERITY: MESSAGE", l)
			}
		}
	})
}

var diagLineRE = regexp.MustCompile(`^[^\n]+:[1-9][0-9]*:[1-9][0-9]*: (error|warning|info|hint): .+$`)
