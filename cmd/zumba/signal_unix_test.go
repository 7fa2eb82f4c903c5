//go:build unix

package main

import (
	"bufio"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalDuringCall: with a named pipe as the diagnostics file and
// .git/info/exclude, the server still indexes, answers, and exits 0 soon
// after SIGTERM with a call just sent (issue 11: defects 2 and 11, and
// SIGTERM within a second whatever a call is blocked on).
func TestSignalDuringCall(t *testing.T) {
	t.Parallel()
	dir := project(t)
	fifo := filepath.Join(t.TempDir(), "diagnostics.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("mkdir", "-p", filepath.Join(dir, ".git", "info")).Run(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, ".git", "info", "exclude"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(zumbaBin, "mcp", dir, "--diagnostics", fifo)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewReader(stdout)
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"diagnostics","arguments":{}}}`+"\n")
	answered := make(chan string, 1)
	go func() {
		line, _ := lines.ReadString('\n')
		answered <- line
	}()
	select {
	case line := <-answered:
		if !strings.Contains(line, "not a regular file") {
			t.Errorf("diagnostics with a named pipe = %q; want an error saying it is not a regular file", line)
		}
	case <-time.After(10 * time.Second):
		t.Error("no answer from diagnostics with a named pipe in 10 s")
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"find_symbol","arguments":{"name":"Serve"}}}`+"\n")
	cmd.Process.Signal(syscall.SIGTERM)
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("zumba mcp after SIGTERM: %v; want exit 0", err)
		}
		t.Logf("exited %v after SIGTERM", time.Since(start).Round(time.Millisecond))
	case <-time.After(5 * time.Second):
		t.Fatal("zumba mcp still running 5 s after SIGTERM")
	}
}
