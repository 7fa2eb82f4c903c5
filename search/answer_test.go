package search

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// The fixtures in testdata/search hold find_symbol's and find_references'
// answers as the tools print them. mcpserver alone prints them; these
// copies of its printers let the engine's tests read the same fixtures
// (mcpserver's tests check the tools against the same archives).

func symbolAnswer(ctx context.Context, s Searcher, name string) (string, error) {
	q := ParseSymbolQuery(name)
	res, err := s.Symbols(ctx, q)
	if err != nil {
		if err == ErrEmptyName {
			err = pathErrorf("find_symbol: name is empty")
		}
		return "", err
	}
	return symbolText(q, res), nil
}

func refsAnswer(ctx context.Context, s Searcher, name, pathArg string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", pathErrorf("find_references: name is empty")
	}
	filter, err := ParsePathFilter(pathArg)
	if err != nil {
		return "", err
	}
	res, err := s.References(ctx, name, filter)
	if err != nil {
		return "", err
	}
	if len(res.Refs) == 0 {
		if filter != nil {
			return fmt.Sprintf("No references to %s in files matching %s.", name, strings.TrimSpace(pathArg)), nil
		}
		return fmt.Sprintf("No references to %s.", name), nil
	}
	var sb strings.Builder
	for i, r := range res.Refs {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(r.Path + ":" + strconv.Itoa(r.Line) + ": " + r.Text)
	}
	if res.More {
		sb.WriteString("\n… more; narrow it with path")
	}
	return sb.String(), nil
}

func symbolText(q SymbolQuery, res *SymbolResult) string {
	text := symbolsFound(q, res)
	if res.Building && res.Indexed < res.Files {
		text += "\n" + fmt.Sprintf("… covered %d of %d files of the project before the time limit; the index is still being built, so a later call will be complete", res.Indexed, res.Files)
	}
	return text
}

func symbolsFound(q SymbolQuery, res *SymbolResult) string {
	stopped := ""
	if res.Searched < res.Files {
		stopped = fmt.Sprintf("… stopped at the time limit after the first %d of %d files (in path order, test files last); a qualified name (Type.method) is faster", res.Searched, res.Files)
	}
	if len(res.Defs) == 0 {
		if stopped != "" {
			return fmt.Sprintf("No definition of %s in the first %d of %d files (in path order, test files last): the search stopped at its time limit; a qualified name (Type.method) is faster.", q.Name, res.Searched, res.Files)
		}
		if r, ok := q.Stray(); ok {
			if s := q.NamePart(); s != "" {
				return fmt.Sprintf("No definition of %s: %q is in no name. Ask for the name alone (%s), or use find_references to find text such as calls.", q.Name, string(r), s)
			}
			return fmt.Sprintf("No definition of %s: %q is in no name. Ask for a name, or use find_references to find text.", q.Name, string(r))
		}
		return fmt.Sprintf("No definition of %s and no names containing it.", q.Name)
	}
	var sb strings.Builder
	if res.Fuzzy {
		sb.WriteString("No exact match; names containing it:\n")
	}
	for i, d := range res.Defs {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(d.Path + ":" + strconv.Itoa(d.Line) + " " + d.Kind.String() + " — " + d.Text)
	}
	switch {
	case stopped != "":
		sb.WriteString("\n" + stopped)
	case res.More:
		sb.WriteString("\n… more; narrow it with a longer or qualified name (Type.method)")
	}
	return sb.String()
}
