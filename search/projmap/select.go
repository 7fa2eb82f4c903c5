package projmap

import (
	"cmp"
	"context"
	"path"
	"slices"
	"strings"

	"github.com/zumba-dev/zumba/search/internal/lines"
	"github.com/zumba-dev/zumba/search/internal/scan"
)

// Sizer measures the lines of a map's answer, in bytes with their
// line ends, so that Select keeps what fits; the tool that prints the map
// implements it.
type Sizer interface {
	// FileLine is the line naming a file, above its definitions.
	FileLine(path string) int
	// DefLine is a definition's line at depth (0 under its file); sig
	// adds the text of its line (Def.Text).
	DefLine(d *Def, depth int, sig bool) int
	// FolderLine is a summarised folder's line.
	FolderLine(f Folder) int
}

// Selection is what a map shows: the definitions that fit, under
// their files, and the folders none of whose files fit, on one line each.
type Selection struct {
	// Files are in path order, each with its definitions in line order.
	Files []File
	// Folders are in path order; More (Path "") adds up those left out
	// when their lines did not fit either, Folders counting them.
	Folders []Folder
	More    *Folder
	// Shown counts the definitions shown.
	Shown int
}

// File is one file of the map and the definitions it shows.
type File struct {
	Path    string
	Entries []Entry
}

// Entry is a definition shown.
type Entry struct {
	Def
	// Depth is how deep it nests under the file's definitions shown.
	Depth int
	// Sig: its line's text (Def.Text) fits too.
	Sig bool
}

// Folder sums up a folder none of whose files is shown.
type Folder struct {
	Path                 string
	Folders, Files, Defs int
}

// Select keeps the highest-ranked definitions whose lines fit in budget
// bytes and maxLines lines, as size measures them, under the files
// holding them; then adds the text of their lines (their signatures),
// best first, where it fits; then a line for each folder none of whose
// files is shown. A definition is never shown without the one holding it
// (which ranks before it).
func (m *Map) Select(ctx context.Context, budget, maxLines int, size Sizer) (*Selection, error) {
	cands := m.top(maxLines)
	texts, err := m.lineTexts(ctx, cands)
	if err != nil {
		return nil, err
	}
	// What the folders' lines may need is kept back while definitions
	// are chosen: at least the line summing them all up.
	more := size.FolderLine(Folder{Folders: len(m.files), Files: m.Files, Defs: m.Defs})
	reserveBytes := max(more, min(budget/8, mapFolderLines*more))
	reserveLines := max(1, min(maxLines/8, mapFolderLines))
	used, lines := 0, 0
	shownFile := map[int32]int{} // file → index in sel.Files
	shown := map[int32]int{}     // definition → depth shown
	type pick struct{ file, entry int }
	var picks []pick // in rank order
	sel := &Selection{}
	// First as many definitions as fit, without their lines' text.
	for i, c := range cands {
		d := &m.defs[c]
		depth := 0
		for p := d.parent; p >= 0; p = m.defs[p].parent {
			if _, ok := shown[p]; ok {
				depth = shown[p] + 1
				break
			}
		}
		def := texts[i]
		cost, n := size.DefLine(&def, depth, false), 1
		fi, ok := shownFile[d.file]
		if !ok {
			cost, n = cost+size.FileLine(def.Path), 2
		}
		if used+cost > budget-reserveBytes || lines+n > maxLines-reserveLines {
			break
		}
		used, lines = used+cost, lines+n
		if !ok {
			fi = len(sel.Files)
			shownFile[d.file] = fi
			sel.Files = append(sel.Files, File{Path: def.Path})
		}
		shown[c] = depth
		picks = append(picks, pick{fi, len(sel.Files[fi].Entries)})
		sel.Files[fi].Entries = append(sel.Files[fi].Entries, Entry{Def: def, Depth: depth})
		sel.Shown++
	}
	// Then their texts, best first, where they fit.
	for _, p := range picks {
		e := &sel.Files[p.file].Entries[p.entry]
		if e.Text == "" {
			continue
		}
		more := size.DefLine(&e.Def, e.Depth, true) - size.DefLine(&e.Def, e.Depth, false)
		if used+more <= budget-reserveBytes {
			used += more
			e.Sig = true
		}
	}
	for i := range sel.Files {
		slices.SortStableFunc(sel.Files[i].Entries, func(a, b Entry) int { return cmp.Compare(a.Line, b.Line) })
	}
	slices.SortFunc(sel.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	m.summarise(sel, shownFile, budget-used, maxLines-lines, size)
	return sel, nil
}

// mapFolderLines bounds the folders summed up one by one.
const mapFolderLines = 12

// lineTexts returns the definitions cands with their lines' text, each
// file read once.
func (m *Map) lineTexts(ctx context.Context, cands []int32) ([]Def, error) {
	out := make([]Def, len(cands))
	byFile := map[int32][]int{}
	for i, c := range cands {
		out[i] = m.def(c)
		byFile[m.defs[c].file] = append(byFile[m.defs[c].file], i)
	}
	sc := scan.GetScratch()
	defer scan.PutScratch(sc)
	for f, is := range byFile {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		data, err := m.src.Contents(m.entries[m.files[f].entry], sc)
		if err != nil {
			continue
		}
		text := lines.New(data)
		for _, i := range is {
			out[i].Text = text.Text(out[i].Line)
		}
	}
	return out, nil
}

// summarise adds the lines of the folders none of whose files is shown:
// the highest such folder of each file not shown, unless the file's own
// folder has files shown (its siblings say where it is). As many as fit
// in budget bytes and lines; the biggest are kept, and one line sums up
// the rest.
func (m *Map) summarise(sel *Selection, shownFile map[int32]int, budget, lines int, size Sizer) {
	shownDirs := map[string]bool{}
	for f := range shownFile {
		for d := path.Dir(m.files[f].path); ; d = path.Dir(d) {
			if shownDirs[d] {
				break
			}
			shownDirs[d] = true
			if d == "." {
				break
			}
		}
	}
	folders := map[string]*Folder{}
	for i := range m.files {
		if _, ok := shownFile[int32(i)]; ok {
			continue
		}
		dir := m.topUnshown(path.Dir(m.files[i].path), shownDirs)
		if dir == "" {
			continue
		}
		f := folders[dir]
		if f == nil {
			f = &Folder{Path: dir, Folders: 1}
			folders[dir] = f
		}
		f.Files++
		f.Defs += int(m.files[i].n)
	}
	all := make([]Folder, 0, len(folders))
	for _, f := range folders {
		all = append(all, *f)
	}
	// Biggest first, to keep those while they fit.
	slices.SortFunc(all, func(a, b Folder) int {
		return cmp.Or(cmp.Compare(b.Defs, a.Defs), cmp.Compare(b.Files, a.Files), strings.Compare(a.Path, b.Path))
	})
	// keep is the most folders whose lines fit with the line summing up
	// the others.
	n := len(all)
	rest := make([]Folder, n+1)
	for k := n - 1; k >= 0; k-- {
		rest[k] = sumFolders([]Folder{all[k], rest[k+1]})
	}
	keep, need := -1, 0
	for k := 0; k <= n; k++ {
		more, extra := 0, 0
		if k < n {
			more, extra = size.FolderLine(rest[k]), 1
		}
		if need+more <= budget && k+extra <= lines {
			keep = k
		}
		if k < n {
			need += size.FolderLine(all[k])
		}
	}
	if keep < 0 {
		return
	}
	if keep < n {
		sel.More = &rest[keep]
	}
	sel.Folders = all[:keep]
	slices.SortFunc(sel.Folders, func(a, b Folder) int { return strings.Compare(a.Path, b.Path) })
}

// topUnshown is the highest folder from dir up to (not including) the
// map's folder that holds no file shown; "" when dir itself holds one.
func (m *Map) topUnshown(dir string, shownDirs map[string]bool) string {
	if shownDirs[dir] || dir == m.Dir || !mapScope(m.Dir, dir) {
		return ""
	}
	for {
		up := path.Dir(dir)
		if shownDirs[up] || up == m.Dir || !mapScope(m.Dir, up) {
			return dir
		}
		dir = up
	}
}

func sumFolders(fs []Folder) Folder {
	var s Folder
	for _, f := range fs {
		s.Folders += f.Folders
		s.Files += f.Files
		s.Defs += f.Defs
	}
	return s
}
