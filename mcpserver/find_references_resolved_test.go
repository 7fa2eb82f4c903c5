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


def main():
    run(Conn(), Other(), None)
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
	// depth follows the resolution: Other.close's users are not listed.
	want = `app.py:5 function run
  app.py:12 function main
net/client.py:10 method Conn.flush
  net/client.py:7 method Conn.close (definition)`
	got, _ = s.CallArgs(context.Background(), "find_references", map[string]string{"name": "Conn.close", "depth": "2"})
	if got != want {
		t.Errorf("find_references Conn.close depth 2 =\n%s\nwant\n%s", got, want)
	}
}

// TestFindReferencesResolvedTypeScript: a qualified TypeScript name or
// its definition lists the uses resolved to it (through an import, a
// barrel's re-export, a declared parameter type, `this`), then those
// through the interface it implements and the override of a subclass,
// then those whose receiver's type is not known; `depth` follows the
// resolution (the callers of the callers of Base.close, not of every
// close); the bare name answers as before.
func TestFindReferencesResolvedTypeScript(t *testing.T) {
	s := newTestServer(t, map[string]string{
		"lib/base.ts": `export interface Closer {
  close(): void;
}

export class Base implements Closer {
  close(): void {}

  reset(): void {
    this.close();
  }
}
`,
		"lib/sub.ts": `import { Base } from './base';

export class Sub extends Base {
  close(): void {}
}
`,
		"lib/index.ts": "export * from './base';\nexport * from './sub';\n",
		"app.ts": `import { Base, Closer, Sub } from './lib';

export function shut(b: Base, c: Closer, s: Sub, x: any) {
  b.close();
  c.close();
  s.close();
  x.close();
}

export function main() {
  shut(new Base(), new Base(), new Sub(), null);
}

class Door {
  close(): void {}
}

export function other(d: Door) {
  d.close();
}
`,
	})
	want := `3 lines use Base.close (lib/base.ts:6) in 3 files; 4 through base types and overrides; 1 not resolved
app.ts:4: b.close();
lib/base.ts:6: close(): void {}
lib/base.ts:9: this.close();
through class Sub, which overrides it:
app.ts:6: s.close();
lib/sub.ts:4: close(): void {}
through interface Closer:
app.ts:5: c.close();
lib/base.ts:2: close(): void;
may refer to it (not resolved):
app.ts:7: x.close();`
	for _, args := range []map[string]string{
		{"name": "Base.close"},
		{"name": "anything", "definition": "lib/base.ts:6"},
	} {
		got, isError := s.CallArgs(context.Background(), "find_references", args)
		if isError || got != want {
			t.Errorf("find_references %v =\n%s\nwant\n%s", args, got, want)
		}
	}
	got, _ := s.CallArgs(context.Background(), "find_references", map[string]string{"name": "close"})
	if n := strings.Count(got, "\n") + 1; n != 10 {
		t.Errorf("find_references close: %d lines; want every 10 with the word:\n%s", n, got)
	}
	// The declarations of the members it overrides or that override it
	// are not callers; Door.close's caller other is none of its.
	got, _ = s.CallArgs(context.Background(), "find_references", map[string]string{"name": "Base.close", "depth": "2"})
	wantDepth := `app.ts:3 function shut
  app.ts:10 function main
lib/base.ts:8 method Base.reset`
	if got != wantDepth {
		t.Errorf("find_references Base.close depth 2 =\n%s\nwant\n%s", got, wantDepth)
	}
	got, _ = s.CallArgs(context.Background(), "find_references", map[string]string{"name": "close", "depth": "2"})
	if !strings.Contains(got, "function other") {
		t.Errorf("find_references close depth 2 (by name) =\n%s\nwant other among the callers", got)
	}
}
