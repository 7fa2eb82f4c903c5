package main

import (
	"fmt"
	"os"

	"github.com/zumba-dev/zumba/mcpserver"
)

// runPrompt prints a prompt's text with its arguments filled in, as
// prompts/get gives it; without a name it lists the prompts.
func runPrompt(args []string) int {
	if len(args) == 0 {
		fmt.Print(mcpserver.PromptHelp())
		return 0
	}
	text, err := mcpserver.PromptText(args[0], args[1:])
	if err != nil {
		return usageError(err.Error())
	}
	fmt.Fprintln(os.Stdout, text)
	return 0
}
