package search

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/watch"
	"github.com/zumba-dev/zumba/outline"
)

// maxIndexedWord is the longest word the word index keeps: longer runs
// are mostly encoded data, and a query naming one scans the files instead.
const maxIndexedWord = 64

// indexedWord reports whether the word index keeps w: not too long, and
// not a number (numbers are a large share of a project's distinct words
// and rarely asked for; a query naming one scans the files instead).
func indexedWord(w []byte) bool {
	return len(w) <= maxIndexedWord && !('0' <= w[0] && w[0] <= '9')
}

// IndexOptions tune an Index.
type IndexOptions struct {
	// CacheFile is the disk cache file: "" for the usual place under the
	// user's cache folder (see [CacheDir]), "-" for no disk cache.
	CacheFile string
	// NoWatch makes the index sweep (stat every file) before each answer
	// instead of watching the project; tests use it for the fallback.
	NoWatch bool
	// SyncTimeout bounds how long each answer waits for the watcher to
	// catch up before it sweeps instead; 0 is watch.DefaultSyncTimeout.
	SyncTimeout time.Duration
	// Log receives progress lines; nil discards them.
	Log func(format string, args ...any)
	// SymbolTimeLimit bounds a find_symbol call; zero is the root's
	// limit (see [Root.SymbolTimeLimit]).
	SymbolTimeLimit time.Duration
}

// Index is a project's word index (identifier → files holding it) and
// symbol index (the definitions of every file), built in the background
// and brought up to date before every answer, so that answers reflect the
// files at the moment of the call. Until a part is built, the tools it
// serves search the files directly, as without an index.
//
// Files are watched (see [watch.Watcher]); where watching is unavailable or has
// lost events, every file's stat is compared with the index instead (see
// Index.sweep). Per-file records are kept in a [DiskCache] so that a restart
// costs one walk plus reading the cache.
//
// An Index is safe for concurrent use.
type Index struct {
	root  *Root
	opts  IndexOptions
	logf  func(format string, args ...any)
	rules *ignoreRules

	cache   *DiskCache     // nil: none
	watcher *watch.Watcher // nil: sweep before each answer

	wordsReady, symbolsReady atomic.Bool
	started                  atomic.Bool
	// holdSymbols, when set, holds the build after the word index until
	// it is closed (tests).
	holdSymbols chan struct{}
	ready       chan struct{} // closed when the build ends, whatever its outcome
	// symbolsDone is closed when the symbol index is complete.
	symbolsDone chan struct{}
	stop        context.CancelFunc
	// loops are the goroutines the build leaves running (the save loop);
	// Close waits for them.
	loops sync.WaitGroup

	// syncMu serialises bringing the index up to date.
	syncMu sync.Mutex

	mu    sync.RWMutex
	files map[string]*fileRec
	// words interns every word and name segment; wordStrs maps back.
	words    map[string]uint32
	wordStrs []string
	// postings lists, per word id, the slots of the files holding the
	// word. A replaced or removed file's record stays in its slot, marked
	// dead, until compact drops it from the lists.
	postings [][]uint32
	// slots holds every record made; a new record takes a new slot.
	slots []*fileRec
	// defines lists, per name, the slots of files defining it (by last
	// segment and by whole name).
	defines map[string][]uint32
	dead    int // dead entries in postings and defines
	// failed counts live records of files that could not be read.
	failed int
	// cacheIDs maps the disk cache's string ids to word ids plus one.
	cacheIDs []uint32
}

// fileRec is what the index knows of one file.
type fileRec struct {
	path string
	slot uint32
	st   FileStat
	// ref is when the file was read (Unix ns), for the racy rule.
	ref int64
	// parsed: defs are known (a file without a grammar has none).
	parsed bool
	// defs are the file's definitions, without their Path, their strings
	// interned.
	defs []outline.Definition
	dead bool
	// failed: the file could not be read (ErrUnreadable); nothing is
	// known of it, it is not in the disk cache, and the next sync reads it
	// again.
	failed bool
	// wids are the file's words from the word pass, kept until the symbol
	// pass puts its record in the disk cache.
	wids []uint32
}

// NewIndex returns the index of the project root; Build fills it.
func NewIndex(root *Root, opts IndexOptions) *Index {
	logf := opts.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &Index{
		root:        root,
		opts:        opts,
		logf:        logf,
		rules:       &ignoreRules{root: root},
		ready:       make(chan struct{}),
		symbolsDone: make(chan struct{}),
		stop:        func() {},
		files:       map[string]*fileRec{},
		words:       map[string]uint32{},
		defines:     map[string][]uint32{},
	}
}

// Start builds the index in the background; Close stops it.
func (ix *Index) Start(ctx context.Context) {
	ctx, ix.stop = context.WithCancel(ctx)
	ix.started.Store(true)
	go ix.Build(ctx)
}

// Ready is closed once the build has ended.
func (ix *Index) Ready() <-chan struct{} { return ix.ready }

// Close stops the build and the watcher, and saves the disk cache.
func (ix *Index) Close() {
	ix.stop()
	if ix.started.Load() {
		<-ix.ready
	}
	ix.loops.Wait()
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	if ix.watcher != nil {
		ix.watcher.Close()
		ix.watcher = nil
	}
	ix.save()
}

func (ix *Index) save() {
	if ix.cache == nil {
		return
	}
	if err := ix.cache.Save(); err != nil {
		ix.logf("%v", err)
	}
}

// Build walks the project and fills the index: the word index first, then
// the symbols of every file not found in the disk cache, parsed over all
// cores. It starts the watcher before the walk, so that no change made
// during the build is missed.
func (ix *Index) Build(ctx context.Context) {
	defer close(ix.ready)
	start := time.Now()
	if !ix.opts.NoWatch {
		w, err := watch.Start(ix.root.Real, watch.Options{Skip: ix.rules.dirIgnored, SyncTimeout: ix.opts.SyncTimeout})
		if err != nil {
			ix.logf("watching failed, sweeping before each answer instead: %v", err)
		} else {
			ix.watcher = w
		}
	}
	switch ix.opts.CacheFile {
	case "-":
	case "":
		c, err := LoadDiskCache(ix.root.Real)
		if err != nil {
			ix.logf("no disk cache: %v", err)
		} else {
			ix.cache = c
		}
	default:
		ix.cache = OpenDiskCache(ix.opts.CacheFile, ix.root.Real, BuildProducer())
	}
	if ix.cache != nil {
		if err := ix.cache.Discarded(); err != nil {
			ix.logf("%v", err)
		}
	}
	files, links, err := ix.root.WalkLinks(ctx)
	if err != nil {
		return
	}
	if ix.watcher != nil {
		ix.watcher.SetLinks(links)
	}
	recs := make([]*fileRec, len(files))
	var fromCache atomic.Int64
	parallel(ctx, len(files), func(i int, sc *Scratch) {
		r, cached := ix.load(ctx, files[i], sc, false)
		if cached {
			fromCache.Add(1)
		}
		recs[i] = r
	})
	if ctx.Err() != nil {
		return
	}
	ix.wordsReady.Store(true)
	ix.logf("word pass done: %d files in %d ms", len(files), time.Since(start).Milliseconds())
	if ix.holdSymbols != nil {
		select {
		case <-ix.holdSymbols:
		case <-ctx.Done():
			return
		}
	}
	parallel(ctx, len(recs), func(i int, sc *Scratch) {
		r := recs[i]
		if r == nil || r.parsed {
			return
		}
		ix.mu.RLock()
		current := ix.files[r.path] == r
		ix.mu.RUnlock()
		if !current {
			return
		}
		ix.parseInto(ctx, r, files[i], sc)
	})
	if ctx.Err() != nil {
		return
	}
	ix.mu.Lock()
	ix.compactLocked()
	ix.mu.Unlock()
	ix.symbolsReady.Store(true)
	close(ix.symbolsDone)
	ix.logf("index complete: %d files (%d from cache) in %d ms", len(files), fromCache.Load(), time.Since(start).Milliseconds())
	if ix.cache != nil {
		inWalk := make(map[string]bool, len(files))
		for _, e := range files {
			inWalk[e.Path] = true
		}
		ix.cache.Prune(func(rel string) bool { return inWalk[rel] })
		ix.loops.Add(1)
		go func() {
			defer ix.loops.Done()
			ix.saveLoop(ctx)
		}()
	}
}

// saveLoop saves the disk cache now, then at most every 30 seconds while
// it changes, so that a server killed without warning loses little.
func (ix *Index) saveLoop(ctx context.Context) {
	t := time.NewTicker(30 * time.Second)
	defer t.Stop()
	for {
		ix.save()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// parallel runs work on items 0..n-1 over all cores, one scratch buffer
// and one parser per worker.
func parallel(ctx context.Context, n int, work func(i int, sc *Scratch)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := &Scratch{}
			defer sc.Close()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				work(i, sc)
			}
		}()
	}
	wg.Wait()
}

// load brings the file e into the index: from the disk cache when its
// record is current, else read from disk (and parsed too when parse is
// set or the file has no grammar). It reports whether the cache served it.
func (ix *Index) load(ctx context.Context, e Entry, sc *Scratch, parse bool) (*fileRec, bool) {
	st := e.Stat()
	if ix.cache != nil && !parse {
		if defs, ids, ok := ix.cache.LookupIDs(e.Path, st); ok {
			// The cache's strings are shared already: not interned.
			r := &fileRec{path: e.Path, st: st, parsed: true, defs: defs}
			ix.mu.Lock()
			wids := make([]uint32, len(ids))
			for i, id := range ids {
				wids[i] = ix.cacheWordLocked(id)
			}
			ix.installLocked(r, wids)
			ix.mu.Unlock()
			return r, true
		}
	}
	r := &fileRec{path: e.Path, st: st, ref: time.Now().UnixNano()}
	var wids []uint32
	lang := grammar.ForPath(e.Path, nil)
	data, err := ix.root.Contents(e, sc)
	if errors.Is(err, ErrUnreadable) {
		r.failed, r.parsed = true, true
		ix.mu.Lock()
		ix.installLocked(r, nil)
		ix.failed++
		ix.mu.Unlock()
		return r, false
	}
	if err == nil {
		wids = ix.wordIDs(data)
		if lang == nil && !strings.Contains(pathBase(e.Path), ".") {
			lang = grammar.ForPath(e.Path, data[:min(len(data), binaryPrefix)])
		}
	}
	if err != nil || lang == nil {
		r.parsed = true
	} else if parse {
		r.parsed = true
		r.defs = parseDefinitions(ctx, lang, data)
		if ctx.Err() != nil {
			// Stopped, not failed: the file is left to the next sync.
			return nil, false
		}
	}
	ix.mu.Lock()
	ix.internDefsLocked(r.defs)
	ix.installLocked(r, wids)
	var words []string
	if ix.cache != nil && r.parsed {
		words = ix.stringsLocked(wids)
	} else if ix.cache != nil {
		r.wids = wids
	}
	ix.mu.Unlock()
	if ix.cache != nil && r.parsed {
		ix.cache.Put(e.Path, st, CacheRecord{Definitions: r.defs, Words: words})
	}
	return r, false
}

// parseInto adds the symbols of the file e to its record r, made by the
// word pass, unless a newer record replaced it meanwhile.
func (ix *Index) parseInto(ctx context.Context, r *fileRec, e Entry, sc *Scratch) {
	// The disk cache must not get this read under the stat of the first:
	// a file changed since is left to the watcher or the sweep.
	fi, err := ix.root.stat(e.Path)
	if err != nil || StatOf(fi) != r.st {
		return
	}
	data, err := ix.root.Contents(e, sc)
	if errors.Is(err, ErrUnreadable) {
		ix.mu.Lock()
		if !r.dead && !r.parsed && !r.failed {
			r.failed = true
			ix.failed++
		}
		ix.mu.Unlock()
		return
	}
	if err != nil {
		return
	}
	lang := grammar.ForPath(e.Path, data[:min(len(data), binaryPrefix)])
	if lang == nil {
		return
	}
	defs := parseDefinitions(ctx, lang, data)
	if ctx.Err() != nil {
		return
	}
	ix.mu.Lock()
	if r.dead || r.parsed {
		ix.mu.Unlock()
		return
	}
	ix.internDefsLocked(defs)
	r.defs, r.parsed = defs, true
	ix.addDefinesLocked(r)
	words := ix.stringsLocked(r.wids)
	r.wids = nil
	ix.mu.Unlock()
	if ix.cache != nil {
		ix.cache.Put(e.Path, r.st, CacheRecord{Definitions: defs, Words: words})
	}
}

// parseDefinitions outlines a file for the index; the parse tree is not
// kept.
func parseDefinitions(ctx context.Context, lang *grammar.Language, data []byte) []outline.Definition {
	o, err := outline.Parse(ctx, lang, data)
	if err != nil {
		return nil
	}
	return o.Definitions("")
}

func (ix *Index) internDefsLocked(defs []outline.Definition) {
	for i := range defs {
		d := &defs[i]
		d.Name = ix.internLocked(d.Name)
		for k, g := range d.Qualified {
			d.Qualified[k] = ix.internLocked(g)
		}
	}
}

func (ix *Index) idLocked(w string) uint32 {
	if id, ok := ix.words[w]; ok {
		return id
	}
	id := uint32(len(ix.wordStrs))
	ix.words[w] = id
	ix.wordStrs = append(ix.wordStrs, w)
	ix.postings = append(ix.postings, nil)
	return id
}

func (ix *Index) internLocked(s string) string {
	return ix.wordStrs[ix.idLocked(s)]
}

func (ix *Index) cacheWordLocked(id uint32) uint32 {
	if int(id) < len(ix.cacheIDs) && ix.cacheIDs[id] != 0 {
		return ix.cacheIDs[id] - 1
	}
	wid := ix.idLocked(ix.cache.Word(id))
	if int(id) >= len(ix.cacheIDs) {
		ix.cacheIDs = append(ix.cacheIDs, make([]uint32, int(id)+1-len(ix.cacheIDs))...)
	}
	ix.cacheIDs[id] = wid + 1
	return wid
}

// installLocked makes r the file's record, with the words wids.
func (ix *Index) installLocked(r *fileRec, wids []uint32) {
	if old := ix.files[r.path]; old != nil {
		ix.killLocked(old)
	}
	ix.files[r.path] = r
	r.slot = uint32(len(ix.slots))
	ix.slots = append(ix.slots, r)
	for _, id := range wids {
		ix.postings[id] = append(ix.postings[id], r.slot)
	}
	ix.addDefinesLocked(r)
}

func (ix *Index) addDefinesLocked(r *fileRec) {
	var last string
	for i := range r.defs {
		d := &r.defs[i]
		seg := d.LastSegment()
		for _, k := range [2]string{seg, d.Name} {
			list := ix.defines[k]
			if k == last || (len(list) > 0 && list[len(list)-1] == r.slot) {
				continue
			}
			ix.defines[k] = append(list, r.slot)
		}
		last = seg
	}
}

// killLocked marks r as no longer the file's record.
func (ix *Index) killLocked(r *fileRec) {
	if r.dead {
		return
	}
	r.dead = true
	ix.dead++
	if r.failed {
		ix.failed--
	}
	if ix.files[r.path] == r {
		delete(ix.files, r.path)
	}
	if ix.dead > 1<<16 && ix.dead > len(ix.files) {
		ix.compactLocked()
	}
}

// compactLocked drops dead records from the lists.
func (ix *Index) compactLocked() {
	for i, l := range ix.postings {
		l = slices.DeleteFunc(l, func(slot uint32) bool { return ix.slots[slot].dead })
		if cap(l)-len(l) > 4 {
			// append's headroom is up to half the list.
			l = slices.Clone(l)
		}
		ix.postings[i] = l
	}
	for k, l := range ix.defines {
		if l = slices.DeleteFunc(l, func(slot uint32) bool { return ix.slots[slot].dead }); len(l) == 0 {
			delete(ix.defines, k)
		} else {
			ix.defines[k] = l
		}
	}
	for i, r := range ix.slots {
		if r != nil && r.dead {
			ix.slots[i] = nil
		}
	}
	ix.dead = 0
}

// wordScratch is one worker's state for listing a file's words.
type wordScratch struct {
	// mark[id] == gen: word id already listed for this file.
	mark    []uint32
	gen     uint32
	unknown map[string]struct{}
}

var wordScratches = sync.Pool{New: func() any { return &wordScratch{unknown: map[string]struct{}{}} }}

// wordIDs lists the distinct words of data (runs of IsWordRune
// characters, as WordScanner bounds them) of at most maxIndexedWord bytes,
// as word ids. Known words are looked up without allocating; only words
// new to the index are copied.
func (ix *Index) wordIDs(data []byte) []uint32 {
	ws := wordScratches.Get().(*wordScratch)
	defer wordScratches.Put(ws)
	ws.gen++
	if ws.gen == 0 {
		clear(ws.mark)
		ws.gen = 1
	}
	clear(ws.unknown)
	var ids []uint32
	ix.mu.RLock()
	if n := len(ix.wordStrs); len(ws.mark) < n {
		ws.mark = append(ws.mark, make([]uint32, n-len(ws.mark)+n/4)...)
	}
	forWords(data, func(w []byte) {
		if !indexedWord(w) {
			return
		}
		id, ok := ix.words[string(w)]
		switch {
		case !ok:
			if _, seen := ws.unknown[string(w)]; !seen {
				ws.unknown[string(w)] = struct{}{}
			}
		case ws.mark[id] != ws.gen:
			ws.mark[id] = ws.gen
			ids = append(ids, id)
		}
	})
	ix.mu.RUnlock()
	if len(ws.unknown) > 0 {
		ix.mu.Lock()
		for w := range ws.unknown {
			// Another worker may have added it meanwhile, and listed
			// it for this file's known words never.
			ids = append(ids, ix.idLocked(w))
		}
		ix.mu.Unlock()
	}
	return ids
}

func (ix *Index) stringsLocked(ids []uint32) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = ix.wordStrs[id]
	}
	return out
}

// forWords calls f with every maximal run of word characters of data.
func forWords(data []byte, f func(w []byte)) {
	wordAt := func(i int) int {
		c := data[i]
		if c < utf8.RuneSelf {
			if c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
				return 1
			}
			return -1
		}
		r, n := utf8.DecodeRune(data[i:])
		if IsWordRune(r) {
			return n
		}
		return -n
	}
	for i := 0; i < len(data); {
		n := wordAt(i)
		if n < 0 {
			i -= n
			continue
		}
		j := i + n
		for j < len(data) {
			m := wordAt(j)
			if m < 0 {
				break
			}
			j += m
		}
		f(data[i:j])
		i = j
	}
}

// ignoreRules answers whether a single path is covered, as the walk would
// decide, from the ignore files of its folders. Safe for concurrent use.
type ignoreRules struct {
	root   *Root
	mu     sync.Mutex
	stacks map[string]*dirRules
}

type dirRules struct {
	stack   *ignoreStack
	ignored bool
}

// reset forgets the rules read, after an ignore file changed.
func (ir *ignoreRules) reset() {
	ir.mu.Lock()
	ir.stacks = nil
	ir.mu.Unlock()
}

// dirLocked returns the rules that apply inside the folder rel, and
// whether the walk skips the folder.
func (ir *ignoreRules) dirLocked(rel string) *dirRules {
	if ir.stacks == nil {
		ir.stacks = map[string]*dirRules{}
	}
	if d := ir.stacks[rel]; d != nil {
		return d
	}
	var d *dirRules
	if rel == "." {
		base := (*ignoreStack)(nil).push(ir.root.readIgnore(".git/info/exclude", ""))
		d = &dirRules{stack: base.push(ir.root.readIgnore(".gitignore", "."))}
	} else {
		parent, name := ".", rel
		if i := strings.LastIndexByte(rel, '/'); i >= 0 {
			parent, name = rel[:i], rel[i+1:]
		}
		p := ir.dirLocked(parent)
		switch {
		case p.ignored || name == ".git" || p.stack.ignored(rel, true):
			d = &dirRules{ignored: true}
		default:
			d = &dirRules{stack: p.stack.push(ir.root.readIgnore(rel+"/.gitignore", rel))}
		}
	}
	ir.stacks[rel] = d
	return d
}

// dirIgnored reports whether the walk skips the folder rel.
func (ir *ignoreRules) dirIgnored(rel string) bool {
	ir.mu.Lock()
	defer ir.mu.Unlock()
	return ir.dirLocked(rel).ignored
}

// fileCovered reports whether the rules let the walk list the file rel.
func (ir *ignoreRules) fileCovered(rel string) bool {
	dir, name := ".", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir, name = rel[:i], rel[i+1:]
	}
	if name == ".git" {
		return false
	}
	ir.mu.Lock()
	defer ir.mu.Unlock()
	d := ir.dirLocked(dir)
	return !d.ignored && !d.stack.ignored(rel, false)
}

// sync brings the index up to date with the files as they are now: the
// paths the watcher reports are re-read, or, when it may have missed
// events (or there is no watcher), every file's stat is compared.
func (ix *Index) sync(ctx context.Context) error {
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	if ix.watcher == nil {
		return ix.sweep(ctx, true)
	}
	ch := ix.watcher.Changes(ctx)
	switch {
	case ch.IgnoreChanged:
		ix.rules.reset()
		if err := ix.watcher.Resync(); err != nil {
			ix.logf("watch: %v", err)
		}
		return ix.sweep(ctx, false)
	case ch.Rescan:
		return ix.sweep(ctx, false)
	}
	paths := ch.Paths
	ix.mu.RLock()
	if ix.failed > 0 {
		// Files that could not be read are tried again at every call.
		for p, r := range ix.files {
			if r.failed {
				paths = append(paths, p)
			}
		}
	}
	ix.mu.RUnlock()
	if len(paths) == 0 {
		return nil
	}
	var read []Entry
	ix.mu.Lock()
	for _, p := range paths {
		if r := ix.files[p]; r != nil {
			// A file: nothing is indexed under it.
			ix.killLocked(r)
			continue
		}
		prefix := p + "/"
		for q, r := range ix.files {
			if strings.HasPrefix(q, prefix) {
				ix.killLocked(r)
			}
		}
	}
	ix.mu.Unlock()
	for _, p := range paths {
		fi, err := ix.root.stat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxFileSize || !ix.rules.fileCovered(p) {
			continue
		}
		read = append(read, Entry{Path: p, Size: fi.Size(), ModTime: fi.ModTime(), ID: fileID(fi), CTime: fileCTime(fi)})
	}
	ix.readAll(ctx, read)
	return ctx.Err()
}

// sweep walks the project and re-reads the files whose stat changed,
// drops those gone, and adds new ones; with racy, also the files modified
// too close to when they were read for their stat to prove them unchanged.
func (ix *Index) sweep(ctx context.Context, racy bool) error {
	files, links, err := ix.root.WalkLinks(ctx)
	if err != nil {
		return fmt.Errorf("walk %s: %w", ix.root.Dir, err)
	}
	if ix.watcher != nil {
		ix.watcher.SetLinks(links)
	}
	var read []Entry
	seen := make(map[string]bool, len(files))
	ix.mu.Lock()
	for _, e := range files {
		seen[e.Path] = true
		st := e.Stat()
		r := ix.files[e.Path]
		if r == nil || r.failed || r.st != st || (racy && r.ref != 0 && st.RacyAt(r.ref)) {
			read = append(read, e)
		}
	}
	for p, r := range ix.files {
		if !seen[p] {
			ix.killLocked(r)
		}
	}
	ix.mu.Unlock()
	ix.readAll(ctx, read)
	return ctx.Err()
}

// readAll re-reads files in parallel; once the symbol pass has begun, they
// are parsed at once.
func (ix *Index) readAll(ctx context.Context, files []Entry) {
	parse := ix.wordsReady.Load()
	parallel(ctx, len(files), func(i int, sc *Scratch) {
		ix.load(ctx, files[i], sc, parse)
	})
}

// entries lists the indexed files in path order.
func (ix *Index) entries() []Entry {
	ix.mu.RLock()
	out := make([]Entry, 0, len(ix.files))
	for _, r := range ix.files {
		out = append(out, r.entry())
	}
	ix.mu.RUnlock()
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return out
}

func (r *fileRec) entry() Entry {
	return Entry{Path: r.path, Size: r.st.Size, ModTime: time.Unix(0, r.st.MTime), ID: FileID{Ino: r.st.Inode}, CTime: r.st.CTime}
}

// References answers like [Root.References], reading only the files the
// word index names once it is built.
func (ix *Index) References(ctx context.Context, name string, filter *PathFilter) (*RefResult, error) {
	if !ix.wordsReady.Load() {
		return ix.root.References(ctx, name, filter)
	}
	name = strings.TrimSpace(name)
	if err := checkName(name); err != nil {
		return nil, err
	}
	if err := ix.sync(ctx); err != nil {
		return nil, err
	}
	files := FilterEntries(ix.candidates(name), filter)
	refs, more, err := References(ctx, files, ix.root, name, RefLimit)
	if err != nil {
		return nil, err
	}
	return &RefResult{Refs: refs, More: more}, nil
}

// candidates lists, in path order, the files that may hold name as a
// whole word: those holding every word of name. A whole-word occurrence of
// name has each of its words bounded on both sides (inside the name by its
// own punctuation, at its ends by the boundary WordScanner requires beside
// a word character: "operate(" needs one before "operate"), so each is a
// word of the file. A name without words, or with one too long to be indexed,
// needs every file.
func (ix *Index) candidates(name string) []Entry {
	var words []string
	forWords([]byte(name), func(w []byte) { words = append(words, string(w)) })
	if len(words) == 0 {
		return ix.entries()
	}
	for _, w := range words {
		if !indexedWord([]byte(w)) {
			return ix.entries()
		}
	}
	ix.mu.RLock()
	var lists [][]uint32
	for _, w := range words {
		id, ok := ix.words[w]
		if !ok {
			ix.mu.RUnlock()
			return nil
		}
		lists = append(lists, ix.postings[id])
	}
	slices.SortFunc(lists, func(a, b []uint32) int { return len(a) - len(b) })
	var out []Entry
	var in []map[uint32]bool
	for _, l := range lists[1:] {
		m := make(map[uint32]bool, len(l))
		for _, slot := range l {
			m[slot] = true
		}
		in = append(in, m)
	}
next:
	for _, slot := range lists[0] {
		r := ix.slots[slot]
		if r.dead {
			continue
		}
		for _, m := range in {
			if !m[slot] {
				continue next
			}
		}
		out = append(out, r.entry())
	}
	ix.mu.RUnlock()
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return slices.CompactFunc(out, func(a, b Entry) bool { return a.Path == b.Path })
}

// Symbols answers like [Root.Symbols]: from the symbol index once it is
// built; before, by parsing the candidate files, saying how much was
// covered (SymbolResult.Building) when the time limit cuts it short.
func (ix *Index) Symbols(ctx context.Context, q SymbolQuery) (*SymbolResult, error) {
	deadline := time.Now().Add(ix.symbolTimeLimit())
	if err := checkName(q.Name); err != nil {
		return nil, err
	}
	if !ix.symbolsReady.Load() {
		return ix.symbolsEarly(ctx, q, deadline)
	}
	if err := ix.sync(ctx); err != nil {
		return nil, err
	}
	return ix.symbols(ctx, q, q.limit())
}

func (ix *Index) symbolTimeLimit() time.Duration {
	if ix.opts.SymbolTimeLimit != 0 {
		return ix.opts.SymbolTimeLimit
	}
	return ix.root.symbolTimeLimit()
}

// symbolsEarly answers find_symbol before the symbol index is
// complete. Exact definitions are only ever in files holding the name as
// a word (the word index names them, or a scan of the files finds them):
// when those are few and hold some, they are parsed and the answer is
// complete. Otherwise parsing is left to the symbol pass, which is parsing
// every file already: the call waits for it until the time limit, then
// answers from the files parsed so far, saying how many.
func (ix *Index) symbolsEarly(ctx context.Context, q SymbolQuery, deadline time.Time) (*SymbolResult, error) {
	var files, cands []Entry
	if ix.wordsReady.Load() {
		if err := ix.sync(ctx); err != nil {
			return nil, err
		}
		files = ix.entries()
		cands = ix.candidates(string(q.needle))
	} else {
		var err error
		if files, err = ix.root.Walk(ctx); err != nil {
			return nil, fmt.Errorf("walk %s: %w", ix.root.Dir, err)
		}
		cands = ix.scanCandidates(ctx, files, string(q.needle))
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if len(cands) <= maxCandidates {
		res, err := Symbols(ctx, cands, ix.root, q, q.limit(), deadline)
		if err != nil {
			return nil, err
		}
		if !res.Fuzzy && len(res.Defs) > 0 && res.Searched == res.Files {
			res.Searched, res.Files = len(files), len(files)
			return res, nil
		}
	}
	ended := false
	select {
	case <-ix.symbolsDone:
	case <-ix.ready:
		ended = true
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(time.Until(deadline)):
	}
	if ix.symbolsReady.Load() {
		return ix.Symbols(ctx, q)
	}
	var res *SymbolResult
	var err error
	searched := 0
	if ended {
		// The build stopped short: the files themselves, as without an
		// index.
		res, err = Symbols(ctx, files, ix.root, q, q.limit(), time.Now().Add(ix.symbolTimeLimit()))
		if err != nil {
			return nil, err
		}
		searched = res.Searched
	} else {
		if res, err = ix.symbols(ctx, q, q.limit()); err != nil {
			return nil, err
		}
		searched, _ = ix.parsedFiles()
		res.Searched, res.Files = len(files), len(files)
	}
	res.Building, res.Indexed = true, searched
	return res, nil
}

// scanCandidates lists the files holding word as a whole word, reading
// them all.
func (ix *Index) scanCandidates(ctx context.Context, files []Entry, word string) []Entry {
	sc := NewWordScanner(word)
	hit := make([]bool, len(files))
	parallel(ctx, len(files), func(i int, scr *Scratch) {
		if data, err := ix.root.Contents(files[i], scr); err == nil && sc.Contains(data) {
			hit[i] = true
		}
	})
	var out []Entry
	for i, h := range hit {
		if h {
			out = append(out, files[i])
		}
	}
	return out
}

// maxCandidates is how many files find_symbol parses itself, before the
// symbol index is complete, for a name with definitions.
const maxCandidates = 256

// parsedFiles counts the files whose symbols the index holds.
func (ix *Index) parsedFiles() (parsed, total int) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	for _, r := range ix.files {
		if r.parsed {
			parsed++
		}
	}
	return parsed, len(ix.files)
}

// symbols answers q from the symbol index, as Symbols would from the
// files: exact definitions in path and line order, else those whose names
// contain q, best first.
func (ix *Index) symbols(ctx context.Context, q SymbolQuery, limit int) (*SymbolResult, error) {
	type cand struct {
		r    *fileRec
		defs []Def
	}
	last := q.Parts[len(q.Parts)-1]
	ix.mu.RLock()
	n := len(ix.files)
	var exact []cand
	seen := map[*fileRec]bool{}
	for _, k := range [2]string{last, q.Name} {
		for _, slot := range ix.defines[k] {
			r := ix.slots[slot]
			if r.dead || seen[r] {
				continue
			}
			seen[r] = true
			c := cand{r: r}
			test := grammar.IsTestFile(r.path)
			for _, d := range r.defs {
				d.Path = r.path
				if q.exact(&d) {
					c.defs = append(c.defs, Def{Definition: d, rank: q.foldText(&d), exact: true, test: test})
				}
			}
			if len(c.defs) > 0 {
				exact = append(exact, c)
			}
		}
	}
	ix.mu.RUnlock()
	slices.SortFunc(exact, func(a, b cand) int { return compareFiles(a.r.path, b.r.path) })
	res := &SymbolResult{Searched: n, Files: n}
	word := NewWordScanner(string(q.needle))
	sc := &Scratch{}
	defer sc.Close()
	var defs []Def
	for _, c := range exact {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// As Symbols does, a file where the name is never a whole word
		// where a definition could name it is not searched.
		data, err := ix.root.Contents(c.r.entry(), sc)
		if err != nil {
			continue
		}
		lang := grammar.ForPath(c.r.path, data[:min(len(data), binaryPrefix)])
		if lang == nil || !definitionWord(word, lang, data) {
			continue
		}
		fillText(c.defs, data)
		defs = append(defs, c.defs...)
		if limit >= 0 && len(defs) > limit {
			break
		}
	}
	if len(defs) == 0 {
		defs = ix.fuzzy(ctx, q, limit, sc)
		res.Fuzzy = len(defs) > 0
	}
	defs = implFirst(defs)
	if limit >= 0 && len(defs) > limit {
		defs, res.More = defs[:limit], true
	}
	res.Defs = defs
	return res, ctx.Err()
}

// fuzzy lists the definitions whose names contain q, ignoring case, best
// first, up to one past limit. As Symbols does, it passes over files that
// do not contain the query's needle in any case.
func (ix *Index) fuzzy(ctx context.Context, q SymbolQuery, limit int, sc *Scratch) []Def {
	var defs []Def
	ents := map[string]Entry{}
	ix.mu.RLock()
	for _, r := range ix.files {
		test, known := false, false
		for _, d := range r.defs {
			d.Path = r.path
			if rank := q.foldText(&d); strings.Contains(strings.ToLower(rank), q.fold) {
				if !known {
					test, known = grammar.IsTestFile(r.path), true
				}
				defs = append(defs, Def{Definition: d, rank: rank, test: test})
				ents[r.path] = r.entry()
			}
		}
	}
	ix.mu.RUnlock()
	sortFuzzy(defs, q)
	// Before the cut, as Symbols does.
	defs = implFirst(defs)
	type file struct {
		ok     bool
		data   []byte
		starts []int
	}
	files := map[string]*file{}
	out := defs[:0]
	for _, d := range defs {
		if limit >= 0 && len(out) > limit || ctx.Err() != nil {
			break
		}
		f := files[d.Path]
		if f == nil {
			f = &file{}
			files[d.Path] = f
			if data, err := ix.root.Contents(ents[d.Path], sc); err == nil && containsFold(data, q.foldNeedle) {
				f.ok, f.data = true, slices.Clone(data)
				f.starts = lineStarts(f.data)
			}
		}
		if f.ok {
			d.Text = lineText(f.data, f.starts, d.Line)
			out = append(out, d)
		}
	}
	return out
}

func fillText(defs []Def, data []byte) {
	starts := lineStarts(data)
	for i := range defs {
		defs[i].Text = lineText(data, starts, defs[i].Line)
	}
}

// lineText is the 1-based line of data as find_symbol shows it.
func lineText(data []byte, starts []int, line int) string {
	if line-1 >= len(starts) || line < 1 {
		return ""
	}
	s := starts[line-1]
	end := len(data)
	if line < len(starts) {
		end = starts[line] - 1
	}
	return showLine(data[s:end], -1, -1)
}

// Progress says how far the build has got: whether the word index and the
// symbol index are complete, and how many files are indexed.
func (ix *Index) Progress() (words, symbols bool, files int) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.wordsReady.Load(), ix.symbolsReady.Load(), len(ix.files)
}
