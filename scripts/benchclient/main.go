// Command benchclient times zumba through the MCP protocol, the way an
// agent meets it: it starts one `zumba mcp DIR` server, sends initialize,
// then tools/call requests, and times each reply. scripts/bench.sh runs it.
//
// One run does, in order, what its flags ask for:
//
//  1. Cold steps (-cold TOOL:NAME,...): from the start of the process, each
//     step calls TOOL for NAME, again while the answer is partial, and
//     prints how long its first call took, with that call's status, and
//     when (from the start of the process) the first complete answer came:
//
//     cold  initialize MS
//     step  TOOL NAME FIRST_CALL_MS FIRST_STATUS COMPLETE_AT_MS STATUS
//
//     A bare NAME is find_symbol:NAME.
//
//  2. A polling client (-poll TOOL:NAME): from the start of the process
//     until the index is complete, TOOL is called for NAME, again
//     -poll-gap after each answer (as an agent retrying a partial answer
//     does), alongside the steps below; once the index is complete (or the
//     wait for it ends) the calls are summarised, with how many took
//     longer than -poll-bound and when the first complete answer came:
//
//     poll TOOL NAME CALLS PARTIAL MEDIAN_MS MAX_MS OVER_BOUND COMPLETE_AT_MS|n/a
//
//  3. The wait for the index (-ready-wait > 0): the time, from the start of
//     the process, of the server's stderr lines matching -ready (the
//     complete index) and -words (the word index), or n/a:
//
//     log  ready MS|n/a
//     log  words MS|n/a
//
//     While the index is built a ping is sent every -ping, and the pings
//     answered before the index is complete (or before the latency rounds,
//     without -ready-wait) are summarised:
//
//     ping N MEDIAN_MS P99_MS MAX_MS
//
//  4. Latency rounds (-names): each tool of -tools for each name -rounds
//     times on this server:
//
//     call     TOOL NAME MEDIAN_MS LINES STATUS
//     summary  TOOL MEDIAN_MS P99_MS NAMES P99_ALL_MS CALLS
//
//     where a name's MEDIAN_MS is over its rounds, MEDIAN_MS and P99_MS of
//     the summary over the names' medians, and P99_ALL_MS over every call.
//     STATUS is ok, partial (the answer says it is not complete), error
//     (isError), timeout (no reply within -timeout; timed as -timeout), or
//     n/a (the server has no such tool).
//
//  5. Memory, from /proc/PID/status of the server (Linux): the peak
//     resident set (VmHWM) when the index is complete (or after the cold
//     steps), after the latency rounds, and the resident set (VmRSS) after
//     -idle of doing nothing:
//
//     rss  ready|end PEAK_MB
//     rss  idle RSS_MB
//
// Usage:
//
//	benchclient -server ./zumba -dir /usr/local/go/src -names err,Reader,ParseFloat
//	benchclient -server ./zumba -dir /usr/local/go/src -cold ParseFloat
//	benchclient -server ./zumba -dir linux -cold find_references:tcp_v4_connect -ready-wait 30m -idle 20s
//	benchclient -server ./zumba -dir /usr/local/go/src -tools find_references -args '{"group":"definition","code":true}' -names err,Reader
//	benchclient -server ./zumba -dir REPO -tools changes -name-arg path -names '**' -rounds 20
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	server := flag.String("server", "", "the zumba binary")
	dir := flag.String("dir", "", "the project folder")
	wrap := flag.String("wrap", "", "a command to run the server under, split on spaces (e.g. \"nice -n 10\")")
	names := flag.String("names", "", "comma-separated names to look up (latency rounds)")
	tools := flag.String("tools", "find_symbol,find_references", "comma-separated tools to time (latency rounds)")
	nameArg := flag.String("name-arg", "name", "the argument each of -names is given as (e.g. path, for the changes tool)")
	extra := flag.String("args", "", `more arguments for every call, as a JSON object (e.g. {"group":"definition","code":true})`)
	rounds := flag.Int("rounds", 5, "calls per tool and name (latency rounds)")
	cold := flag.String("cold", "", "cold steps from the start: TOOL:NAME,... (a bare NAME is find_symbol:NAME)")
	coldLimit := flag.Duration("cold-limit", 10*time.Minute, "the longest a cold step calls again while answers are partial")
	ready := flag.String("ready", `(?i)index (is )?(complete|ready)`, "regexp of the stderr line saying the index is complete")
	words := flag.String("words", `(?i)word (pass|index) (done|complete|ready)`, "regexp of the stderr line saying the word index is complete")
	partial := flag.String("partial", `(?i)(of the project|later call|not complete|incomplete|time limit)`, "regexp matching the last line of an incomplete answer")
	readyWait := flag.Duration("ready-wait", 120*time.Second, "how long to wait for the -ready line before the latency rounds (0: do not wait)")
	ping := flag.Duration("ping", 100*time.Millisecond, "interval of the pings sent while the index is built (0: none)")
	slowPing := flag.Duration("slow-ping", 0, "print to stderr, with its time from the start, every ping slower than this (0: none)")
	idle := flag.Duration("idle", 0, "how long to leave the server idle before reading its resident set (0: not read)")
	settle := flag.Duration("settle", 0, "how long to leave the server idle before the latency rounds")
	timeout := flag.Duration("timeout", 60*time.Second, "the longest wait for one reply")
	poll := flag.String("poll", "", "TOOL:NAME called from the start until the index is complete, -poll-gap after each answer")
	pollGap := flag.Duration("poll-gap", 50*time.Millisecond, "the pause after each answer of the -poll client")
	pollBound := flag.Duration("poll-bound", 3850*time.Millisecond, "a -poll call taking longer is counted over the bound")
	pollTrace := flag.Bool("poll-trace", false, "print each -poll call to stderr: when it started (ms from the start), how long it took, its status")
	flag.Parse()
	if *server == "" || *dir == "" || (*names == "" && *cold == "" && *readyWait == 0) {
		fmt.Fprintln(os.Stderr, "usage: benchclient -server ZUMBA -dir DIR [-cold TOOL:NAME,...] [-names A,B,...] [-ready-wait D] [-idle D]")
		os.Exit(2)
	}
	readyRE := mustCompile(*ready)
	wordsRE := mustCompile(*words)
	partialRE := mustCompile(*partial)
	nameArgument = *nameArg
	if *extra != "" {
		if err := json.Unmarshal([]byte(*extra), &extraArgs); err != nil {
			fatal(fmt.Errorf("-args: %w", err))
		}
	}
	argv := append(strings.Fields(*wrap), *server, "mcp", *dir)
	c, err := start(argv, map[string]*regexp.Regexp{"ready": readyRE, "words": wordsRE})
	if err != nil {
		fatal(err)
	}
	defer c.close()
	c.timeout = *timeout

	if _, err := c.call("initialize", map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "zumba-benchclient", "version": "1"},
	}); err != nil {
		fatal(fmt.Errorf("initialize: %w", err))
	}
	initAt := time.Since(c.started)
	c.notify("notifications/initialized")
	fmt.Printf("cold\tinitialize\t%.1f\n", ms(initAt))

	var pings *pinger
	if *ping > 0 {
		pings = startPinger(c, *ping, *slowPing)
	}

	var poller *polling
	if *poll != "" {
		poller = startPolling(c, *poll, *pollGap, partialRE, *pollTrace)
	}
	coldSteps(c, split(*cold), *coldLimit, partialRE)
	if *readyWait > 0 {
		waitReady(c, *readyWait)
	}
	if poller != nil {
		poller.stop()
		poller.print(*pollBound)
	}
	if pings != nil {
		pings.stop()
		if n, med, p99, top := pings.summary(); n > 0 {
			fmt.Printf("ping\t%d\t%.2f\t%.2f\t%.2f\n", n, med, p99, top)
		} else {
			fmt.Printf("ping\t0\tn/a\tn/a\tn/a\n")
		}
	}
	if *cold != "" || *readyWait > 0 {
		printRSS("ready", c.status("VmHWM"))
	}

	if split(*names) != nil {
		time.Sleep(*settle)
		latency(c, split(*tools), split(*names), *rounds, partialRE)
		printRSS("end", c.status("VmHWM"))
	}
	if *idle > 0 {
		time.Sleep(*idle)
		printRSS("idle", c.status("VmRSS"))
	}
}

// coldSteps calls each TOOL:NAME step (a bare NAME is find_symbol's) once,
// and again while its answer is partial, up to limit, printing the first
// call's time and the time from the start to the last.
func coldSteps(c *client, steps []string, limit time.Duration, partialRE *regexp.Regexp) {
	for _, step := range steps {
		tool, name, ok := strings.Cut(step, ":")
		if !ok {
			tool, name = "find_symbol", step
		}
		first := c.tool(tool, name, partialRE)
		last := first
		deadline := time.Now().Add(limit)
		for last.status == "partial" && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			last = c.tool(tool, name, partialRE)
		}
		fmt.Printf("step\t%s\t%s\t%.1f\t%s\t%.1f\t%s\n", tool, name, ms(first.took), first.status, ms(time.Since(c.started)), last.status)
	}
}

// polling is the -poll client: one tool and name called until the index
// is complete.
type polling struct {
	tool, name string
	mu         sync.Mutex
	times      []float64
	partial    int
	completeAt time.Duration // 0: no complete answer yet
	done       chan struct{}
	wg         sync.WaitGroup
}

func startPolling(c *client, step string, gap time.Duration, partialRE *regexp.Regexp, trace bool) *polling {
	tool, name, ok := strings.Cut(step, ":")
	if !ok {
		tool, name = "find_symbol", step
	}
	p := &polling{tool: tool, name: name, done: make(chan struct{})}
	ready := c.marks["ready"].seen
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			select {
			case <-p.done:
				return
			case <-ready:
				return
			default:
			}
			at := time.Since(c.started)
			r := c.tool(tool, name, partialRE)
			if trace {
				fmt.Fprintf(os.Stderr, "poll call at %.1f ms: %.1f ms, %s\n", ms(at), ms(r.took), r.status)
			}
			p.mu.Lock()
			p.times = append(p.times, ms(r.took))
			if r.status == "partial" {
				p.partial++
			} else if p.completeAt == 0 && r.status == "ok" {
				p.completeAt = time.Since(c.started)
			}
			p.mu.Unlock()
			select {
			case <-p.done:
				return
			case <-ready:
				return
			case <-time.After(gap):
			}
		}
	}()
	return p
}

func (p *polling) stop() {
	close(p.done)
	p.wg.Wait()
}

func (p *polling) print(bound time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.times) == 0 {
		fmt.Printf("poll\t%s\t%s\t0\t0\tn/a\tn/a\t0\tn/a\n", p.tool, p.name)
		return
	}
	over := 0
	for _, t := range p.times {
		if t > ms(bound) {
			over++
		}
	}
	at := "n/a"
	if p.completeAt > 0 {
		at = fmt.Sprintf("%.1f", ms(p.completeAt))
	}
	fmt.Printf("poll\t%s\t%s\t%d\t%d\t%.1f\t%.1f\t%d\t%s\n", p.tool, p.name, len(p.times), p.partial, quantile(p.times, 0.5), slices.Max(p.times), over, at)
}

// waitReady waits up to wait for the server's line saying its index is
// complete, and prints when it and the word index's line came.
func waitReady(c *client, wait time.Duration) {
	for _, mark := range []string{"ready", "words"} {
		w := wait
		if mark == "words" {
			w = 0 // seen by now if it was printed before the index was complete
		}
		if d, ok := c.waitMark(mark, w); ok {
			fmt.Printf("log\t%s\t%.1f\n", mark, ms(d))
		} else {
			fmt.Printf("log\t%s\tn/a\n", mark)
		}
	}
}

// latency times each tool for each name, rounds times.
func latency(c *client, tools, names []string, rounds int, partialRE *regexp.Regexp) {
	for _, tool := range tools {
		var medians, all []float64
		for _, name := range names {
			var times []float64
			var last result
			for range rounds {
				last = c.tool(tool, name, partialRE)
				if last.status == "n/a" {
					break
				}
				times = append(times, ms(last.took))
			}
			if last.status == "n/a" {
				fmt.Printf("call\t%s\t%s\tn/a\t0\tn/a\n", tool, name)
				continue
			}
			m := quantile(times, 0.5)
			medians = append(medians, m)
			all = append(all, times...)
			fmt.Printf("call\t%s\t%s\t%.2f\t%d\t%s\n", tool, name, m, last.lines, last.status)
		}
		if len(medians) == 0 {
			fmt.Printf("summary\t%s\tn/a\tn/a\t0\tn/a\t0\n", tool)
			continue
		}
		fmt.Printf("summary\t%s\t%.2f\t%.2f\t%d\t%.2f\t%d\n", tool, quantile(medians, 0.5), quantile(medians, 0.99), len(medians), quantile(all, 0.99), len(all))
	}
}

func printRSS(label string, kb int) {
	if kb < 0 {
		fmt.Printf("rss\t%s\tn/a\n", label)
		return
	}
	fmt.Printf("rss\t%s\t%.0f\n", label, float64(kb)/1024)
}

func mustCompile(expr string) *regexp.Regexp {
	re, err := regexp.Compile(expr)
	if err != nil {
		fatal(err)
	}
	return re
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "benchclient:", err)
	os.Exit(1)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// quantile is the nearest-rank quantile q of xs.
func quantile(xs []float64, q float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.999999) - 1
	return s[max(0, min(i, len(s)-1))]
}

// pinger sends a ping every interval until stopped, and keeps the times
// of the replies. A ping is sent only after the previous one is answered,
// so a server that stalls shows as one long ping, not a pile of them.
type pinger struct {
	mu    sync.Mutex
	times []float64
	done  chan struct{}
	wg    sync.WaitGroup
}

func startPinger(c *client, interval, slow time.Duration) *pinger {
	p := &pinger{done: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-p.done:
				return
			case <-t.C:
			}
			start := time.Now()
			if _, err := c.call("ping", map[string]any{}); err != nil {
				fmt.Fprintln(os.Stderr, "benchclient: ping:", err)
				return
			}
			took := time.Since(start)
			if slow > 0 && took > slow {
				fmt.Fprintf(os.Stderr, "slow ping at %.0f ms: %.1f ms\n", ms(start.Sub(c.started)), ms(took))
			}
			p.mu.Lock()
			p.times = append(p.times, ms(took))
			p.mu.Unlock()
		}
	}()
	return p
}

func (p *pinger) stop() {
	close(p.done)
	p.wg.Wait()
}

func (p *pinger) summary() (n int, median, p99, top float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.times) == 0 {
		return 0, 0, 0, 0
	}
	return len(p.times), quantile(p.times, 0.5), quantile(p.times, 0.99), slices.Max(p.times)
}

// client is one server process and its JSON-RPC lines.
type client struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	started time.Time
	timeout time.Duration

	sendMu  sync.Mutex
	mu      sync.Mutex
	nextID  int
	waiting map[int]chan reply
	marks   map[string]*mark
	exited  chan struct{}
}

// mark is the first stderr line matching a regexp.
type mark struct {
	re   *regexp.Regexp
	at   time.Duration
	seen chan struct{}
}

type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func start(argv []string, marks map[string]*regexp.Regexp) (*client, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	errp, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	c := &client{cmd: cmd, in: in, waiting: map[int]chan reply{}, marks: map[string]*mark{}, exited: make(chan struct{})}
	for name, re := range marks {
		c.marks[name] = &mark{re: re, seen: make(chan struct{})}
	}
	c.started = time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go c.readReplies(out)
	go c.readLog(errp)
	return c, nil
}

func (c *client) readReplies(out io.Reader) {
	defer close(c.exited)
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		var msg struct {
			ID *int `json:"id"`
			reply
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			fmt.Fprintf(os.Stderr, "benchclient: the server wrote a line that is not JSON: %.200q\n", sc.Text())
			continue
		}
		if msg.ID == nil {
			continue
		}
		c.mu.Lock()
		ch := c.waiting[*msg.ID]
		delete(c.waiting, *msg.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- msg.reply
		}
	}
}

// readLog passes the server's stderr through (with BENCH_VERBOSE) and
// notes the time of the first line matching each mark.
func (c *client) readLog(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		at := time.Since(c.started)
		for _, m := range c.marks {
			select {
			case <-m.seen:
				continue
			default:
			}
			if m.re.MatchString(sc.Text()) {
				c.mu.Lock()
				m.at = at
				c.mu.Unlock()
				close(m.seen)
			}
		}
		if os.Getenv("BENCH_VERBOSE") != "" {
			fmt.Fprintf(os.Stderr, "server %.1fs: %s\n", at.Seconds(), sc.Text())
		}
	}
}

// waitMark waits up to wait for the mark's line and returns its time from
// the start of the process.
func (c *client) waitMark(name string, wait time.Duration) (time.Duration, bool) {
	m := c.marks[name]
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-m.seen:
		c.mu.Lock()
		defer c.mu.Unlock()
		return m.at, true
	default:
	}
	select {
	case <-m.seen:
		c.mu.Lock()
		defer c.mu.Unlock()
		return m.at, true
	case <-timer.C:
		return 0, false
	case <-c.exited:
		return 0, false
	}
}

// status reads a field in kB of /proc/PID/status of the server: of the
// last process of the chain the server was started as (the -wrap command's
// child), or -1.
func (c *client) status(field string) int {
	pid := c.cmd.Process.Pid
	for {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
		if err != nil {
			break
		}
		kids := strings.Fields(string(b))
		if len(kids) == 0 {
			break
		}
		next, err := strconv.Atoi(kids[0])
		if err != nil {
			break
		}
		pid = next
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				if n, err := strconv.Atoi(f[0]); err == nil {
					return n
				}
			}
		}
	}
	return -1
}

func (c *client) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	_, err = c.in.Write(append(b, '\n'))
	return err
}

func (c *client) notify(method string) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method})
}

var (
	errUnknownTool = errors.New("unknown tool")
	errTimeout     = errors.New("no reply")
)

func (c *client) call(method string, params any) (reply, error) {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan reply, 1)
	c.waiting[id] = ch
	c.mu.Unlock()
	if err := c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return reply{}, err
	}
	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		if r.Error != nil {
			if strings.Contains(r.Error.Message, "unknown tool") || r.Error.Code == -32601 {
				return r, fmt.Errorf("%w: %s", errUnknownTool, r.Error.Message)
			}
			return r, fmt.Errorf("error %d: %s", r.Error.Code, r.Error.Message)
		}
		return r, nil
	case <-c.exited:
		return reply{}, errors.New("the server exited")
	case <-timer.C:
		return reply{}, fmt.Errorf("%w in %v", errTimeout, c.timeout)
	}
}

type result struct {
	took   time.Duration
	lines  int
	status string
}

// extraArgs are the -args given to every call.
var extraArgs map[string]any

// nameArgument is the argument a call's name is given as (-name-arg).
var nameArgument = "name"

// tool calls a tool with the name argument and times the reply.
func (c *client) tool(tool, name string, partialRE *regexp.Regexp) result {
	args := map[string]any{nameArgument: name}
	for k, v := range extraArgs {
		args[k] = v
	}
	start := time.Now()
	r, err := c.call("tools/call", map[string]any{"name": tool, "arguments": args})
	took := time.Since(start)
	if errors.Is(err, errUnknownTool) {
		return result{status: "n/a"}
	}
	if errors.Is(err, errTimeout) {
		fmt.Fprintf(os.Stderr, "benchclient: %s %s: %v\n", tool, name, err)
		return result{took: took, status: "timeout"}
	}
	if err != nil {
		fatal(fmt.Errorf("%s %s: %w", tool, name, err))
	}
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		fatal(fmt.Errorf("%s %s: bad result: %w", tool, name, err))
	}
	var text string
	if len(res.Content) > 0 {
		text = strings.TrimRight(res.Content[0].Text, "\n")
	}
	lines := strings.Split(text, "\n")
	status := "ok"
	switch {
	case res.IsError && strings.Contains(text, "unknown tool"):
		return result{status: "n/a"}
	case res.IsError:
		status = "error"
	case partialRE.MatchString(lines[len(lines)-1]):
		status = "partial"
	}
	return result{took: took, lines: len(lines), status: status}
}

// close ends the server the way a client does, by closing its input, and
// waits for it (and for a -wrap command to write its report).
func (c *client) close() {
	c.in.Close()
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
}
