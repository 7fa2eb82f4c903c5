package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search"
)

var findSymbolTool = &Tool{
	Name:        "find_symbol",
	Title:       "Find a definition",
	Description: "Where a function, method, type, constant or heading is defined in the project. Accepts Type.method and Type::method.",
	Params: []Param{
		{Name: "name", Description: "The name to find.", Required: true},
	},
	Handle: func(ctx context.Context, s *Server, args Args) (string, bool) {
		q := search.ParseSymbolQuery(args["name"])
		// One time limit for the answer: the names outside tests
		// (ownContaining) are looked for in what is left of it.
		ctx = s.cfg.Root.WithSymbolLimit(ctx)
		res, err := s.searcher().Symbols(ctx, q)
		if errors.Is(err, search.ErrEmptyName) {
			return "find_symbol: name is empty", true
		}
		if err != nil {
			return toolError(err), true
		}
		text := symbolsText(q, res)
		if own := s.ownContaining(ctx, q, res); len(own) > 0 {
			text += "\n" + symbolOutsideTests + "\n" + strings.Join(own, "\n")
		}
		return text, false
	},
}

// ownContaining is the lines of the own code's names containing q's, when
// every exact match res holds is in a test file (a test constant named
// like the thing asked for): the real definition is then among them. At
// most search.SymbolLimit lines in all with the exact ones.
func (s *Server) ownContaining(ctx context.Context, q search.SymbolQuery, res *search.SymbolResult) []string {
	if res.Fuzzy || len(res.Defs) == 0 || len(res.Defs) >= search.SymbolLimit || res.Searched < res.Files ||
		slices.ContainsFunc(res.Defs, func(d search.Def) bool { return !d.InTest() }) {
		return nil
	}
	q.Containing = true
	more, err := s.searcher().Symbols(ctx, q)
	if err != nil || !more.Fuzzy {
		return nil
	}
	var lines []string
	for _, d := range more.Defs {
		if d.InTest() || len(lines) == search.SymbolLimit-len(res.Defs) {
			continue
		}
		lines = append(lines, symbolLine(&d))
	}
	return lines
}

// Lines of find_symbol's answer that are not results.
const (
	symbolFallback = "No exact match; names containing it:"
	// symbolOutsideTests heads the own code's names containing the name,
	// after exact matches that are all in test files.
	symbolOutsideTests = "No exact match outside tests; names containing it:"
	symbolMore         = "… more; narrow it with a longer or qualified name (Type.method)"
	// symbolStopped takes the files searched and the files there are.
	symbolStopped = "… stopped at the time limit after the first %d of %d files (in path order, test files last); a qualified name (Type.method) is faster"
	// indexPartial takes the files the index covered and the files there
	// are.
	indexPartial = "… covered %d of %d files of the project before the time limit; the index is still being built, so a later call will be complete"
	// stillListing ends an answer given before the index being built had
	// listed the project's files (a large tree on a busy machine).
	stillListing = "the project's files were still being listed at the time limit; the index is still being built, so a later call will be complete"
)

// listing reports an answer given before the project's files were
// listed: nothing was searched.
func listing(building bool, files int) bool { return building && files == 0 }

// symbolsText prints the answer: one "PATH:LINE KIND — SOURCE LINE" per
// definition, after symbolFallback when they are not exact matches; then
// symbolMore when more were left out, or the symbolStopped line when the
// time limit stopped the search; last, indexPartial when the index being
// built covered only part of the project.
func symbolsText(q search.SymbolQuery, res *search.SymbolResult) string {
	text := symbolsFound(q, res)
	if res.Building && res.Indexed < res.Files {
		text += "\n" + fmt.Sprintf(indexPartial, res.Indexed, res.Files)
	}
	return text
}

// symbolLine is one definition's line: "PATH:LINE KIND — SOURCE LINE".
func symbolLine(d *search.Def) string {
	return d.Path + ":" + strconv.Itoa(d.Line) + " " + d.Kind.String() + " — " + d.Text
}

func symbolsFound(q search.SymbolQuery, res *search.SymbolResult) string {
	if len(res.Defs) == 0 && listing(res.Building, res.Files) {
		return fmt.Sprintf("No definition of %s yet: %s.", project.Echo(q.Name), stillListing)
	}
	stopped := ""
	if res.Searched < res.Files {
		stopped = fmt.Sprintf(symbolStopped, res.Searched, res.Files)
	}
	if len(res.Defs) == 0 {
		if stopped != "" {
			return fmt.Sprintf("No definition of %s in the first %d of %d files (in path order, test files last): the search stopped at its time limit; a qualified name (Type.method) is faster.", project.Echo(q.Name), res.Searched, res.Files)
		}
		if r, ok := q.Stray(); ok {
			if s := q.NamePart(); s != "" {
				return fmt.Sprintf("No definition of %s: %q is in no name. Ask for the name alone (%s), or use find_references to find text such as calls.", project.Echo(q.Name), string(r), project.Echo(s))
			}
			return fmt.Sprintf("No definition of %s: %q is in no name. Ask for a name, or use find_references to find text.", project.Echo(q.Name), string(r))
		}
		return fmt.Sprintf("No definition of %s and no names containing it.", project.Echo(q.Name))
	}
	var sb strings.Builder
	if res.Fuzzy {
		sb.WriteString(symbolFallback + "\n")
	}
	for i, d := range res.Defs {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(symbolLine(&d))
	}
	switch {
	case stopped != "":
		sb.WriteString("\n" + stopped)
	case res.More:
		sb.WriteString("\n" + symbolMore)
	}
	return sb.String()
}
