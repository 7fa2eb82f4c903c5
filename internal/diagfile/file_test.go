package diagfile

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseShapes(t *testing.T) {
	t.Parallel()
	want := []Entry{{Loc: "file:///p/a%20b.go", URIRef: true, Line: 2, Col: 5, Severity: "warning", Message: "m"}}
	for _, data := range []string{
		`{"uri":"file:///p/a%20b.go","diagnostics":[{"range":{"start":{"line":1,"character":4}},"severity":2,"message":"m"}]}`,
		`{"file:///p/a%20b.go":[{"range":{"start":{"line":1,"character":4}},"severity":2,"message":"m"}]}`,
		`[{"uri":"file:///p/a%20b.go","line":2,"column":5,"severity":"warning","message":"m"}]`,
		`{"version":"2.1.0","runs":[{"results":[{"level":"warning","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"file:///p/a%20b.go"},"region":{"startLine":2,"startColumn":5}}}]}]}]}`,
	} {
		got, err := Parse([]byte(data))
		if err != nil {
			t.Errorf("Parse(%s) = %v", data, err)
			continue
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("Parse(%s) (-want +got):\n%s", data, d)
		}
		if p := got[0].LocalPath(); p != "/p/a b.go" {
			t.Errorf("LocalPath() = %q; want /p/a b.go", p)
		}
	}
}

func TestLocalPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e    Entry
		want string
	}{
		{Entry{Loc: "src/a%20.go"}, "src/a%20.go"},
		{Entry{Loc: "src/a%20.go", URIRef: true}, "src/a .go"},
		{Entry{Loc: "file://localhost/p/a.go"}, "/p/a.go"},
		{Entry{Loc: "file://other/p/a.go"}, ""},
		{Entry{Loc: "untitled:Untitled-1"}, ""},
		{Entry{Loc: `C:\p\a.go`}, `C:\p\a.go`},
	} {
		if got := tc.e.LocalPath(); got != tc.want {
			t.Errorf("%+v.LocalPath() = %q; want %q", tc.e, got, tc.want)
		}
	}
}

// TestLoad reads a file, keeps it while it is unchanged, and reads a
// half-written one again after the pause.
func TestLoad(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "diagnostics.json")
	old := time.Now().Add(-time.Hour)
	write := func(data string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
	}
	whole := `[{"path":"a.go","line":1,"message":"m"}]`
	retries := 0
	f := Open(path, Options{RetryPause: time.Millisecond, BeforeRetry: func() {
		retries++
		write(whole)
	}})
	ctx := context.Background()
	if es, _, err := f.Load(ctx); err != nil || len(es) != 0 {
		t.Fatalf("missing file: Load() = %v, %v; want nothing", es, err)
	}
	write(whole[:10])
	es, mtime, err := f.Load(ctx)
	if err != nil || len(es) != 1 || retries != 1 || !mtime.Equal(old) {
		t.Fatalf("half-written: Load() = %v, %v, %v after %d retries; want one entry, its time, one retry", es, mtime, err, retries)
	}
	es2, _, err := f.Load(ctx)
	if err != nil || &es2[0] != &es[0] {
		t.Errorf("unchanged file: Load() parsed it again (%v)", err)
	}
	write(`{"runs": 3}`)
	if _, _, err := f.Load(ctx); err == nil {
		t.Error("malformed file: Load() = nil error")
	}
}
