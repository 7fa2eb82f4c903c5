// Command stress drives one `zumba mcp` server with thousands of mixed
// requests from several concurrent clients and reports errors, latency
// percentiles and the server's peak memory.
//
//	go run ./scripts/stress -zumba ./zumba -dir "$(go env GOROOT)/src"
//
// A client here is a goroutine with its own ids on the server's one stdio
// connection, as an MCP host with several agents would multiplex it. The
// exit code is 1 when any request failed: a JSON-RPC error, an isError
// result for a request that is valid, or a reply that never came.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

func main() {
	zumba := flag.String("zumba", "./zumba", "the zumba binary")
	dir := flag.String("dir", "", "the project to serve (default: GOROOT/src)")
	clients := flag.Int("clients", 6, "concurrent clients")
	total := flag.Int("requests", 3000, "requests in all")
	timeout := flag.Duration("timeout", 60*time.Second, "longest wait for one reply")
	flag.Parse()
	if *dir == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			fail(fmt.Errorf("go env GOROOT: %w", err))
		}
		*dir = filepath.Join(strings.TrimSpace(string(out)), "src")
	}
	files := sampleFiles(*dir, 400)
	if len(files) == 0 {
		fail(fmt.Errorf("no .go files under %s", *dir))
	}

	cmd := exec.Command(*zumba, "mcp", *dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		fail(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fail(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		fail(err)
	}

	var mu sync.Mutex
	waiting := map[int]chan json.RawMessage{}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var m struct {
				ID int `json:"id"`
			}
			line := append([]byte(nil), sc.Bytes()...)
			if json.Unmarshal(line, &m) != nil {
				fmt.Fprintf(os.Stderr, "stress: a reply that is not JSON-RPC: %.200s\n", line)
				continue
			}
			mu.Lock()
			ch := waiting[m.ID]
			delete(waiting, m.ID)
			mu.Unlock()
			if ch != nil {
				ch <- line
			}
		}
	}()
	var writeMu sync.Mutex
	call := func(id int, method string, params any) (json.RawMessage, time.Duration, error) {
		ch := make(chan json.RawMessage, 1)
		mu.Lock()
		waiting[id] = ch
		mu.Unlock()
		msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		start := time.Now()
		writeMu.Lock()
		_, err := stdin.Write(append(msg, '\n'))
		writeMu.Unlock()
		if err != nil {
			return nil, 0, err
		}
		select {
		case r := <-ch:
			return r, time.Since(start), nil
		case <-time.After(*timeout):
			return nil, *timeout, fmt.Errorf("no reply to %s within %v", method, *timeout)
		}
	}
	if _, _, err := call(0, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "stress", "version": "1"}}); err != nil {
		fail(err)
	}

	names := []string{"err", "Reader", "ServeHTTP", "NewTicker", "Getpagesize", "Fprintf", "String", "Close", "ParseFile", "utf8", "x", "Server.Serve", "http.Request", "nosuchname_xyz"}
	type sample struct {
		kind string
		d    time.Duration
	}
	var (
		resMu   sync.Mutex
		samples []sample
		errs    []string
	)
	var wg sync.WaitGroup
	per := *total / *clients
	for c := range *clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), 7))
			for i := range per {
				id := 1 + c*per + i
				var kind, method string
				var params any
				switch r := rng.IntN(10); {
				case r < 4:
					kind, method = "outline", "tools/call"
					params = tool("outline", map[string]string{"path": files[rng.IntN(len(files))]})
				case r < 6:
					kind, method = "find_references", "tools/call"
					args := map[string]string{"name": names[rng.IntN(len(names))]}
					if rng.IntN(2) == 0 {
						args["path"] = "net/**, *.go"
					}
					params = tool("find_references", args)
				case r < 8:
					kind, method = "find_symbol", "tools/call"
					params = tool("find_symbol", map[string]string{"name": names[rng.IntN(len(names))]})
				case r < 9:
					kind, method = "diagnostics", "tools/call"
					params = tool("diagnostics", map[string]string{})
				default:
					kind, method, params = "ping", "ping", map[string]any{}
				}
				reply, d, err := call(id, method, params)
				problem := ""
				if err != nil {
					problem = err.Error()
				} else {
					problem = check(reply)
				}
				resMu.Lock()
				samples = append(samples, sample{kind, d})
				if problem != "" {
					errs = append(errs, fmt.Sprintf("%s %v: %s", kind, params, problem))
				}
				resMu.Unlock()
			}
		}()
	}
	wg.Wait()
	peak := peakRSS(cmd.Process.Pid)
	stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			errs = append(errs, "server exit: "+err.Error())
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		errs = append(errs, "server did not exit within 30 s of the end of input")
	}

	fmt.Printf("requests: %d from %d clients on %s\n", len(samples), *clients, *dir)
	fmt.Printf("errors: %d\n", len(errs))
	for _, e := range errs[:min(len(errs), 20)] {
		fmt.Printf("  %s\n", e)
	}
	fmt.Printf("peak RSS: %d MB\n", peak>>10)
	kinds := []string{"all", "outline", "find_symbol", "find_references", "diagnostics", "ping"}
	fmt.Printf("%-16s %6s %9s %9s %9s\n", "kind", "n", "p50 ms", "p99 ms", "max ms")
	for _, k := range kinds {
		var ds []time.Duration
		for _, s := range samples {
			if k == "all" || s.kind == k {
				ds = append(ds, s.d)
			}
		}
		if len(ds) == 0 {
			continue
		}
		slices.Sort(ds)
		q := func(p float64) float64 { return float64(ds[int(p*float64(len(ds)-1))].Microseconds()) / 1000 }
		fmt.Printf("%-16s %6d %9.1f %9.1f %9.1f\n", k, len(ds), q(0.5), q(0.99), q(1))
	}
	if len(errs) > 0 {
		os.Exit(1)
	}
}

func tool(name string, args map[string]string) map[string]any {
	return map[string]any{"name": name, "arguments": args}
}

// check returns what is wrong with a reply, or "".
func check(reply json.RawMessage) string {
	var r struct {
		Error  *struct{ Message string } `json:"error"`
		Result *struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal(reply, &r); err != nil {
		return "bad reply: " + err.Error()
	}
	if r.Error != nil {
		return "JSON-RPC error: " + r.Error.Message
	}
	if r.Result != nil && r.Result.IsError {
		text := ""
		if len(r.Result.Content) > 0 {
			text = r.Result.Content[0].Text
		}
		return "isError: " + text
	}
	return ""
}

// sampleFiles picks up to n .go files of dir, project-relative.
func sampleFiles(dir string, n int) []string {
	var all []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		if fi, err := d.Info(); err == nil && fi.Size() < 512<<10 {
			rel, _ := filepath.Rel(dir, p)
			all = append(all, filepath.ToSlash(rel))
		}
		return nil
	})
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	return all[:min(n, len(all))]
}

// peakRSS reads the process's peak resident memory in KiB (Linux).
func peakRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), &kb)
			return kb
		}
	}
	return 0
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "stress: %v\n", err)
	os.Exit(1)
}
