// Command codebench measures find_code's ranking on real projects, beside
// the baseline an agent uses today: `rg -l -i` with the query's words, the
// files ranked by how many of the words they hold. scripts/code_bench.sh
// runs it once per project.
//
// It starts one `zumba mcp DIR` server, waits for the complete index, and
// for each query of -queries (tab-separated: query, folder, name, source;
// see scripts/code_bench/*.py) asks find_symbol for the name to learn the
// target definitions (those under the folder, outside test files; a query
// with none is skipped and counted), then find_code for the query, and
// notes the rank of the first line naming a target (1-based; 0: not in the
// answer). The baseline ranks files; its rank is that of the first file
// holding a target. It prints, tab-separated:
//
//	query  RANK_CODE RANK_RG MS QUERY            (with -v)
//	result NAME QUERIES SKIPPED TOOL HIT1 HIT5 MRR
//	result NAME/held QUERIES 0 TOOL HIT1 HIT5 MRR
//	latency NAME CALLS MEDIAN_MS P99_MS MAX_MS
//
// NAME/held is the held-out half: the second, fourth, … query with
// targets, as search/findcode's TestCodeTune holds them out (it tunes on the
// others). find_code is asked for its best -limit (20, its most); MRR
// counts ranks up to 20 for both. Latency is each find_code call's time
// from request to reply, -rounds calls per query.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"slices"
	"sort"
	"strings"
	"time"
)

func main() {
	server := flag.String("server", "", "the zumba binary")
	dir := flag.String("dir", "", "the project folder")
	queries := flag.String("queries", "", "the queries file")
	name := flag.String("name", "project", "the project's name in the output")
	rounds := flag.Int("rounds", 3, "find_code calls per query, for the latency")
	rg := flag.Bool("rg", true, "run the rg baseline")
	limit := flag.Int("limit", 20, "find_code's limit argument (0: none, for a zumba without it)")
	verbose := flag.Bool("v", false, "print each query's ranks")
	wait := flag.Duration("ready-wait", 30*time.Minute, "the longest wait for the complete index")
	flag.Parse()
	if *server == "" || *dir == "" || *queries == "" {
		fmt.Fprintln(os.Stderr, "usage: codebench -server ZUMBA -dir DIR -queries FILE [-name NAME]")
		os.Exit(2)
	}
	qs, err := readQueries(*queries)
	if err != nil {
		fail(err)
	}
	c, err := start(*server, *dir, *wait)
	if err != nil {
		fail(err)
	}
	defer c.close()
	var code, base []int
	var lat []float64
	skipped := 0
	for _, q := range qs {
		targets := c.targets(q)
		if len(targets) == 0 {
			skipped++
			if *verbose {
				fmt.Printf("skip\t%s\t%s\t%s\n", q.folder, q.name, q.text)
			}
			continue
		}
		var text string
		for r := range max(*rounds, 1) {
			t0 := time.Now()
			args := map[string]any{"query": q.text}
			if *limit > 0 {
				args["limit"] = *limit
			}
			text, _ = c.tool("find_code", args)
			if r > 0 || *rounds == 1 {
				lat = append(lat, float64(time.Since(t0).Microseconds())/1000)
			}
		}
		rc := codeRank(text, q, targets)
		rb := 0
		if *rg {
			rb = rgRank(*dir, q.text, targets)
		}
		code, base = append(code, rc), append(base, rb)
		if *verbose {
			fmt.Printf("query\t%d\t%d\t%s\t%s\t%s\n", rc, rb, q.name, q.folder, q.text)
		}
	}
	report(*name, "find_code", len(code), skipped, code)
	if *rg {
		report(*name, "rg", len(base), skipped, base)
	}
	report(*name+"/held", "find_code", len(odd(code)), 0, odd(code))
	if *rg {
		report(*name+"/held", "rg", len(odd(base)), 0, odd(base))
	}
	sort.Float64s(lat)
	if len(lat) > 0 {
		fmt.Printf("latency\t%s\t%d\t%.2f\t%.2f\t%.2f\n", *name, len(lat), pct(lat, 50), pct(lat, 99), lat[len(lat)-1])
	}
}

// odd is the second, fourth, … of ranks: the held-out half.
func odd(ranks []int) []int {
	var out []int
	for i := 1; i < len(ranks); i += 2 {
		out = append(out, ranks[i])
	}
	return out
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "codebench:", err)
	os.Exit(1)
}

type query struct{ text, folder, name, source string }

func readQueries(file string) ([]query, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var qs []query
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 3 || strings.HasPrefix(line, "#") {
			continue
		}
		q := query{text: f[0], folder: f[1], name: f[2]}
		if len(f) > 3 {
			q.source = f[3]
		}
		qs = append(qs, q)
	}
	return qs, nil
}

func pct(sorted []float64, p float64) float64 {
	i := int(float64(len(sorted)-1) * p / 100)
	return sorted[i]
}

func report(name, tool string, n, skipped int, ranks []int) {
	var h1, h5 int
	var mrr float64
	for _, r := range ranks {
		if r == 1 {
			h1++
		}
		if r >= 1 && r <= 5 {
			h5++
		}
		if r >= 1 && r <= 20 {
			mrr += 1 / float64(r)
		}
	}
	d := float64(max(n, 1))
	fmt.Printf("result\t%s\t%d\t%d\t%s\t%.3f\t%.3f\t%.3f\n", name, n, skipped, tool, float64(h1)/d, float64(h5)/d, mrr/d)
}

// inTest reports whether a project path is a test file, as the targets
// leave them out.
func inTest(p string) bool {
	base := path.Base(p)
	return strings.HasSuffix(base, "_test.go") || strings.Contains(base, ".spec.") || strings.Contains(base, ".test.") ||
		strings.HasPrefix(base, "test_") || strings.Contains("/"+p, "/test/") || strings.Contains("/"+p, "/tests/") ||
		strings.Contains("/"+p, "/testdata/") || strings.Contains("/"+p, "/spec/")
}

// under reports whether the project path p is in folder: a folder ending
// in "/" holds everything under it, a file names itself, and another
// folder (a Go package) holds its own files only.
func under(p, folder string) bool {
	switch {
	case strings.HasSuffix(folder, "/"):
		return strings.HasPrefix(p, folder)
	case path.Ext(folder) != "":
		return p == folder
	}
	return path.Dir(p) == folder
}

// targets are the files defining q's name under its folder. A name
// defined in more places than find_symbol lists (its last line says
// "… more") is asked again qualified by the folder's last part, as Go
// qualifies a name by its package ("runtime.Error"), so that the query is
// kept as search/findcode's TestCodeTune keeps it (skipping it moved every
// later query of its set to the other half).
func (c *client) targets(q query) map[string]bool {
	out := c.defining(q, q.name)
	if len(out) == 0 && c.capped {
		if pkg := path.Base(strings.TrimSuffix(q.folder, "/")); pkg != "." && pkg != "/" && path.Ext(pkg) == "" {
			out = c.defining(q, pkg+"."+q.name)
		}
	}
	return out
}

// defining lists the files under q's folder, outside test files, that
// find_symbol's answer for name holds, and notes whether the answer was
// cut short.
func (c *client) defining(q query, name string) map[string]bool {
	text, isError := c.tool("find_symbol", map[string]any{"name": name})
	out := map[string]bool{}
	c.capped = false
	if isError || strings.HasPrefix(text, "No ") {
		return out
	}
	c.capped = strings.Contains(text, "\n… more")
	for _, line := range strings.Split(text, "\n") {
		i := strings.Index(line, ":")
		if i < 0 || strings.HasPrefix(line, "…") {
			continue
		}
		p := line[:i]
		if under(p, q.folder) && !inTest(p) {
			out[p] = true
		}
	}
	return out
}

// codeRank is the rank of the first line of find_code's answer naming a
// target: its path one of targets and its qualified name q.name or ending
// in "."+q.name.
func codeRank(text string, q query, targets map[string]bool) int {
	for i, line := range strings.Split(text, "\n") {
		colon := strings.Index(line, ":")
		if colon < 0 {
			continue
		}
		f := strings.Fields(line[colon+1:])
		if len(f) < 3 || !targets[line[:colon]] {
			continue
		}
		if qn := f[2]; qn == q.name || strings.HasSuffix(qn, "."+q.name) {
			return i + 1
		}
	}
	return 0
}

// baselineStop are the words an agent would not grep for.
var baselineStop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the of to in on at by for from with into as and or but is are was were be been it its this that these those
	there which who what when where how do does did has have had will would can could should may might must so than then such some any each every all
	both not no only also just very we you they them their our your if else while because whether like new return returns`) {
		m[w] = true
	}
	return m
}()

// rgRank runs `rg -l -i -F WORD` in dir for each of the query's words,
// ranks the files by how many words they hold (then by path), and returns
// the rank of the first target file (0: none among them).
func rgRank(dir, text string, targets map[string]bool) int {
	count := map[string]int{}
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '_')
	}) {
		if len(w) < 2 || baselineStop[w] || seen[w] {
			continue
		}
		seen[w] = true
		cmd := exec.Command("rg", "-l", "-i", "-F", "-e", w)
		cmd.Dir = dir
		out, _ := cmd.Output()
		for _, p := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if p != "" {
				count[strings.TrimPrefix(p, "./")]++
			}
		}
	}
	files := make([]string, 0, len(count))
	for p := range count {
		files = append(files, p)
	}
	slices.SortFunc(files, func(a, b string) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return strings.Compare(a, b)
	})
	for i, p := range files {
		if targets[p] {
			return i + 1
		}
	}
	return 0
}

// client drives one zumba server over stdio.
type client struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	id  int
	// capped: the last find_symbol answer said there were more.
	capped bool
}

func start(server, dir string, wait time.Duration) (*client, error) {
	cmd := exec.Command(server, "mcp", dir)
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
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(errp)
		closed := false
		for sc.Scan() {
			if !closed && strings.Contains(sc.Text(), "index complete") {
				close(ready)
				closed = true
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(wait):
		cmd.Process.Kill()
		return nil, fmt.Errorf("index not complete after %v", wait)
	}
	return &client{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}, nil
}

func (c *client) tool(name string, args map[string]any) (string, bool) {
	c.id++
	req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}})
	if _, err := c.in.Write(append(req, '\n')); err != nil {
		fail(err)
	}
	line, err := c.out.ReadBytes('\n')
	if err != nil {
		fail(err)
	}
	var r struct {
		Result struct {
			Content []struct{ Text string } `json:"content"`
			IsError bool                    `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &r); err != nil || len(r.Result.Content) == 0 {
		return "", true
	}
	return r.Result.Content[0].Text, r.Result.IsError
}

func (c *client) close() {
	c.in.Close()
	c.cmd.Wait()
}
