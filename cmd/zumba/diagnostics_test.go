package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/zumba-dev/zumba/mcpserver"
	"github.com/zumba-dev/zumba/search"
)

// capture runs f with os.Stdout and os.Stderr sent to files, and returns
// what it printed on each.
func capture(t *testing.T, f func() int) (code int, stdout, stderr string) {
	t.Helper()
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	errf, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	oldOut, oldErr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = out, errf
	code = f()
	os.Stdout, os.Stderr = oldOut, oldErr
	read := func(f *os.File) string {
		if _, err := f.Seek(0, 0); err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(f)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		return string(b)
	}
	return code, read(out), read(errf)
}

func TestDiagnosticsCommand(t *testing.T) {
	tmp := t.TempDir()
	project := filepath.Join(tmp, "project")
	if err := os.MkdirAll(filepath.Join(project, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	diag := filepath.Join(tmp, "diagnostics.json")
	data := `[{"path":"src/a.go","line":3,"column":2,"severity":"error","message":"undefined: x"},
{"path":"src/b.go","line":1,"column":1,"severity":"warning","message":"unused"}]`
	if err := os.WriteFile(diag, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := search.OpenRoot(project)
	if err != nil {
		t.Fatal(err)
	}
	srv := mcpserver.New(mcpserver.Config{Root: root, Diagnostics: diag})
	all, _ := srv.CallArgs(context.Background(), "diagnostics", map[string]string{})
	one, _ := srv.CallArgs(context.Background(), "diagnostics", map[string]string{"path": "src/b.go"})
	if all != "src/a.go:3:2: error: undefined: x\nsrc/b.go:1:1: warning: unused" {
		t.Fatalf("tool answer = %q", all)
	}

	for _, tc := range []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"--diagnostics", diag, project}, 0, all + "\n", ""},
		{[]string{project, "--diagnostics", diag, "--path", "src/b.go"}, 0, one + "\n", ""},
		{[]string{"--path", "src/c.go", "--diagnostics", diag, project}, 0, "No diagnostics.\n", ""},
		{[]string{"--path", "../x", "--diagnostics", diag, project}, 1, "", "zumba: path outside the project: ../x\n"},
		{[]string{project}, 2, "", "zumba: diagnostics needs --diagnostics FILE; usage: zumba diagnostics [--path P] --diagnostics FILE [DIR]\n"},
		{[]string{"--diagnostics", diag, project, project}, 2, "", "zumba: diagnostics takes at most one project folder; usage: zumba diagnostics [--path P] --diagnostics FILE [DIR]\n"},
		{[]string{"--diagnostics", diag, filepath.Join(tmp, "nope")}, 1, "", "zumba: project folder " + filepath.Join(tmp, "nope") + " does not exist\n"},
		{[]string{"--diagnostics", filepath.Join(tmp, "later.json"), project}, 0, "No diagnostics.\n",
			"zumba: diagnostics file " + filepath.Join(tmp, "later.json") + " does not exist yet; the diagnostics tool answers \"No diagnostics.\" until it does\n"},
	} {
		code, stdout, stderr := capture(t, func() int { return run(append([]string{"diagnostics"}, tc.args...)) })
		if code != tc.code || stdout != tc.stdout || stderr != tc.stderr {
			t.Errorf("zumba diagnostics %q = exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr %q",
				tc.args, code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
		}
	}

	// Run from inside the project, DIR defaults to ".".
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	if err := os.Chdir(project); err != nil {
		t.Fatal(err)
	}
	if code, stdout, _ := capture(t, func() int { return run([]string{"diagnostics", "--diagnostics", diag}) }); code != 0 || stdout != all+"\n" {
		t.Errorf("zumba diagnostics --diagnostics F (in the project) = exit %d, %q; want 0, %q", code, stdout, all+"\n")
	}
}
