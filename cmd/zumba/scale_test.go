package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestScale is issue 16's smoke test at a scale CI can afford: the real
// server binary on a generated tree of 20,000 C, header and Go files
// (about 50 MB, kernel-like: names every file shares, names a few hundred
// files share, names one file defines), started with an empty disk cache.
// It checks what the kernel bench (scripts/bench.sh) measures, scaled
// down: a complete find_references on a cold start; find_symbol complete
// for a rare name before the server has parsed the whole tree; ping
// answered throughout the build; the peak resident set (VmHWM) under a
// bound. Time limits are gross (a loaded 2-core machine passes); the
// memory bound is about 1.5x what the server needs (with its own memory
// limit, GOMEMLIMIT unset, and two threads, as on a 2-core machine), so
// doubling it fails.
//
//	ZUMBA_SCALE=1 go test ./cmd/zumba -run TestScale -v
//
// ZUMBA_SCALE_FILES changes the number of files (the bounds assume 20,000).
func TestScale(t *testing.T) {
	if os.Getenv("ZUMBA_SCALE") != "1" {
		t.Skip("set ZUMBA_SCALE=1 to run the scale smoke test")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc for the server's memory")
	}
	n := envInt("ZUMBA_SCALE_FILES", 20000)
	root := t.TempDir()
	dir := filepath.Join(root, "tree")
	start := time.Now()
	tree, err := generateTree(dir, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("generated %d files, %.0f MB, in %v", n, float64(tree.bytes)/1e6, time.Since(start).Round(time.Millisecond))

	s := startScaleServer(t, dir, filepath.Join(root, "cache"))
	defer s.stop()
	pings := s.startPings(100 * time.Millisecond)

	// find_references: complete (no partial line) on a cold start, the
	// lines exactly the generated uses.
	got, at := s.untilComplete(t, "find_references", tree.refsName, 90*time.Second)
	if want := strings.Join(tree.refs, "\n"); got != want {
		t.Errorf("find_references %s =\n%s\nwant\n%s", tree.refsName, got, want)
	}
	t.Logf("cold: complete find_references %s after %v", tree.refsName, at.Round(time.Millisecond))

	// find_symbol for a name one file defines, last in path order: complete
	// before the server says it has parsed every file.
	got, at = s.untilComplete(t, "find_symbol", tree.rareName, 90*time.Second)
	if got != tree.rareDef {
		t.Errorf("find_symbol %s = %q; want %q", tree.rareName, got, tree.rareDef)
	}
	if full, ok := s.logged(symbolsCompleteRE); ok && full < at {
		t.Errorf("find_symbol %s was complete only after a full pass over the tree (at %v, the server's %q at %v)",
			tree.rareName, at.Round(time.Millisecond), symbolsCompleteRE, full.Round(time.Millisecond))
	}
	t.Logf("cold: complete find_symbol %s after %v", tree.rareName, at.Round(time.Millisecond))

	// The build, to its end: pings answered all along, memory bounded.
	full, ok := s.waitLog(symbolsCompleteRE, 100*time.Second)
	if !ok {
		t.Errorf("the server did not log %q within 100 s of its start", symbolsCompleteRE)
	} else {
		t.Logf("cold: %q after %v", symbolsCompleteRE, full.Round(time.Millisecond))
	}
	lat, failed := pings.stop()
	if failed != "" {
		t.Errorf("ping during the build: %s", failed)
	}
	if len(lat) == 0 {
		t.Error("no ping answered during the build")
	} else {
		slices.Sort(lat)
		p99 := lat[(len(lat)*99+99)/100-1]
		t.Logf("ping during the build: %d answered, median %v, p99 %v, max %v", len(lat),
			lat[len(lat)/2].Round(time.Microsecond), p99.Round(time.Microsecond), lat[len(lat)-1].Round(time.Microsecond))
		// A client gives up after 5 s (SPEC); issue 16's target is a p99
		// of 50 ms, left to the bench: here a loaded machine must pass.
		if max := lat[len(lat)-1]; max > 3*time.Second {
			t.Errorf("slowest ping during the build took %v; want under 3 s", max)
		}
	}
	hwm := s.statusKB("VmHWM")
	t.Logf("peak resident set: %d MiB (bound %d MiB)", hwm>>10, scalePeakMiB)
	if hwm < 0 {
		t.Error("no VmHWM for the server")
	} else if hwm>>10 > scalePeakMiB {
		t.Errorf("peak resident set %d MiB; want at most %d MiB for %d files", hwm>>10, scalePeakMiB, n)
	}
}

// scalePeakMiB bounds the server's peak resident set on TestScale's tree:
// 69–79 MiB measured with the compact index (4caed40; 170 MiB before it),
// 1.4–1.6x that.
const scalePeakMiB = 110

// symbolsCompleteRE matches the server's log line saying every file's
// definitions are known (the bench keys on the same line).
var symbolsCompleteRE = regexp.MustCompile(`(?i)index (is )?(complete|ready)`)

// partialRE matches the last line of an answer that says it is not
// complete yet.
var partialRE = regexp.MustCompile(`(?i)(of the project|later call|not complete|incomplete|time limit)`)

// scaleTree is what generateTree wrote and the answers it expects.
type scaleTree struct {
	bytes    int64
	refsName string
	refs     []string // find_references' lines, in path order
	rareName string
	rareDef  string // find_symbol's line
}

// generateTree writes n files under dir: C sources and headers in
// folders of about 100 files, one Go package in ten folders. Every file
// uses the common names (ret, err, data, size, dev), calls functions of a
// shared pool of 3,000 (each used by about 30 files), and defines its own
// functions, a struct and macros. refsName is used in 40 files spread over
// the tree; rareName is defined once, in the last file in path order, and
// nowhere else.
func generateTree(dir string, n int, seed int64) (*scaleTree, error) {
	r := rand.New(rand.NewSource(seed))
	words := []string{"alloc", "buf", "chan", "ctrl", "dma", "entry", "fifo", "gpio", "hash", "irq", "list", "map",
		"node", "page", "queue", "reg", "ring", "sched", "slot", "stat", "sync", "task", "timer", "work"}
	pool := make([]string, 3000)
	for i := range pool {
		pool[i] = fmt.Sprintf("%s_%s_%d", words[r.Intn(len(words))], words[r.Intn(len(words))], i)
	}
	t := &scaleTree{refsName: "scale_refs_target", rareName: "scale_rare_target"}
	refsEvery := max(1, n/40)
	const perDir = 100
	for i := range n {
		sub := fmt.Sprintf("%s/d%03d", []string{"drivers", "fs", "kernel", "net", "sound"}[i/perDir%5], i/perDir)
		base := fmt.Sprintf("%s_%s_%05d", words[i%len(words)], words[(i/7)%len(words)], i)
		if i == n-1 {
			sub = "zz/last" // the last folder and file in path order
		}
		var ext string
		switch {
		case (i/perDir)%10 == 9:
			ext = ".go"
		case i%5 == 4:
			ext = ".h"
		default:
			ext = ".c"
		}
		rel := sub + "/" + base + ext
		var b strings.Builder
		line := 1
		w := func(format string, args ...any) {
			s := fmt.Sprintf(format, args...)
			b.WriteString(s)
			line += strings.Count(s, "\n")
		}
		funcs := 2 + r.Intn(6)
		if ext == ".go" {
			w("// Package d%03d is generated by TestScale.\npackage d%03d\n\nimport \"errors\"\n\n", i/perDir, i/perDir)
			w("// %s_state is the state of %s.\ntype %s_state struct {\n\tdata []byte\n\tsize int\n\tdev  *%s_state\n}\n\n", base, base, base, base)
		} else {
			w("// SPDX-License-Identifier: GPL-2.0\n/*\n * %s: generated by TestScale.\n */\n#include <linux/kernel.h>\n#include <linux/slab.h>\n\n", base)
			w("#define %s_MAX %d\n#define %s_SHIFT(x) ((x) << %d)\n\n", strings.ToUpper(base), r.Intn(4096), strings.ToUpper(base), r.Intn(16))
			w("struct %s_state {\n\tvoid *data;\n\tsize_t size;\n\tstruct device *dev;\n\tint flags;\n};\n\n", base)
		}
		for f := range funcs {
			name := fmt.Sprintf("%s_fn%d", base, f)
			calls := 2 + r.Intn(6)
			if ext == ".go" {
				w("// %s does the work of step %d.\nfunc %s(data []byte, size int) (int, error) {\n\tret := 0\n\tvar err error\n", name, f, name)
				for range calls {
					w("\tif ret, err = %s(data, size); err != nil {\n\t\treturn ret, errors.New(\"%s failed\")\n\t}\n", pool[r.Intn(len(pool))], name)
				}
				if i%refsEvery == 0 && f == 0 {
					w("\tret += %s(size)\n", t.refsName)
					t.refs = append(t.refs, fmt.Sprintf("%s:%d: ret += %s(size)", rel, line-1, t.refsName))
				}
				w("\treturn ret, err\n}\n\n")
				continue
			}
			if ext == ".h" {
				w("int %s(struct %s_state *st, size_t size);\n", name, base)
				continue
			}
			w("/* %s - step %d of %s */\nstatic int %s(struct %s_state *st, size_t size)\n{\n\tint ret = 0;\n\tint err;\n\n", name, f, base, name, base)
			for range calls {
				w("\terr = %s(st->dev, st->data, size);\n\tif (err)\n\t\tgoto out;\n\tret += err;\n", pool[r.Intn(len(pool))])
			}
			if i%refsEvery == 0 && f == 0 {
				w("\tret += %s(st, size);\n", t.refsName)
				t.refs = append(t.refs, fmt.Sprintf("%s:%d: ret += %s(st, size);", rel, line-1, t.refsName))
			}
			w("out:\n\tkfree(st->data);\n\treturn ret;\n}\n\n")
		}
		if i == n-1 {
			if ext == ".go" {
				w("func %s(size int) int {\n\treturn size\n}\n", t.rareName)
				t.rareDef = fmt.Sprintf("%s:%d function — func %s(size int) int {", rel, line-3, t.rareName)
			} else {
				w("int %s(void *st, size_t size)\n{\n\treturn size;\n}\n", t.rareName)
				t.rareDef = fmt.Sprintf("%s:%d function — int %s(void *st, size_t size)", rel, line-4, t.rareName)
			}
		}
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			return nil, err
		}
		t.bytes += int64(b.Len())
	}
	// Path order is the answers' order.
	slices.Sort(t.refs)
	return t, nil
}

// scaleServer is one `zumba mcp DIR` process spoken to line by line.
type scaleServer struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	started time.Time
	exited  chan struct{}

	writeMu sync.Mutex // one request line at a time
	mu      sync.Mutex
	nextID  int
	waiting map[int]chan json.RawMessage
	log     []logLine
}

type logLine struct {
	at   time.Duration
	text string
}

func startScaleServer(t *testing.T, dir, cache string) *scaleServer {
	t.Helper()
	cmd := exec.Command(zumbaBin, "mcp", dir)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOMEMLIMIT=") && !strings.HasPrefix(kv, "GOMAXPROCS=") && !strings.HasPrefix(kv, "XDG_CACHE_HOME=") {
			env = append(env, kv)
		}
	}
	// Two threads whatever the machine, so the memory bound holds on any.
	cmd.Env = append(env, "XDG_CACHE_HOME="+cache, "GOMAXPROCS=2")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errp, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &scaleServer{cmd: cmd, in: in, exited: make(chan struct{}), waiting: map[int]chan json.RawMessage{}}
	s.started = time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(s.exited)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var msg struct {
				ID *int `json:"id"`
			}
			if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.ID == nil {
				continue
			}
			s.mu.Lock()
			ch := s.waiting[*msg.ID]
			delete(s.waiting, *msg.ID)
			s.mu.Unlock()
			if ch != nil {
				ch <- slices.Clone(sc.Bytes())
			}
		}
	}()
	go func() {
		sc := bufio.NewScanner(errp)
		for sc.Scan() {
			s.mu.Lock()
			s.log = append(s.log, logLine{time.Since(s.started), sc.Text()})
			s.mu.Unlock()
		}
	}()
	if _, err := s.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "zumba-scale", "version": "1"}}, 10*time.Second); err != nil {
		s.stop()
		t.Fatalf("initialize: %v", err)
	}
	return s
}

// call sends one request and waits up to limit for its reply.
func (s *scaleServer) call(method string, params any, limit time.Duration) (json.RawMessage, error) {
	s.mu.Lock()
	s.nextID++
	id := s.nextID
	ch := make(chan json.RawMessage, 1)
	s.waiting[id] = ch
	s.mu.Unlock()
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	s.writeMu.Lock()
	_, err := s.in.Write(append(b, '\n'))
	s.writeMu.Unlock()
	if err != nil {
		return nil, err
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case r := <-ch:
		return r, nil
	case <-s.exited:
		return nil, fmt.Errorf("the server exited; its log: %s", s.logText())
	case <-timer.C:
		return nil, fmt.Errorf("no reply in %v", limit)
	}
}

// untilComplete calls tool for name until its answer is complete, and
// returns the answer and the time since the server started.
func (s *scaleServer) untilComplete(t *testing.T, tool, name string, limit time.Duration) (string, time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		raw, err := s.call("tools/call", map[string]any{"name": tool, "arguments": map[string]any{"name": name}}, 10*time.Second)
		if err != nil {
			t.Fatalf("%s %s: %v", tool, name, err)
		}
		var msg struct {
			Result struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		if err := json.Unmarshal(raw, &msg); err != nil || len(msg.Result.Content) == 0 {
			t.Fatalf("%s %s: reply %.300s", tool, name, raw)
		}
		text := strings.TrimRight(msg.Result.Content[0].Text, "\n")
		if msg.Result.IsError {
			t.Fatalf("%s %s: %s", tool, name, text)
		}
		last := text[strings.LastIndexByte(text, '\n')+1:]
		if !partialRE.MatchString(last) {
			return text, time.Since(s.started)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s %s: no complete answer within %v; the last ends %q", tool, name, limit, last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// logged reports when the server first logged a line matching re.
func (s *scaleServer) logged(re *regexp.Regexp) (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.log {
		if re.MatchString(l.text) {
			return l.at, true
		}
	}
	return 0, false
}

// waitLog waits until the server logs a line matching re, up to limit
// from its start.
func (s *scaleServer) waitLog(re *regexp.Regexp, limit time.Duration) (time.Duration, bool) {
	for {
		if at, ok := s.logged(re); ok {
			return at, true
		}
		if time.Since(s.started) > limit {
			return 0, false
		}
		select {
		case <-s.exited:
			return 0, false
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (s *scaleServer) logText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, l := range s.log {
		fmt.Fprintf(&b, "\n%8.3fs %s", l.at.Seconds(), l.text)
	}
	return b.String()
}

// statusKB reads a field in kB of the server's /proc/PID/status, or -1.
func (s *scaleServer) statusKB(field string) int64 {
	return procStatusKB(s.cmd.Process.Pid, field)
}

// stop closes the server's input, as a client does, and waits for it.
func (s *scaleServer) stop() {
	s.in.Close()
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
	}
	s.cmd.Wait()
}

// scalePings pings the server every interval, each ping after the last
// is answered, so a stalled server shows as one long ping.
type scalePings struct {
	done   chan struct{}
	over   chan struct{}
	lat    []time.Duration
	failed string
}

func (s *scaleServer) startPings(interval time.Duration) *scalePings {
	p := &scalePings{done: make(chan struct{}), over: make(chan struct{})}
	go func() {
		defer close(p.over)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-p.done:
				return
			case <-tick.C:
			}
			start := time.Now()
			// 5 s: a client's default timeout (SPEC).
			if _, err := s.call("ping", map[string]any{}, 5*time.Second); err != nil {
				p.failed = err.Error()
				return
			}
			p.lat = append(p.lat, time.Since(start))
		}
	}()
	return p
}

// stop ends the pings and returns their times and the first failure.
func (p *scalePings) stop() ([]time.Duration, string) {
	close(p.done)
	<-p.over
	return p.lat, p.failed
}
