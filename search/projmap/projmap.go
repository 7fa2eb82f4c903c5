package projmap

import (
	"cmp"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search/internal/filetier"
)

// The map of a folder (outline of a folder): every definition of the
// files under it, ranked by how much the rest of the project uses its
// name, and the highest-ranked that fit a budget.
//
// A definition's own weight is the number of other files that hold its
// name (its last segment: "Serve" for "Server.Serve") as a whole word,
// counting only code files that are not tests, divided by the number of
// files (tests left out) that define that name. The division is how a
// PageRank over references damps common names: a file's edge to a name
// is split among the name's definers, so a use of "String", "get" or
// "init" is worth little to each of the hundreds of definitions so named,
// and a name one file defines keeps every use. Definitions in test files
// weigh nothing (their users are tests), nor do those of vendored and
// generated files (not the project's own code; unless the map is of a
// vendored folder), nor headings. A Go name
// counts only the files that can use it (goScope): those of its package,
// and for an exported name those that import the package. What a C or
// C++ source file defines counts no other file unless a header defines
// the name too (isCSource). Names of one character, Go's
// predeclared and C's reserved names count a tenth (predeclaredShare).
// A container weighs its own plus
// its members' (the definitions nested in it, as outline nests them; a Go
// type also the methods declared with it as receiver in its folder), so
// that it ranks before each of them and is there to hold them.
//
// The counts come from the index (package internal/index: the files holding
// each word, the files defining each name) or, without one, from reading
// the files (root.go); the same rule either way.

// Def is a definition the map ranks, with the text of its name's line
// once selected.
type Def struct {
	outline.Definition
	// Text is the line of the definition's name, trimmed and cut.
	Text string
	tier uint8
}

// InTest reports whether d is outside the project's own code: in a test
// file, or in vendored or generated code (see package
// search/internal/filetier).
func (d *Def) InTest() bool { return d.tier != filetier.Own }

// Map is the ranked definitions of the files under a folder.
type Map struct {
	// Dir is the folder, a clean project path ("." for the whole project).
	Dir string
	// Files counts the files under Dir with a grammar, Defs their
	// definitions.
	Files, Defs int
	// Building reports a map ranked before every file of the project was
	// parsed: Indexed of Total files were (the index is still being
	// built, or a direct search ran out of time). With Total 0 the time
	// limit came before the project's files were listed.
	Building       bool
	Indexed, Total int
	// Stopped reports a map ranked from the files a direct search read
	// before its time limit (Indexed of Total), rather than from an
	// index being built.
	Stopped bool

	files []mapFile
	defs  []mapDef
	// entries are those of the files whose definitions m holds, for
	// reading their lines (mapFile.entry).
	entries []project.Entry
	dirIDs  map[string]int32
	strs    *index.StrTable
	src     project.Source
}

type mapFile struct {
	path string
	// entry is the file's index in Map.entries, -1 if m holds
	// none of its definitions.
	entry int32
	tier  uint8
	// user: the file's words count as uses (code, not a test).
	user bool
	// goFile: a Go file, whose names count where goScope says; cSource:
	// a C or C++ source file (not a header), see cScope.
	goFile, cSource, cFamily bool
	// dir is its folder's dirID.
	dir int32
	// n counts its definitions; the first of those m holds is
	// Map.defs[first], and all of them but in a large map
	// (keep.go).
	first, n int32
}

// mapDef is one definition, with its strings as ids into the map's
// strTable.
type mapDef struct {
	file   int32
	parent int32 // the enclosing definition's index, -1 at top level
	name   uint32
	last   uint32
	// cont is the last segment of a top-level definition's qualified
	// container (Go's method "Server.Serve": "Server"), noString else.
	cont             uint32
	kind             grammar.Kind
	line, start, end int32
	// again: an overload of the definition before it, not shown.
	again bool
	score float32
	// tests is the number of test files that use the name, the same
	// way, counted for what no other file uses: it ranks those (an API
	// the project offers and tests).
	tests float32
}

const noString = ^uint32(0)

// mapScope reports whether the project path p is under dir.
func mapScope(dir, p string) bool {
	return dir == "." || strings.HasPrefix(p, dir) && len(p) > len(dir) && p[len(dir)] == '/'
}

// isMapUser reports whether uses of a name in the project file p count:
// a code file (a grammar that is not prose) that is not a test.
func isMapUser(p string) bool {
	lang := grammar.ForPath(p, nil)
	return lang != nil && !lang.CodeRules().Prose && filetier.Of(p) != filetier.Test
}

// mayOutline reports whether the project file p may have definitions:
// a grammar for its name, or no extension (a #! script).
func mayOutline(p string) bool {
	base := project.Base(p)
	return grammar.ForPath(p, nil) != nil || !strings.Contains(base, ".") || strings.HasPrefix(base, ".")
}

// rawDef is a definition as a file's record gives it, its strings as
// ids: quals are its qualified name's parts.
type rawDef struct {
	name, last, cont uint32 // cont: the qualified name's next to last part, noString for none
	kind             grammar.Kind
	line, start, end int32
}

// addFile appends a file's definitions to m, in outline order
// (outline.Outline.Definitions), and nests them; user says whether the
// file counts as a user (isMapUser).
func (m *Map) addFile(e project.Entry, tier uint8, user bool, defs []rawDef) {
	m.files = append(m.files, m.newFile(e.Path, tier, user, len(defs)))
	if len(defs) > 0 {
		m.addEntry(e)
	}
	var n nester
	m.defs = n.nest(m.defs, int32(len(m.files)-1), defs)
}

// addEntry records e as the last file's entry.
func (m *Map) addEntry(e project.Entry) {
	m.files[len(m.files)-1].entry = int32(len(m.entries))
	m.entries = append(m.entries, e)
}

// newFile is the map's record of a file of n definitions, counted in
// m.Files and m.Defs, its definitions to come next in m.defs.
func (m *Map) newFile(p string, tier uint8, user bool, n int) mapFile {
	m.Files++
	m.Defs += n
	return mapFile{path: p, entry: -1, tier: tier, user: user, goFile: strings.HasSuffix(p, ".go"), cSource: isCSource(p), cFamily: isCFamily(p),
		dir: m.dirID(path.Dir(p)), first: int32(len(m.defs)), n: int32(n)}
}

// nester nests a file's definitions; its slices are scratch, reused
// from file to file.
type nester struct {
	// stack holds the definitions enclosing the next one; prev[k] is the
	// last definition at depth k, for telling overloads.
	stack, prev []int32
}

// nest appends the definitions defs of the file fi to dst, in outline
// order, each with the index in dst of the definition enclosing it.
func (n *nester) nest(dst []mapDef, fi int32, defs []rawDef) []mapDef {
	stack, prev := n.stack[:0], n.prev[:0]
	for _, d := range defs {
		md := mapDef{file: fi, parent: -1, name: d.name, last: d.last, cont: noString,
			kind: d.kind, line: d.line, start: d.start, end: d.end}
		// Definitions come in pre-order: the enclosing one is the
		// nearest before whose extent holds this one's.
		for len(stack) > 0 {
			p := &dst[stack[len(stack)-1]]
			if p.start <= md.start && md.end <= p.end && (p.line < md.line || p.end > md.end) {
				break
			}
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			md.parent = stack[len(stack)-1]
		} else {
			// A top-level definition with a qualified container is a
			// Go-style method, declared beside its type.
			md.cont = d.cont
		}
		// An overload (TypeScript's signatures and their
		// implementation, Python's @overload) is one definition in the
		// map: the first of a run of siblings of one name and kind.
		k := len(stack)
		if k < len(prev) {
			if p := &dst[prev[k]]; p.parent == md.parent && p.name == md.name && p.kind == md.kind {
				md.again = true
			}
		}
		prev = append(prev[:min(k, len(prev))], int32(len(dst)))
		stack = append(stack, int32(len(dst)))
		dst = append(dst, md)
	}
	n.stack, n.prev = stack, prev
	return dst
}

// goPredeclared are Go's predeclared functions and types: a Go file
// holding "len" or "string" mostly means them, not a method so named.
var goPredeclared = map[string]bool{
	"any": true, "append": true, "bool": true, "byte": true, "cap": true, "clear": true, "close": true,
	"comparable": true, "complex": true, "copy": true, "delete": true, "error": true, "float64": true,
	"imag": true, "int": true, "int64": true, "len": true, "make": true, "max": true, "min": true,
	"new": true, "panic": true, "print": true, "println": true, "real": true, "recover": true,
	"rune": true, "string": true, "uint": true, "uint64": true,
}

// cReserved are C's keywords and the names its standard headers define
// that a C file uses without meaning a definition of the project so
// named (a "#define bool" or "#define true" in one header).
var cReserved = map[string]bool{
	"auto": true, "bool": true, "break": true, "case": true, "char": true, "const": true, "continue": true,
	"default": true, "do": true, "double": true, "else": true, "enum": true, "extern": true, "false": true,
	"float": true, "for": true, "goto": true, "if": true, "inline": true, "int": true, "long": true,
	"register": true, "return": true, "short": true, "signed": true, "sizeof": true, "static": true,
	"struct": true, "switch": true, "true": true, "typedef": true, "union": true, "unsigned": true,
	"void": true, "volatile": true, "while": true, "NULL": true, "size_t": true,
}

// C and C++ file name endings: sources, and headers.
var (
	cSourceExts = []string{".c", ".cc", ".cpp", ".cxx", ".c++"}
	cHeaderExts = []string{".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tpp"}
)

// isCSource reports whether p is a C or C++ source file, not a header.
// What one defines, other files can use only through a header declaring
// it (or a macro or inline definition there): a name that no header
// defines is the file's own (static), and its uses elsewhere are other
// things so named ("one", "in").
func isCSource(p string) bool { return hasExt(p, cSourceExts) }

// isCHeader reports whether p is a C or C++ header.
func isCHeader(p string) bool { return hasExt(p, cHeaderExts) }

func isCFamily(p string) bool { return isCSource(p) || isCHeader(p) }

func hasExt(p string, exts []string) bool {
	for _, e := range exts {
		if strings.HasSuffix(p, e) {
			return true
		}
	}
	return false
}

// predeclaredShare is the share of a name's uses counted for a
// definition so named when the name is one character long, Go's
// predeclared or C's reserved: its uses are mostly something else.
const predeclaredShare float32 = 0.1

// typeKinds are the kinds a Go-style method's receiver names.
var typeKinds = map[grammar.Kind]bool{
	grammar.Struct: true, grammar.Class: true, grammar.Interface: true,
	grammar.Type: true, grammar.Enum: true, grammar.Union: true,
}

// mapCounter counts, for the ranking, the files that use a word and the
// files that define it, in the whole project or where a mapScope says.
type mapCounter interface {
	// users is the number of files counting as users (isMapUser) that
	// hold the word w.
	users(w uint32, in mapWhere) int
	// definers is the number of files outside tests that define a name
	// whose last segment is w.
	definers(w uint32, in mapWhere) int
	// testers is the number of test files (code) that hold w.
	testers(w uint32, in mapWhere) int
	// inHeader reports whether a C or C++ header outside tests defines a
	// name whose last segment is w.
	inHeader(w uint32) bool
	// word is the id of the word s, if a file holds it.
	word(s string) (uint32, bool)
}

// mapWhere narrows the files counted: all when dir < 0; else those in the
// folder dir (Map.dirID), and with pkg (not noString) those
// holding the word pkg too.
type mapWhere struct {
	dir int32
	pkg uint32
}

// everywhere counts every file.
var everywhere = mapWhere{dir: -1, pkg: noString}

// holds reports whether a file of folder dir whose words has (a test)
// counts in w.
func (w mapWhere) holds(dir int32, has func(word uint32) bool) bool {
	return w.dir < 0 || dir == w.dir || w.pkg != noString && has(w.pkg)
}

// dirID numbers the folder dir for the ranking's counts.
func (m *Map) dirID(dir string) int32 {
	if m.dirIDs == nil {
		m.dirIDs = map[string]int32{}
	}
	id, ok := m.dirIDs[dir]
	if !ok {
		id = int32(len(m.dirIDs))
		m.dirIDs[dir] = id
	}
	return id
}

// goScope is where a definition named last in the file p can be used,
// for Go: a name that is not exported only in its folder (its package);
// an exported one there and in the files that name its package (import
// it): those holding the word of its folder's name (the package's name
// by convention; a major version folder "v2" stands for its parent).
// ok is false for the other languages.
func goScope(p, last string) (pkg string, exported, ok bool) {
	if !strings.HasSuffix(p, ".go") || last == "" {
		return "", false, false
	}
	r, _ := utf8.DecodeRuneInString(last)
	if !unicode.IsUpper(r) {
		return "", false, true
	}
	dir := path.Dir(p)
	pkg = path.Base(dir)
	if len(pkg) > 1 && pkg[0] == 'v' && strings.Trim(pkg[1:], "0123456789") == "" {
		pkg = path.Base(path.Dir(dir))
	}
	return pkg, true, true
}

// better reports whether definition a ranks before b: heavier first,
// then what other code may use (m.public: what a project offers, even when
// it does not use it itself), then the more tests use it, then the
// project's own files before tests
// and vendored code, then path and line order (a container before its
// members).
func (m *Map) better(a, b int32) bool {
	da, db := &m.defs[a], &m.defs[b]
	if da.score != db.score {
		return da.score > db.score
	}
	if pa, pb := m.public(da), m.public(db); pa != pb {
		return pa
	}
	if da.tests != db.tests {
		return da.tests > db.tests
	}
	fa, fb := &m.files[da.file], &m.files[db.file]
	if c := cmp.Or(cmp.Compare(fa.tier, fb.tier), strings.Compare(fa.path, fb.path)); c != 0 {
		return c < 0
	}
	return a < b
}

// top returns the n highest-ranked definitions, best first.
func (m *Map) top(n int) []int32 {
	out := make([]int32, 0, n+1)
	for i := range m.defs {
		id := int32(i)
		if m.defs[i].again || len(out) == n && !m.better(id, out[n-1]) {
			continue
		}
		at, _ := slices.BinarySearchFunc(out, id, func(x, y int32) int {
			if m.better(x, y) {
				return -1
			}
			return 1
		})
		out = slices.Insert(out, at, id)
		if len(out) > n {
			out = out[:n]
		}
	}
	return out
}

// public reports whether code elsewhere may use d, as far as its name
// says: not a Go name that is not exported, nor a name starting with "_"
// (private by convention in Python, JavaScript and others).
func (m *Map) public(d *mapDef) bool {
	name := m.strs.Str(d.last)
	if name == "" || name[0] == '_' {
		return false
	}
	_, exported, ok := goScope(m.files[d.file].path, name)
	return exported || !ok
}

// def turns definition i into a Def (without its line's text).
func (m *Map) def(i int32) Def {
	d := &m.defs[i]
	f := &m.files[d.file]
	return Def{
		Definition: outline.Definition{
			Path: f.path, Kind: d.kind, Name: m.strs.Str(d.name),
			Line: int(d.line), Start: int(d.start), End: int(d.end),
		},
		tier: f.tier,
	}
}

// Ranked returns the n highest-ranked definitions, best first, with their
// weights (for measuring the ranking; the map's answer is Select's). A
// large map from the index holds its mapKeep best (keep.go).
func (m *Map) Ranked(n int) ([]Def, []float64) {
	var defs []Def
	var scores []float64
	for _, i := range m.top(n) {
		defs = append(defs, m.def(i))
		scores = append(scores, float64(m.defs[i].score))
	}
	return defs, scores
}
