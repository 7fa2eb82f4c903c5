package mcpserver

import (
	"context"
	"strings"
	"testing"
)

// TestFindReferencesResolved: a qualified Go name lists only the uses
// of that definition, then those through an interface and those not
// resolved, each under its own line; the bare name answers as before
// (every line with the word).
func TestFindReferencesResolved(t *testing.T) {
	s := newTestServer(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a.go": `package a

type File struct{}

func (f *File) Close() error { return nil }

type Closer interface{ Close() error }

type Conn struct{}

func (Conn) Close() error { return nil }
`,
		"b/b.go": `package b

import "example.com/m/a"

func use[T a.Closer](f *a.File, c a.Closer, n a.Conn, t T) {
	f.Close()
	c.Close()
	n.Close()
	t.Close()
}
`,
	})
	want := `2 lines use a.File.Close (a/a.go:5) in 2 files; 1 through interfaces; 1 not resolved
a/a.go:5: func (f *File) Close() error { return nil }
b/b.go:6: f.Close()
through interface a.Closer:
b/b.go:7: c.Close()
may refer to it (not resolved):
b/b.go:9: t.Close()`
	for _, args := range []map[string]string{
		{"name": "File.Close"},
		{"name": "a.File.Close"},
		{"name": "(*a.File).Close"},
		{"name": "anything", "definition": "a/a.go:5"},
	} {
		got, isError := s.CallArgs(context.Background(), "find_references", args)
		if isError || got != want {
			t.Errorf("find_references %v =\n%s\nwant\n%s", args, got, want)
		}
	}
	got, _ := s.CallArgs(context.Background(), "find_references", map[string]string{"name": "Close"})
	if n := strings.Count(got, "\n") + 1; n != 7 {
		t.Errorf("find_references Close: %d lines; want every 7 with the word:\n%s", n, got)
	}
	got, isError := s.CallArgs(context.Background(), "find_references", map[string]string{"name": "x", "definition": "a/a.go:2"})
	if !isError || !strings.Contains(got, "no definition at a/a.go:2") {
		t.Errorf("find_references definition a/a.go:2 = %q, %v; want an error naming the line", got, isError)
	}
}

// TestFindReferencesResolvedPython: a qualified Python name (module,
// class, method) or its definition lists the uses resolved to it (self
// through the class hierarchy, imports through a package's __init__),
// then those whose receiver is not known; the bare name answers as
// before.
func TestFindReferencesResolvedPython(t *testing.T) {
	s := newTestServer(t, map[string]string{
		"net/__init__.py": "from .client import Conn\n",
		"net/client.py": `class Base:
    def close(self):
        pass


class Conn(Base):
    def close(self):
        self.flush()

    def flush(self):
        self.close()


class Other:
    def close(self):
        pass
`,
		"app.py": `from net import Conn
from net.client import Other


def run(c: Conn, o: Other, x):
    c.close()
    o.close()
    x.close()
    Conn().close()
`,
	})
	want := `4 lines use net.client.Conn.close (net/client.py:7) in 2 files; 1 not resolved
app.py:6: c.close()
app.py:9: Conn().close()
net/client.py:7: def close(self):
net/client.py:11: self.close()
may refer to it (not resolved):
app.py:8: x.close()`
	for _, args := range []map[string]string{
		{"name": "Conn.close"},
		{"name": "net.client.Conn.close"},
		{"name": "anything", "definition": "net/client.py:7"},
	} {
		got, isError := s.CallArgs(context.Background(), "find_references", args)
		if isError || got != want {
			t.Errorf("find_references %v =\n%s\nwant\n%s", args, got, want)
		}
	}
	got, _ := s.CallArgs(context.Background(), "find_references", map[string]string{"name": "close"})
	if n := strings.Count(got, "\n") + 1; n != 8 {
		t.Errorf("find_references close: %d lines; want every 8 with the word:\n%s", n, got)
	}
}
