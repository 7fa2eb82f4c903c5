package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestStress drives several `zumba mcp $GOROOT/src` servers, one per
// client, with thousands of mixed requests, many in flight at once, and
// reports errors (which must be 0), each server's peak RSS and the p50 and
// p99 latency. It is slow: run it with
//
//	ZUMBA_STRESS=1 go test -run TestStress -v ./cmd/zumba
//
// ZUMBA_STRESS_DIR picks another project, ZUMBA_STRESS_N the requests per
// client (default 1000).
func TestStress(t *testing.T) {
	if os.Getenv("ZUMBA_STRESS") == "" {
		t.Skip("set ZUMBA_STRESS=1 to run the stress harness")
	}
	dir := os.Getenv("ZUMBA_STRESS_DIR")
	if dir == "" {
		dir = filepath.Join(runtime.GOROOT(), "src")
	}
	perClient := 1000
	if n := os.Getenv("ZUMBA_STRESS_N"); n != "" {
		fmt.Sscan(n, &perClient)
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.Contains(p, "/testdata/") {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatalf("no .go files under %s", dir)
	}
	const clients, inFlight = 4, 8
	var mu sync.Mutex
	var latencies []time.Duration
	var failures []string
	var wg sync.WaitGroup
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat, fails, rss := stressClient(t, dir, files, c, perClient, inFlight)
			mu.Lock()
			defer mu.Unlock()
			latencies = append(latencies, lat...)
			failures = append(failures, fails...)
			t.Logf("client %d: %d requests, server peak RSS %s", c, len(lat), rss)
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(latencies)
	pct := func(p float64) time.Duration {
		if len(latencies) == 0 {
			return 0
		}
		return latencies[min(len(latencies)-1, int(p*float64(len(latencies))))]
	}
	t.Logf("%d requests from %d clients in %v: %d errors, p50 %v, p99 %v, max %v",
		len(latencies), clients, elapsed.Round(time.Millisecond), len(failures), pct(0.50), pct(0.99), pct(1))
	for i, f := range failures {
		if i == 20 {
			t.Errorf("… and %d more", len(failures)-20)
			break
		}
		t.Error(f)
	}
}

// stressClient runs one server and sends it n mixed requests, inFlight at
// a time; it returns the latencies, the failures and the server's peak RSS.
func stressClient(t *testing.T, dir string, files []string, seed, n, inFlight int) ([]time.Duration, []string, string) {
	cmd := exec.Command(zumbaBin, "mcp", dir)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, []string{err.Error()}, "?"
	}
	var tools []string
	type pending struct {
		sent time.Time
		kind string // what the reply must be: "result", "tool", "toolError", "rpcError"
		line string
	}
	var mu sync.Mutex
	waiting := map[int]pending{}
	var latencies []time.Duration
	var failures []string
	slots := make(chan struct{}, inFlight)
	readerDone := make(chan struct{})
	peak := "?"
	go func() {
		defer close(readerDone)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var r struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  *struct{ Code int }
			}
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				mu.Lock()
				failures = append(failures, fmt.Sprintf("client %d: bad line %.200q", seed, sc.Text()))
				mu.Unlock()
				continue
			}
			mu.Lock()
			p, ok := waiting[r.ID]
			delete(waiting, r.ID)
			if !ok {
				failures = append(failures, fmt.Sprintf("client %d: reply to unknown id %d", seed, r.ID))
				mu.Unlock()
				continue
			}
			latencies = append(latencies, time.Since(p.sent))
			var res struct {
				IsError bool `json:"isError"`
				Tools   []struct {
					Name string `json:"name"`
				} `json:"tools"`
			}
			json.Unmarshal(r.Result, &res)
			if r.ID == 1 {
				for _, tool := range res.Tools {
					tools = append(tools, tool.Name)
				}
			}
			bad := false
			switch p.kind {
			case "result":
				bad = r.Error != nil
			case "tool":
				bad = r.Error != nil || res.IsError
			case "toolError":
				bad = r.Error != nil || !res.IsError
			case "rpcError":
				bad = r.Error == nil
			}
			if bad {
				failures = append(failures, fmt.Sprintf("client %d: %.200s → %.300s", seed, p.line, sc.Text()))
			}
			mu.Unlock()
			<-slots
		}
	}()
	send := func(id int, kind, line string) {
		slots <- struct{}{}
		mu.Lock()
		waiting[id] = pending{time.Now(), kind, line}
		mu.Unlock()
		io.WriteString(stdin, line+"\n")
	}
	send(0, "result", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`)
	send(1, "result", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	for len(slots) > 0 {
		time.Sleep(time.Millisecond)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 1))
	names := []string{"Reader", "Serve", "NewScanner", "String", "Error", "Handler", "parse"}
	for id := 2; id < n+2; id++ {
		var kind, line string
		switch r := rng.IntN(10); {
		case r == 0:
			kind, line = "result", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id)
		case r == 1:
			kind, line = "toolError", toolCall(id, "outline", map[string]string{"path": "../" + files[rng.IntN(len(files))]})
		case r == 2:
			kind, line = "rpcError", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/list"}`, id)
		case r < 7 || len(tools) < 2:
			kind, line = "tool", toolCall(id, "outline", map[string]string{"path": files[rng.IntN(len(files))]})
		default:
			tool := tools[rng.IntN(len(tools))]
			args := map[string]string{}
			switch tool {
			case "outline":
				args["path"] = files[rng.IntN(len(files))]
			case "diagnostics":
			default:
				args["name"] = names[rng.IntN(len(names))]
			}
			kind, line = "tool", toolCall(id, tool, args)
		}
		send(id, kind, line)
	}
	for len(slots) > 0 {
		time.Sleep(time.Millisecond)
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
				peak = strings.TrimSpace(v)
			}
		}
	}
	stdin.Close()
	<-readerDone
	if err := cmd.Wait(); err != nil {
		failures = append(failures, fmt.Sprintf("client %d: server exit: %v", seed, err))
	}
	return latencies, failures, peak
}

func toolCall(id int, name string, args map[string]string) string {
	a, _ := json.Marshal(args)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, name, a)
}
