//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSetupNotRegular: setup reads regular files only, without blocking:
// a FIFO or a device, as a project file or a client's file, is named and
// left alone (issue 43, item 11: /dev/zero was read until memory ran
// out, a FIFO hung setup).
func TestSetupNotRegular(t *testing.T) {
	home := setupHome(t)
	project := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(project, "CLAUDE.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(home, ".claude.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, ".gemini", "placeholder"), "", 0o644)
	if err := os.Symlink("/dev/zero", filepath.Join(home, ".gemini", "settings.json")); err != nil {
		t.Fatal(err)
	}
	code, out := setupWithin(t, "--client", "claude,gemini", "--project", project)
	if code != 1 {
		t.Errorf("exit %d; want 1:\n%s", code, out)
	}
	for _, want := range []string{
		"Claude Code: " + filepath.Join(home, ".claude.json") + " is not a regular file",
		"Gemini CLI: " + filepath.Join(home, ".gemini", "settings.json") + " is a link to /dev/zero, which is not a regular file",
		"CLAUDE.md: " + filepath.Join(project, "CLAUDE.md") + " is not a regular file",
		"AGENTS.md: set",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

// TestSetupStdinLink: a project's AGENTS.md linking to /dev/stdin is
// refused without a read (issue 43, item 11: setup waited for input).
func TestSetupStdinLink(t *testing.T) {
	setupHome(t)
	project := t.TempDir()
	if err := os.Symlink("/dev/stdin", filepath.Join(project, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	// The process's standard input (fd 0, which /dev/stdin opens) a
	// pipe nobody writes to: a read of it would wait forever.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	saved, err := unix.Dup(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Dup2(int(r.Fd()), 0); err != nil {
		t.Fatal(err)
	}
	defer func() {
		unix.Dup2(saved, 0)
		unix.Close(saved)
	}()
	code, out := setupWithin(t, "--client", "codex", "--project", project)
	if code != 1 || !strings.Contains(out, "AGENTS.md: "+filepath.Join(project, "AGENTS.md")+" is a link leading out of the project") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// TestSetupAsRoot: setup run by root with a user's HOME keeps the owner
// and mode of the user's files, and gives the files and folders it
// creates the owner of the folder they are in (issue 43, item 14).
func TestSetupAsRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	home := setupHome(t)
	const uid, gid = 54321, 54322
	if err := os.Chown(home, uid, gid); err != nil {
		t.Fatal(err)
	}
	claude := filepath.Join(home, ".claude.json")
	writeFile(t, claude, "{}\n", 0o640)
	if err := os.Chown(claude, uid, gid); err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	if err := os.Chown(project, uid, gid); err != nil {
		t.Fatal(err)
	}
	code, out := setupWithin(t, "--client", "claude,codex", "--project", project)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for path, mode := range map[string]os.FileMode{
		claude:                        0o640,
		claude + ".zumba-backup":      0o640,
		filepath.Join(home, ".codex"): os.ModeDir | 0o755,
		filepath.Join(home, ".codex", "config.toml"): 0o644,
		filepath.Join(project, "AGENTS.md"):          0o644,
	} {
		fi, err := os.Lstat(path)
		if err != nil {
			t.Error(err)
			continue
		}
		st := fi.Sys().(*syscall.Stat_t)
		if st.Uid != uid || st.Gid != gid || fi.Mode() != mode {
			t.Errorf("%s: owner %d:%d mode %v; want %d:%d %v", path, st.Uid, st.Gid, fi.Mode(), uid, gid, mode)
		}
	}
}

// fakeZuno puts a zuno on the PATH that writes its arguments, one a
// line, to the file it returns, prints said and exits with code.
func fakeZuno(t *testing.T, said string, code int) string {
	t.Helper()
	bin := t.TempDir()
	log := filepath.Join(t.TempDir(), "zuno.args")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '" + log + "'\nprintf '%s\\n' '" + said + "'\nexit " + string(rune('0'+code)) + "\n"
	writeFile(t, filepath.Join(bin, "zuno"), script, 0o755)
	t.Setenv("PATH", bin)
	return log
}

// TestSetupZuno: with zuno on the PATH, setup runs `zuno mcp add zumba --
// ZUMBA mcp PROJECT` (the global layer; no zuno.json is written, a
// project's least of all) and says what it said; when zuno refuses
// because it has a zumba entry, setup says how to change it by hand and
// exits 0; without zuno, it prints the command and the global entry.
func TestSetupZuno(t *testing.T) {
	self, err := os.Executable()
	if err == nil {
		self, err = filepath.EvalSymlinks(self)
	}
	if err != nil {
		t.Fatal(err)
	}
	noZunoJSON := func(t *testing.T, dirs ...string) {
		t.Helper()
		for _, d := range dirs {
			filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
				if err == nil && strings.HasPrefix(e.Name(), "zuno.json") {
					t.Errorf("setup wrote %s", p)
				}
				return nil
			})
		}
	}

	t.Run("added", func(t *testing.T) {
		home := setupHome(t)
		log := fakeZuno(t, "Added MCP server zumba", 0)
		project := t.TempDir()
		code, out := setupWithin(t, "--client", "zuno", "--project", project)
		if code != 0 {
			t.Fatalf("exit %d:\n%s", code, out)
		}
		args, _ := os.ReadFile(log)
		if want := "mcp\nadd\nzumba\n--\n" + self + "\nmcp\n" + project + "\n"; string(args) != want {
			t.Errorf("zuno got %q; want %q", args, want)
		}
		for _, w := range []string{"Zuno: ran zuno mcp add zumba -- " + self + " mcp " + project + "; it said:\n    Added MCP server zumba\n", `"timeout"`} {
			if !strings.Contains(out, w) {
				t.Errorf("no %q in:\n%s", w, out)
			}
		}
		noZunoJSON(t, home, project)
	})

	t.Run("installed", func(t *testing.T) {
		setupHome(t)
		log := fakeZuno(t, "ok", 0)
		if code, out := setupWithin(t); code != 0 || !strings.Contains(out, "Zuno: ran zuno mcp add zumba -- "+self+" mcp .;") {
			t.Errorf("exit %d:\n%s", code, out)
		}
		if _, err := os.Stat(log); err != nil {
			t.Error("zuno on the PATH was not run without --client")
		}
	})

	t.Run("exists", func(t *testing.T) {
		home := setupHome(t)
		fakeZuno(t, "Error: MCP server \"zumba\" already exists", 1)
		code, out := setupWithin(t, "--client", "zuno")
		if code != 0 {
			t.Errorf("exit %d:\n%s", code, out)
		}
		for _, w := range []string{
			"it refused:\n    Error: MCP server \"zumba\" already exists\n",
			"change the entry of the global zuno.json",
			"\"type\": \"local\",\n          \"command\": [\"" + self + "\", \"mcp\", \".\"],\n          \"timeout\": 10000\n",
		} {
			if !strings.Contains(out, w) {
				t.Errorf("no %q in:\n%s", w, out)
			}
		}
		noZunoJSON(t, home)
	})

	t.Run("fails", func(t *testing.T) {
		setupHome(t)
		fakeZuno(t, "zuno: cannot read config: /home/u/.config/zuno/zuno.json does not exist", 2)
		code, out := setupWithin(t, "--client", "zuno")
		if code != 1 || !strings.Contains(out, "Zuno: zuno mcp add zumba -- "+self+" mcp . failed (exit status 2); it said:\n    zuno: cannot read config: /home/u/.config/zuno/zuno.json does not exist\n") {
			t.Errorf("exit %d:\n%s", code, out)
		}
	})

	t.Run("dry run", func(t *testing.T) {
		setupHome(t)
		log := fakeZuno(t, "ok", 0)
		if code, out := setupWithin(t, "--dry-run", "--client", "zuno"); code != 0 || !strings.Contains(out, "Zuno: would run zuno mcp add zumba -- "+self+" mcp .\n") {
			t.Errorf("exit %d:\n%s", code, out)
		}
		if _, err := os.Stat(log); err == nil {
			t.Error("a dry run ran zuno")
		}
	})

	t.Run("missing", func(t *testing.T) {
		home := setupHome(t)
		project := filepath.Join(t.TempDir(), "it's")
		os.Mkdir(project, 0o755)
		code, out := setupWithin(t, "--client", "zuno", project)
		if code != 0 {
			t.Errorf("exit %d:\n%s", code, out)
		}
		for _, w := range []string{
			"Zuno: zuno is not on the PATH; register zumba with\n    zuno mcp add zumba -- " + self + " mcp '" + strings.ReplaceAll(project, "'", `'\''`) + "'\n",
			"\"command\": [\"" + self + "\", \"mcp\", \"" + project + "\"],",
		} {
			if !strings.Contains(out, w) {
				t.Errorf("no %q in:\n%s", w, out)
			}
		}
		noZunoJSON(t, home, project)
		// Not installed: not named without --client.
		if code, out := setupWithin(t); strings.Contains(out, "Zuno") {
			t.Errorf("exit %d, Zuno named though not installed:\n%s", code, out)
		}
	})
}
