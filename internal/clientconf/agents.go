package clientconf

import (
	"bytes"
	"fmt"
)

// The marker lines around zumba's block in AGENTS.md and CLAUDE.md.
const (
	blockBegin = "<!-- zumba:begin (written by zumba setup --project; edits inside are replaced) -->"
	blockEnd   = "<!-- zumba:end -->"
)

// agentGuidance is the block's text: when to use which tool instead of
// grep and whole-file reads, in a few lines.
const agentGuidance = `## Code navigation: the zumba MCP server

This project is served by zumba (MCP tools, read-only). Prefer them to grep and whole-file reads:
- ` + "`outline {path}`" + ` before reading a file (a folder gives a map of its most used definitions); then read only the lines you need.
- ` + "`find_code {query}`" + ` to find the code that does something when you do not know its name ("retry with backoff").
- ` + "`find_symbol {name}`" + ` to find where something is defined; ` + "`read_symbol {name}`" + ` (also ` + "`path:line`" + ` or a stack frame) to see one definition's source.
- ` + "`find_references {name}`" + ` instead of grep for uses; ` + "`group: \"definition\"`" + ` for who calls it, ` + "`depth: 2`" + ` for callers of callers.
- ` + "`changes`" + ` at the end of a task: the definitions your edits touched and who uses them.
- ` + "`diagnostics`" + ` for the errors the editor shows.
`

// Block returns data with zumba's guidance block in it: the block
// between the markers replaced when there is one, else appended (a new
// file is the block alone). changed is false when it is already so.
func Block(data []byte) (out []byte, changed bool, err error) {
	block := blockBegin + "\n" + agentGuidance + blockEnd + "\n"
	begin := bytes.Index(data, []byte(blockBegin))
	end := bytes.Index(data, []byte(blockEnd))
	switch {
	case begin < 0 && end < 0:
		out = append([]byte{}, data...)
		if len(out) > 0 {
			if out[len(out)-1] != '\n' {
				out = append(out, '\n')
			}
			out = append(out, '\n')
		}
		out = append(out, block...)
	case begin >= 0 && end > begin:
		tail := end + len(blockEnd)
		if tail < len(data) && data[tail] == '\n' {
			tail++
		}
		out = append(append(append([]byte{}, data[:begin]...), block...), data[tail:]...)
	default:
		return nil, false, fmt.Errorf("its zumba block has one marker without the other (%q … %q); mend it by hand", blockBegin, blockEnd)
	}
	return out, !bytes.Equal(out, data), nil
}
