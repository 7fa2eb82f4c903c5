package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zumba-dev/zumba/internal/fixture"
)

// TestLoad compares one shared HTTP server with one stdio server per
// client: CLIENTS clients each make CALLS mixed tool calls on the Go
// standard library (GOROOT/src), and the test reports errors, latency
// percentiles and the servers' memory. It runs only with ZUMBA_LOAD=1,
// listens on loopback only, and is bounded by CLIENTS × CALLS:
//
//	ZUMBA_LOAD=1 nice go test ./cmd/zumba -run TestLoad -v -timeout 60m
//
// ZUMBA_LOAD_CLIENTS (32) and ZUMBA_LOAD_CALLS (500) change the load.
func TestLoad(t *testing.T) {
	if os.Getenv("ZUMBA_LOAD") != "1" {
		t.Skip("set ZUMBA_LOAD=1 to run the load test")
	}
	clients, calls := envInt("ZUMBA_LOAD_CLIENTS", 32), envInt("ZUMBA_LOAD_CALLS", 500)
	src := filepath.Join(fixture.GOROOT(), "src")
	if _, err := os.Stat(filepath.Join(src, "net", "http", "server.go")); err != nil {
		t.Skipf("no Go standard library source: %v", err)
	}

	t.Run("http", func(t *testing.T) {
		hs := startHTTP(t, src, []string{"ZUMBA_TOKEN="})
		waitIndexed(t, hs.log)
		pid := hs.cmd.Process.Pid
		var peak rssPeak
		stopSampling := peak.sample([]int{pid})
		lat, errs := runLoad(t, clients, calls, func(i int) (*mcp.ClientSession, error) {
			// Half the clients speak 2026-07-28, half 2025-11-25.
			version := ""
			if i%2 == 1 {
				version = "2025-11-25"
			}
			client := mcp.NewClient(&mcp.Implementation{Name: "zumba-load", Version: "1"}, nil)
			return client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.url}, &mcp.ClientSessionOptions{ProtocolVersion: version})
		})
		stopSampling()
		report(t, fmt.Sprintf("one HTTP server, %d clients", clients), lat, errs, &peak)
		if err := hs.stop(t); err != nil {
			t.Errorf("stop: %v", err)
		}
	})

	t.Run("stdio", func(t *testing.T) {
		var mu sync.Mutex
		var pids []int
		var peak rssPeak
		var stopSampling func()
		var ready sync.WaitGroup
		ready.Add(clients)
		lat, errs := runLoad(t, clients, calls, func(i int) (*mcp.ClientSession, error) {
			cmd := exec.Command(zumbaBin, "mcp", src)
			var log strings.Builder
			cmd.Stderr = &syncWriter{w: &log, mu: &mu}
			client := mcp.NewClient(&mcp.Implementation{Name: "zumba-load", Version: "1"}, nil)
			cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
			mu.Lock()
			if err == nil {
				pids = append(pids, cmd.Process.Pid)
			}
			mu.Unlock()
			// Every server indexes before the calls start, as the HTTP
			// server had.
			waitIndexed(t, func() string { mu.Lock(); defer mu.Unlock(); return log.String() })
			ready.Done()
			ready.Wait()
			mu.Lock()
			if stopSampling == nil {
				stopSampling = peak.sample(slices.Clone(pids))
			}
			mu.Unlock()
			return cs, err
		})
		stopSampling()
		report(t, fmt.Sprintf("%d stdio servers, one client each", clients), lat, errs, &peak)
	})
}

// runLoad runs clients sessions at once, each making calls mixed tool
// calls, and returns every call's latency and the number of failures.
func runLoad(t *testing.T, clients, calls int, connect func(i int) (*mcp.ClientSession, error)) ([]time.Duration, int) {
	mix := []struct {
		tool string
		args map[string]any
	}{
		{"outline", map[string]any{"path": "net/http/server.go"}},
		{"outline", map[string]any{"path": "strings/builder.go"}},
		{"find_symbol", map[string]any{"name": "Server.Serve"}},
		{"find_symbol", map[string]any{"name": "NewReader"}},
		{"find_symbol", map[string]any{"name": "Serve"}},
		{"find_references", map[string]any{"name": "ErrUnexpectedEOF"}},
		{"find_references", map[string]any{"name": "Builder", "path": "strings/**"}},
		{"diagnostics", map[string]any{}},
	}
	var mu sync.Mutex
	var all []time.Duration
	errs := 0
	var wg sync.WaitGroup
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cs, err := connect(i)
			if err != nil {
				t.Errorf("client %d: connect: %v", i, err)
				mu.Lock()
				errs += calls
				mu.Unlock()
				return
			}
			defer cs.Close()
			lat := make([]time.Duration, 0, calls)
			bad := 0
			for n := 0; n < calls; n++ {
				c := mix[(i+n)%len(mix)]
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				start := time.Now()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
				lat = append(lat, time.Since(start))
				cancel()
				if err != nil || res.IsError {
					bad++
					if bad <= 3 {
						t.Errorf("client %d: %s %v: %v (isError %v)", i, c.tool, c.args, err, res != nil && res.IsError)
					}
				}
			}
			mu.Lock()
			all = append(all, lat...)
			errs += bad
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	return all, errs
}

// report logs the figures of one run.
func report(t *testing.T, what string, lat []time.Duration, errs int, peak *rssPeak) {
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	var total time.Duration
	for _, d := range lat {
		total += d
	}
	t.Logf("%s: %d calls, %d errors; latency p50 %v, p90 %v, p99 %v, max %v; peak RSS of the server(s) %.0f MiB",
		what, len(lat), errs, pct(0.5), pct(0.9), pct(0.99), pct(1), float64(peak.max)/(1<<20))
	if errs > 0 {
		t.Errorf("%s: %d errors; want 0", what, errs)
	}
}

// rssPeak is the largest total resident memory seen of a set of processes.
type rssPeak struct {
	mu  sync.Mutex
	max int64
}

// sample reads the processes' total RSS every 100 ms until stopped.
func (p *rssPeak) sample(pids []int) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			var sum int64
			for _, pid := range pids {
				sum += rss(pid)
			}
			p.mu.Lock()
			p.max = max(p.max, sum)
			p.mu.Unlock()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}

// rss is a process's resident memory in bytes, from /proc (0 elsewhere).
func rss(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// waitIndexed waits until a server's log says its index is complete.
func waitIndexed(t *testing.T, log func() string) {
	deadline := time.Now().Add(20 * time.Minute)
	for !strings.Contains(log(), "index complete") {
		if time.Now().After(deadline) {
			t.Errorf("no complete index after 20 minutes: %s", log())
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// syncWriter serializes writes to a builder that is also read.
type syncWriter struct {
	w  *strings.Builder
	mu *sync.Mutex
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
