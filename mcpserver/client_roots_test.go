package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/search"
)

// rootsRequest reads the next line and returns the id of the roots/list
// request it must be; "" when none comes within wait.
func rootsRequest(t *testing.T, ss *session, wait time.Duration) string {
	t.Helper()
	select {
	case l := <-ss.lines:
		var req struct {
			ID     string `json:"id"`
			Method string `json:"method"`
		}
		if json.Unmarshal([]byte(l), &req) != nil || req.Method != "roots/list" || req.ID == "" {
			t.Fatalf("line %s; want a roots/list request", short(l))
		}
		return req.ID
	case <-time.After(wait):
		return ""
	}
}

func clientRootsSession(t *testing.T) *session {
	t.Helper()
	fallback, err := openRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Root: fallback, ClientRoots: true, Log: testLog{t}})
	for _, tool := range testTools() {
		s.tools[tool.Name] = tool
	}
	ss := startSession(t, s)
	ss.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true}}}}`)
	ss.next()
	ss.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return ss
}

// TestClientRootsStorm: a storm of notifications/roots/list_changed
// holds one ask in flight and one pending, not a goroutine each (issue
// 43, item 6: a million held 4.2 GiB for hours).
func TestClientRootsStorm(t *testing.T) {
	ss := clientRootsSession(t)
	first := rootsRequest(t, ss, 10*time.Second)
	if first == "" {
		t.Fatal("no roots/list request after initialized")
	}
	before := runtime.NumGoroutine()
	const storm = 20000
	var sb strings.Builder
	for range storm {
		sb.WriteString(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}` + "\n")
	}
	ss.send(strings.TrimSuffix(sb.String(), "\n"))
	// A ping answered means every notification before it was read. The
	// first ask may time out meanwhile (3 s; a slow machine, the race
	// detector), and the one pending is then sent: any roots/list request
	// met on the way is kept for the count.
	ss.send(ping(1))
	asks := []string{first}
	for {
		l := ss.next()
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal([]byte(l), &m)
		if m.Method == "roots/list" {
			var id string
			json.Unmarshal(m.ID, &id)
			asks = append(asks, id)
			continue
		}
		wantPong(t, l, "1")
		break
	}
	if n := runtime.NumGoroutine(); n > before+20 {
		t.Errorf("%d goroutines after %d notifications; %d before", n, storm, before)
	}
	// The asks are answered: at most one more follows, for the changes
	// announced while the last was in flight, and no other.
	for i := 0; i < len(asks); i++ {
		ss.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"result":{"roots":[]}}`, asks[i]))
		if len(asks) < 4 {
			if next := rootsRequest(t, ss, time.Second); next != "" {
				asks = append(asks, next)
			}
		}
	}
	if len(asks) < 2 || len(asks) > 3 {
		t.Errorf("%d roots/list requests for one storm: %q; want the first and one more (one more again if the first timed out)", len(asks), asks)
	}
}

// TestClientRootsOnce: one folder named several times, or as "dir/.",
// is one root, named after the folder (issue 43, item 16: 16 names of
// one folder gave every hit 16 times).
func TestClientRootsOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package app\n\nfunc Serve() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(filepath.Dir(dir), "link")); err != nil {
		t.Fatal(err)
	}
	ss := clientRootsSession(t)
	id := rootsRequest(t, ss, 10*time.Second)
	uri := "file://" + filepath.ToSlash(dir)
	var roots []string
	for _, u := range []string{uri, uri + "/.", uri + "/", "file://" + filepath.ToSlash(filepath.Join(filepath.Dir(dir), "link")), uri} {
		roots = append(roots, fmt.Sprintf(`{"uri":%q}`, u))
	}
	ss.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"result":{"roots":[%s]}}`, id, strings.Join(roots, ",")))
	ss.send(call(1, "find_symbol", map[string]string{"name": "Serve"}))
	if got, _ := toolText(t, decodeReply(t, ss.next())); got != "x.go:3 function — func Serve() {}" {
		t.Errorf("find_symbol in one folder named five ways = %q; want its one definition, as one root shows it", got)
	}
	if got := RootNames([]string{dir + "/.", dir + "/"}); got[0] != "app" || got[1] != "app-2" {
		t.Errorf("RootNames(app/., app/) = %q; want app, app-2", got)
	}
}

// TestClientRootsWaitInBudget: the wait for a client that declared roots
// but does not answer roots/list comes out of the call's own time, so
// the call is answered within callAnswerBy of its arrival (issue 43, item
// 8: the 3 s wait came before each tool's 3.5 s, 6-7 s a first call).
func TestClientRootsWaitInBudget(t *testing.T) {
	ss := clientRootsSession(t)
	if rootsRequest(t, ss, 10*time.Second) == "" {
		t.Fatal("no roots/list request after initialized")
	}
	start := time.Now()
	ss.send(call(1, "test_answer_by", map[string]string{}))
	text, _ := toolText(t, decodeReply(t, ss.next()))
	by, err := time.Parse(time.RFC3339Nano, text)
	if err != nil {
		t.Fatalf("test_answer_by = %q", text)
	}
	// The call arrives a little after it is sent: 200 ms of slack, where
	// a search timed from after the wait would have 3 s more.
	if by.After(start.Add(callAnswerBy + 200*time.Millisecond)) {
		t.Errorf("the search must answer by %v after the call was sent; want at most %v, whatever the call waited for its roots", by.Sub(start), callAnswerBy)
	}
}

func init() {
	extraTestTools = append(extraTestTools, &Tool{
		Name: "test_answer_by",
		Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
			by, ok := search.AnswerByTime(ctx)
			if !ok {
				return "none", true
			}
			return by.Format(time.RFC3339Nano), false
		},
	})
}

// TestRootsKeepPartial (issue 43, item 4): a root that found nothing in
// the part of it searched so far says so under its name, whether or not
// another root found something; a root that found nothing at all is left
// out as before.
func TestRootsKeepPartial(t *testing.T) {
	s, _ := newRootsServer(t)
	answers := map[string]string{}
	s.tools["test_partial"] = &Tool{Name: "test_partial", Handle: func(ctx context.Context, r *Server, args Args) (string, bool) {
		return answers[r.cfg.name], false
	}}
	for _, c := range []struct{ api, web, want string }{
		{"No definition of X and no names containing it.\n" + fmt.Sprintf(indexPartial, 3, 9), "web/x.go:1 function — func X() {}",
			"web/x.go:1 function — func X() {}\n\napi: No definition of X and no names containing it.\n" + fmt.Sprintf(indexPartial, 3, 9)},
		{"No definition of X in the first 3 of 9 files (in path order, test files last): the search stopped at its time limit; a qualified name (Type.method) is faster.", "No definition of X and no names containing it.",
			"api: No definition of X in the first 3 of 9 files (in path order, test files last): the search stopped at its time limit; a qualified name (Type.method) is faster."},
		{"No definition of X and no names containing it.", "web/x.go:1 function — func X() {}", "web/x.go:1 function — func X() {}"},
	} {
		answers["api"], answers["web"] = c.api, c.web
		got, _ := s.CallArgs(context.Background(), "test_partial", nil)
		if got != c.want {
			t.Errorf("roots answering %q and %q = %q; want %q", c.api, c.web, got, c.want)
		}
	}
	// Every note that an answer may be incomplete is one incomplete()
	// knows.
	for _, note := range []string{indexPartial, symbolStopped, mapPartial, mapStopped} {
		if !incomplete(note) {
			t.Errorf("the note %q is not seen as incomplete", note)
		}
	}
}

// buildingSearcher answers Symbols as an index still being built that has
// covered 3 of 9 files and found nothing.
type buildingSearcher struct{ search.Searcher }

func (buildingSearcher) Symbols(ctx context.Context, q search.SymbolQuery) (*search.SymbolResult, error) {
	return &search.SymbolResult{Building: true, Indexed: 3, Files: 9, Searched: 9}, nil
}

// TestReadSymbolBuilding (issue 43, item 4): read_symbol that finds
// nothing while the index is being built says how much it covered, as
// find_symbol does (it said "No definition of kmalloc and no names
// containing it." on Linux at 37-68 s).
func TestReadSymbolBuilding(t *testing.T) {
	s := newTestServer(t, map[string]string{"a.go": "package a\n"})
	s.search.Store(&searcherBox{buildingSearcher{s.engine()}})
	want := "No definition of kmalloc and no names containing it.\n" + fmt.Sprintf(indexPartial, 3, 9)
	for _, tool := range []string{"read_symbol", "find_symbol"} {
		if got, _ := s.CallArgs(context.Background(), tool, map[string]string{"name": "kmalloc"}); got != want {
			t.Errorf("%s kmalloc while the index is built = %q; want %q", tool, got, want)
		}
	}
}
