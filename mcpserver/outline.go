package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search"
)

// maxOutlineSize bounds the file outline reads; tree-sitter needs about 30
// times a file's size in memory.
const maxOutlineSize = 16 << 20

var outlineTool = &Tool{
	Name:        "outline",
	Title:       "File outline",
	Description: "List a file's functions, types, constants and headings with line numbers, nested. Read only the lines you need after.",
	Params: []Param{
		{Name: "path", Description: "File path relative to the project.", Required: true},
	},
	Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
		return Outline(ctx, s.cfg.Root, args["path"])
	},
}

// Outline answers the outline tool for path in the project root.
func Outline(ctx context.Context, root *search.Root, path string) (string, bool) {
	src, rel, err := root.ReadFile(path, maxOutlineSize)
	if err != nil {
		return toolError(err), true
	}
	lang := grammar.ForPath(rel, head(src))
	if lang == nil {
		return fmt.Sprintf("no grammar for %s; outline supports %s", rel, strings.Join(grammar.Extensions(), " ")), true
	}
	if bytes.IndexByte(head(src), 0) >= 0 {
		return fmt.Sprintf("%s is a binary file", rel), true
	}
	o, err := outline.Parse(ctx, lang, src)
	if err != nil {
		return fmt.Sprintf("cannot outline %s: %v", rel, err), true
	}
	text := strings.TrimSuffix(o.Text(), "\n")
	if text == "" {
		return fmt.Sprintf("No functions, types, constants or headings in %s.", rel), false
	}
	return text, false
}

func head(b []byte) []byte {
	if len(b) > 8<<10 {
		return b[:8<<10]
	}
	return b
}

// toolError is the one line a tool answers with when it cannot.
func toolError(err error) string {
	var pe *search.PathError
	if errors.As(err, &pe) {
		return pe.Msg
	}
	return err.Error()
}
