// Command zumba gives coding agents a structural view of a codebase over
// MCP: outlines, definitions, references and the editor's diagnostics.
package main

import (
	"fmt"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run executes one subcommand and returns the exit code: 0 on success, 1 on
// a failure, 2 on wrong usage.
func run(args []string) int {
	if len(args) == 0 {
		return usageError("missing command; run 'zumba help'")
	}
	name := args[0]
	if name == "-h" || name == "--help" || name == "-help" {
		name = "help"
	}
	if c := commandNamed(name); c != nil {
		if name != "help" && wantsHelp(args[1:]) {
			// Asked for, help is the answer: stdout, exit 0.
			c.writeHelp(os.Stdout, true)
			return 0
		}
		return c.run(args[1:])
	}
	return usageError(fmt.Sprintf("unknown command %q; run 'zumba help'", args[0]))
}

// usageError reports wrong usage on stderr; the exit code is 2.
func usageError(msg string) int {
	fmt.Fprintf(os.Stderr, "zumba: %s\n", msg)
	return 2
}

// failure reports a failure on stderr; the exit code is 1.
func failure(err error) int {
	fmt.Fprintf(os.Stderr, "zumba: %v\n", err)
	return 1
}
