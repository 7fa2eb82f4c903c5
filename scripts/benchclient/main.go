// Command benchclient times zumba through the MCP protocol, the way an
// agent meets it: it starts one `zumba mcp DIR` server, sends initialize,
// then tools/call requests, and times each reply. scripts/bench.sh runs it.
//
// Latency mode (the default) calls each tool for each name -rounds times
// on one long-lived server and prints, tab-separated:
//
//	call     TOOL NAME MEDIAN_MS LINES STATUS
//	summary  TOOL MEDIAN_MS P99_MS NAMES
//
// where a name's MEDIAN_MS is over its rounds and the summary is over the
// names' medians. STATUS is ok, partial (the answer says it is not
// complete), error (isError), or n/a (the server has no such tool).
//
// Cold mode (-cold NAME) starts the server and prints how long, from the
// start of the process, it took to answer initialize, to give the first
// complete find_symbol answer for NAME (calling again while answers are
// partial), and to log that its index is complete (-ready, on stderr):
//
//	cold  initialize MS
//	cold  first_answer NAME MS STATUS
//	cold  index_ready MS|n/a
//
// Usage:
//
//	benchclient -server ./zumba -dir /usr/local/go/src -names err,Reader,ParseFloat
//	benchclient -server ./zumba -dir /usr/local/go/src -cold ParseFloat
//	benchclient -server ./zumba -dir /usr/local/go/src -tools find_references -args '{"group":"definition","code":true}' -names err,Reader
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
	"strings"
	"sync"
	"time"
)

func main() {
	server := flag.String("server", "", "the zumba binary")
	dir := flag.String("dir", "", "the project folder")
	wrap := flag.String("wrap", "", "a command to run the server under, split on spaces (e.g. \"/usr/bin/time -v -o rss.txt\")")
	names := flag.String("names", "", "comma-separated names to look up (latency mode)")
	tools := flag.String("tools", "find_symbol,find_references", "comma-separated tools to time (latency mode)")
	extra := flag.String("args", "", `more arguments for every call, as a JSON object (e.g. {"group":"definition","code":true})`)
	rounds := flag.Int("rounds", 5, "calls per tool and name (latency mode)")
	cold := flag.String("cold", "", "cold mode: the name to ask find_symbol for from the start")
	ready := flag.String("ready", `(?i)index (is )?(complete|ready)`, "regexp of the stderr line saying the index is complete")
	partial := flag.String("partial", `(?i)(of the project|later call|not complete|incomplete)`, "regexp matching the last line of an incomplete answer")
	readyWait := flag.Duration("ready-wait", 120*time.Second, "how long to wait for the -ready line")
	timeout := flag.Duration("timeout", 60*time.Second, "the longest wait for one reply")
	flag.Parse()
	if *server == "" || *dir == "" || (*names == "" && *cold == "") {
		fmt.Fprintln(os.Stderr, "usage: benchclient -server ZUMBA -dir DIR (-names A,B,... | -cold NAME)")
		os.Exit(2)
	}
	readyRE, err := regexp.Compile(*ready)
	if err != nil {
		fatal(err)
	}
	partialRE, err := regexp.Compile(*partial)
	if err != nil {
		fatal(err)
	}
	if *extra != "" {
		if err := json.Unmarshal([]byte(*extra), &extraArgs); err != nil {
			fatal(fmt.Errorf("-args: %w", err))
		}
	}
	argv := append(strings.Fields(*wrap), *server, "mcp", *dir)
	c, err := start(argv, readyRE)
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

	if *cold != "" {
		fmt.Printf("cold\tinitialize\t%.1f\n", ms(initAt))
		status := "n/a"
		for {
			r := c.tool("find_symbol", *cold, partialRE)
			status = r.status
			if status != "partial" {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		fmt.Printf("cold\tfirst_answer\t%s\t%.1f\t%s\n", *cold, ms(time.Since(c.started)), status)
		readyAt := "n/a"
		if status != "n/a" {
			if d, ok := c.waitReady(*readyWait); ok {
				readyAt = fmt.Sprintf("%.1f", ms(d))
			}
		}
		fmt.Printf("cold\tindex_ready\t%s\n", readyAt)
		return
	}

	// Time the index, not its building: wait until the server says it is
	// complete (when it has the tools at all and says so).
	if first := split(*tools); len(first) > 0 && len(split(*names)) > 0 {
		if c.tool(first[0], split(*names)[0], partialRE).status != "n/a" {
			if d, ok := c.waitReady(*readyWait); ok {
				fmt.Printf("ready\t%.1f\n", ms(d))
			} else {
				fmt.Printf("ready\tn/a\n")
			}
		}
	}

	for _, tool := range split(*tools) {
		var medians []float64
		for _, name := range split(*names) {
			var times []float64
			var last result
			for range *rounds {
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
			fmt.Printf("call\t%s\t%s\t%.2f\t%d\t%s\n", tool, name, m, last.lines, last.status)
		}
		if len(medians) == 0 {
			fmt.Printf("summary\t%s\tn/a\tn/a\t0\n", tool)
			continue
		}
		fmt.Printf("summary\t%s\t%.2f\t%.2f\t%d\n", tool, quantile(medians, 0.5), quantile(medians, 0.99), len(medians))
	}
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

// client is one server process and its JSON-RPC lines.
type client struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	started time.Time
	timeout time.Duration

	mu      sync.Mutex
	nextID  int
	waiting map[int]chan reply
	readyAt time.Duration
	ready   chan struct{}
	exited  chan struct{}
}

type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func start(argv []string, readyRE *regexp.Regexp) (*client, error) {
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
	c := &client{cmd: cmd, in: in, waiting: map[int]chan reply{}, ready: make(chan struct{}), exited: make(chan struct{})}
	c.started = time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go c.readReplies(out)
	go c.readLog(errp, readyRE)
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

// readLog passes the server's stderr through and notes the time of the
// line saying the index is complete.
func (c *client) readLog(r io.Reader, readyRE *regexp.Regexp) {
	sc := bufio.NewScanner(r)
	seen := false
	for sc.Scan() {
		if !seen && readyRE.MatchString(sc.Text()) {
			seen = true
			c.mu.Lock()
			c.readyAt = time.Since(c.started)
			c.mu.Unlock()
			close(c.ready)
		}
		if os.Getenv("BENCH_VERBOSE") != "" {
			fmt.Fprintln(os.Stderr, "server:", sc.Text())
		}
	}
}

func (c *client) waitReady(wait time.Duration) (time.Duration, bool) {
	select {
	case <-c.ready:
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.readyAt, true
	case <-time.After(wait):
		return 0, false
	case <-c.exited:
		return 0, false
	}
}

func (c *client) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = c.in.Write(append(b, '\n'))
	return err
}

func (c *client) notify(method string) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method})
}

var errUnknownTool = errors.New("unknown tool")

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
	case <-time.After(c.timeout):
		return reply{}, fmt.Errorf("no reply in %v", c.timeout)
	}
}

type result struct {
	took   time.Duration
	lines  int
	status string
}

// tool calls a tool with the name argument and times the reply.
// extraArgs are the -args given to every call.
var extraArgs map[string]any

func (c *client) tool(tool, name string, partialRE *regexp.Regexp) result {
	args := map[string]any{"name": name}
	for k, v := range extraArgs {
		args[k] = v
	}
	start := time.Now()
	r, err := c.call("tools/call", map[string]any{"name": tool, "arguments": args})
	took := time.Since(start)
	if errors.Is(err, errUnknownTool) {
		return result{status: "n/a"}
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
