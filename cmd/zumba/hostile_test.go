package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// hostileMemoryLimit is the memory limit `zumba mcp` sets (GOMEMLIMIT):
// the bound a hostile client must not push the server's peak RSS past.
const hostileMemoryLimit = 768 << 20

// TestHostileBodies (issue 32, item 1): many connections each sending a
// 60 MiB body minus its last byte, with a Content-Length and chunked,
// must not hold the bodies in memory at once. The server's peak RSS
// (VmHWM) stays under its memory limit, and it still answers.
// ZUMBA_HOSTILE=1 runs it (it pushes ~7.5 GB through loopback);
// ZUMBA_HOSTILE_CONNS sets the connections (64).
func TestHostileBodies(t *testing.T) {
	if os.Getenv("ZUMBA_HOSTILE") != "1" {
		t.Skip("set ZUMBA_HOSTILE=1 to send 64 bodies of 60 MiB to a server and measure its peak RSS")
	}
	conns := envInt("ZUMBA_HOSTILE_CONNS", 64)
	const size = 60 << 20
	dir := t.TempDir()
	os.WriteFile(dir+"/main.go", []byte("package main\n\nfunc main() {}\n"), 0o644)
	hs := startHTTP(t, dir, nil)
	u, _ := url.Parse(hs.url)
	pid := hs.cmd.Process.Pid
	for _, chunked := range []bool{false, true} {
		start := time.Now()
		var wg sync.WaitGroup
		var mu sync.Mutex
		sent := map[string]int{}
		for range conns {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, status := sendHostileBody(u.Host, size-1, chunked)
				mu.Lock()
				sent[fmt.Sprintf("%s after %d MiB", status, n>>20)]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		t.Logf("chunked=%v: %d connections in %v: %v; peak RSS %d MiB", chunked, conns, time.Since(start).Round(time.Millisecond), sent, procStatusKB(pid, "VmHWM")>>10)
	}
	peak := procStatusKB(pid, "VmHWM") << 10
	if peak <= 0 || peak >= hostileMemoryLimit {
		t.Errorf("peak RSS %d MiB; want under the memory limit, %d MiB", peak>>20, hostileMemoryLimit>>20)
	}
	resp, err := http.Post(hs.url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatalf("ping after the bodies: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("ping after the bodies: %s", resp.Status)
	}
}

// sendHostileBody posts n bytes of a tools/call body to host and never
// ends it: with a Content-Length one byte longer, or chunked without the
// last chunk. It returns how much was written and the status the server
// answered (or the error that ended the connection), waiting at most 70 s
// (the server's read timeout was 64 s) for it.
func sendHostileBody(host string, n int, chunked bool) (int, string) {
	c, err := net.Dial("tcp", host)
	if err != nil {
		return 0, err.Error()
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(70 * time.Second))
	head := "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\n"
	if chunked {
		head += "Transfer-Encoding: chunked\r\n\r\n"
	} else {
		head += "Content-Length: " + strconv.Itoa(n+1) + "\r\n\r\n"
	}
	if _, err := io.WriteString(c, head); err != nil {
		return 0, err.Error()
	}
	const chunk = 1 << 20
	buf := bytes.Repeat([]byte("a"), chunk)
	copy(buf, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"find_references","arguments":{"name":"`)
	written := 0
	for written < n {
		m := min(chunk, n-written)
		var err error
		if chunked {
			_, err = fmt.Fprintf(c, "%x\r\n%s\r\n", m, buf[:m])
		} else {
			_, err = c.Write(buf[:m])
		}
		if err != nil {
			break
		}
		written += m
	}
	line := make([]byte, 64)
	k, err := c.Read(line)
	if k == 0 {
		if err != nil {
			return written, "closed"
		}
		return written, "nothing"
	}
	status, _, _ := strings.Cut(string(line[:k]), "\r\n")
	return written, status
}

// procStatusKB reads a field in kB of /proc/PID/status, or -1.
func procStatusKB(pid int, field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err == nil {
				return kb
			}
		}
	}
	return -1
}
