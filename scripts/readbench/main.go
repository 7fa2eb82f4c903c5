// Command readbench measures what it costs an agent, in bytes read, to see
// the source of one definition, five ways, and how fast read_symbol
// answers through the indexed server. scripts/read_bench.sh runs it on the
// Go standard library and on a pinned npm package's TypeScript sources.
//
// It picks N functions and methods at random (a fixed seed) from a list of
// true extents: go/ast's (doc comment to closing brace) for a Go tree, or
// the TypeScript compiler's from -truth (a file written by
// scripts/tsdiff/outline.js --extents). For each it counts the bytes of:
//
//	grep+file    a definition-shaped grep over the tree's files of that
//	             language (at most 100 lines of `path:line:text`), then the
//	             whole file
//	grep+100     the same grep, then 100 lines from the definition's name
//	zumba 3      find_symbol NAME, outline PATH, then the lines from the name
//	             to the line before the next entry at the same or a lower
//	             depth (or the end of the file): the three calls an agent
//	             made before read_symbol
//	read_symbol  read_symbol NAME
//	own lines    the definition's own lines, first to last
//
// and checks that read_symbol's answer holds the definition's last line.
// When the name has several definitions and the one wanted is only listed,
// the agent calls read_symbol again with the PATH:LINE the answer gives;
// both answers count. Files over 512 KB, which the project search leaves
// out, are left out of the tasks.
// NAME is what an agent would ask for: Go's package-qualified name
// (http.Server.Serve, strings.Index), or for TypeScript the method's
// Class.method and a function's own name. Every read_symbol call is made
// -rounds times and timed; the median and p99 are over all calls.
//
// Usage:
//
//	readbench -server ./zumba -dir /usr/local/go/src -lang go -n 60
//	readbench -server ./zumba -dir rxjs -lang ts -truth extents.jsonl -n 60
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// def is one definition with its true extent.
type def struct {
	path             string // relative to the tree, with /
	name             string // the name the grep looks for
	query            string // what read_symbol and find_symbol are asked
	start, line, end int    // 1-based: first line, the name's line, last line
}

func main() {
	server := flag.String("server", "", "the zumba binary")
	dir := flag.String("dir", "", "the tree")
	lang := flag.String("lang", "go", "go or ts")
	truth := flag.String("truth", "", "for -lang ts: JSON lines from outline.js --extents")
	n := flag.Int("n", 60, "definitions to sample")
	seed := flag.Uint64("seed", 1, "random seed")
	rounds := flag.Int("rounds", 5, "read_symbol calls per definition, for the latency figures")
	verbose := flag.Bool("v", false, "print each task")
	flag.Parse()
	if *server == "" || *dir == "" {
		fmt.Fprintln(os.Stderr, "usage: readbench -server ZUMBA -dir DIR [-lang go|ts -truth FILE] [-n N]")
		os.Exit(2)
	}
	root, err := filepath.Abs(*dir)
	if err != nil {
		fatal(err)
	}
	all, exts, err := loadDefs(*lang, root, *truth)
	if err != nil {
		fatal(err)
	}
	slices.SortFunc(all, func(a, b def) int { return cmp.Or(strings.Compare(a.path, b.path), cmp.Compare(a.line, b.line)) })
	rng := rand.New(rand.NewPCG(*seed, *seed))
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	tasks := all[:min(*n, len(all))]

	files, err := loadFiles(root, exts)
	if err != nil {
		fatal(err)
	}
	c, err := start(*server, root)
	if err != nil {
		fatal(err)
	}
	defer c.close()

	b := &bench{c: c, root: root, lang: *lang, files: files, rounds: *rounds}
	for i, d := range tasks {
		b.task(i, d, *verbose)
	}
	b.report(len(tasks), len(all), *seed)
	cpuPerCall(c, tasks, *rounds)
	fmt.Printf("  load average at the end: %s\n", loadAverage())
}

// loadDefs is the tree's definitions with their true extents, and the
// extensions of the files that hold them.
func loadDefs(lang, root, truth string) ([]def, []string, error) {
	var all []def
	var exts []string
	var err error
	switch lang {
	case "go":
		exts = []string{".go"}
		all, err = goDefs(root)
	case "ts":
		exts = []string{".ts", ".tsx", ".mts", ".cts"}
		all, err = tsDefs(root, truth)
	default:
		err = fmt.Errorf("unknown -lang %q", lang)
	}
	if err == nil && len(all) == 0 {
		err = errors.New("no definitions found")
	}
	return all, exts, err
}

// loadAverage is the machine's load average over 1, 5 and 15 minutes.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "n/a"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

// cpu is the server process's CPU time so far (user and system), from
// /proc; ok is false where there is none.
func (c *client) cpu() (time.Duration, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", c.cmd.Process.Pid))
	if err != nil {
		return 0, false
	}
	// The fields after the command name, which is in parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	// Clock ticks of 10 ms (USER_HZ is 100 on Linux).
	return time.Duration(utime+stime) * 10 * time.Millisecond, true
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func fatal(err error) {
	fmt.Fprintf(os.Stderr, "readbench: %v\n", err)
	os.Exit(1)
}

// goDefs lists every function and method declaration with a body, with
// go/ast's extent: from the doc comment (or the func keyword) to the
// closing brace. Files under testdata and those go/parser rejects are
// left out.
func goDefs(root string) ([]def, error) {
	var out []def
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		if fi, err := d.Info(); err != nil || fi.Size() > maxFileSize {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil
		}
		pkg := pathDir(rel)
		if i := strings.LastIndexByte(pkg, '/'); i >= 0 {
			pkg = pkg[i+1:]
		}
		if pkg != "" && !token.IsIdentifier(pkg) {
			// A folder whose name no Go code can write (v1.0.0): callers
			// name the package by its clause.
			pkg = f.Name.Name
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Name.Name == "_" {
				continue
			}
			name := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				recv := receiver(fd.Recv.List[0].Type)
				if recv == "" {
					continue
				}
				name = recv + "." + name
			}
			first := fd.Pos()
			if fd.Doc != nil {
				first = fd.Doc.Pos()
			}
			q := name
			if pkg != "" {
				q = pkg + "." + name
			}
			out = append(out, def{
				path:  rel,
				name:  fd.Name.Name,
				query: q,
				start: fset.Position(first).Line,
				line:  fset.Position(fd.Name.Pos()).Line,
				end:   fset.Position(fd.End()).Line,
			})
		}
		return nil
	})
	return out, err
}

func pathDir(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}

func receiver(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// tsDefs reads the functions and methods with a body from outline.js's
// --extents output: {"file", "entries": [[LINE, KIND, NAME, PARENT,
// START, END, BODY], …]}.
func tsDefs(root, truth string) ([]def, error) {
	if truth == "" {
		return nil, errors.New("-lang ts needs -truth")
	}
	data, err := os.ReadFile(truth)
	if err != nil {
		return nil, err
	}
	var out []def
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var rec struct {
			File    string
			Entries [][]any
		}
		if err := json.Unmarshal(l, &rec); err != nil {
			return nil, fmt.Errorf("%s: %w", truth, err)
		}
		rel, err := filepath.Rel(root, rec.File)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		if fi, err := os.Stat(rec.File); err != nil || fi.Size() > maxFileSize {
			continue
		}
		for _, e := range rec.Entries {
			if len(e) < 7 {
				return nil, fmt.Errorf("%s: entries without extents; run outline.js --extents", truth)
			}
			kind, name, parent := e[1].(string), e[2].(string), e[3].(string)
			if (kind != "function" && kind != "method") || e[6] != true {
				continue
			}
			q := name
			if kind == "method" && parent != "" && !strings.Contains(name, ".") {
				q = parent + "." + name
			}
			if i := strings.LastIndexByte(name, '.'); i >= 0 {
				name = name[i+1:]
			}
			out = append(out, def{
				path:  filepath.ToSlash(rel),
				name:  name,
				query: q,
				line:  int(e[0].(float64)),
				start: int(e[4].(float64)),
				end:   int(e[5].(float64)),
			})
		}
	}
	return out, nil
}

// loadFiles reads the tree's files with one of exts, for the grep.
func loadFiles(root string, exts []string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() || !slices.Contains(exts, filepath.Ext(p)) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = data
		return nil
	})
	return files, err
}

// maxFileSize is the size of the largest file zumba's project search
// covers (SPEC.md); larger ones are left out of the tasks.
const maxFileSize = 512 << 10

// grepLimit is how many lines of grep output an agent is shown.
const grepLimit = 100

// grepBytes is the size of `grep -rn -E PATTERN` over the files, at most
// grepLimit lines, with a definition-shaped pattern for the name, the way
// an agent greps for where something is defined.
func grepBytes(files map[string][]byte, d def, lang string) int {
	n := regexp.QuoteMeta(d.name)
	var re *regexp.Regexp
	if lang == "go" {
		re = regexp.MustCompile(`^func (\([^)]*\) )?` + n + `\b`)
	} else {
		re = regexp.MustCompile(`(function\*?\s+` + n + `\b|\b` + n + `\s*(<[^>]*>)?\s*\([^)]*\)\s*(:[^{;]*)?\{|\b` + n + `\s*=\s*(async\s+)?(function|\())`)
	}
	paths := make([]string, 0, len(files))
	for p, data := range files {
		if bytes.Contains(data, []byte(d.name)) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	total, count := 0, 0
	for _, p := range paths {
		for i, l := range splitLines(files[p]) {
			if re.Match(l) {
				total += len(p) + 1 + len(strconv.Itoa(i+1)) + 1 + len(l) + 1
				if count++; count == grepLimit {
					return total
				}
			}
		}
	}
	return total
}

// splitLines splits src into lines without their "\n".
func splitLines(src []byte) [][]byte {
	lines := bytes.Split(src, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// linesBytes is the size of lines from to to (1-based, inclusive, clipped
// to the file), each with its newline.
func linesBytes(lines [][]byte, from, to int) int {
	n := 0
	for i := max(from, 1); i <= min(to, len(lines)); i++ {
		n += len(lines[i-1]) + 1
	}
	return n
}

var outlineLine = regexp.MustCompile(`^( *)(\d+) `)

// outlineEnd is where an agent reading the outline would take the
// definition named on line to end: the line before the next entry at the
// same or a lower depth, or the end of the file.
func outlineEnd(out string, line, last int) int {
	depth := -1
	for _, l := range strings.Split(out, "\n") {
		m := outlineLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		switch {
		case depth < 0 && n == line:
			depth = len(m[1])
		case depth >= 0 && len(m[1]) <= depth && n > line:
			return n - 1
		}
	}
	return last
}

var place = regexp.MustCompile(`^\S+:\d+ \S+ `)

// placeBytes is the size of answer's lines that list definitions by place
// (PATH:LINE KIND NAME, with or without "(same text)") and of its line
// saying how to narrow it.
func placeBytes(answer string) int {
	n := 0
	for _, l := range strings.Split(answer, "\n") {
		if place.MatchString(l) && !header.MatchString(l) || strings.Contains(l, " definitions of ") && strings.Contains(l, "; narrow it with") {
			n += len(l) + 1
		}
	}
	return n
}

// oneDefinition reports whether answer shows one definition and lists no
// other.
func oneDefinition(answer string) bool {
	headers := 0
	for _, l := range strings.Split(answer, "\n") {
		if header.MatchString(l) {
			headers++
		} else if place.MatchString(l) {
			return false
		}
	}
	return headers == 1
}

// sameTextAs finds the line "PATH:LINE KIND NAME (same text)" of path and
// line in answer, and returns the header of the body it follows: its path
// and last line.
func sameTextAs(answer, path string, line int) (string, int, bool) {
	want := fmt.Sprintf("%s:%d ", path, line)
	hdrPath, hdrEnd := "", 0
	for _, l := range strings.Split(answer, "\n") {
		if m := header.FindStringSubmatch(l); m != nil {
			hdrPath = m[1]
			hdrEnd, _ = strconv.Atoi(m[3])
			continue
		}
		if strings.HasPrefix(l, want) && strings.HasSuffix(l, " (same text)") && hdrPath != "" {
			return hdrPath, hdrEnd, true
		}
	}
	return "", 0, false
}

// readTreeFile is a file of the tree, from the files loaded or the disk.
func readTreeFile(files map[string][]byte, root, p string) ([]byte, error) {
	if src := files[p]; src != nil {
		return src, nil
	}
	return os.ReadFile(filepath.Join(root, p))
}

var (
	header    = regexp.MustCompile(`^(.+):(\d+)-(\d+) \S+ `)
	marker    = regexp.MustCompile(`^\s*⋮ (\d+)-(\d+) `)
	truncated = regexp.MustCompile(`^… \d+ more lines`)
)

// holdsLine reports whether answer shows line want of path as the file
// has it: it follows each definition's header, counting lines and
// stepping over elision markers.
func holdsLine(answer, path string, want int, lines [][]byte) bool {
	if want < 1 || want > len(lines) {
		return false
	}
	wantText := strings.TrimSuffix(string(lines[want-1]), "\r")
	in, cur, end := false, 0, -1
	for _, l := range strings.Split(answer, "\n") {
		if !in || cur > end {
			if m := header.FindStringSubmatch(l); m != nil {
				in = m[1] == path
				cur, _ = strconv.Atoi(m[2])
				end, _ = strconv.Atoi(m[3])
			}
			continue
		}
		if truncated.MatchString(l) {
			in = false
			continue
		}
		if m := marker.FindStringSubmatch(l); m != nil {
			to, _ := strconv.Atoi(m[2])
			cur = to + 1
			continue
		}
		if cur == want {
			return l == wantText || strings.HasSuffix(l, "…") && strings.HasPrefix(wantText, strings.TrimSuffix(l, "…"))
		}
		cur++
	}
	return false
}

// client is one zumba MCP server on pipes.
type client struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	id     int
	stderr *bytes.Buffer
	mu     sync.Mutex
}

// start runs `zumba mcp DIR`, initializes it, and waits until it logs that
// its index is complete.
func start(server, dir string) (*client, error) {
	cmd := exec.Command(server, "mcp", dir)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &client{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20), stderr: &bytes.Buffer{}}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(errPipe)
		closed := false
		for sc.Scan() {
			c.mu.Lock()
			c.stderr.WriteString(sc.Text() + "\n")
			c.mu.Unlock()
			if !closed && strings.Contains(sc.Text(), "index complete") {
				close(ready)
				closed = true
			}
		}
		if !closed {
			close(ready)
		}
	}()
	if _, err := c.call("initialize", map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "readbench", "version": "1"},
	}); err != nil {
		return nil, err
	}
	select {
	case <-ready:
	case <-time.After(5 * time.Minute):
		return nil, errors.New("the index was not complete after 5 minutes")
	}
	return c, nil
}

func (c *client) call(method string, params any) (json.RawMessage, error) {
	c.id++
	req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	if _, err := c.in.Write(append(req, '\n')); err != nil {
		return nil, err
	}
	for {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			c.mu.Lock()
			defer c.mu.Unlock()
			return nil, fmt.Errorf("read reply: %v; stderr: %s", err, c.stderr.String())
		}
		var rep struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(line, &rep) != nil || rep.ID != c.id {
			continue
		}
		if rep.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, rep.Error.Message)
		}
		return rep.Result, nil
	}
}

// tool calls a tool whose one argument is name or path and returns its text.
func (c *client) tool(name, arg string) (string, bool, error) {
	key := "name"
	if name == "outline" {
		key = "path"
	}
	raw, err := c.call("tools/call", map[string]any{"name": name, "arguments": map[string]string{key: arg}})
	if err != nil {
		return "", false, err
	}
	var res struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || len(res.Content) == 0 {
		return "", false, fmt.Errorf("%s: bad result %s", name, raw)
	}
	return res.Content[0].Text, res.IsError, nil
}

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
