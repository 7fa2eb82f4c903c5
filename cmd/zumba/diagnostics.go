package main

import (
	"context"
	"os"
	"path/filepath"

	"github.com/zumba-dev/zumba/mcpserver"
	"github.com/zumba-dev/zumba/search"
)

const diagnosticsUsage = "usage: zumba diagnostics [--path P] --diagnostics FILE [DIR]"

// runDiagnostics prints what the diagnostics tool answers for the project
// in DIR (default ".") with the editor's diagnostics file FILE.
func runDiagnostics(args []string) int {
	fs := newFlagSet("diagnostics")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError("diagnostics: " + err.Error() + "; " + diagnosticsUsage)
	}
	diag, path := str(fs, "diagnostics"), str(fs, "path")
	if diag == "" {
		return usageError("diagnostics needs --diagnostics FILE; " + diagnosticsUsage)
	}
	if len(pos) > 1 {
		return usageError("diagnostics takes at most one project folder; " + diagnosticsUsage)
	}
	dir := "."
	if len(pos) == 1 {
		dir = pos[0]
	}
	root, err := search.OpenRoot(dir)
	if err != nil {
		return failure(err)
	}
	file := diag
	if abs, err := filepath.Abs(file); err == nil {
		file = abs
	}
	srv := mcpserver.New(mcpserver.Config{Root: root, Diagnostics: file, Log: os.Stderr})
	callArgs := map[string]string{}
	if path != "" {
		callArgs["path"] = path
	}
	text, isError := srv.CallArgs(context.Background(), "diagnostics", callArgs)
	return printResult(text, isError)
}
