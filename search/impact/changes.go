package impact

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/gitread"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search"
)

// ChangeKind says what a change did to a definition.
type ChangeKind uint8

const (
	Modified ChangeKind = iota
	Added
	Removed
)

// ChangedDef is a definition a change added, modified or removed.
type ChangedDef struct {
	// Def is the definition in the work tree; for a removed one, in the
	// base version (its Path is the file's path there).
	Def  outline.Definition
	Kind ChangeKind
	// Added and Deleted count the changed lines inside it.
	Added, Deleted int
	// Uses are code uses of its name in other definitions, the first
	// in each of at most MaxUses definitions; MoreUses and MoreUseDefs
	// count the hits left out in other definitions, and those.
	Uses                  []search.Site
	MoreUses, MoreUseDefs int
	// MoreUsesUncounted: uses were left out without being counted (the
	// search stopped at its limit, or the answer's time ran out).
	MoreUsesUncounted bool
	// Below holds, with depth (FindCallers), for each of Uses, the
	// definitions that use it and theirs, in the order they are shown.
	Below [][]UseNode
	// UsesAbove marks, with depth, the users of Uses whose own users are
	// listed above, under another changed definition (nil: none).
	UsesAbove []bool
}

// ChangedFile is a file a change touched.
type ChangedFile struct {
	// Path is its path in the work tree ("" when deleted); OldPath in the
	// base ("" when added; another path when renamed).
	Path, OldPath string
	// Added and Deleted count its changed lines in all; TopAdded and
	// TopDeleted those outside any definition.
	Added, Deleted       int
	TopAdded, TopDeleted int
	// NoDefinitions: a binary file, one with no grammar or too large to
	// parse: only its line counts are known.
	NoDefinitions bool
	Binary        bool
	// Submodule: a submodule whose checked-out commit changed (its own
	// files are not entered).
	Submodule bool
	// Filter is the filter driver (Git LFS's "lfs", …) the attributes
	// name for the file: its stored bytes were compared as they are.
	Filter string
}

// ChangeSet is what a change touched since a base commit.
type ChangeSet struct {
	Base  string
	Defs  []ChangedDef
	Files []ChangedFile
	// Unread counts the files whose definitions were not read in the
	// call's time (listed with their line counts only).
	Unread int
	// DeepPartial: with depth, some users' own users were not searched
	// (the time ran out) or not all found (a search stopped at its limit).
	DeepPartial bool
	// ByDef, when set, finds the users of the definitions it resolves
	// (Go) instead of the users of their names: set it before Changes
	// finds the direct users (ChangesResolved) and FindCallers theirs.
	ByDef DefCallerFunc
}

// MaxUses is how many uses of a changed definition are listed.
const MaxUses = 5

// ErrNotRepository is Changes' error for a project outside any git work
// tree.
var ErrNotRepository = errors.New("the project is not in a git repository")

// UsesFunc finds the code uses of name grouped by definition (the
// find_references group=definition code=true search), parsing for at most
// limit (search.RefOptions.TimeLimit).
type UsesFunc func(ctx context.Context, name string, limit time.Duration) (*search.Sites, error)

// UsesTimeLimit bounds the searching of uses in a changes call: each
// search may take what is left of it, and none starts after it; the
// definitions whose uses were not searched say so.
const UsesTimeLimit = 150 * time.Millisecond

// Changes finds the definitions that the work tree of the project at root
// adds, modifies or removes against base ("" for HEAD; else against the
// merge base of base and HEAD), in the files filter keeps (nil: all), and
// through uses (nil: none) who uses them.
func Changes(ctx context.Context, root *project.Root, base string, filter *project.PathFilter, uses UsesFunc) (*ChangeSet, error) {
	return ChangesResolved(ctx, root, base, filter, uses, nil)
}

// ChangesResolved is Changes where the users of the changed definitions
// that byDef resolves (Go; not those removed, which the files no longer
// hold) are the uses that resolve to them.
func ChangesResolved(ctx context.Context, root *project.Root, base string, filter *project.PathFilter, uses UsesFunc, byDef DefCallerFunc) (*ChangeSet, error) {
	repo, err := gitread.Open(root.Real)
	switch {
	case errors.Is(err, gitread.ErrNotRepo):
		return nil, ErrNotRepository
	case err != nil:
		return nil, err
	}
	defer repo.Close()
	commit, err := baseCommit(repo, base)
	if err != nil {
		return nil, err
	}
	diffs, err := repo.Diff(ctx, commit, root)
	if err != nil {
		return nil, err
	}
	diffs = slices.DeleteFunc(diffs, func(d gitread.FileDiff) bool {
		return filter != nil && !filter.Match(cmp.Or(d.New, d.Old))
	})
	cs := &ChangeSet{Base: cmp.Or(base, "HEAD"), ByDef: byDef}
	stopParse, stopUses := softDeadlines(ctx)
	if err := cs.readAll(ctx, root, diffs, stopParse); err != nil {
		return nil, err
	}
	slices.SortStableFunc(cs.Files, func(a, b ChangedFile) int { return cmp.Compare(cmp.Or(a.Path, a.OldPath), cmp.Or(b.Path, b.OldPath)) })
	cs.rank()
	if uses != nil {
		uctx := ctx
		if !stopUses.IsZero() {
			var cancel context.CancelFunc
			uctx, cancel = context.WithDeadline(ctx, stopUses)
			defer cancel()
		}
		cs.findUses(uctx, uses)
	}
	// A uses search that ran past the deadline leaves its definitions'
	// uses marked as not searched; what was read is still the answer.
	if err := ctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, err
	}
	return cs, nil
}

// readAll reads what diffs did to each file, the files read side by side
// (one worker per CPU); the files not started by stopParse (zero: no
// limit) are listed with their line counts only.
func (cs *ChangeSet) readAll(ctx context.Context, root *project.Root, diffs []gitread.FileDiff, stopParse time.Time) error {
	type result struct {
		file   ChangedFile
		defs   []ChangedDef
		unread bool
	}
	results := make([]result, len(diffs))
	unread := func(d gitread.FileDiff) result {
		return result{file: ChangedFile{Path: d.New, OldPath: d.Old, Added: d.Added, Deleted: d.Deleted, Binary: d.Binary, Submodule: d.Submodule, Filter: d.Filter, NoDefinitions: true}, unread: true}
	}
	// A parse under way at stopParse stops a little after it, so that a
	// large file parsed on a busy machine leaves its definitions unread
	// rather than the call unanswered at ctx's deadline.
	pctx := ctx
	if hard, ok := ctx.Deadline(); ok && !stopParse.IsZero() {
		var cancel context.CancelFunc
		pctx, cancel = context.WithDeadline(ctx, stopParse.Add(hard.Sub(stopParse)/3))
		defer cancel()
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(diffs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(diffs) || ctx.Err() != nil {
					return
				}
				d := diffs[i]
				if !stopParse.IsZero() && time.Now().After(stopParse) {
					results[i] = unread(d)
					continue
				}
				results[i].file, results[i].defs = readChange(pctx, root, d)
				if pctx.Err() != nil && ctx.Err() == nil {
					results[i] = unread(d)
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, r := range results {
		cs.Files = append(cs.Files, r.file)
		cs.Defs = append(cs.Defs, r.defs...)
		if r.unread {
			cs.Unread++
		}
	}
	return nil
}

// MaxUsesSearched bounds how many changed definitions' uses are searched:
// the first, in rank order (no answer shows more).
const MaxUsesSearched = 200

// softDeadlines are the times past which a change set is answered with
// what was read: files are no longer parsed after 3/4 of the time left
// (their line counts only are told), uses no longer searched after 7/8,
// so that the answer is printed before the call's deadline. Zero without
// a deadline.
func softDeadlines(ctx context.Context) (parse, uses time.Time) {
	d, ok := ctx.Deadline()
	if !ok {
		return time.Time{}, time.Time{}
	}
	left := time.Until(d)
	now := time.Now()
	return now.Add(left * 3 / 4), now.Add(left * 7 / 8)
}

// baseCommit is the commit a change is measured against.
func baseCommit(repo *gitread.Repo, base string) (string, error) {
	head, err := repo.Head()
	if err != nil {
		var missing *gitread.MissingError
		if errors.As(err, &missing) {
			return "", err
		}
		return "", errors.New("the repository has no commit yet (HEAD names none)")
	}
	if base == "" || base == "HEAD" {
		return head, nil
	}
	commit, err := repo.Resolve(base)
	if err != nil {
		var missing *gitread.MissingError
		if errors.As(err, &missing) {
			return "", err
		}
		return "", fmt.Errorf("unknown base %s: no commit of that name", project.Echo(base))
	}
	mb, err := repo.MergeBase(commit, head)
	if err != nil {
		if !errors.Is(err, gitread.ErrNoMergeBase) {
			var missing *gitread.MissingError
			if !errors.As(err, &missing) {
				return "", err
			}
		}
		return "", fmt.Errorf("no merge base of %s and HEAD: a shallow clone without it, or unrelated histories (git fetch --unshallow, or give a base HEAD reaches)", project.Echo(base))
	}
	return mb, nil
}

// readChange reads what the change d did to one file: its two versions
// are d's, an untracked file's is read.
func readChange(ctx context.Context, root *project.Root, d gitread.FileDiff) (ChangedFile, []ChangedDef) {
	f := ChangedFile{Path: d.New, OldPath: d.Old, Added: d.Added, Deleted: d.Deleted, Binary: d.Binary, Submodule: d.Submodule, Filter: d.Filter}
	if d.Submodule {
		f.NoDefinitions = true
		return f, nil
	}
	now, was := d.After, d.Before
	if d.Untracked {
		data, _, err := root.ReadFile(d.New, project.MaxFileSize)
		if err == nil {
			now = data
		}
	}
	// The search covers files up to MaxFileSize; a larger one is named
	// with its line counts only.
	if len(now) > project.MaxFileSize {
		now = nil
	}
	if len(was) > project.MaxFileSize {
		was = nil
	}
	if project.IsBinary(now) || project.IsBinary(was) {
		f.Binary = true
	}
	if d.Untracked && now != nil && !f.Binary {
		f.Added = outline.SizeOf(now).Lines
		d.Hunks = []gitread.Hunk{{NewStart: 1, NewCount: f.Added}}
	}
	newDefs, okNew := definitionsOf(ctx, f.Path, now)
	oldDefs, okOld := definitionsOf(ctx, f.OldPath, was)
	if f.Binary || (f.Path != "" && !okNew) || (f.OldPath != "" && !okOld) {
		f.NoDefinitions = true
		return f, nil
	}
	sameText := func(o, n *outline.Definition) bool {
		return bytes.Equal(extentText(was, o), extentText(now, n))
	}
	defs := compareDefs(&f, oldDefs, newDefs, d.Hunks, sameText)
	return f, defs
}

// definitionsOf parses the contents data of the file path; ok is false
// when it has no grammar or cannot be parsed. A side that does not exist
// (path "") has no definitions.
func definitionsOf(ctx context.Context, path string, data []byte) ([]outline.Definition, bool) {
	if path == "" {
		return nil, true
	}
	if data == nil {
		return nil, false
	}
	lang := grammar.ForPath(path, data)
	if lang == nil {
		return nil, false
	}
	o, err := outline.Parse(ctx, lang, data)
	if err != nil {
		return nil, false
	}
	return o.Definitions(path), true
}

// defKey identifies a definition across two versions of a file: its kind,
// qualified name, and which of the definitions of that name it is.
type defKey struct {
	kind grammar.Kind
	name string
	nth  int
}

func keysOf(defs []outline.Definition) []defKey {
	seen := map[defKey]int{}
	keys := make([]defKey, len(defs))
	for i := range defs {
		first := defKey{kind: defs[i].Kind, name: defs[i].QualifiedName()}
		keys[i] = first
		keys[i].nth = seen[first]
		seen[first]++
	}
	return keys
}

// innermost maps each line of a file to its innermost definition
// (-1: none), for files of n lines.
func innermost(defs []outline.Definition) func(line int) int {
	order := make([]int, len(defs))
	for i := range order {
		order[i] = i
	}
	// Longer extents first, so that the definitions inside them overwrite
	// their lines.
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(defs[b].End-defs[b].Start, defs[a].End-defs[a].Start)
	})
	last := 0
	for _, d := range defs {
		last = max(last, d.End)
	}
	at := make([]int32, last+1)
	for i := range at {
		at[i] = -1
	}
	for _, i := range order {
		for l := defs[i].Start; l <= defs[i].End; l++ {
			at[l] = int32(i)
		}
	}
	return func(line int) int {
		if line < 1 || line >= len(at) {
			return -1
		}
		return int(at[line])
	}
}

// compareDefs sorts the changed lines of hunks into the definitions of
// the two versions of f: the innermost definition holding each added line
// (in newDefs) or deleted line (in oldDefs). A definition found on one
// side only is added or removed; the lines in no definition are counted
// on f. A definition whose changed lines leave its text as it was (git
// matched its lines with others that moved) is not listed: sameText
// tells.
func compareDefs(f *ChangedFile, oldDefs, newDefs []outline.Definition, hunks []gitread.Hunk, sameText func(o, n *outline.Definition) bool) []ChangedDef {
	oldKeys, newKeys := keysOf(oldDefs), keysOf(newDefs)
	newIndex := map[defKey]int{}
	for i, k := range newKeys {
		newIndex[k] = i
	}
	oldIndex := map[defKey]int{}
	for i, k := range oldKeys {
		oldIndex[k] = i
	}
	added := make([]int, len(newDefs))
	deleted := make([]int, len(newDefs))
	oldDeleted := make([]int, len(oldDefs))
	touched := make([]bool, len(newDefs))
	inNew, inOld := innermost(newDefs), innermost(oldDefs)
	for _, h := range hunks {
		for l := h.NewStart; l < h.NewStart+h.NewCount; l++ {
			if i := inNew(l); i >= 0 {
				added[i]++
				touched[i] = true
			} else {
				f.TopAdded++
			}
		}
		for l := h.OldStart; l < h.OldStart+h.OldCount; l++ {
			i := inOld(l)
			if i < 0 {
				f.TopDeleted++
				continue
			}
			if j, ok := newIndex[oldKeys[i]]; ok {
				deleted[j]++
				touched[j] = true
			} else {
				oldDeleted[i]++
			}
		}
	}
	// A definition added or removed inside one that is added or removed
	// too is part of it: only the outer one is listed (its counts take
	// the inner one's lines). Definitions come each before those it
	// contains, so one open extent per side tells.
	var out []ChangedDef
	within := outer{}
	for i := range newDefs {
		_, existed := oldIndex[newKeys[i]]
		switch {
		case !existed && within.holds(&newDefs[i]):
		case !existed:
			within.open(&newDefs[i])
			out = append(out, ChangedDef{Def: newDefs[i], Kind: Added, Added: linesIn(&newDefs[i], added, newDefs), Deleted: deleted[i]})
		case touched[i] && !sameText(&oldDefs[oldIndex[newKeys[i]]], &newDefs[i]):
			out = append(out, ChangedDef{Def: newDefs[i], Kind: Modified, Added: added[i], Deleted: deleted[i]})
		}
	}
	within = outer{}
	for i := range oldDefs {
		if _, ok := newIndex[oldKeys[i]]; ok || within.holds(&oldDefs[i]) {
			continue
		}
		within.open(&oldDefs[i])
		out = append(out, ChangedDef{Def: oldDefs[i], Kind: Removed, Deleted: linesIn(&oldDefs[i], oldDeleted, oldDefs)})
	}
	return out
}

// extentText is the lines of data that d's extent spans (nil when data
// has fewer lines).
func extentText(data []byte, d *outline.Definition) []byte {
	from, line := -1, 1
	if d.Start <= 1 {
		from = 0
	}
	for i, b := range data {
		if b != '\n' {
			continue
		}
		line++
		switch line {
		case d.Start:
			from = i + 1
		case d.End + 1:
			if from < 0 {
				return nil
			}
			return data[from : i+1]
		}
	}
	if from < 0 {
		return nil
	}
	return data[from:]
}

// outer is the extent of the last definition listed as added or removed.
type outer struct{ start, end int }

func (o *outer) open(d *outline.Definition) { o.start, o.end = d.Start, d.End }

func (o *outer) holds(d *outline.Definition) bool {
	return o.end > 0 && o.start <= d.Start && d.End <= o.end
}

// linesIn adds up counts of the definitions of defs inside d, d's own
// included.
func linesIn(d *outline.Definition, counts []int, defs []outline.Definition) int {
	n := 0
	for i := range defs {
		if d.Start <= defs[i].Start && defs[i].End <= d.End {
			n += counts[i]
		}
	}
	return n
}

// findUses fills the first MaxUsesSearched changed definitions' uses:
// code uses of its name in definitions that are not themselves changed,
// within UsesTimeLimit and while ctx lasts.
func (cs *ChangeSet) findUses(ctx context.Context, uses UsesFunc) {
	changed := map[string]bool{}
	for i := range cs.Defs {
		changed[defID(&cs.Defs[i].Def)] = true
	}
	byName := map[string]*search.Sites{}
	end := search.StopBy(ctx, UsesTimeLimit)
	for i := range cs.Defs[:min(len(cs.Defs), MaxUsesSearched)] {
		d := &cs.Defs[i]
		name := d.Def.LastSegment()
		if !plainName(name) {
			continue
		}
		sites, ok := byName[name]
		left := time.Until(end)
		if !ok && (ctx.Err() != nil || left <= 0) {
			d.MoreUsesUncounted = true
			continue
		}
		if cs.ByDef != nil && d.Kind != Removed {
			if res, resolved := resolvedSites(ctx, cs.ByDef, &d.Def, left); resolved {
				sites, ok = res, true
			}
		}
		if !ok {
			var err error
			if sites, err = uses(ctx, name, left); err != nil {
				sites = nil
			}
			byName[name] = sites
		}
		if sites == nil || sites.Building {
			d.MoreUsesUncounted = true
			continue
		}
		// One use per definition is shown: the first of its hits. A use
		// is in a file of the definition's language (or one that shares
		// its names: C and C++, the JVM's, JavaScript and TypeScript).
		shown := map[string]bool{}
		counted := map[string]bool{}
		family := languageFamily(d.Def.Path)
		for _, s := range sites.Sites {
			if s.Def == nil || s.Own || languageFamily(s.Path) != family {
				continue
			}
			key := defID(s.Def)
			switch {
			case changed[key], shown[key]:
			case len(d.Uses) < MaxUses:
				d.Uses = append(d.Uses, s)
				shown[key] = true
			default:
				d.MoreUses++
				if !counted[key] {
					counted[key] = true
					d.MoreUseDefs++
				}
			}
		}
		d.MoreUsesUncounted = sites.More
	}
}

// languageFamily names the languages whose files can use the names a
// file of path defines.
func languageFamily(path string) string {
	lang := grammar.ForPath(path, nil)
	if lang == nil {
		return ""
	}
	switch lang.Name {
	case "c", "cpp":
		return "c"
	case "java", "kotlin", "scala":
		return "jvm"
	case "javascript", "typescript", "tsx":
		return "js"
	}
	return lang.Name
}

// plainName reports whether name can be searched as one word: word
// runes (search.IsWordRune), JavaScript's "$", and any other non-ASCII
// rune.
func plainName(name string) bool {
	return name != "" && !strings.ContainsFunc(name, func(r rune) bool {
		return !(search.IsWordRune(r) || r == '$' || r > 127)
	})
}

// rank puts first the definitions whose change other code may feel:
// removed ones, then modified ones, then added ones, each in path and
// line order.
func (cs *ChangeSet) rank() {
	order := [...]int{Removed: 0, Modified: 1, Added: 2}
	slices.SortStableFunc(cs.Defs, func(a, b ChangedDef) int {
		return cmp.Or(
			cmp.Compare(order[a.Kind], order[b.Kind]),
			cmp.Compare(a.Def.Path, b.Def.Path),
			cmp.Compare(a.Def.Line, b.Def.Line),
		)
	})
}
