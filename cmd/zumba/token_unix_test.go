//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadToken (issue 32, item 7): --token-file reads a regular file of
// at most 4 KiB; a FIFO is refused at once (it blocked start-up, silently,
// until a writer came), /dev/zero too (it grew 200 MB/s), and so is a
// file too long to hold a token alone.
func TestReadToken(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "token")
	os.WriteFile(good, []byte("s3cret\n"), 0o600)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(dir, "long")
	os.WriteFile(long, []byte(strings.Repeat("x", maxTokenFile+1)), 0o600)
	if tok, err := readToken(good); err != nil || tok != "s3cret" {
		t.Errorf("readToken(a token file) = %q, %v; want s3cret", tok, err)
	}
	for _, tc := range []struct{ file, want string }{
		{fifo, "not a regular file"},
		{"/dev/zero", "not a regular file"},
		{long, "longer than 4096 bytes"},
		{dir, "not a regular file"},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := readToken(tc.file)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("readToken(%s) = %v; want an error saying %q", tc.file, err, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("readToken(%s) still reading after 10 s", tc.file)
		}
	}
}
