package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/zumba-dev/zumba/mcpserver"
	"github.com/zumba-dev/zumba/search"
)

// command is one subcommand.
type command struct {
	name  string
	usage string // arguments, shown by help
	short string
	run   func(args []string) int
}

var commands []*command

func init() {
	commands = []*command{
		{name: "mcp", usage: "DIR [--diagnostics FILE]", short: "serve MCP over stdio for the project in DIR", run: runMCP},
		{name: "outline", usage: "FILE", short: "print a file's outline", run: runOutline},
		{name: "symbol", usage: "NAME [DIR]", short: "print where NAME is defined in the project", run: runSymbol},
		{name: "read", usage: "NAME [DIR]", short: "print the source of NAME's definition (a name, Type.method or path:line)", run: runRead},
		{name: "refs", usage: "NAME [--path GLOBS] [DIR]", short: "print the lines that use NAME as a whole word", run: runRefs},
		{name: "diagnostics", usage: "[--path P] --diagnostics FILE [DIR]", short: "print the editor's diagnostics for the project in DIR", run: runDiagnostics},
		{name: "version", short: "print zumba's version", run: runVersion},
		{name: "help", short: "print this help", run: runHelp},
	}
}

const helpText = `zumba gives coding agents a structural view of a codebase over MCP.

Usage:
`

func runHelp(args []string) int {
	var sb strings.Builder
	sb.WriteString(helpText)
	for _, c := range commands {
		fmt.Fprintf(&sb, "  zumba %-54s %s\n", strings.TrimSpace(c.name+" "+c.usage), c.short)
	}
	sb.WriteString(`
Examples:
  zumba mcp .                     serve the current folder to an MCP client
  zumba outline cmd/zumba/main.go
  zumba symbol Server.Serve
  zumba read Server.Serve
  zumba refs Serve --path '*.go, docs/**'
`)
	fmt.Print(sb.String())
	return 0
}

func runVersion(args []string) int {
	if len(args) > 0 {
		return usageError("version takes no arguments")
	}
	fmt.Println(mcpserver.Version)
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

// exitGrace bounds how long `zumba mcp` takes to exit after SIGTERM or
// SIGINT (the README says at once): what is not finished by then is left.
const exitGrace = 700 * time.Millisecond

func runMCP(args []string) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	diag := fs.String("diagnostics", "", "the editor's diagnostics file")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError("mcp: " + err.Error() + "; usage: zumba mcp DIR [--diagnostics FILE]")
	}
	if len(pos) != 1 {
		return usageError("mcp takes one project folder; usage: zumba mcp DIR [--diagnostics FILE]")
	}
	root, err := search.OpenRoot(pos[0])
	if err != nil {
		return failure(err)
	}
	diagFile := *diag
	if diagFile != "" {
		if abs, err := filepath.Abs(diagFile); err == nil {
			diagFile = abs
		}
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// The index is most of the heap; collecting harder near this
		// keeps a large project's server under 200 MB.
		debug.SetMemoryLimit(160 << 20)
	}
	srv := mcpserver.New(mcpserver.Config{Root: root, Diagnostics: diagFile, Log: os.Stderr, Index: &search.IndexOptions{}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	// The first signal ends Serve gracefully: calls in flight are
	// cancelled and the disk cache is saved. Whatever a call may still be
	// blocked on, the process exits 0 within exitGrace; restoring the
	// default handling lets a second signal kill it at once.
	go func() {
		select {
		case <-sigs:
		case <-ctx.Done():
			return
		}
		signal.Stop(sigs)
		cancel()
		time.AfterFunc(exitGrace, func() { os.Exit(0) })
	}()
	if err := srv.Serve(ctx, os.Stdin, os.Stdout); err != nil {
		return failure(err)
	}
	return 0
}

func runOutline(args []string) int {
	if len(args) != 1 {
		return usageError("outline takes one file; usage: zumba outline FILE")
	}
	file := args[0]
	dir := "."
	if abs, err := filepath.Abs(file); err == nil {
		cwd, _ := os.Getwd()
		if rel, err := filepath.Rel(cwd, abs); err != nil || strings.HasPrefix(rel, "..") {
			dir, file = filepath.Dir(abs), filepath.Base(abs)
		}
	}
	root, err := search.OpenRoot(dir)
	if err != nil {
		return failure(err)
	}
	text, isError := mcpserver.Outline(context.Background(), root, file)
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
