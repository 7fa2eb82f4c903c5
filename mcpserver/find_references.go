package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/zumba-dev/zumba/search"
)

var findReferencesTool = &Tool{
	Name:        "find_references",
	Title:       "Find uses of a name",
	Description: "Lines that use a name as a whole word, case-sensitive, across the project's text files. At most 80 lines.",
	Params: []Param{
		{Name: "name", Description: "The name to find.", Required: true},
		{Name: "path", Description: "Only files matching these comma-separated globs, e.g. src/**, *.rs.", Required: false},
	},
	Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
		name, pathArg := strings.TrimSpace(args["name"]), args["path"]
		if name == "" {
			return "find_references: name is empty", true
		}
		filter, err := search.ParsePathFilter(pathArg)
		if err != nil {
			return toolError(err), true
		}
		res, err := s.searcher().References(ctx, name, filter)
		if errors.Is(err, search.ErrEmptyName) {
			return "find_references: name is empty", true
		}
		if err != nil {
			return toolError(err), true
		}
		return refsText(name, pathArg, filter, res), false
	},
}

// refsMore is find_references' last line when there are more than
// search.RefLimit.
const refsMore = "… more; narrow it with path"

// refsText prints the lines found one "PATH:LINE: TEXT" per line, then
// refsMore when more were left out; pathArg is the path argument as given,
// for the answer when nothing is found.
func refsText(name, pathArg string, filter *search.PathFilter, res *search.RefResult) string {
	if len(res.Refs) == 0 {
		if filter != nil {
			return fmt.Sprintf("No references to %s in files matching %s.", name, strings.TrimSpace(pathArg))
		}
		return fmt.Sprintf("No references to %s.", name)
	}
	var sb strings.Builder
	for i, r := range res.Refs {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(r.Path)
		sb.WriteByte(':')
		sb.WriteString(strconv.Itoa(r.Line))
		sb.WriteString(": ")
		sb.WriteString(r.Text)
	}
	if res.More {
		sb.WriteString("\n" + refsMore)
	}
	return sb.String()
}
