package mcpserver

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/search/impact"
)

// TestChangesTool: an uncommitted edit to one function names exactly that
// function and its callers, then the file's lines outside definitions;
// a clean tree says so in one line; a bad base is one line of error.
func TestChangesTool(t *testing.T) {
	t.Parallel()
	fixture.NeedGit(t)
	dir := t.TempDir()
	fixture.GitInit(t, dir)
	writeFiles(t, dir, map[string]string{
		"a.go":      "package a\n\n// F is f.\nfunc F() int {\n\treturn 1\n}\n",
		"b.go":      "package a\n\nfunc G() int { return F() }\n\nfunc H() int {\n\t// F is not called here.\n\treturn F() + F()\n}\n",
		"b_test.go": "package a\n\nfunc TestF() { F() }\n",
		"doc.md":    "F is documented.\n",
	})
	run := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir, cmd.Env = dir, fixture.GitEnv(dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("add", "-A")
	run("commit", "-q", "-m", "base")
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The uses listed must not depend on the machine's load.
	root.SiteTimeLimit = time.Hour
	cfg, ready := testConfig(root, false)
	c := startServerWith(t, cfg)
	<-ready
	if text, isError := c.tool("changes", map[string]any{}); isError || text != "No changes since HEAD." {
		t.Errorf("changes of a clean tree = %q, %v", text, isError)
	}
	writeFiles(t, dir, map[string]string{"a.go": "package a\n\n// F is f.\nfunc F() int {\n\treturn 2\n}\n"})
	want := strings.Join([]string{
		"1 definition changed in 1 file (0 added, 1 modified, 0 removed) since HEAD",
		"a.go:4 function F (4 lines, +1 -1)",
		"  used by b.go:3 function G",
		"  used by b.go:5 function H (at line 7)",
		"  used by b_test.go:3 function TestF",
	}, "\n")
	if text, isError := c.tool("changes", map[string]any{}); isError || text != want {
		t.Errorf("changes = %q, %v; want %q", text, isError, want)
	}
	if text, isError := c.tool("changes", map[string]any{"path": "b.go"}); isError || text != "No changes since HEAD." {
		t.Errorf("changes path=b.go = %q, %v", text, isError)
	}
	if text, isError := c.tool("changes", map[string]any{"base": "nope\x1b[31m"}); !isError || strings.Contains(text, "\n") || !strings.HasPrefix(text, "changes: unknown base") {
		t.Errorf("changes base=nope = %q, %v; want a one-line error", text, isError)
	}
}

// TestChangedFileLine: a submodule whose commit moved is one line; a
// file under a filter says it was compared as stored, even when its
// definitions tell the rest.
func TestChangedFileLine(t *testing.T) {
	for _, c := range []struct {
		f    impact.ChangedFile
		want string
	}{
		{impact.ChangedFile{Path: "sub", OldPath: "sub", Submodule: true, NoDefinitions: true}, "sub (submodule: its checked-out commit changed)"},
		{impact.ChangedFile{Path: "big.bin", OldPath: "big.bin", Filter: "lfs", Binary: true}, "big.bin (filter lfs: compared as stored, binary)"},
		{impact.ChangedFile{Path: "a.go", OldPath: "a.go", Filter: "lfs"}, "a.go (filter lfs: compared as stored)"},
		{impact.ChangedFile{Path: "a.go", OldPath: "a.go", Filter: "x=y", TopAdded: 1}, "a.go (top level) +1 -0 (filter x=y: compared as stored)"},
		{impact.ChangedFile{Path: "a.go", OldPath: "a.go"}, ""},
	} {
		if got := changedFileLine(&c.f); got != c.want {
			t.Errorf("changedFileLine(%+v) = %q; want %q", c.f, got, c.want)
		}
	}
}

// TestChangesDepth: with depth, each user of a changed definition has its
// own users under it, indented as find_references depth indents them;
// a definition whose users are listed above says so, and a changed one
// is marked (issue 47, item 3).
func TestChangesDepth(t *testing.T) {
	t.Parallel()
	fixture.NeedGit(t)
	dir := t.TempDir()
	fixture.GitInit(t, dir)
	writeFiles(t, dir, map[string]string{
		"a.go":      "package a\n\nfunc F() int {\n\treturn 1\n}\n\nfunc E() int { return 1 }\n",
		"b.go":      "package a\n\nfunc G() int { return F() }\n\nfunc H() int {\n\treturn G() +\n\t\tF()\n}\n",
		"c.go":      "package a\n\nfunc K() int { return H() }\n\nfunc L() int { return G() + E() }\n",
		"c_test.go": "package a\n\nfunc TestK() { K() }\n",
	})
	run := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir, cmd.Env = dir, fixture.GitEnv(dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("add", "-A")
	run("commit", "-q", "-m", "base")
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	root.SiteTimeLimit = time.Hour
	cfg, ready := testConfig(root, false)
	c := startServerWith(t, cfg)
	<-ready
	writeFiles(t, dir, map[string]string{"a.go": "package a\n\nfunc F() int {\n\treturn 2\n}\n\nfunc E() int { return 2 }\n"})
	for _, tc := range []struct {
		depth int
		want  []string
	}{
		{1, []string{
			"2 definitions changed in 1 file (0 added, 2 modified, 0 removed) since HEAD",
			"a.go:3 function F (3 lines, +1 -1)",
			"  used by b.go:3 function G",
			"  used by b.go:5 function H (at line 7)",
			"a.go:7 function E (1 line, +1 -1)",
			"  used by c.go:5 function L",
		}},
		{3, []string{
			"2 definitions changed in 1 file (0 added, 2 modified, 0 removed) since HEAD",
			"a.go:3 function F (3 lines, +1 -1)",
			"  used by b.go:3 function G",
			"    used by b.go:5 function H (at line 6)",
			"      used by c.go:3 function K",
			"    used by c.go:5 function L",
			"  used by b.go:5 function H (at line 7; see above)",
			"a.go:7 function E (1 line, +1 -1)",
			"  used by c.go:5 function L (see above)",
		}},
	} {
		text, isError := c.tool("changes", map[string]any{"depth": tc.depth})
		if want := strings.Join(tc.want, "\n"); isError || text != want {
			t.Errorf("changes depth=%d = %v\n%s\nwant\n%s", tc.depth, isError, text, want)
		}
	}
}

// TestChangesTypeScript: the users of a changed TypeScript method are
// the definitions whose uses resolve to it (through an import, `this`,
// its interface), not those of another class's method of the name.
func TestChangesTypeScript(t *testing.T) {
	t.Parallel()
	fixture.NeedGit(t)
	dir := t.TempDir()
	fixture.GitInit(t, dir)
	base := "export interface Closer {\n  close(): number;\n}\n\nexport class Base implements Closer {\n  close(): number {\n    return 1;\n  }\n\n  reset(): void {\n    this.close();\n  }\n}\n"
	writeFiles(t, dir, map[string]string{
		"lib/base.ts": base,
		"app.ts": `import { Base, Closer } from './lib/base';

export function shut(b: Base, c: Closer) {
  b.close();
  c.close();
}

class Door {
  close(): number {
    return 0;
  }
}

export function other(d: Door) {
  d.close();
}
`,
	})
	run := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir, cmd.Env = dir, fixture.GitEnv(dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("add", "-A")
	run("commit", "-q", "-m", "base")
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	root.SiteTimeLimit = time.Hour
	cfg, ready := testConfig(root, false)
	c := startServerWith(t, cfg)
	<-ready
	writeFiles(t, dir, map[string]string{"lib/base.ts": strings.Replace(base, "return 1;", "return 2;", 1)})
	text, isError := c.tool("changes", map[string]any{})
	// By name, other (d.close()) would be a user too.
	want := strings.Join([]string{
		"1 definition changed in 1 file (0 added, 1 modified, 0 removed) since HEAD",
		"lib/base.ts:6 method Base.close (3 lines, +1 -1)",
		"  used by app.ts:3 function shut (at line 4)",
		"  used by lib/base.ts:10 method Base.reset (at line 11)",
	}, "\n")
	if isError || text != want {
		t.Errorf("changes = %q, %v; want %q", text, isError, want)
	}
}
