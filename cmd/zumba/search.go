package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"

	"github.com/zumba-dev/zumba/mcpserver"

	"github.com/zumba-dev/zumba/search"
)

func runSymbol(args []string) int {
	fs := newFlagSet("symbol")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError("symbol: " + err.Error() + "; usage: zumba symbol NAME [DIR]")
	}
	if len(pos) < 1 || len(pos) > 2 {
		return usageError("symbol takes a name and an optional project folder; usage: zumba symbol NAME [DIR]")
	}
	root, code := openProject(pos[1:])
	if root == nil {
		return code
	}
	return callTool(root, "find_symbol", map[string]string{"name": pos[0]})
}

func runRead(args []string) int {
	const usage = "usage: zumba read NAME [--full] [DIR], or zumba read --names A,B,... [--full] [DIR]"
	fs := newFlagSet("read")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError("read: " + err.Error() + "; " + usage)
	}
	callArgs := map[string]any{}
	if names := str(fs, "names"); names != "" {
		callArgs["names"] = strings.Split(names, ",")
	} else if len(pos) > 0 {
		callArgs["name"], pos = pos[0], pos[1:]
	}
	if len(callArgs) == 0 || len(pos) > 1 {
		return usageError("read takes a name (or --names) and an optional project folder; " + usage)
	}
	root, code := openProject(pos)
	if root == nil {
		return code
	}
	if on(fs, "full") {
		callArgs["full"] = true
	}
	raw, _ := json.Marshal(callArgs)
	srv := mcpserver.New(mcpserver.Config{Root: root, Log: os.Stderr})
	return printResult(srv.Call(context.Background(), "read_symbol", raw))
}

func runRefs(args []string) int {
	const usage = "usage: zumba refs NAME [--path GLOBS] [--group definition] [--code] [--limit N] [--depth N] [--definition PATH:LINE] [DIR]"
	fs := newFlagSet("refs")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError("refs: " + err.Error() + "; " + usage)
	}
	if len(pos) < 1 || len(pos) > 2 {
		return usageError("refs takes a name and an optional project folder; " + usage)
	}
	if group := str(fs, "group"); group != "" && group != "definition" {
		return usageError("refs: --group takes \"definition\"; " + usage)
	}
	root, exit := openProject(pos[1:])
	if root == nil {
		return exit
	}
	callArgs := map[string]string{"name": pos[0]}
	for _, name := range []string{"path", "group", "depth", "limit", "definition"} {
		if v := str(fs, name); v != "" {
			callArgs[name] = v
		}
	}
	if on(fs, "code") {
		callArgs["code"] = "true"
	}
	return callTool(root, "find_references", callArgs)
}

func runCode(args []string) int {
	const usage = "usage: zumba code QUERY [--path GLOBS] [--limit N] [DIR]"
	fs := newFlagSet("code")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError("code: " + err.Error() + "; " + usage)
	}
	if len(pos) < 1 || len(pos) > 2 {
		return usageError("code takes a query and an optional project folder; " + usage)
	}
	root, exit := openProject(pos[1:])
	if root == nil {
		return exit
	}
	// The server's disk cache: a second call on a large project reads
	// one file instead of parsing every file.
	root.CodeCache = true
	callArgs := map[string]string{"query": pos[0]}
	for _, name := range []string{"path", "limit"} {
		if v := str(fs, name); v != "" {
			callArgs[name] = v
		}
	}
	return callTool(root, "find_code", callArgs)
}

// openProject opens the project folder given (or the current one).
func openProject(dir []string) (*search.Root, int) {
	d := "."
	if len(dir) > 0 {
		d = dir[0]
	}
	root, err := search.OpenRoot(d)
	if err != nil {
		return nil, failure(err)
	}
	return root, 0
}

func runChanges(args []string) int {
	const usage = "usage: zumba changes [--base REF] [--path GLOBS] [--depth N] [DIR]"
	fs := newFlagSet("changes")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError("changes: " + err.Error() + "; " + usage)
	}
	if len(pos) > 1 {
		return usageError("changes takes an optional project folder; " + usage)
	}
	root, exit := openProject(pos)
	if root == nil {
		return exit
	}
	callArgs := map[string]string{}
	for _, name := range []string{"base", "path", "depth"} {
		if v := str(fs, name); v != "" {
			callArgs[name] = v
		}
	}
	return callTool(root, "changes", callArgs)
}
