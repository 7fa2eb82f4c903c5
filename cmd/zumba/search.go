package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"strings"

	"github.com/zumba-dev/zumba/mcpserver"

	"github.com/zumba-dev/zumba/search"
)

func runSymbol(args []string) int {
	fs := flag.NewFlagSet("symbol", flag.ContinueOnError)
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
	fs := flag.NewFlagSet("read", flag.ContinueOnError)
	full := fs.Bool("full", false, "show a doc comment of over 12 lines whole")
	names := fs.String("names", "", "several names, comma-separated, read in order in one answer")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError("read: " + err.Error() + "; " + usage)
	}
	callArgs := map[string]any{}
	if *names != "" {
		callArgs["names"] = strings.Split(*names, ",")
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
	if *full {
		callArgs["full"] = true
	}
	raw, _ := json.Marshal(callArgs)
	srv := mcpserver.New(mcpserver.Config{Root: root, Log: os.Stderr})
	return printResult(srv.Call(context.Background(), "read_symbol", raw))
}

func runRefs(args []string) int {
	const usage = "usage: zumba refs NAME [--path GLOBS] [--group definition] [--code] [--limit N] [--depth N] [DIR]"
	fs := flag.NewFlagSet("refs", flag.ContinueOnError)
	globs := fs.String("path", "", "only files matching these comma-separated globs")
	group := fs.String("group", "", "definition: group the hits under their enclosing definition")
	code := fs.Bool("code", false, "leave out hits in comments and strings")
	depth := fs.String("depth", "", "2 or 3: also the definitions that use each user, indented")
	limit := fs.String("limit", "", "1 to 80: stop after this many hits (with --group, definitions)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError("refs: " + err.Error() + "; " + usage)
	}
	if len(pos) < 1 || len(pos) > 2 {
		return usageError("refs takes a name and an optional project folder; " + usage)
	}
	if *group != "" && *group != "definition" {
		return usageError("refs: --group takes \"definition\"; " + usage)
	}
	root, exit := openProject(pos[1:])
	if root == nil {
		return exit
	}
	callArgs := map[string]string{"name": pos[0]}
	if *globs != "" {
		callArgs["path"] = *globs
	}
	if *group != "" {
		callArgs["group"] = *group
	}
	if *code {
		callArgs["code"] = "true"
	}
	if *depth != "" {
		callArgs["depth"] = *depth
	}
	if *limit != "" {
		callArgs["limit"] = *limit
	}
	return callTool(root, "find_references", callArgs)
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
	const usage = "usage: zumba changes [--base REF] [--path GLOBS] [DIR]"
	fs := flag.NewFlagSet("changes", flag.ContinueOnError)
	base := fs.String("base", "", "compare with the merge base of REF and HEAD instead of HEAD")
	globs := fs.String("path", "", "only files matching these comma-separated globs")
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
	if *base != "" {
		callArgs["base"] = *base
	}
	if *globs != "" {
		callArgs["path"] = *globs
	}
	return callTool(root, "changes", callArgs)
}
