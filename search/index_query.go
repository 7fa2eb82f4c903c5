package search

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/filestat"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/internal/watch"
	"github.com/zumba-dev/zumba/outline"
)

// References answers like [Root.References], reading only the files the
// word index names once it is built.
func (ix *Index) References(ctx context.Context, name string, filter *project.PathFilter) (*RefResult, error) {
	defer ix.call()()
	if !ix.wordsReady.Load() {
		name = strings.TrimSpace(name)
		if err := checkName(name); err != nil {
			return nil, err
		}
		files, err := ix.coldFiles(ctx)
		if err != nil {
			return nil, err
		}
		refs, more, err := References(ctx, FilterEntries(files, filter), ix.root, name, RefLimit)
		if err != nil {
			return nil, err
		}
		return &RefResult{Refs: refs, More: more}, nil
	}
	ix.cold.drop()
	name = strings.TrimSpace(name)
	if err := checkName(name); err != nil {
		return nil, err
	}
	if err := ix.sync(ctx); err != nil {
		return nil, err
	}
	// The candidates are read in path order until the answer is full: a
	// common name's first files hold its first lines, so the entries of
	// its other thousands of files are never made.
	ix.mu.RLock()
	ids, all := ix.candidateIDsLocked(name)
	if all {
		ids = ix.liveIDsLocked()
	}
	below := ix.order.sortedBelowLocked(ix)
	cut, _ := slices.BinarySearch(ids, below)
	head := make([]*fileRec, cut)
	for i, f := range ids[:cut] {
		head[i] = ix.files[f]
	}
	late := make([]project.Entry, 0, len(ids)-cut)
	for _, f := range ids[cut:] {
		late = append(late, ix.files[f].entry())
	}
	ix.mu.RUnlock()
	late = sortByPath(late)
	var refs []Ref
	chunk := make([]project.Entry, 0, 1024)
	for size := 16; len(head) > 0 || len(late) > 0; size = min(2*size, cap(chunk)) {
		chunk = chunk[:0]
		for len(chunk) < size && (len(head) > 0 || len(late) > 0) {
			if len(late) == 0 || len(head) > 0 && head[0].path < late[0].Path {
				chunk, head = append(chunk, head[0].entry()), head[1:]
			} else {
				chunk, late = append(chunk, late[0]), late[1:]
			}
		}
		got, more, err := References(ctx, FilterEntries(chunk, filter), ix.root, name, RefLimit-len(refs))
		if err != nil {
			return nil, err
		}
		refs = append(refs, got...)
		if more {
			return &RefResult{Refs: refs, More: true}, nil
		}
	}
	return &RefResult{Refs: refs}, nil
}

// pathOrder knows how far the records, in id order, are in path order:
// the build numbers the files it walked in path order, and files (re)read
// later are numbered after them.
type pathOrder struct {
	mu sync.Mutex
	// checked is how many ids were looked at; below is the first id whose
	// record breaks the order (checked while none does); last is the
	// path of the last live record before below.
	checked int
	below   uint32
	last    string
}

// sortedBelowLocked returns the id below which live records are in path
// order. The caller holds ix.mu. Removing a record keeps the others in
// order, so ids already checked stay so.
func (o *pathOrder) sortedBelowLocked(ix *Index) uint32 {
	o.mu.Lock()
	defer o.mu.Unlock()
	if int(o.below) == o.checked {
		for f := o.checked; f < len(ix.files); f++ {
			r := ix.files[f]
			if r == nil {
				o.below = uint32(f + 1)
				continue
			}
			if o.below > 0 && o.last != "" && r.path <= o.last {
				break
			}
			o.last, o.below = r.path, uint32(f+1)
		}
	}
	o.checked = len(ix.files)
	return o.below
}

// buildWalk is the list of files the build's walk made, for the calls
// answered before the word index.
type buildWalk struct {
	once  sync.Once
	done  chan struct{}
	files []project.Entry
	ok    bool
}

func (b *buildWalk) wait() chan struct{} {
	b.once.Do(func() { b.done = make(chan struct{}) })
	return b.done
}

// set is called once, when the walk ends (ok: it was not stopped).
func (b *buildWalk) set(files []project.Entry, ok bool) {
	b.files, b.ok = files, ok
	close(b.wait())
}

// maxColdChanges is how many changed paths coldFiles applies to the
// build's walk; past it, a walk of its own is quicker.
const maxColdChanges = 1000

// coldFiles lists the project's files, as Walk would now, for a call
// answered before the word index. On a large project a walk takes
// seconds, and the build is walking already: the call waits for the
// build's walk and applies what the watcher saw change since (the watcher
// starts before the walk, and its changes are not taken until the word
// index is in), instead of walking beside it. Without a watcher, or when
// the watcher lost events, it walks.
func (ix *Index) coldFiles(ctx context.Context) ([]project.Entry, error) {
	walk := func() ([]project.Entry, error) {
		files, err := ix.root.Walk(ctx)
		if err != nil {
			return nil, fmt.Errorf("walk %s: %w", ix.root.Dir, err)
		}
		return files, nil
	}
	if !ix.started.Load() {
		return walk()
	}
	select {
	case <-ix.walk.wait():
	case <-ix.ready:
		return walk()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if !ix.walk.ok || ix.watcher == nil {
		return walk()
	}
	// The index's first sync takes the changes, under syncMu, once the
	// word index is in; the build drops its walk then, under syncMu too.
	ix.syncMu.Lock()
	var ch watch.Changes
	files, words := ix.walk.files, ix.wordsReady.Load()
	if !words {
		ch = ix.watcher.Peek(ctx)
	}
	ix.syncMu.Unlock()
	if words || ch.Rescan || ch.IgnoreChanged || len(ch.Paths) > maxColdChanges {
		return walk()
	}
	return ix.applyChanges(files, ch.Paths), nil
}

// dropWalk forgets the build's walk once the word index answers (on
// the Linux kernel its entries hold 10 MB).
func (ix *Index) dropWalk() {
	ix.syncMu.Lock()
	ix.walk.files = nil
	ix.syncMu.Unlock()
}

// applyChanges returns files (in path order, not modified) with the paths
// the watcher reported (files or folders) listed as they are now.
func (ix *Index) applyChanges(files []project.Entry, paths []string) []project.Entry {
	if len(paths) == 0 {
		return files
	}
	// A path names a file, or a folder and everything under it.
	gone := make([]bool, len(files))
	for _, c := range paths {
		i, _ := slices.BinarySearchFunc(files, c, func(e project.Entry, p string) int { return strings.Compare(e.Path, p) })
		if i < len(files) && files[i].Path == c {
			gone[i] = true
		}
		dir := c + "/"
		i, _ = slices.BinarySearchFunc(files, dir, func(e project.Entry, p string) int { return strings.Compare(e.Path, p) })
		for ; i < len(files) && strings.HasPrefix(files[i].Path, dir); i++ {
			gone[i] = true
		}
	}
	out := make([]project.Entry, 0, len(files)+len(paths))
	for i, e := range files {
		if !gone[i] {
			out = append(out, e)
		}
	}
	for _, p := range paths {
		if e, ok := ix.rules.Entry(p); ok {
			out = append(out, e)
		}
	}
	return sortByPath(out)
}

// candidates lists, in path order, the files that may hold name as a
// whole word: those holding every word of name. A whole-word occurrence of
// name has each of its words bounded on both sides (inside the name by its
// own punctuation, at its ends by the boundary WordScanner requires beside
// a word character: "operate(" needs one before "operate"), so each is a
// word of the file. A name without words, or with one too long to be indexed,
// needs every file.
func (ix *Index) candidates(name string) []project.Entry {
	ix.mu.RLock()
	ids, all := ix.candidateIDsLocked(name)
	var out []project.Entry
	if all {
		ids = ix.liveIDsLocked()
	}
	out = make([]project.Entry, 0, len(ids))
	for _, f := range ids {
		out = append(out, ix.files[f].entry())
	}
	ix.mu.RUnlock()
	return sortByPath(out)
}

// candidateIDsLocked lists the live files holding every word of name, in
// id order; all is set when every file may hold it.
func (ix *Index) candidateIDsLocked(name string) (ids []uint32, all bool) {
	var words [][]byte
	forWords([]byte(name), func(w []byte) { words = append(words, w) })
	if len(words) == 0 {
		return nil, true
	}
	var keys []uint32
	for _, w := range words {
		if !indexedWord(w) {
			return nil, true
		}
		id, ok := ix.words.lookup(w)
		if !ok {
			return nil, false
		}
		keys = append(keys, id)
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	for i, k := range keys {
		if i == 0 {
			ids = ix.wordPost.list(k, nil)
			continue
		}
		ids = intersect(ids, ix.wordPost.list(k, nil))
	}
	return ix.liveLocked(ids), false
}

// liveLocked keeps the ids that have a record.
func (ix *Index) liveLocked(ids []uint32) []uint32 {
	out := ids[:0]
	for _, f := range ids {
		if int(f) < len(ix.files) && ix.files[f] != nil {
			out = append(out, f)
		}
	}
	return out
}

func (ix *Index) liveIDsLocked() []uint32 {
	out := make([]uint32, 0, ix.live)
	for f, r := range ix.files {
		if r != nil {
			out = append(out, uint32(f))
		}
	}
	return out
}

// sortByPath sorts entries by path. Most come in path order already (ids
// follow the walk), so the sorted run at the start is kept and only the
// rest sorted and merged in.
func sortByPath(es []project.Entry) []project.Entry {
	cmp := func(a, b project.Entry) int { return strings.Compare(a.Path, b.Path) }
	run := 1
	for run < len(es) && es[run-1].Path < es[run].Path {
		run++
	}
	if run >= len(es) {
		return es
	}
	rest := slices.Clone(es[run:])
	slices.SortFunc(rest, cmp)
	out := make([]project.Entry, 0, len(es))
	a := es[:run]
	for len(a) > 0 && len(rest) > 0 {
		if cmp(a[0], rest[0]) <= 0 {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, rest = append(out, rest[0]), rest[1:]
		}
	}
	out = append(append(out, a...), rest...)
	return slices.CompactFunc(out, func(a, b project.Entry) bool { return a.Path == b.Path })
}

// entries lists the indexed files in path order.
func (ix *Index) entries() []project.Entry {
	ix.mu.RLock()
	out := make([]project.Entry, 0, ix.live)
	for _, r := range ix.files {
		if r != nil {
			out = append(out, r.entry())
		}
	}
	ix.mu.RUnlock()
	return sortByPath(out)
}

// Symbols answers like [Root.Symbols]. Before the word index is built it
// searches the files directly; after, it parses the files the word index
// says may define the name and are not parsed yet, then answers from the
// definitions. When the time limit stops the parsing, the answer is what
// the files parsed so far define, saying how many that is
// (SymbolResult.Building).
func (ix *Index) Symbols(ctx context.Context, q SymbolQuery) (*SymbolResult, error) {
	deadline := time.Now().Add(ix.symbolTimeLimit())
	if err := checkName(q.Name); err != nil {
		return nil, err
	}
	defer ix.call()()
	if !ix.wordsReady.Load() {
		files, err := ix.coldFiles(ctx)
		if err != nil {
			return nil, err
		}
		res, err := ix.cold.symbols(ctx, files, ix.root, q, deadline)
		if err != nil {
			return nil, err
		}
		if res.Searched < res.Files {
			res.Building, res.Indexed = true, res.Searched
		}
		return res, nil
	}
	ix.cold.drop()
	t0 := time.Now()
	if err := ix.sync(ctx); err != nil {
		return nil, err
	}
	synced := time.Since(t0)
	res, err := ix.symbols(ctx, q, q.limit(), deadline)
	if d := time.Since(t0); d > time.Second {
		ix.logf("symbols %s: %d ms (%d ms bringing the index up to date), complete %v", project.Echo(q.Name), d.Milliseconds(), synced.Milliseconds(), res != nil && !res.Building)
	}
	return res, err
}

// coldSymbols remembers, for the last find_symbol query answered before
// the word index was built, the files found unable to answer it, with
// their stat when read. On a large project a direct search does not get
// through every file within a call's time limit, and a client asks again
// while the answer is partial: the next call for the same query searches
// only the files not known, and the files changed since (a different
// stat, or one too close to the read to prove the file unchanged), so
// that repeated calls complete instead of each starting over.
type coldSymbols struct {
	mu    sync.Mutex
	key   coldKey
	files map[string]coldFile
}

// coldKey is what decides whether a file can answer a query.
type coldKey struct{ needle, fold string }

type coldFile struct {
	st     filestat.Stat
	readAt int64
}

func (c *coldSymbols) symbols(ctx context.Context, files []project.Entry, src project.Source, q SymbolQuery, deadline time.Time) (*SymbolResult, error) {
	key := coldKey{string(q.needle), string(q.foldNeedle)}
	c.mu.Lock()
	if c.files == nil || c.key != key {
		c.key, c.files = key, map[string]coldFile{}
	}
	known := c.files
	rest := make([]project.Entry, 0, len(files))
	for _, e := range files {
		if f, ok := known[e.Path]; ok && f.st == e.Stat() && !f.st.RacyAt(f.readAt) {
			continue
		}
		rest = append(rest, e)
	}
	c.mu.Unlock()
	res, err := symbolsNoting(ctx, rest, src, q, q.limit(), deadline, func(e project.Entry, readAt int64) {
		c.mu.Lock()
		known[e.Path] = coldFile{e.Stat(), readAt}
		c.mu.Unlock()
	})
	if err != nil {
		return nil, err
	}
	res.Searched += len(files) - len(rest)
	res.Files = len(files)
	return res, nil
}

// drop forgets the files once the word index answers.
func (c *coldSymbols) drop() {
	c.mu.Lock()
	c.files = nil
	c.mu.Unlock()
}

func (ix *Index) symbolTimeLimit() time.Duration {
	if ix.opts.SymbolTimeLimit != 0 {
		return ix.opts.SymbolTimeLimit
	}
	return ix.root.symbolTimeLimit()
}

// symbols answers q from the definitions, as Symbols would from the
// files: exact definitions in path and line order, else those whose names
// contain q, best first. The files that may hold an answer are parsed
// first, until the deadline.
func (ix *Index) symbols(ctx context.Context, q SymbolQuery, limit int, deadline time.Time) (*SymbolResult, error) {
	ix.mu.RLock()
	n := ix.live
	var ids []uint32
	// Once every file is parsed (the usual case after the background
	// pass), a common name's thousands of candidates need no listing.
	if !ix.allParsedLocked() {
		var all bool
		ids, all = ix.candidateIDsLocked(string(q.needle))
		if all {
			ids = ix.liveIDsLocked()
		}
	}
	ix.mu.RUnlock()
	t0 := time.Now()
	complete := ix.ensureParsed(ctx, ids, deadline)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if d := time.Since(t0); d > time.Second {
		ix.logf("symbols %s: %d files may define it; parsing them took %d ms, complete %v", project.Echo(q.Name), len(ids), d.Milliseconds(), complete)
	}
	res := &SymbolResult{Searched: n, Files: n}
	// What the call reads ends up copied into its answer (line text),
	// so the buffer can serve the next call.
	sc := getScratch()
	defer putScratch(sc)
	defs, err := ix.exact(ctx, q, limit, sc)
	if err != nil {
		return nil, err
	}
	if len(defs) == 0 {
		// The files that may define a name containing q are parsed first,
		// unless every file is parsed already (the usual case once the
		// background pass is through): finding them scans the vocabulary.
		var fids []uint32
		if q.qualified() || !ix.allParsed() {
			fids = ix.foldCandidates(q)
			if complete {
				complete = ix.ensureParsed(ctx, fids, deadline)
			}
		}
		// A partial answer keeps to the call's time limit: past it, the
		// fallback stops decoding files.
		var stopAt time.Time
		if !complete {
			stopAt = deadline
		}
		if q.qualified() {
			defs, err = ix.fuzzy(ctx, q, limit, fids, sc, stopAt)
		} else {
			defs, err = ix.fuzzyLast(ctx, q, limit, sc, stopAt)
		}
		if err != nil {
			return nil, err
		}
		res.Fuzzy = len(defs) > 0
	}
	defs = implFirst(defs)
	if limit >= 0 && len(defs) > limit {
		defs, res.More = defs[:limit], true
	}
	res.Defs = defs
	if !complete {
		res.Building, res.Indexed = true, ix.parsedFiles()
	}
	return res, ctx.Err()
}

// parsedFiles counts the files whose definitions the index holds.
func (ix *Index) parsedFiles() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	n := 0
	for _, r := range ix.files {
		if r != nil && r.parsed {
			n++
		}
	}
	return n
}

// defFile is one file's definitions, taken from the index for a query.
type defFile struct {
	path string
	e    project.Entry
	raw  []byte
	test bool
}

// exact lists the definitions q names, from the files the index knows
// define its last segment or its whole name, in path and line order (own
// files first), up to one past limit. As Symbols does, a file where the
// name is never a whole word where a definition could name it is passed
// over.
func (ix *Index) exact(ctx context.Context, q SymbolQuery, limit int, sc *project.Scratch) ([]Def, error) {
	last := q.Parts[len(q.Parts)-1]
	ix.mu.RLock()
	var ids, keys []uint32
	for _, k := range [2]string{last, q.Name} {
		if id, ok := ix.words.lookupString(k); ok {
			ids = ix.defines.list(id, ids)
			keys = append(keys, id)
		}
	}
	slices.Sort(keys)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	files := ix.defFilesLocked(ids)
	strs := ix.words.view()
	ix.mu.RUnlock()
	// As compareFiles orders them, with each file's test flag taken once.
	for i := range files {
		files[i].test = grammar.IsTestFile(files[i].path)
	}
	slices.SortFunc(files, func(a, b defFile) int {
		if a.test != b.test {
			if a.test {
				return 1
			}
			return -1
		}
		return strings.Compare(a.path, b.path)
	})
	word := NewWordScanner(string(q.needle))
	var defs []Def
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var found []Def
		test := f.test
		// Only a definition found by one of the keys can be one q names.
		for _, d := range decodeDefsOf(strs, f.raw, keys, true) {
			d.Path = f.path
			if q.exact(&d) {
				found = append(found, Def{Definition: d, rank: q.foldText(&d), exact: true, test: test})
			}
		}
		if len(found) == 0 {
			continue
		}
		data, err := ix.root.Contents(f.e, sc)
		if err != nil {
			continue
		}
		// The file has definitions, so a grammar.
		if !definitionWord(word, data, func() *grammar.Language {
			return grammar.ForPath(f.path, data[:min(len(data), project.BinaryPrefix)])
		}) {
			continue
		}
		fillText(found, data)
		defs = append(defs, found...)
		if limit >= 0 && len(defs) > limit {
			break
		}
	}
	return defs, nil
}

// defFilesLocked takes the definitions of the live, parsed files of ids.
func (ix *Index) defFilesLocked(ids []uint32) []defFile {
	var out []defFile
	for _, f := range ids {
		if int(f) >= len(ix.files) {
			continue
		}
		if r := ix.files[f]; r != nil && r.parsed && len(r.defs) > 0 {
			out = append(out, defFile{path: r.path, e: r.entry(), raw: r.defs})
		}
	}
	return out
}

// foldCandidates lists the files that may contain q's needle in any case
// (so may define a name containing q): those holding a word that
// contains the needle's longest run of word characters, ignoring case. A
// needle without one, or with one longer than any indexed word, needs
// every file.
func (ix *Index) foldCandidates(q SymbolQuery) []uint32 {
	var run []byte
	forWords(q.foldNeedle, func(w []byte) {
		if len(w) > len(run) {
			run = w
		}
	})
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if len(run) == 0 || len(run) > maxIndexedWord {
		return ix.liveIDsLocked()
	}
	in := make([]bool, len(ix.files))
	var buf []uint32
	for k := range ix.words.len() {
		if ix.wordPost.empty(uint32(k)) || !containsFoldString(ix.words.str(uint32(k)), run) {
			continue
		}
		buf = ix.wordPost.list(uint32(k), buf[:0])
		for _, f := range buf {
			if int(f) < len(in) {
				in[f] = true
			}
		}
	}
	var out []uint32
	for f, ok := range in {
		if ok && ix.files[f] != nil {
			out = append(out, uint32(f))
		}
	}
	return out
}

// containsFoldString reports whether s contains lower (lower case),
// ignoring case.
func containsFoldString(s string, lower []byte) bool {
	if len(s) < len(lower) {
		return false
	}
	return containsFold(unsafe.Slice(unsafe.StringData(s), len(s)), lower)
}

// fuzzy answers a qualified query's fallback: the definitions whose full
// names contain q, ignoring case, best first, up to one past limit, from
// the files of fids; with a non-zero stopAt (a partial answer), it
// decodes no file after that time. As Symbols does, it passes over files
// that do not contain the query's needle in any case.
func (ix *Index) fuzzy(ctx context.Context, q SymbolQuery, limit int, fids []uint32, sc *project.Scratch, stopAt time.Time) ([]Def, error) {
	ix.mu.RLock()
	files := ix.defFilesLocked(fids)
	strs := ix.words.view()
	ix.mu.RUnlock()
	var defs []Def
	for i, f := range files {
		if !stopAt.IsZero() && i%64 == 0 && time.Now().After(stopAt) {
			break
		}
		test, known := false, false
		for _, d := range decodeDefs(strs, f.raw) {
			d.Path = f.path
			if rank := q.foldText(&d); strings.Contains(strings.ToLower(rank), q.fold) {
				if !known {
					test, known = grammar.IsTestFile(f.path), true
				}
				defs = append(defs, Def{Definition: d, rank: rank, test: test})
			}
		}
	}
	sortFuzzy(defs, q)
	// Before the cut, as Symbols does.
	defs = implFirst(defs)
	lines := newDefLines(ix.root, sc, q.foldNeedle)
	for i := range files {
		lines.ents[files[i].path] = files[i].e
	}
	return lines.fill(ctx, nil, defs, limit)
}

// fuzzyLast answers an unqualified query's fallback: the definitions
// whose last segment contains q, ignoring case, in sortFuzzy's order, up
// to one past limit; with a non-zero stopAt (a partial answer), it
// decodes no file after that time. The index keeps every last segment as
// a key, so the keys are visited in rank order instead of the
// definitions: own files before test files, and within each, the keys
// starting with q first, then shorter ones. Only the files defining the
// keys of one rank are decoded at a time, and the answer ends once it is
// full: a common piece ("ret", "get") decodes the files of a few short
// names, not of every name containing it.
func (ix *Index) fuzzyLast(ctx context.Context, q SymbolQuery, limit int, sc *project.Scratch, stopAt time.Time) ([]Def, error) {
	// The names starting with q first: they are found quickly, and with
	// a common q they fill the answer.
	ix.mu.RLock()
	groups := ix.fuzzyKeysLocked(q.fold, true)
	ix.mu.RUnlock()
	prefixOnly := true
	lines := newDefLines(ix.root, sc, q.foldNeedle)
	var out []Def
	files := make([][]defFile, len(groups))
	for _, test := range [2]bool{false, true} {
		for gi := 0; ; gi++ {
			if gi == len(groups) && prefixOnly {
				prefixOnly = false
				ix.mu.RLock()
				groups = append(groups, ix.fuzzyKeysLocked(q.fold, false)...)
				ix.mu.RUnlock()
				files = append(files, make([][]defFile, len(groups)-len(files))...)
			}
			if gi == len(groups) {
				break
			}
			g := groups[gi]
			if files[gi] == nil {
				ix.mu.RLock()
				var ids []uint32
				for _, k := range g.keys {
					ids = ix.defines.list(k, ids)
				}
				slices.Sort(ids)
				files[gi] = ix.defFilesLocked(slices.Compact(ids))
				ix.mu.RUnlock()
				for i := range files[gi] {
					files[gi][i].test = grammar.IsTestFile(files[gi][i].path)
				}
			}
			ix.mu.RLock()
			strs := ix.words.view()
			ix.mu.RUnlock()
			var defs []Def
			for i, f := range files[gi] {
				if !stopAt.IsZero() && i%64 == 0 && time.Now().After(stopAt) {
					return out, nil
				}
				if f.test != test {
					continue
				}
				lines.ents[f.path] = f.e
				for _, d := range decodeDefsOf(strs, f.raw, g.keys, false) {
					d.Path = f.path
					defs = append(defs, Def{Definition: d, rank: d.LastSegment(), test: test})
				}
			}
			sortFuzzy(defs, q)
			// Before the cut, as Symbols does. An overload set shares its
			// last segment, so it lies within one rank.
			defs = implFirst(defs)
			var err error
			if out, err = lines.fill(ctx, out, defs, limit); err != nil {
				return nil, err
			}
			if limit >= 0 && len(out) > limit {
				return out, nil
			}
		}
	}
	return out, nil
}

// keyRank is a group of keys sortFuzzy ranks alike as last segments.
type keyRank struct {
	prefix bool // the key starts with the query
	runes  int
	keys   []uint32 // sorted
}

// fuzzyKeysLocked lists the keys naming a definition that start with
// fold (in lower case), or (!prefix) that contain it elsewhere only,
// grouped by rank, best first.
func (ix *Index) fuzzyKeysLocked(fold string, prefix bool) []keyRank {
	type key struct {
		id     uint32
		prefix bool
		runes  int
	}
	var keys []key
	ix.names.find(ix, fold, prefix, func(id uint32, lower []byte, at int) {
		if (at == 0) == prefix {
			keys = append(keys, key{id, at == 0, utf8.RuneCount(lower)})
		}
	})
	slices.SortFunc(keys, func(a, b key) int {
		if a.prefix != b.prefix {
			if a.prefix {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(a.runes, b.runes), cmp.Compare(a.id, b.id))
	})
	keys = slices.CompactFunc(keys, func(a, b key) bool { return a.id == b.id })
	var out []keyRank
	for _, k := range keys {
		if n := len(out); n == 0 || out[n-1].prefix != k.prefix || out[n-1].runes != k.runes {
			out = append(out, keyRank{prefix: k.prefix, runes: k.runes})
		}
		out[len(out)-1].keys = append(out[len(out)-1].keys, k.id)
	}
	return out
}

// defNames is the text of the names definitions are found by (the keys of
// Index.defines' base), in lower case, end to end, so that the fallback
// finds the names containing a piece with one search of a few tens of
// megabytes instead of a test of each of the millions of strings of the
// vocabulary. The names are grouped by their first two bytes, so that
// those starting with a piece are one stretch of the text. It is made
// when the index is complete, and again when the base of defines changes
// (a merge); keys added since are in the overlay, and tested one by one.
//
// Each name is its key's id in nameIDLen bytes of 7 bits (each with its
// top bit set, so never 0), its lower case, then a 0 byte: a match found
// in the text lies in a name when it starts past the id before it. On
// the Linux kernel (2.2 million names) the text is 59 MB, with nothing
// beside it but the groups' bounds.
type defNames struct {
	mu sync.Mutex
	// off is the defines base it was made from.
	off  []uint32
	text []byte
	// pairAt bounds the groups: names whose lower case starts with bytes
	// a, b are text[pairAt[a<<8|b]:pairAt[a<<8|b+1]] (a name of one byte
	// a is in group a<<8).
	pairAt []uint32
	// keys is how many names text holds.
	keys int
	// in marks the keys in text, by id, a bit each.
	in []uint64
	// extra holds the keys a merge brought into the base since text was
	// made, in lower case, each then a 0 byte: searched whole.
	extra    []byte
	extraIDs []uint32
}

// nameIDLen is how many bytes a name's id takes in defNames.text.
const nameIDLen = 5

func (n *defNames) has(k int) bool { return k/64 < len(n.in) && n.in[k/64]&(1<<(k%64)) != 0 }

func (n *defNames) mark(k int) {
	if k/64 >= len(n.in) {
		n.in = append(n.in, make([]uint64, k/64+1-len(n.in))...)
	}
	n.in[k/64] |= 1 << (k % 64)
}

// prepare makes the text now if it is out of date.
func (n *defNames) prepare(ix *Index) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	n.mu.Lock()
	defer n.mu.Unlock()
	n.update(ix)
}

func (n *defNames) update(ix *Index) {
	p := &ix.defines
	switch {
	case n.pairAt == nil || len(n.extraIDs) > n.keys/16:
		n.build(ix)
	case len(n.off) != len(p.off) || unsafe.SliceData(n.off) != unsafe.SliceData(p.off):
		// A merge (each save makes one): the keys that were in the
		// overlay are in the base now. Keys gone from it stay, and
		// lead to no file.
		n.off = p.off
		for k := 0; k+1 < len(p.off); k++ {
			if p.off[k+1] > p.off[k] && !n.has(k) {
				n.extraIDs = append(n.extraIDs, uint32(k))
				n.extra = append(appendLower(n.extra, ix.words.str(uint32(k))), 0)
			}
		}
		for _, k := range n.extraIDs {
			n.mark(int(k))
		}
	}
}

// appendLower appends w in lower case, as strings.ToLower has it.
func appendLower(b []byte, w string) []byte {
	if !isASCIIString(w) {
		return append(b, strings.ToLower(w)...)
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

// find calls f with each key of ix.defines whose lower case contains
// fold: its id, its lower case and where fold first is in it; with
// prefix, it may leave out keys that do not start with fold. The caller
// holds ix.mu (read).
func (n *defNames) find(ix *Index, fold string, prefix bool, f func(id uint32, lower []byte, at int)) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.update(ix)
	needle := []byte(fold)
	if len(needle) == 0 || bytes.IndexByte(needle, 0) >= 0 {
		return
	}
	switch {
	case prefix && len(needle) >= 2:
		pair := int(needle[0])<<8 | int(needle[1])
		group := n.text[n.pairAt[pair]:n.pairAt[pair+1]]
		for at := 0; at < len(group); {
			id := nameID(group[at:])
			at += nameIDLen
			end := at + bytes.IndexByte(group[at:], 0)
			if w := group[at:end]; bytes.HasPrefix(w, needle) {
				f(id, w, 0)
			}
			at = end + 1
		}
	default:
		text := n.text
		for at := 0; ; {
			i := bytes.Index(text[at:], needle)
			if i < 0 {
				break
			}
			i += at
			// The name holding i starts past the id after the 0 before it.
			start := bytes.LastIndexByte(text[:i], 0) + 1 + nameIDLen
			if i < start {
				// Inside an id: the id's bytes are all 0x80 or more, and
				// so may be some of the needle's.
				at = i + 1
				continue
			}
			end := i + bytes.IndexByte(text[i:], 0)
			f(nameID(text[start-nameIDLen:]), text[start:end], i-start)
			at = end + 1
		}
	}
	// Keys a merge brought into the base since.
	for i, at := 0, 0; at < len(n.extra); i++ {
		end := at + bytes.IndexByte(n.extra[at:], 0)
		if w := n.extra[at:end]; !prefix || bytes.HasPrefix(w, needle) {
			if j := bytes.Index(w, needle); j >= 0 {
				f(n.extraIDs[i], w, j)
			}
		}
		at = end + 1
	}
	// Keys with files in the overlay only (defined since the last merge).
	p := &ix.defines
	for k, h := range p.head {
		if h == 0 || int(k)+1 < len(p.off) && p.off[k+1] > p.off[k] {
			continue
		}
		lower := []byte(strings.ToLower(ix.words.str(uint32(k))))
		if i := bytes.Index(lower, needle); i >= 0 {
			f(uint32(k), lower, i)
		}
	}
}

// appendNameID appends id in nameIDLen bytes, 7 bits each, top bit set.
func appendNameID(b []byte, id uint32) []byte {
	for i := range nameIDLen {
		b = append(b, 0x80|byte(id>>(7*i))&0x7f)
	}
	return b
}

// nameID reads an id appendNameID wrote at the start of b.
func nameID(b []byte) uint32 {
	var id uint32
	for i := range nameIDLen {
		id |= uint32(b[i]&0x7f) << (7 * i)
	}
	return id
}

// namePair is the group of a name in lower case.
func namePair(lower []byte) int {
	if len(lower) < 2 {
		return int(lower[0]) << 8
	}
	return int(lower[0])<<8 | int(lower[1])
}

// build makes the text from the base of ix.defines: the size of each
// group first, then each name in its place.
func (n *defNames) build(ix *Index) {
	p := &ix.defines
	strs := ix.words.view()
	n.off = p.off
	n.in = make([]uint64, (len(p.off)+63)/64)
	n.extra, n.extraIDs = nil, nil
	n.keys = 0
	n.pairAt = make([]uint32, 1<<16+1)
	var lower []byte
	for k := 0; k+1 < len(p.off); k++ {
		if p.off[k+1] == p.off[k] {
			continue
		}
		lower = appendLower(lower[:0], strs.str(uint32(k)))
		if len(lower) == 0 {
			// Found by no piece (a piece is never empty).
			continue
		}
		n.pairAt[namePair(lower)+1] += uint32(nameIDLen + len(lower) + 1)
	}
	for i := 1; i < len(n.pairAt); i++ {
		n.pairAt[i] += n.pairAt[i-1]
	}
	n.text = make([]byte, n.pairAt[1<<16])
	next := slices.Clone(n.pairAt[:1<<16])
	for k := 0; k+1 < len(p.off); k++ {
		if p.off[k+1] == p.off[k] {
			continue
		}
		n.mark(k)
		lower = appendLower(lower[:0], strs.str(uint32(k)))
		if len(lower) == 0 {
			continue
		}
		pair := namePair(lower)
		w := appendNameID(n.text[next[pair]:next[pair]], uint32(k))
		w = append(w, lower...)
		w = append(w, 0)
		next[pair] += uint32(len(w))
		n.keys++
	}
}

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// decodeDefsOf decodes the definitions of raw whose last segment is one
// of keys (sorted), or with byName, whose name is.
func decodeDefsOf(strs *strTable, raw []byte, keys []uint32, byName bool) []outline.Definition {
	var defs []outline.Definition
	walkDefs(raw, uint64(strs.len()), func(name uint32, k byte, line, before, after uint64, qs []uint32) {
		last := name
		if len(qs) > 0 {
			last = qs[len(qs)-1]
		}
		_, ok := slices.BinarySearch(keys, last)
		if !ok && byName {
			_, ok = slices.BinarySearch(keys, name)
		}
		if !ok {
			return
		}
		var quals []string
		if len(qs) > 0 {
			quals = make([]string, len(qs))
			for i, q := range qs {
				quals[i] = strs.str(q)
			}
		}
		defs = append(defs, outline.Definition{
			Name: strs.str(name), Kind: grammar.Kind(k &^ declBit), Decl: k&declBit != 0,
			Line: int(line), Start: int(line - before), End: int(line + after),
			Qualified: quals,
		})
	})
	return defs
}

// defLines gives fallback definitions their line text, reading each file
// once, and passes over those whose file does not contain the needle in
// any case (as Symbols does).
type defLines struct {
	root   *Root
	sc     *project.Scratch
	needle []byte
	ents   map[string]project.Entry
	read   map[string]*defLinesFile
}

type defLinesFile struct {
	ok    bool
	lines *lineIndex
}

func newDefLines(root *Root, sc *project.Scratch, needle []byte) *defLines {
	return &defLines{root: root, sc: sc, needle: needle, ents: map[string]project.Entry{}, read: map[string]*defLinesFile{}}
}

// fill appends defs to out, with their text, until out holds more than
// limit.
func (l *defLines) fill(ctx context.Context, out, defs []Def, limit int) ([]Def, error) {
	for _, d := range defs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if limit >= 0 && len(out) > limit {
			break
		}
		f := l.read[d.Path]
		if f == nil {
			f = &defLinesFile{}
			l.read[d.Path] = f
			if data, err := l.root.Contents(l.ents[d.Path], l.sc); err == nil && containsFold(data, l.needle) {
				f.ok, f.lines = true, newLineIndex(slices.Clone(data))
			}
		}
		if f.ok {
			d.Text = f.lines.text(d.Line)
			out = append(out, d)
		}
	}
	return out, nil
}

// allParsed reports whether every file's definitions are known. Once
// they are, calls learn it without a look at every record until the
// index changes.
func (ix *Index) allParsed() bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.allParsedLocked()
}

// allParsedLocked is allParsed for a caller holding ix.mu.
func (ix *Index) allParsedLocked() bool {
	if ix.parsedGen.Load() == ix.gen+1 {
		return true
	}
	for _, r := range ix.files {
		if r != nil && !r.dead && !r.parsed && !r.failed {
			return false
		}
	}
	ix.parsedGen.Store(ix.gen + 1)
	return true
}

func fillText(defs []Def, data []byte) {
	lines := newLineIndex(data)
	for i := range defs {
		defs[i].Text = lines.text(defs[i].Line)
	}
}
