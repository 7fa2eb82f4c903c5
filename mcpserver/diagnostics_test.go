package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/zumba-dev/zumba/search"
)

var update = flag.Bool("update", false, "rewrite the want files of testdata/diagnostics")

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
			s := newTestServer(t, project, diagFile)
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

func newTestServer(t testing.TB, project, diagFile string) *Server {
	t.Helper()
	root, err := search.OpenRoot(project)
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
