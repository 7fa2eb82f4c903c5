package search

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search/internal/filetier"
	"github.com/zumba-dev/zumba/search/internal/lines"
	"github.com/zumba-dev/zumba/search/internal/scan"
)

// SymbolLimit is how many definitions find_symbol shows.
const SymbolLimit = 40

// defaultSymbolTimeLimit bounds a search for definitions, well inside the
// 5 seconds clients wait: a name used in most files (err, self) would
// otherwise have most of the project parsed. It is what a zero
// [Root.SymbolTimeLimit] means.
const defaultSymbolTimeLimit = 3500 * time.Millisecond

func (r *Root) symbolTimeLimit() time.Duration {
	if r.SymbolTimeLimit != 0 {
		return r.SymbolTimeLimit
	}
	return defaultSymbolTimeLimit
}

// Def is one definition find_symbol found.
type Def struct {
	outline.Definition
	// Text is the line of the definition's name, trimmed and cut.
	Text string
	// rank is the text the fallback ranks by.
	rank string
	// exact: the definition is what the query names, not only a name
	// containing it.
	exact bool
	// tier ranks the definition's file (see rank.go): the project's own,
	// a test file, vendored or generated code.
	tier uint8
}

// InTest reports whether d is outside the project's own code: in a test
// file, or in vendored or generated code (see rank.go).
func (d *Def) InTest() bool { return d.tier != filetier.Own }

// SymbolQuery is a parsed find_symbol name.
type SymbolQuery struct {
	// Name is the name as given (spaces trimmed).
	Name string
	// Limit is how many definitions to return at most; 0 is SymbolLimit.
	Limit int
	// Containing asks for the fallback's answer, the definitions whose
	// names contain the name, even when some match it exactly.
	Containing bool
	// Parts are its segments, split at "." and "::", and at a "#"
	// between words (Ruby's "Record#save"); one part for a plain name.
	Parts []string
	// needle is a piece of the name every file defining it must contain.
	needle []byte
	// fold is the name in lower case, for the fallback.
	fold       string
	foldNeedle []byte
	// packages reads Go files' package clauses, for a leading part that
	// names a package that is not its folder (nil: folders only).
	packages *goPackages
}

// limit is how many definitions q returns at most.
func (q SymbolQuery) limit() int {
	if q.Limit > 0 {
		return q.Limit
	}
	return SymbolLimit
}

// ParseSymbolQuery reads a find_symbol name: "spawn", "Rpc.spawn",
// "Rpc::spawn", "Record#save".
func ParseSymbolQuery(name string) SymbolQuery {
	q := SymbolQuery{Name: strings.TrimSpace(name)}
	dotted := memberHash(q.Name)
	if frame, ok := goFrameName(q.Name); ok {
		dotted = frame
	} else if expr, ok := goMethodExprName(q.Name); ok {
		dotted = expr
	} else if msg, ok := objcMessageName(q.Name); ok {
		dotted = msg
	} else if mfa, ok := erlangMFA(q.Name); ok {
		dotted = mfa
	}
	q.Parts = outline.SplitQualified(dotted)
	q.needle = []byte(longestField(selectorPiece(outline.DropArity(q.Parts[len(q.Parts)-1]))))
	q.fold = strings.ToLower(strings.ReplaceAll(dotted, "::", "."))
	q.foldNeedle = []byte(strings.ToLower(string(q.needle)))
	return q
}

// objcMessage matches Objective-C's way of naming a method, as crash logs
// and documentation write it: "-[UIView setNeedsLayout]", "+[Foo
// shared]", "-[UIView(WebCache) sd_setImageWithURL:]".
var objcMessage = regexp.MustCompile(`^[-+]\[([A-Za-z_]\w*)(?:\s*\(\w*\))?\s+([A-Za-z_][\w:]*)\]$`)

// objcMessageName reads "-[Class selector:]" as "Class.selector:", the
// qualified name outline gives the method.
func objcMessageName(s string) (string, bool) {
	m := objcMessage.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	return m[1] + "." + m[2], true
}

// erlangFun matches Erlang's way of naming a function, "lists:map/2",
// "shapes:area".
var erlangFun = regexp.MustCompile(`^([a-z][\w@]*|'[^']+'):([a-z][\w@]*|'[^']+')(/\d+)?$`)

// erlangMFA reads "module:function/arity" as "module.function/arity", the
// qualified name outline gives the function.
func erlangMFA(s string) (string, bool) {
	m := erlangFun.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	return m[1] + "." + m[2] + m[3], true
}

// selectorPiece is the longest piece of an Objective-C selector,
// "initWithFrame:style:": a file that defines the method need not hold
// the selector whole, since its parameters stand between its labels.
func selectorPiece(s string) string {
	if strings.IndexByte(s, ':') < 0 {
		return s
	}
	best := ""
	for _, p := range strings.Split(s, ":") {
		if len(p) > len(best) {
			best = p
		}
	}
	if best == "" {
		return s
	}
	return best
}

// memberHash writes the "#" of documentation's "Class#method" as ".".
// Only a "#" between word characters qualifies: JavaScript's "#private"
// and "Foo.#x" keep theirs, and so do headings such as "C# support".
func memberHash(s string) string {
	for i := strings.IndexByte(s, '#'); i > 0 && i < len(s)-1; {
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+1:])
		if IsWordRune(before) && IsWordRune(after) {
			s = s[:i] + "." + s[i+1:]
		}
		j := strings.IndexByte(s[i+1:], '#')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return s
}

// longestField is the longest run of s without spaces: heading names fold
// runs of spaces, so only a piece without them is surely in the file.
func longestField(s string) string {
	best := ""
	for _, f := range strings.Fields(s) {
		if len(f) > len(best) {
			best = f
		}
	}
	if best == "" {
		return s
	}
	return best
}

// notInNames are characters no identifier has. Those of a qualified name
// (".", "::", "#", "/"), of a heading (spaces), of Ruby's "valid?" and
// "save!", C++'s "~Foo" and "operator=", JavaScript's "$", and of YAML
// keys and Lisp names ("-") are not among them.
const notInNames = "()[]{}<>,;\"'`\\+*&|^%"

// Stray returns the first character of the query that no identifier has.
// Operator and computed names hold some ("operator()", "[Symbol.iterator]"),
// so it only explains an answer that found nothing.
func (q SymbolQuery) Stray() (rune, bool) {
	i := strings.IndexAny(q.Name, notInNames)
	if i < 0 {
		return 0, false
	}
	r, _ := utf8.DecodeRuneInString(q.Name[i:])
	return r, true
}

// NamePart is the query's first piece without stray characters that holds
// a word character ("operate" of "operate(x)"), trimmed; "" if none.
func (q SymbolQuery) NamePart() string {
	for _, f := range strings.FieldsFunc(q.Name, func(r rune) bool { return strings.ContainsRune(notInNames, r) }) {
		f = strings.Trim(f, " .:#/")
		if strings.IndexFunc(f, IsWordRune) >= 0 {
			return f
		}
	}
	return ""
}

// qualified reports whether the query names a container too.
func (q SymbolQuery) qualified() bool { return len(q.Parts) > 1 }

// exact reports whether r is what q names: the same name, or a full name
// ending with q's segments. Segments before the full name may name the
// package or module: the file's folders ("http.Server.Serve" in
// net/http/server.go), its base name ("posixpath.join"), or a Go file's
// package clause ("main.run", "http_test.getNoBody").
func (q SymbolQuery) exact(d *outline.Definition) bool {
	if d.Name == q.Name {
		return true
	}
	segs := d.Qualified
	// Erlang's area/2 is qualified as shapes.area: a query that gives an
	// arity names the function of that arity.
	parts := q.Parts
	if last := parts[len(parts)-1]; d.Kind != grammar.Heading {
		if a := outline.DropArity(last); a != last {
			if !strings.HasSuffix(d.Name, last[len(a):]) {
				return false
			}
			parts = append(parts[:len(parts)-1:len(parts)-1], a)
		}
	}
	if len(parts) > len(segs) {
		extra := len(parts) - len(segs)
		if !slices.Equal(segs, parts[extra:]) {
			return false
		}
		return pathEndsWith(d.Path, parts[:extra]) ||
			extra == 1 && q.packages != nil && strings.HasSuffix(d.Path, ".go") && q.packages.of(d.Path) == parts[0]
	}
	tail := segs[len(segs)-len(parts):]
	return slices.Equal(tail, parts)
}

// pathEndsWith reports whether the folders of the project path p, or its
// folders then its base name without extension, end with parts.
func pathEndsWith(p string, parts []string) bool {
	comps := strings.Split(p, "/")
	base := comps[len(comps)-1]
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	dirs := comps[:len(comps)-1]
	withBase := append(slices.Clip(dirs), base)
	for _, c := range [][]string{dirs, withBase} {
		if len(c) >= len(parts) && slices.Equal(c[len(c)-len(parts):], parts) {
			return true
		}
	}
	return false
}

// foldText is what the fallback compares with q: the member's own name (a
// Go method "Server.Serve" is "Serve"), or with a qualified query the full
// name ("Server.Serve", "Rpc.spawn").
func (q SymbolQuery) foldText(d *outline.Definition) string {
	if q.qualified() {
		return d.QualifiedName()
	}
	return d.LastSegment()
}

// SymbolResult is what Symbols found.
type SymbolResult struct {
	Defs []Def
	// Fuzzy: nothing matched exactly, and Defs are the definitions whose
	// names contain the query, best first.
	Fuzzy bool
	// More: there were more than the limit.
	More bool
	// Searched is how many of the Files were searched; fewer when the
	// deadline stopped the search.
	Searched, Files int
	// Building: the project index was still being built, and only the
	// Indexed first files of Files were covered before the time limit.
	// With Files 0 the time limit came before the project's files were
	// listed, and nothing was searched.
	Building bool
	Indexed  int
}

// copy returns a copy of r that shares nothing with it a caller may change.
func (r *SymbolResult) copy() *SymbolResult {
	c := *r
	c.Defs = slices.Clone(r.Defs)
	return &c
}

// Symbols finds the definitions q names in files (in path order), reading
// them from src. Exact matches come in path and line order, own files
// before test files; when there are none, the definitions whose names
// contain q (ignoring case) come best first (see rank.go). It
// stops after limit results (limit < 0: no limit), and starts no new file
// after the deadline (zero: none), saying how far it got.
func Symbols(ctx context.Context, files []project.Entry, src project.Source, q SymbolQuery, limit int, deadline time.Time) (*SymbolResult, error) {
	return symbolsNoting(ctx, files, src, q, limit, deadline, nil)
}

// symbolsNoting is Symbols, calling none (if not nil) for each file it
// read that holds q's needle neither as a word nor in any case, or has no
// grammar: a file that cannot hold an answer to q as it was read at
// readAt (Unix ns, before the read). It may be called concurrently.
func symbolsNoting(ctx context.Context, files []project.Entry, src project.Source, q SymbolQuery, limit int, deadline time.Time, none func(e project.Entry, readAt int64)) (*SymbolResult, error) {
	res := &SymbolResult{Files: len(files)}
	files = rankFiles(files)
	// Files that hold the name as a whole word are parsed in the first
	// pass, which notes their fuzzy matches too; files that hold it only
	// inside other words or in another case are parsed in the second pass,
	// when nothing matched exactly.
	var foldOnly []project.Entry
	var mu sync.Mutex
	word := NewWordScanner(string(q.needle))
	classify := func(d *outline.Definition) (exact, fuzzy bool) {
		if q.exact(d) {
			return true, false
		}
		return false, strings.Contains(strings.ToLower(q.foldText(d)), q.fold)
	}
	found, done, timedOut, err := scanDefs(ctx, files, src, limit, deadline, func(e project.Entry, readAt int64, langOf func() *grammar.Language, data []byte) bool {
		// A definition's name is a whole word of its file; in some
		// languages never one right after a ".".
		if word.Contains(data) && langOf() != nil && definitionWord(word, data, langOf) {
			return true
		}
		if containsFold(data, q.foldNeedle) && langOf() != nil {
			mu.Lock()
			foldOnly = append(foldOnly, e)
			mu.Unlock()
			return false
		}
		if none != nil {
			none(e, readAt)
		}
		return false
	}, classify, q.foldText)
	if err != nil {
		return nil, err
	}
	res.Searched = len(files)
	if timedOut {
		res.Searched = done
	}
	var defs []Def
	for _, d := range found {
		if d.exact {
			defs = append(defs, d)
		}
	}
	// The files were read in the order their paths rank them; those that
	// say they are generated go last (rank.go).
	slices.SortStableFunc(defs, func(a, b Def) int { return cmp.Compare(a.tier, b.tier) })
	if (len(defs) == 0 || q.Containing) && !timedOut {
		res.Fuzzy = true
		defs = found
		slices.SortFunc(foldOnly, func(a, b project.Entry) int { return strings.Compare(a.Path, b.Path) })
		more, done2, timedOut2, err := scanDefs(ctx, foldOnly, src, -1, deadline, func(project.Entry, int64, func() *grammar.Language, []byte) bool { return true }, classify, q.foldText)
		if err != nil {
			return nil, err
		}
		if timedOut2 {
			res.Searched = len(files) - (len(foldOnly) - done2)
		}
		defs = append(defs, more...)
		sortFuzzy(defs, q)
	}
	if len(defs) == 0 {
		res.Fuzzy = false
	}
	defs = implFirst(defs)
	if limit >= 0 && len(defs) > limit {
		defs, res.More = defs[:limit], true
	}
	res.Defs = defs
	return res, nil
}

// scanDefs reads files in parallel, parses those pre accepts (a cheap byte
// test, so most files are never parsed; it is given the file's language
// as a function, since telling a ".h" file's language from its head costs
// more than the test), and keeps the definitions
// classify calls exact or fuzzy, in file order. Files without a grammar
// are passed over unread. It stops once the files done in order hold more
// than limit exact definitions (limit < 0: never), and starts no file
// after the deadline. It returns how many leading files were searched, and
// whether the deadline stopped it.
func scanDefs(ctx context.Context, files []project.Entry, src project.Source, limit int, deadline time.Time, pre func(e project.Entry, readAt int64, lang func() *grammar.Language, data []byte) bool, classify func(*outline.Definition) (exact, fuzzy bool), rank func(*outline.Definition) string) (defs []Def, searched int, timedOut bool, err error) {
	perFile := make([][]Def, len(files))
	emitted, timedOut := scan.Ordered(ctx, len(files), limit, deadline, func(i int, sc *project.Scratch) int {
		e := files[i]
		if grammar.ForPath(e.Path, nil) == nil && strings.Contains(project.Base(e.Path), ".") {
			return 0
		}
		readAt := time.Now().UnixNano()
		data, err := src.Contents(e, sc)
		if err != nil {
			return 0
		}
		var lang *grammar.Language
		known := false
		langOf := func() *grammar.Language {
			if !known {
				lang, known = grammar.ForPath(e.Path, data[:min(len(data), project.BinaryPrefix)]), true
			}
			return lang
		}
		if !pre(e, readAt, langOf, data) || langOf() == nil {
			return 0
		}
		perFile[i] = fileDefs(ctx, e.Path, lang, data, classify, rank)
		n := 0
		for _, d := range perFile[i] {
			if d.exact {
				n++
			}
		}
		return n
	})
	if err := ctx.Err(); err != nil {
		return nil, 0, false, err
	}
	var out []Def
	for _, defs := range perFile[:emitted] {
		out = append(out, defs...)
	}
	return out, emitted, timedOut, nil
}

// noDotDefinitions are the languages whose definitions never have their
// name right after a "." (Go's "func (s *Server) Serve", Rust's "impl
// fmt::Display for Rpc", C++'s "Foo::bar"), so a file that only has
// "x.Name" uses cannot define Name and need not be parsed. Markdown
// headings, JavaScript's "Foo.prototype.bar = function" and Swift's
// "extension Outer.Inner" are why the rule is not general.
var noDotDefinitions = map[string]bool{"c": true, "cpp": true, "go": true, "python": true, "rust": true}

// definitionWord reports whether data holds the word where a definition
// could name it, for a file known to have a grammar. It asks for the
// file's language (langOf) only when the word is found after a "." alone:
// telling a ".h" file's language from its head costs more than the rest
// of a find_symbol answer.
func definitionWord(word *WordScanner, data []byte, langOf func() *grammar.Language) bool {
	found := false
	for at := word.Next(data, 0); at >= 0; at = word.Next(data, at+1) {
		if at == 0 || data[at-1] != '.' {
			return true
		}
		found = true
	}
	if !found {
		return false
	}
	lang := langOf()
	return lang != nil && !noDotDefinitions[lang.Name]
}

// fileDefs parses one file and keeps the definitions classify accepts. A file
// the parser gives up on contributes nothing.
func fileDefs(ctx context.Context, path string, lang *grammar.Language, data []byte, classify func(*outline.Definition) (exact, fuzzy bool), rank func(*outline.Definition) string) []Def {
	o, err := outline.Parse(ctx, lang, data)
	if err != nil {
		return nil
	}
	var out []Def
	var text *lines.Index
	tier := filetier.Data(path, data)
	for _, d := range o.Definitions(path) {
		exact, fuzzy := classify(&d)
		if !exact && !fuzzy {
			continue
		}
		if text == nil {
			text = lines.New(data)
		}
		out = append(out, Def{Definition: d, Text: text.Text(d.Line), rank: rank(&d), exact: exact, tier: tier})
	}
	return out
}

// containsFold reports whether data contains lower (a lower-case string)
// ignoring case: ASCII folding first, cheap; Unicode lower-casing only for
// files with non-ASCII bytes.
func containsFold(data, lower []byte) bool {
	if len(lower) == 0 {
		return true
	}
	if indexFoldASCII(data, lower) >= 0 {
		return true
	}
	if isASCII(lower) {
		// Only the Kelvin sign lower-cases into ASCII; it is not worth a
		// pass over the file.
		return false
	}
	for _, c := range data {
		if c >= utf8.RuneSelf {
			return bytes.Contains(bytes.ToLower(data), lower)
		}
	}
	return false
}

// indexFoldASCII finds the first lower in data, where ASCII letters of
// data may be upper case.
func indexFoldASCII(data, lower []byte) int {
	return indexFoldASCIIAt(data, lower, rareByte(lower))
}

// indexFoldASCIIAt is indexFoldASCII looking for lower's byte at anchor
// first (in both cases), keeping the next position of each so no byte is
// scanned twice for it. Candidates come in order, so the first one that
// matches is the first match.
func indexFoldASCIIAt(data, lower []byte, anchor int) int {
	c0 := lower[anchor]
	up := c0
	if 'a' <= c0 && c0 <= 'z' {
		up = c0 - 'a' + 'A'
	}
	last := len(data) - len(lower) + anchor
	nextLo, nextUp := -2, -2
	if up == c0 {
		nextUp = -1
	}
	for i := anchor; i <= last; {
		if nextLo != -1 && nextLo < i {
			nextLo = indexFrom(data, c0, i)
		}
		if nextUp != -1 && nextUp < i {
			nextUp = indexFrom(data, up, i)
		}
		j := nextLo
		if j < 0 || (nextUp >= 0 && nextUp < j) {
			j = nextUp
		}
		if j < 0 || j > last {
			return -1
		}
		if at := j - anchor; equalFoldASCII(data[at:at+len(lower)], lower) {
			return at
		}
		i = j + 1
	}
	return -1
}

// byteCommonness ranks bytes by how often they appear in source text,
// letters in either case together: the most common first. Bytes not
// listed are rarer than all of these.
const byteCommonness = " etainosrl_cd\n\tupmf(),;h*=gx-.b>0y1\"kv2w/{}3:48&'[]5!69z7+|<qj#"

var byteRarity = func() (r [256]uint8) {
	for i := range r {
		r[i] = 255
	}
	for i := 0; i < len(byteCommonness); i++ {
		c := byteCommonness[i]
		r[c] = uint8(i)
		if 'a' <= c && c <= 'z' {
			r[c-'a'+'A'] = uint8(i)
		}
	}
	return r
}()

// rareByte is the index of the byte of lower least common in source
// text, the first of equals.
func rareByte(lower []byte) int {
	best := 0
	for i := 1; i < len(lower); i++ {
		if byteRarity[lower[i]] > byteRarity[lower[best]] {
			best = i
		}
	}
	return best
}

// indexFrom is the index of c in data at or after from, or -1.
func indexFrom(data []byte, c byte, from int) int {
	if k := bytes.IndexByte(data[from:], c); k >= 0 {
		return from + k
	}
	return -1
}

func equalFoldASCII(a, lower []byte) bool {
	for k, c := range a {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[k] {
			return false
		}
	}
	return true
}

// Symbols finds the definitions q names in the project's files, walked
// and read afresh: at most q.Limit (SymbolLimit), within the root's time limit.
func (r *Root) Symbols(ctx context.Context, q SymbolQuery) (*SymbolResult, error) {
	deadline := StopBy(ctx, r.symbolTimeLimit())
	if err := checkName(q.Name); err != nil {
		return nil, err
	}
	files, err := r.Walk(ctx)
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", r.Dir, err)
	}
	q.packages = newGoPackages(r.Root)
	return Symbols(ctx, files, r, q, q.limit(), deadline)
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
