package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search"
)

// TestSearchFixtures runs the tool sections of every archive in
// testdata/search (see fixture.Unpack for the project it unpacks) and
// compares each answer with the section's text:
//
//	-- $ refs NAME [GLOBS] -- find_references (GLOBS: the rest of the line,
//	                          the path argument)
//	-- $ symbol NAME --       find_symbol
//
// NAME may be a Go string literal ("  \t"), for names with spaces. An
// error answer is written as "error: MESSAGE". Each answer must be the same
// without an index and from a complete one. -update rewrites them (search's
// TestFixtures checks the archives' walk sections).
func TestSearchFixtures(t *testing.T) {
	t.Parallel()
	names, err := filepath.Glob("../testdata/search/*.txtar")
	if err != nil || len(names) == 0 {
		t.Fatalf("no fixtures in testdata/search: %v", err)
	}
	for _, file := range names {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			a, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			root, err := openRoot(fixture.Unpack(t, a))
			if err != nil {
				t.Fatal(err)
			}
			// Answers must not depend on the machine's load.
			root.SymbolTimeLimit = time.Hour
			direct := New(Config{Root: root})
			var indexed *Server
			changed := false
			for i := range a.Files {
				f := &a.Files[i]
				cmdline, ok := strings.CutPrefix(f.Name, "$ ")
				if !ok {
					continue
				}
				cmd, args, _ := strings.Cut(cmdline, " ")
				name, rest := fixture.SplitName(t, args)
				call := map[string]string{"name": name}
				var tool string
				switch cmd {
				case "refs":
					tool = "find_references"
					if rest != "" {
						call["path"] = rest
					}
				case "symbol":
					tool = "find_symbol"
				default:
					continue
				}
				if indexed == nil {
					indexed = New(Config{Root: root})
					ix := search.NewIndex(root, search.IndexOptions{CacheFile: "-", NoWatch: true})
					defer ix.Close()
					ix.Build(context.Background())
					indexed.search.Store(&searcherBox{ix})
				}
				got := fixtureCall(t, direct, tool, call)
				if other := fixtureCall(t, indexed, tool, call); other != got {
					t.Errorf("%s: %s from the index (-without +with)\n%s", file, cmdline, cmp.Diff(got, other))
				}
				if got == string(f.Data) {
					continue
				}
				if *update {
					f.Data, changed = []byte(got), true
					continue
				}
				t.Errorf("%s:\n%s (-want +got)\n%s", file, cmdline, cmp.Diff(string(f.Data), got))
			}
			if changed {
				if err := os.WriteFile(file, txtar.Format(a), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// fixtureTimeout is how long a fixture's call may take: a call that
// blocks (on a named pipe, say) fails the test instead of hanging it.
const fixtureTimeout = 30 * time.Second

// fixtureCall calls the tool and returns its answer as the archives write
// it: "error: " before an error, a line end after.
func fixtureCall(t *testing.T, s *Server, tool string, args map[string]string) string {
	t.Helper()
	out := make(chan string, 1)
	go func() {
		text, isError := s.CallArgs(context.Background(), tool, args)
		if isError {
			text = "error: " + text
		}
		out <- text + "\n"
	}()
	select {
	case text := <-out:
		return text
	case <-time.After(fixtureTimeout):
		t.Fatalf("%s %q: no answer in %v", tool, args, fixtureTimeout)
		return ""
	}
}

// TestSymbolsTextStopped pins find_symbol's answer when the time limit
// stopped the search: what was found, and a last line saying how far it
// got.
func TestSymbolsTextStopped(t *testing.T) {
	q := search.ParseSymbolQuery("Slow")
	for _, c := range []struct {
		res  search.SymbolResult
		want string
	}{
		{search.SymbolResult{Files: 3}, "No definition of Slow in the first 0 of 3 files (in path order, test files last): the search stopped at its time limit; a qualified name (Type.method) is faster."},
		{
			search.SymbolResult{Defs: []search.Def{{Definition: outline.Definition{Path: "f0.go", Line: 3, Kind: grammar.Function}, Text: "func Slow() {}"}}, Searched: 1, Files: 3, More: true},
			"f0.go:3 function — func Slow() {}\n… stopped at the time limit after the first 1 of 3 files (in path order, test files last); a qualified name (Type.method) is faster",
		},
	} {
		if got := symbolsText(q, &c.res); got != c.want {
			t.Errorf("symbolsText(%+v) = %q; want %q", c.res, got, c.want)
		}
	}
}
