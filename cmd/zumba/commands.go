package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/zumba-dev/zumba/internal/filestat"
	"github.com/zumba-dev/zumba/mcpserver"
	"github.com/zumba-dev/zumba/search"
)

// command is one subcommand.
type command struct {
	name  string
	usage string // arguments, shown by help
	short string
	flags []flagDef
	run   func(args []string) int
}

var commands []*command

func init() {
	pathFlag := flagDef{name: "path", arg: "GLOBS", usage: "only files matching these comma-separated globs (!GLOB leaves out)"}
	commands = []*command{
		{name: "mcp", usage: "[DIR...] [--diagnostics FILE] [--http ADDR [--token-file FILE]]", short: "serve MCP over stdio (or HTTP at ADDR) for the project in DIR (several: paths start with each folder's name; none: the client's roots, else the current folder)", run: runMCP, flags: []flagDef{
			{name: "diagnostics", arg: "FILE", usage: "the editor's diagnostics file"},
			{name: "http", arg: "ADDR", usage: "serve Streamable HTTP at this address (HOST:PORT) instead of stdio"},
			{name: "token-file", arg: "FILE", usage: "the file holding the bearer token HTTP clients must send"},
		}},
		{name: "outline", usage: "[--name NAME] [--exported] [--signatures] FILE | [--budget TOKENS] DIR", short: "print a file's outline, or a map of a folder's most used definitions", run: runOutline, flags: []flagDef{
			{name: "name", arg: "NAME", usage: "only this definition and what it contains"},
			{name: "exported", arg: "", usage: "only the exported (public) definitions, and a line counting them by kind"},
			{name: "signatures", arg: "", usage: "each definition's declaration up to its body"},
			{name: "budget", arg: "TOKENS", usage: "the folder map's size in tokens (200 to 10000, default 2000)"},
		}},
		{name: "symbol", usage: "NAME [DIR]", short: "print where NAME is defined in the project", run: runSymbol},
		{name: "read", usage: "NAME|--names A,B [--full] [DIR]", short: "print the source of NAME's definition (a name, Type.method or path:line)", run: runRead, flags: []flagDef{
			{name: "full", arg: "", usage: "show a doc comment of over 12 lines whole"},
			{name: "names", arg: "A,B", usage: "several names, comma-separated, read in order in one answer"},
		}},
		{name: "refs", usage: "NAME [--path GLOBS] [--group definition] [--code] [--limit N] [--depth N] [--definition PATH:LINE] [DIR]", short: "print the lines that use NAME as a whole word (a qualified name, Type.Method: the uses of that definition)", run: runRefs, flags: []flagDef{
			pathFlag,
			{name: "definition", arg: "PATH:LINE", usage: "only the uses that resolve to the definition there (Go, TypeScript, JavaScript, Python)"},
			{name: "group", arg: "definition", usage: "group the hits under the definition that holds them"},
			{name: "code", arg: "", usage: "leave out hits in comments and strings"},
			{name: "limit", arg: "N", usage: "1 to 80: stop after this many hits (with --group, definitions)"},
			{name: "depth", arg: "N", usage: "2 or 3: also the definitions that use each user, indented"},
		}},
		{name: "code", usage: "QUERY [--path GLOBS] [--limit N] [DIR]", short: "print the definitions that match a description of what they do, best first", run: runCode, flags: []flagDef{
			pathFlag,
			{name: "limit", arg: "N", usage: "1 to 20: show this many of the best (default: up to 10, fewer where the match falls off)"},
		}},
		{name: "changes", usage: "[--base REF] [--path GLOBS] [--depth N] [DIR]", short: "print the definitions the uncommitted change (or the branch since REF) touches, and who uses them", run: runChanges, flags: []flagDef{
			{name: "base", arg: "REF", usage: "compare with the merge base of REF and HEAD instead of HEAD"},
			pathFlag,
			{name: "depth", arg: "N", usage: "2 or 3: also the definitions that use each user, indented"},
		}},
		{name: "diagnostics", usage: "[--path P] --diagnostics FILE [DIR]", short: "print the editor's diagnostics for the project in DIR", run: runDiagnostics, flags: []flagDef{
			{name: "diagnostics", arg: "FILE", usage: "the editor's diagnostics file"},
			{name: "path", arg: "P", usage: "only this file (or folder), relative to the project"},
		}},
		{name: "prompt", usage: "[NAME [ARG...]]", short: "print a prompt's text with its arguments filled in, as prompts/get gives it (none: list the prompts)", run: runPrompt},
		{name: "setup", usage: "[--client NAME]... [--project] [--dry-run] [DIR]", short: "register zumba with the MCP clients installed for this user (DIR: serve that project)", run: runSetup, flags: []flagDef{
			{name: "client", arg: "NAME", usage: "only this client (claude, codex, cursor, vscode, gemini, windsurf, opencode, zuno); may be repeated", repeat: true},
			{name: "project", usage: "also write a block of guidance for agents in the project's AGENTS.md (and CLAUDE.md when present)"},
			{name: "dry-run", usage: "print the changes as diffs and write nothing"},
		}},
		{name: "cache", usage: "[--clean]", short: "print the size of the disk cache and how many projects it holds, or empty it", run: runCache, flags: []flagDef{
			{name: "clean", usage: "empty the disk cache (every project's, and the store of files shared by them)"},
		}},
		{name: "version", short: "print zumba's version, commit and Go version", run: runVersion},
		{name: "help", usage: "[COMMAND]", short: "print this help, or one command's", run: runHelp},
	}
}

const helpText = `zumba gives coding agents a structural view of a codebase over MCP.
Every command also takes -h or --help.

Usage:
`

func runHelp(args []string) int {
	if len(args) > 1 {
		return usageError("help takes at most one command; usage: zumba help [COMMAND]")
	}
	if len(args) == 1 {
		c := commandNamed(args[0])
		if c == nil {
			return usageError(fmt.Sprintf("unknown command %q; run 'zumba help'", args[0]))
		}
		c.writeHelp(os.Stdout, true)
		return 0
	}
	var sb strings.Builder
	sb.WriteString(helpText)
	for _, c := range commands {
		c.writeHelp(&sb, false)
	}
	sb.WriteString(`
Examples:
  zumba mcp .                     serve the current folder to an MCP client
  zumba outline cmd/zumba/main.go
  zumba outline .                 map the project's most used definitions
  zumba symbol Server.Serve
  zumba read Server.Serve
  zumba refs Serve --path '*.go, docs/**'
  zumba refs Serve --group definition --code --limit 5
  zumba refs 'File.Close' --path 'net/**'   (Go: the uses of that method)
  zumba code "parse media type parameters"
`)
	fmt.Print(sb.String())
	return 0
}

// parseFlags parses flags that may come before or after the positional
// arguments ("mcp DIR --diagnostics F" and "mcp --diagnostics F DIR").
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

const mcpUsage = "usage: zumba mcp [DIR...] [--diagnostics FILE] [--http ADDR [--token-file FILE]]"

// exitGrace bounds how long `zumba mcp` takes to exit after SIGTERM or
// SIGINT (the README says at once): what is not finished by then is left.
const exitGrace = 700 * time.Millisecond

// httpExitGrace is exitGrace for `zumba mcp --http`, which lets the calls
// of its many clients finish (ServeListener waits up to 30 s for them).
const httpExitGrace = 35 * time.Second

// serverMemoryLimit is the Go heap's soft limit in `zumba mcp` (stdio and
// HTTP alike), unless GOMEMLIMIT is set: well above a large project's
// index (450 MB for the Linux kernel), a backstop rather than a target.
const serverMemoryLimit = 768 << 20

func runMCP(args []string) int {
	fs := newFlagSet("mcp")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError("mcp: " + err.Error() + "; " + mcpUsage)
	}
	diag, addr, tokenFile := str(fs, "diagnostics"), str(fs, "http"), str(fs, "token-file")
	if tokenFile != "" && addr == "" {
		return usageError("mcp: --token-file needs --http; " + mcpUsage)
	}
	// Without a folder: the client's roots (over stdio), else the
	// current folder.
	clientRoots := len(pos) == 0 && addr == ""
	if len(pos) == 0 {
		pos = []string{"."}
	}
	var roots []mcpserver.NamedRoot
	for i, name := range mcpserver.RootNames(pos) {
		root, err := search.OpenRoot(pos[i])
		if err != nil {
			return failure(err)
		}
		if slices.ContainsFunc(roots, func(r mcpserver.NamedRoot) bool { return r.Root.Real == root.Real }) {
			fmt.Fprintf(os.Stderr, "zumba: %s is a folder named before; served once\n", pos[i])
			continue
		}
		roots = append(roots, mcpserver.NamedRoot{Name: name, Root: root})
	}
	diagFile := diag
	if diagFile != "" {
		if abs, err := filepath.Abs(diagFile); err == nil {
			diagFile = abs
		}
	}
	// The index is most of the heap, and its live size grows with the
	// project (30 MB for a small one, 450 MB for the Linux kernel): a
	// fixed soft limit near a small project's heap makes a large one
	// collect without pause (at 160 MB the kernel's build spent a fifth
	// of its CPU collecting, and stopped the world every few hundred
	// milliseconds). So the heap may grow past its live size by a share
	// of it (GOGC), with a soft limit well above a large project's heap
	// as a backstop.
	// During the word pass the heap is mostly arrays without pointers,
	// cheap to mark, and the collector keeps within a tenth of it (a
	// second checkout of the kernel served from the store peaks ~120 MiB
	// lower, in the same time).
	// During the parse and once complete, within a fifth (records and
	// arrays without pointers too): the kernel's cold build peaked at 734
	// MiB at half; little is allocated once complete but by calls.
	// GOGC and GOMEMLIMIT, when set, override these; the index applies
	// the policy (search.MemoryPolicy).
	limit, err := cacheLimit()
	if err != nil {
		return usageError(err.Error())
	}
	indexOpts := &search.IndexOptions{StoreLimit: limit}
	if os.Getenv("GOGC") == "" {
		indexOpts.Memory.WordsGCPercent, indexOpts.Memory.GCPercent, indexOpts.Memory.CompleteGCPercent = 10, 20, 20
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		indexOpts.Memory.Limit = serverMemoryLimit
	}
	cfg := mcpserver.Config{Root: roots[0].Root, Diagnostics: diagFile, Log: os.Stderr, Index: indexOpts, ClientRoots: clientRoots}
	if len(roots) > 1 {
		cfg.Roots = roots
	}
	srv := mcpserver.New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	// The first signal ends Serve gracefully: calls in flight are
	// cancelled and the disk cache is saved. Whatever a call may still be
	// blocked on, the process exits 0 within exitGrace; restoring the
	// default handling lets a second signal kill it at once.
	grace := exitGrace
	if addr != "" {
		grace = httpExitGrace
	}
	go func() {
		select {
		case <-sigs:
		case <-ctx.Done():
			return
		}
		signal.Stop(sigs)
		cancel()
		time.AfterFunc(grace, func() { os.Exit(0) })
	}()
	if addr != "" {
		return serveHTTP(ctx, srv, addr, tokenFile)
	}
	if err := srv.Serve(ctx, os.Stdin, os.Stdout); err != nil {
		return failure(err)
	}
	return 0
}

// serveHTTP serves MCP over Streamable HTTP at addr until a signal. A
// server reachable from other machines must have a token.
func serveHTTP(ctx context.Context, srv *mcpserver.Server, addr, tokenFile string) int {
	token, err := readToken(tokenFile)
	if err != nil {
		return failure(err)
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usageError(fmt.Sprintf("mcp: --http %q: want HOST:PORT, such as 127.0.0.1:7130", addr))
	}
	// An empty host listens on every interface.
	loopback := mcpserver.LoopbackHost(host)
	if !loopback && token == "" {
		return failure(fmt.Errorf("--http %s is reachable from other machines: set a token with --token-file FILE or ZUMBA_TOKEN, or listen on 127.0.0.1", addr))
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return failure(err)
	}
	fmt.Fprintf(os.Stderr, "zumba: serving MCP at http://%s/mcp\n", ln.Addr())
	if err := srv.ServeListener(ctx, ln, mcpserver.HTTPOptions{Token: token, Loopback: loopback}); err != nil {
		return failure(err)
	}
	return 0
}

// maxTokenFile bounds the token file: a token is one word of tens of
// bytes, and reading more would let a wrong file (a device, a log) stall
// or fill the server at start.
const maxTokenFile = 4 << 10

// readToken reads the bearer token from file, or else from ZUMBA_TOKEN.
// The file is opened as every file zumba reads (regular files only,
// without blocking on a FIFO) and read up to maxTokenFile bytes.
func readToken(file string) (string, error) {
	if file == "" {
		return strings.TrimSpace(os.Getenv("ZUMBA_TOKEN")), nil
	}
	f, err := filestat.OpenRegular(file)
	if err != nil {
		return "", fmt.Errorf("read token: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return "", fmt.Errorf("read token: %w", err)
	}
	if len(b) > maxTokenFile {
		return "", fmt.Errorf("token file %s is longer than %d bytes; it must hold the token alone", file, maxTokenFile)
	}
	token := strings.TrimSpace(string(b))
	if token == "" {
		return "", fmt.Errorf("token file %s is empty", file)
	}
	if strings.ContainsAny(token, " \t\r\n") {
		return "", fmt.Errorf("token file %s holds more than one line or word", file)
	}
	return token, nil
}

func runOutline(args []string) int {
	const usage = "usage: zumba outline [--name NAME] [--exported] [--signatures] FILE, or zumba outline [--budget TOKENS] DIR"
	fs := newFlagSet("outline")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError("outline: " + err.Error() + "; " + usage)
	}
	if len(pos) != 1 {
		return usageError("outline takes one file or folder; " + usage)
	}
	file := pos[0]
	dir := "."
	if abs, err := filepath.Abs(file); err == nil {
		cwd, _ := os.Getwd()
		if rel, err := filepath.Rel(cwd, abs); err != nil || strings.HasPrefix(rel, "..") {
			// Outside the current folder: a folder is the project
			// mapped, a file is outlined in its own folder.
			if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
				dir, file = abs, "."
			} else {
				dir, file = filepath.Dir(abs), filepath.Base(abs)
			}
		}
	}
	root, err := search.OpenRoot(dir)
	if err != nil {
		return failure(err)
	}
	callArgs := map[string]string{"path": file}
	for _, name := range []string{"name", "budget"} {
		if v := str(fs, name); v != "" {
			callArgs[name] = v
		}
	}
	for _, name := range []string{"exported", "signatures"} {
		if on(fs, name) {
			callArgs[name] = "true"
		}
	}
	return callTool(root, "outline", callArgs)
}

// callTool prints what the tool name answers for the project root: the
// command line calls the tools as the server does, so both print the same.
func callTool(root *search.Root, name string, args map[string]string) int {
	srv := mcpserver.New(mcpserver.Config{Root: root, Log: os.Stderr})
	text, isError := srv.CallArgs(context.Background(), name, args)
	return printResult(text, isError)
}

// printResult prints a tool's text: to stdout, or as a failure on stderr.
func printResult(text string, isError bool) int {
	if isError {
		fmt.Fprintf(os.Stderr, "zumba: %s\n", text)
		return 1
	}
	fmt.Println(text)
	return 0
}
