// Package prompts holds zumba's MCP prompts: workflows over its tools
// that clients turn into commands (Claude Code's and OpenCode's slash
// commands, the strict client's commands). A strict client asks for a
// prompt with every argument bound to the literal "$1", "$2", … and fills
// those in later, so an argument is put into the text exactly as given:
// never quoted, escaped, checked against the project or resolved. The
// texts name the tools and arguments in the order an expert would call
// them, and stay short: every byte of them is read by the model.
//
// The package lists the prompts (List) and binds their arguments (Get for
// prompts/get, Text for the command-line twin, zumba prompt); mcpserver
// puts them into the protocol's results and errors.
package prompts
