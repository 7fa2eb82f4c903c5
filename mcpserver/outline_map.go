package mcpserver

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search"
	"github.com/zumba-dev/zumba/search/projmap"
)

// The map of a folder: outline of a folder path. Package search/projmap ranks
// the definitions under it and picks those that fit (projmap.Map);
// this file prints them:
//
//	12 files, 240 definitions under search/; showing the 41 most used
//	search/index.go
//	  79 struct Index — type Index struct {
//	    195 method Index.Map — func (ix *Index) Map(ctx context.Context, dir string) (*ProjectMap, error) {
//	search/internal/  3 files, 41 definitions
//	… 4 more folders: 30 files, 512 definitions
//
// then, while the index is being built, a last line saying the ranking
// is partial.

// Map budgets, in tokens of mapTokenBytes bytes.
const (
	mapDefaultBudget = 2000
	mapMinBudget     = 200
	mapMaxBudget     = 10_000
	mapTokenBytes    = 4
	// maxMapLines bounds the map's lines, the first and the last
	// included.
	maxMapLines = 200
	// maxMapSig cuts the text of a definition's line.
	maxMapSig = 160
)

// mapHead is the map's first line; it takes the files, the definitions,
// the folder and how many are shown.
const mapHead = "%d %s, %d %s under %s; showing the %d most used"

// mapPartial is the map's last line while the index is being built; it
// takes the files parsed and the files there are.
const mapPartial = "… ranked from the %d of %d files parsed so far; the index is still being built, so a later call ranks the whole project"

// mapStopped is mapPartial for a map made without an index (the command
// line), stopped by the time limit.
const mapStopped = "… ranked from the first %d of %d files, read before the time limit; the server's index ranks them all"

// isFolder reports whether the project path p is a folder; rel is it
// cleaned.
func isFolder(root *search.Root, p string) (rel string, ok bool) {
	rel, err := root.Rel(p)
	if err != nil {
		return "", false
	}
	fi, err := root.Stat(rel)
	return rel, err == nil && fi.IsDir()
}

// outlineMap answers the outline tool for the folder dir (clean).
func outlineMap(ctx context.Context, s *Server, dir string, args Args) (string, bool) {
	if strings.TrimSpace(args["name"]) != "" {
		return fmt.Sprintf("%s is a folder: name needs a file (outline %s maps the folder)", s.folderText(dir), s.folderText(dir)), true
	}
	if args["exported"] == "true" {
		return fmt.Sprintf("%s is a folder: exported needs a file (outline %s maps the folder, with signatures where they fit)", s.folderText(dir), s.folderText(dir)), true
	}
	budget := mapDefaultBudget
	if b := args["budget"]; b != "" {
		budget, _ = strconv.Atoi(b)
	}
	m, err := s.searcher().Map(ctx, dir)
	if err != nil {
		return toolError(err), true
	}
	if m.Files == 0 {
		switch {
		case listing(m.Building, m.Total):
			return fmt.Sprintf("No map of %s yet: %s.", s.folderText(dir), stillListing), false
		case m.Stopped:
			return fmt.Sprintf("No files with definitions under %s among the first %d of %d files, read before the time limit; the server's index ranks them all.", s.folderText(dir), m.Indexed, m.Total), false
		case m.Building:
			return fmt.Sprintf("No files with definitions under %s among the %d of %d files parsed so far; the index is still being built, so a later call will be complete.", s.folderText(dir), m.Indexed, m.Total), false
		}
		return fmt.Sprintf("No files with functions, types, constants or headings under %s (files that .gitignore excludes are left out).", s.folderText(dir)), false
	}
	bytes, lines := budget*mapTokenBytes, maxMapLines-1
	head := len(fmt.Sprintf(mapHead, m.Files, "files", m.Defs, "definitions", s.folderText(dir), maxMapLines)) + 1
	bytes -= head
	var partial string
	if m.Building {
		partial = fmt.Sprintf(mapPartial, m.Indexed, m.Total)
		if m.Stopped {
			partial = fmt.Sprintf(mapStopped, m.Indexed, m.Total)
		}
		bytes -= len(partial) + 1
		lines--
	}
	sel, err := m.Select(ctx, bytes, lines, mapSizer{s})
	if err != nil {
		return toolError(err), true
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, mapHead, m.Files, plural(m.Files, "file", "files"), m.Defs, plural(m.Defs, "definition", "definitions"), s.folderText(dir), sel.Shown)
	fi, di := 0, 0
	for fi < len(sel.Files) || di < len(sel.Folders) {
		if di == len(sel.Folders) || fi < len(sel.Files) && sel.Files[fi].Path < sel.Folders[di].Path+"/" {
			f := &sel.Files[fi]
			sb.WriteString("\n" + project.Echo(s.shown(f.Path)))
			for i := range f.Entries {
				sb.WriteString("\n" + mapDefLine(&f.Entries[i].Def, f.Entries[i].Depth, f.Entries[i].Sig))
			}
			fi++
			continue
		}
		sb.WriteString("\n" + mapFolderLine(sel.Folders[di], s.shown))
		di++
	}
	if sel.More != nil {
		sb.WriteString("\n" + mapFolderLine(*sel.More, s.shown))
	}
	if partial != "" {
		sb.WriteString("\n" + partial)
	}
	return sb.String(), false
}

// folderText is a folder as the map names it: with a "/" after it.
func (s *Server) folderText(dir string) string {
	if dir == "." && s.cfg.name == "" {
		return "./"
	}
	return project.Echo(s.shown(dir)) + "/"
}

// mapDefLine is a definition's line: "LINE KIND NAME", indented under its
// file, and " — TEXT" (its line) with sig.
func mapDefLine(d *projmap.Def, depth int, sig bool) string {
	var sb strings.Builder
	for range depth + 1 {
		sb.WriteString("  ")
	}
	name := d.Name
	if utf8.RuneCountInString(name) > maxOutlineName {
		name = string([]rune(name)[:maxOutlineName]) + "…"
	}
	fmt.Fprintf(&sb, "%d %s %s", d.Line, d.Kind, name)
	if sig && showSig(d) {
		text := d.Text
		if utf8.RuneCountInString(text) > maxMapSig {
			text = string([]rune(text)[:maxMapSig]) + "…"
		}
		sb.WriteString(" — " + text)
	}
	return sb.String()
}

// showSig reports whether d's line says more than its name: not for a
// heading, whose line is its name.
func showSig(d *projmap.Def) bool {
	return d.Text != "" && d.Kind.String() != "heading"
}

// mapFolderLine is a summarised folder's line, its path as shown shows
// it; the folders left out (Path "") are summed up on one.
func mapFolderLine(f projmap.Folder, shown func(string) string) string {
	counts := fmt.Sprintf("%d %s, %d %s", f.Files, plural(f.Files, "file", "files"), f.Defs, plural(f.Defs, "definition", "definitions"))
	if f.Path == "" {
		return fmt.Sprintf("… %d more %s: %s", f.Folders, plural(f.Folders, "folder", "folders"), counts)
	}
	return project.Echo(shown(f.Path)) + "/  " + counts
}

// mapSizer measures the lines as the map of s prints them.
type mapSizer struct{ s *Server }

func (z mapSizer) FileLine(p string) int { return len(project.Echo(z.s.shown(p))) + 1 }

func (mapSizer) DefLine(d *projmap.Def, depth int, sig bool) int {
	return len(mapDefLine(d, depth, sig)) + 1
}

func (z mapSizer) FolderLine(f projmap.Folder) int { return len(mapFolderLine(f, z.s.shown)) + 1 }
