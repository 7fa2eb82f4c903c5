package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/findcode"
)

var findCodeTool = &Tool{
	Name:        "find_code",
	Title:       "Find code by description",
	Description: "Definitions matching a description in words (names, doc comments, bodies), best first, when you do not know the name. Up to 10, fewer where the match falls off. Code ranks before Markdown: for docs, say \"docs\" or use path *.md.",
	Params: []Param{
		{Name: "query", Description: "What the code does, in a few words.", Required: true},
		{Name: "path", Description: "Only files matching these comma-separated globs, e.g. src/**, *.rs.", Required: false},
		{Name: "limit", Description: "Show this many of the best (1 to 20; default: up to 10, fewer where the match falls off).", Int: true, Min: 1, Max: findcode.Limit},
	},
	Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
		query, pathArg := strings.TrimSpace(args["query"]), strings.TrimSpace(args["path"])
		filter, err := project.ParsePathFilter(pathArg)
		if err != nil {
			return toolError(err), true
		}
		res, err := s.searcher().Code(ctx, query, filter)
		if errors.Is(err, findcode.ErrEmptyQuery) {
			return "find_code: query is empty", true
		}
		if err != nil {
			return toolError(err), true
		}
		if filter == nil {
			pathArg = ""
		}
		limit, _ := strconv.Atoi(args["limit"])
		return codeText(query, pathArg, res, limit), false
	},
}

// maxCodeText cuts a definition's doc line or signature.
const maxCodeText = 160

// codeText prints find_code's answer: one "PATH:LINE KIND
// QUALIFIED.NAME (N lines) — TEXT" line per definition (LINE its name's,
// N its extent's, doc comment included), TEXT its doc comment's
// first line or else its signature; then, when the index covered only
// part of the project, the indexPartial line. A query none of whose
// words a definition has gets one line saying so. limit is the
// argument's (0: not given; see findcode.Shown); when definitions found
// are left out, a line counts them.
func codeText(query, pathArg string, res *findcode.Result, limit int) string {
	var sb strings.Builder
	switch {
	case len(res.Words) == 0:
		sb.WriteString(fmt.Sprintf("No words to search for in %s: common words (the, of, return) and numbers are left out; describe what the code does.", project.Echo(query)))
	case len(res.Defs) == 0 && pathArg != "":
		sb.WriteString(fmt.Sprintf("No definition matches %s in files matching %s.", project.Echo(query), project.Echo(pathArg)))
	case len(res.Defs) == 0:
		sb.WriteString(fmt.Sprintf("No definition has any word of %s.", project.Echo(query)))
	}
	shown := findcode.Shown(res.Defs, limit)
	for i, d := range res.Defs[:shown] {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(codeLine(&d))
	}
	if shown < len(res.Defs) {
		sb.WriteString("\n" + codeMore(len(res.Defs)-shown, len(res.Defs)))
	}
	if listing(res.Building, res.Files) {
		sb.WriteString("\n… " + stillListing)
	} else if res.Building && res.Indexed < res.Files {
		sb.WriteString("\n" + fmt.Sprintf(indexPartial, res.Indexed, res.Files))
	}
	return sb.String()
}

// codeMore is the last line when n of the found definitions are left
// out: found is all of them, or the best findcode.Limit when more may
// match.
func codeMore(n, found int) string {
	if found == findcode.Limit {
		return fmt.Sprintf("… at least %d more %s scored lower; limit=%d shows the best %d", n, plural(n, "definition", "definitions"), found, found)
	}
	return fmt.Sprintf("… %d more %s scored lower; limit=%d shows them", n, plural(n, "definition", "definitions"), found)
}

// codeLine is one definition's line.
func codeLine(d *findcode.Def) string {
	text := d.Doc
	if text == "" {
		text = d.Signature
	}
	n := d.End - d.Start + 1
	return d.Path + ":" + strconv.Itoa(d.Line) + " " + d.Kind.String() + " " + cutText(d.QualifiedName(), maxOutlineName) + " (" + strconv.Itoa(n) + " " + plural(n, "line", "lines") + ") — " + cutText(text, maxCodeText)
}

// cutText cuts s to n characters, the last of them "…" when cut.
func cutText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for j := range s {
		if k == n-1 {
			i = j
			break
		}
		k++
	}
	return s[:i] + "…"
}
