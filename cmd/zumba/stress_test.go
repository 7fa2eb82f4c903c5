package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/fixture"
)

// TestStress drives several `zumba mcp $GOROOT/src` servers, one per
// client, with thousands of mixed requests, many in flight at once, and
// two more on a hostile project (hostileProject: FIFOs, a link to a FIFO,
// a FIFO exclude file, link fan-out, deeply nested files, a 15 MB file;
// issue 11), and reports errors (which must be 0), the calls slower than
// a client's 5 s timeout, each server's peak RSS and the p50 and p99
// latency. A call fails when its answer is wrong or later than
// grossLatency; slower than 5 s is counted and reported, since a loaded
// machine stretches every call. It is slow: run it with
//
//	ZUMBA_STRESS=1 go test -run TestStress -v ./cmd/zumba
//
// ZUMBA_STRESS_DIR picks another project for the first servers,
// ZUMBA_STRESS_N the requests per client (default 1000),
// ZUMBA_STRESS_CLIENTS and ZUMBA_STRESS_HOSTILE the number of servers on
// each project (default 4 and 2).
func TestStress(t *testing.T) {
	if os.Getenv("ZUMBA_STRESS") == "" {
		t.Skip("set ZUMBA_STRESS=1 to run the stress harness")
	}
	dir := os.Getenv("ZUMBA_STRESS_DIR")
	if dir == "" {
		dir = filepath.Join(fixture.GOROOT(), "src")
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
	hostile := hostileProject(t)
	const inFlight = 8
	clients, hostileClients := 4, 2
	if n := os.Getenv("ZUMBA_STRESS_CLIENTS"); n != "" {
		fmt.Sscan(n, &clients)
	}
	if n := os.Getenv("ZUMBA_STRESS_HOSTILE"); n != "" {
		fmt.Sscan(n, &hostileClients)
	}
	var mu sync.Mutex
	var latencies []time.Duration
	var failures []string
	byCall := map[string][]time.Duration{}
	var wg sync.WaitGroup
	start := time.Now()
	for c := range clients + hostileClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			project, mix := dir, projectMix(files)
			if c >= clients {
				project, mix = hostile, hostileMix
			}
			calls, fails, rss := stressClient(t, project, mix, c, perClient, inFlight)
			mu.Lock()
			defer mu.Unlock()
			var lat []time.Duration
			for _, cl := range calls {
				lat = append(lat, cl.latency)
				byCall[cl.label] = append(byCall[cl.label], cl.latency)
			}
			latencies = append(latencies, lat...)
			failures = append(failures, fails...)
			slow := 0
			for _, l := range lat {
				if l > clientTimeout {
					slow++
				}
			}
			t.Logf("client %d (%s): %d requests, %d slower than %v, server peak RSS %s", c, filepath.Base(project), len(lat), slow, clientTimeout, rss)
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
	slow := len(latencies) - sort.Search(len(latencies), func(i int) bool { return latencies[i] > clientTimeout })
	t.Logf("%d requests from %d clients in %v: %d errors, %d slower than %v, p50 %v, p99 %v, max %v",
		len(latencies), clients+hostileClients, elapsed.Round(time.Millisecond), len(failures), slow, clientTimeout, pct(0.50), pct(0.99), pct(1))
	// Each kind of call, slowest first: which calls are slow.
	labels := slices.Collect(maps.Keys(byCall))
	for _, l := range labels {
		slices.Sort(byCall[l])
	}
	slices.SortFunc(labels, func(a, b string) int { return cmp.Compare(slices.Max(byCall[b]), slices.Max(byCall[a])) })
	for _, l := range labels {
		ls := byCall[l]
		over := len(ls) - sort.Search(len(ls), func(i int) bool { return ls[i] > clientTimeout })
		t.Logf("  %-60.60s %4d calls, %3d over %v, p50 %8v, max %8v", l, len(ls), over, clientTimeout, ls[len(ls)/2].Round(time.Millisecond), ls[len(ls)-1].Round(time.Millisecond))
	}
	for i, f := range failures {
		if i == 20 {
			t.Errorf("… and %d more", len(failures)-20)
			break
		}
		t.Error(f)
	}
}

// clientTimeout is a client's default timeout (seeds/001): every call
// should be answered within it.
const clientTimeout = 5 * time.Second

// grossLatency is the latency that fails a call outright: far past a
// client's timeout whatever the machine's load.
const grossLatency = 30 * time.Second

// mix chooses a request: what its reply must be ("result", "tool",
// "toolError", "answer": a tool's result or failure, "rpcError") and its
// line; tools are the server's tools.
type mix func(rng *rand.Rand, id int, tools []string) (kind, line string)

// projectMix is the mix for a real project of Go files.
func projectMix(files []string) mix {
	names := []string{"Reader", "Serve", "NewScanner", "String", "Error", "Handler", "parse"}
	return func(rng *rand.Rand, id int, tools []string) (string, string) {
		switch r := rng.IntN(10); {
		case r == 0:
			return "result", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id)
		case r == 1:
			return "toolError", toolCall(id, "outline", map[string]string{"path": "../" + files[rng.IntN(len(files))]})
		case r == 2:
			return "rpcError", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/list"}`, id)
		case r < 7 || len(tools) < 2:
			return "tool", toolCall(id, "outline", map[string]string{"path": files[rng.IntN(len(files))]})
		}
		tool := tools[rng.IntN(len(tools))]
		args := map[string]string{}
		switch tool {
		case "outline":
			args["path"] = files[rng.IntN(len(files))]
		case "diagnostics":
		case "changes":
			// Outside a git repository (GOROOT's src) it answers isError.
			return "answer", toolCall(id, tool, args)
		default:
			args["name"] = names[rng.IntN(len(names))]
		}
		return "tool", toolCall(id, tool, args)
	}
}

// hostileMix is the mix for hostileProject: outlines of its deep and huge
// files, of FIFOs (refused) and of paths through the fan-out links, and
// searches that walk all of it.
func hostileMix(rng *rand.Rand, id int, tools []string) (string, string) {
	outline := func(path string) string { return toolCall(id, "outline", map[string]string{"path": path}) }
	named := func(tool, name string) string { return toolCall(id, tool, map[string]string{"name": name}) }
	switch rng.IntN(16) {
	case 0:
		return "result", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id)
	case 1:
		return "tool", outline("deep.ts")
	case 2:
		return "tool", outline("deep.c")
	case 3:
		return "tool", outline("nested.js")
	case 4:
		return "tool", outline("big.go")
	case 5:
		return "toolError", outline("pipe.go")
	case 6:
		return "toolError", outline("alias.go")
	case 7:
		return "tool", outline("fan/d0/a/b/c/d/e/f/a/leaf.go")
	case 8:
		return "tool", outline("http/server.go")
	case 9:
		return "tool", named("find_symbol", "g")
	case 10:
		return "tool", named("find_symbol", "Leaf")
	case 11:
		return "tool", named("find_symbol", "ServeHTTP")
	case 12:
		return "tool", named("find_references", "Leaf")
	case 13:
		return "tool", named("find_references", "ServeHTTP")
	case 14:
		if slices.Contains(tools, "read_symbol") {
			return "tool", named("read_symbol", "Server.Serve")
		}
		return "tool", named("find_symbol", "Serve")
	default:
		return "tool", toolCall(id, "find_references", map[string]string{"name": "Leaf", "path": "fan/**"})
	}
}

// hostileProject writes a project made of what broke zumba in issue 11,
// with real code beside it (net/http's files from GOROOT): a FIFO source
// file and a link to it, a FIFO .gitignore and .git/info/exclude, 8
// folders each with 6 links to the next (6^7 paths to one file), nested
// blocks and functions 30,000 and 3,750 deep, and a 15 MB Go file of
// one-line functions.
func hostileProject(t *testing.T) string {
	dir := t.TempDir()
	write := func(name string, data []byte) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	fifo := func(name string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if out, err := exec.Command("mkfifo", p).CombinedOutput(); err != nil {
			t.Skipf("mkfifo: %v %s", err, out)
		}
	}
	http, _ := filepath.Glob(filepath.Join(fixture.GOROOT(), "src", "net", "http", "*.go"))
	for _, p := range http {
		if data, err := os.ReadFile(p); err == nil {
			write(filepath.Join("http", filepath.Base(p)), data)
		}
	}
	const depth = 30000
	write("deep.ts", []byte("function f(){"+strings.Repeat("{", depth)+strings.Repeat("}", depth)+"}\nfunction g(){}\n"))
	write("deep.c", []byte("int f(){"+strings.Repeat("{", depth)+strings.Repeat("}", depth)+"}\nint g(void){return 0;}\n"))
	write("nested.js", []byte(strings.Repeat("function f(){", depth/8)+strings.Repeat("}", depth/8)+"\nfunction g(){}\n"))
	var big strings.Builder
	big.WriteString("package big\n\n")
	for i := 0; big.Len() < 15<<20; i++ {
		fmt.Fprintf(&big, "func F%06d(a, b int) int { return a + b*%d }\n", i, i)
	}
	write("big.go", []byte(big.String()))
	write(".git/HEAD", []byte("ref: refs/heads/main\n"))
	fifo(".git/info/exclude")
	fifo("pipe.go")
	link("pipe.go", "alias.go")
	fifo("ignored/.gitignore")
	write("ignored/kept.go", []byte("package ignored\n\nfunc Kept() {}\n"))
	const levels = 8
	for i := range levels {
		if i == levels-1 {
			write(fmt.Sprintf("fan/d%d/leaf.go", i), []byte("package leaf\n\n// Leaf is reached through 6^7 paths.\nfunc Leaf() {}\n"))
			continue
		}
		for _, l := range "abcdef" {
			os.MkdirAll(filepath.Join(dir, fmt.Sprintf("fan/d%d", i)), 0o755)
			link(fmt.Sprintf("../d%d", i+1), fmt.Sprintf("fan/d%d/%c", i, l))
		}
	}
	return dir
}

// stressCall is one answered call: what it was (its method, tool and
// arguments) and how long its answer took.
type stressCall struct {
	label   string
	latency time.Duration
}

// stressClient runs one server on dir and sends it n requests chosen by
// mix, inFlight at a time; it returns the answered calls, the failures
// and the server's peak RSS.
func stressClient(t *testing.T, dir string, mix mix, seed, n, inFlight int) ([]stressCall, []string, string) {
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
	var calls []stressCall
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
			latency := time.Since(p.sent)
			calls = append(calls, stressCall{callLabel(p.line), latency})
			if latency > grossLatency {
				failures = append(failures, fmt.Sprintf("client %d: %.200s answered after %v", seed, p.line, latency.Round(time.Millisecond)))
			}
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
			case "answer":
				bad = r.Error != nil
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
	for id := 2; id < n+2; id++ {
		kind, line := mix(rng, id, tools)
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
	return calls, failures, peak
}

// callLabel names a request line by its method, and for a tool call by
// the tool and its arguments.
func callLabel(line string) string {
	var r struct {
		Method string
		Params struct {
			Name      string
			Arguments map[string]string
		}
	}
	json.Unmarshal([]byte(line), &r)
	if r.Method != "tools/call" {
		return r.Method
	}
	label := r.Params.Name
	for _, k := range slices.Sorted(maps.Keys(r.Params.Arguments)) {
		label += " " + k + "=" + r.Params.Arguments[k]
	}
	return label
}

func toolCall(id int, name string, args map[string]string) string {
	a, _ := json.Marshal(args)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, name, a)
}
