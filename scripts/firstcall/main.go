// Command firstcall times the first call of every tool on a cold server,
// as an agent meets it in a fresh task: for each call it starts its own
// `zumba mcp DIR` with an empty disk cache, sends the call as soon as the
// server takes requests, and times the answer. A strict client gives up
// at 5 s (and reports the call's outcome as uncertain); the goal is 4.5 s,
// whether the answer is complete or says what it covered. The calls go
// over stdio (initialize first, 2025-06-18) and over Streamable HTTP
// without a session (2026-07-28, one POST). scripts/firstcall.sh runs it.
//
// Output, one line per call:
//
//	call TRANSPORT TOOL ARGS MS STATUS met|MISSED
//
// where STATUS is complete, partial (the answer says what it covered),
// error (isError) or timeout (no answer within -timeout).
//
// Usage:
//
//	firstcall -server ./zumba -dir REPO [-profile go|linux] [-transports stdio,http]
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"time"
)

// step is one first call: a tool and its arguments.
type step struct {
	tool string
	args map[string]any
}

// profiles are the calls for the trees the benchmark knows: a file to
// outline, rare and common names, a description.
var profiles = map[string][]step{
	"go": {
		{"outline", map[string]any{"path": "net/http/server.go"}},
		{"outline", map[string]any{"path": "."}},
		{"find_symbol", map[string]any{"name": "ParseMediaType"}},
		{"find_symbol", map[string]any{"name": "String"}},
		{"find_symbol", map[string]any{"name": "err"}},
		{"read_symbol", map[string]any{"name": "ParseMediaType"}},
		{"find_references", map[string]any{"name": "ParseMediaType"}},
		{"find_references", map[string]any{"name": "Getpagesize", "group": "definition"}},
		{"find_references", map[string]any{"name": "ServeHTTP", "code": true}},
		{"find_references", map[string]any{"name": "ParseMediaType", "depth": 3}},
		{"find_code", map[string]any{"query": "parse media type parameters"}},
		{"changes", map[string]any{}},
		{"diagnostics", map[string]any{}},
	},
	"linux": {
		{"outline", map[string]any{"path": "kernel/sched/core.c"}},
		{"outline", map[string]any{"path": "."}},
		{"find_symbol", map[string]any{"name": "ext4_fill_super"}},
		{"find_symbol", map[string]any{"name": "kmalloc"}},
		{"find_symbol", map[string]any{"name": "dev"}},
		{"read_symbol", map[string]any{"name": "ext4_fill_super"}},
		{"find_references", map[string]any{"name": "tcp_v4_connect"}},
		{"find_references", map[string]any{"name": "tcp_v4_connect", "group": "definition"}},
		{"find_references", map[string]any{"name": "kmem_cache_alloc_node", "code": true}},
		{"find_references", map[string]any{"name": "ext4_fill_super", "depth": 3}},
		{"find_code", map[string]any{"query": "allocate a socket buffer"}},
		{"changes", map[string]any{}},
		{"diagnostics", map[string]any{}},
	},
}

var partialRE = regexp.MustCompile(`(?i)(of the project|later call|not complete|incomplete|time limit|still being built)`)

func main() {
	server := flag.String("server", "", "the zumba binary")
	dir := flag.String("dir", "", "the project folder (a git repository with an uncommitted change, for changes)")
	profile := flag.String("profile", "", "go or linux (default: guessed from the tree)")
	transports := flag.String("transports", "stdio,http", "comma-separated: stdio, http")
	goal := flag.Duration("goal", 4500*time.Millisecond, "the time each first call must answer within")
	timeout := flag.Duration("timeout", 60*time.Second, "the longest wait for one answer")
	only := flag.String("only", "", "only the calls of these comma-separated tools")
	flag.Parse()
	if *server == "" || *dir == "" {
		fmt.Fprintln(os.Stderr, "usage: firstcall -server ZUMBA -dir DIR [-profile go|linux] [-transports stdio,http]")
		os.Exit(2)
	}
	if *profile == "" {
		*profile = guess(*dir)
	}
	steps, ok := profiles[*profile]
	if !ok {
		fmt.Fprintf(os.Stderr, "firstcall: no profile %q (go, linux)\n", *profile)
		os.Exit(2)
	}
	if *only != "" {
		var kept []step
		for _, st := range steps {
			if slices.Contains(strings.Split(*only, ","), st.tool) {
				kept = append(kept, st)
			}
		}
		steps = kept
	}
	missed := 0
	for _, tr := range strings.Split(*transports, ",") {
		for _, st := range steps {
			d, status, err := firstCall(*server, *dir, tr, st, *timeout)
			if err != nil {
				fmt.Fprintf(os.Stderr, "firstcall: %s %s: %v\n", tr, st.tool, err)
				os.Exit(1)
			}
			verdict := "met"
			if d > *goal || status == "timeout" || status == "error" {
				verdict, missed = "MISSED", missed+1
			}
			args, _ := json.Marshal(st.args)
			fmt.Printf("call\t%s\t%s\t%s\t%.0f\t%s\t%s\n", tr, st.tool, args, float64(d)/float64(time.Millisecond), status, verdict)
		}
	}
	fmt.Printf("summary\t%d calls over %s\t%d missed the goal of %v\n", len(steps)*len(strings.Split(*transports, ",")), *transports, missed, *goal)
}

// guess names the profile of a tree by a file it holds.
func guess(dir string) string {
	if _, err := os.Stat(dir + "/kernel/sched/core.c"); err == nil {
		return "linux"
	}
	return "go"
}

// firstCall starts a server with an empty cache, sends st as its first
// call over transport tr, and times the answer from the moment it is sent.
func firstCall(server, dir, tr string, st step, timeout time.Duration) (time.Duration, string, error) {
	cache, err := os.MkdirTemp("", "zumba-firstcall-cache-")
	if err != nil {
		return 0, "", err
	}
	defer os.RemoveAll(cache)
	args := []string{"mcp", dir}
	if tr == "http" {
		args = append(args, "--http", "127.0.0.1:0")
	}
	cmd := exec.Command(server, args...)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, "", err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, "", err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return 0, "", err
	}
	if err := cmd.Start(); err != nil {
		return 0, "", err
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "zumba: serving MCP at "); ok {
				urls <- u
			}
		}
	}()
	switch tr {
	case "stdio":
		return stdioCall(stdin, stdout, st, timeout)
	case "http":
		select {
		case u := <-urls:
			return httpCall(u, st, timeout)
		case <-time.After(timeout):
			return 0, "", errors.New("the server printed no URL")
		}
	}
	return 0, "", fmt.Errorf("no transport %q (stdio, http)", tr)
}

type reply struct {
	ID     json.RawMessage `json:"id"`
	Result *struct {
		Content []struct{ Text string }
		IsError bool
	}
	Error *struct{ Message string }
}

func status(r *reply) string {
	switch {
	case r.Error != nil || r.Result == nil:
		return "error"
	case r.Result.IsError:
		return "error"
	case len(r.Result.Content) > 0 && partialRE.MatchString(lastLine(r.Result.Content[0].Text)):
		return "partial"
	}
	return "complete"
}

func lastLine(s string) string {
	return s[strings.LastIndexByte(s, '\n')+1:]
}

func stdioCall(in io.Writer, out io.Reader, st step, timeout time.Duration) (time.Duration, string, error) {
	lines := make(chan []byte, 4)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(lines)
	}()
	send := func(v any) error {
		b, _ := json.Marshal(v)
		_, err := in.Write(append(b, '\n'))
		return err
	}
	if err := send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "firstcall", "version": "1"},
	}}); err != nil {
		return 0, "", err
	}
	if _, ok := <-lines; !ok {
		return 0, "", errors.New("no answer to initialize")
	}
	send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	start := time.Now()
	if err := send(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{"name": st.tool, "arguments": st.args}}); err != nil {
		return 0, "", err
	}
	select {
	case l, ok := <-lines:
		if !ok {
			return 0, "", errors.New("the server closed its output")
		}
		d := time.Since(start)
		var r reply
		if err := json.Unmarshal(l, &r); err != nil {
			return 0, "", fmt.Errorf("answer %q: %w", l, err)
		}
		return d, status(&r), nil
	case <-time.After(timeout):
		return timeout, "timeout", nil
	}
}

func httpCall(url string, st step, timeout time.Duration) (time.Duration, string, error) {
	const version = "2026-07-28"
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{
		"name": st.tool, "arguments": st.args,
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": version},
	}})
	req, err := http.NewRequest("POST", url, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", version)
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", st.tool)
	client := &http.Client{Timeout: timeout}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) || strings.Contains(err.Error(), "Timeout") {
			return timeout, "timeout", nil
		}
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	d := time.Since(start)
	if err != nil {
		return 0, "", err
	}
	var r reply
	if err := json.Unmarshal(b, &r); err != nil {
		return 0, "", fmt.Errorf("answer %d %q: %w", resp.StatusCode, b, err)
	}
	return d, status(&r), nil
}
