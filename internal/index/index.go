package index

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
	"unique"

	"github.com/zumba-dev/zumba/internal/cmem"
	"github.com/zumba-dev/zumba/internal/diskcache"
	"github.com/zumba-dev/zumba/internal/filestat"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/internal/watch"
)

// MaxIndexedWord is the longest word the word index keeps: longer runs
// are mostly encoded data, and a query naming one scans the files instead.
const MaxIndexedWord = 64

// IndexedWord reports whether the word index keeps w: not too long, and
// not a number (numbers are a large share of a project's distinct words
// and rarely asked for; a query naming one scans the files instead).
func IndexedWord(w []byte) bool {
	return len(w) <= MaxIndexedWord && !('0' <= w[0] && w[0] <= '9')
}

// Options tune an Index.
type Options struct {
	// CacheFile is the project's disk cache file: "" for the usual place
	// under the user's cache folder (see [diskcache.Dir]), "-" for no
	// disk cache.
	CacheFile string
	// StoreDir is the folder of the disk cache's store of records by
	// content (see [diskcache.Store]): "" for the usual place under the
	// user's cache folder with the usual CacheFile, else a folder
	// "store" beside CacheFile's folder.
	StoreDir string
	// StoreLimit is the store's size limit in bytes; 0 is
	// diskcache.DefaultStoreLimit.
	StoreLimit int64
	// NoWatch makes the index sweep (stat every file) before each answer
	// instead of watching the project; tests use it for the fallback.
	NoWatch bool
	// SyncTimeout bounds how long each answer waits for the watcher to
	// catch up before it sweeps instead; 0 is watch.DefaultSyncTimeout.
	SyncTimeout time.Duration
	// Log receives progress lines; nil discards them.
	Log func(format string, args ...any)
	// Memory is the runtime's memory policy while the index lives.
	Memory MemoryPolicy
	// Shared is what the index shares with the other indexes of the
	// process; nil: the index has its own.
	Shared *Shared
}

// Index is the index proper: it stores, shares, saves and syncs each
// file's words and records (one per kind the searches hand it) and their
// postings, and answers narrow questions (the files holding a word or a
// key, a file's records, freshness). It knows no search.
type Index struct {
	proj  *project.Root
	opts  Options
	Logf  func(format string, args ...any)
	Rules *project.Rules

	cacheFile string           // "": none
	store     *diskcache.Store // nil: none
	Watcher   *watch.Watcher   // nil: sweep before each answer

	WordsReady, symbolsReady atomic.Bool
	Started                  atomic.Bool
	// HoldSymbols, when set, holds the build after the word index until
	// it is closed (tests).
	HoldSymbols chan struct{}
	// HoldWords, when set, holds the word pass before its file
	// holdWordsAt until it is closed (tests).
	HoldWords   chan struct{}
	HoldWordsAt int
	ready       chan struct{} // closed when the build ends, whatever its outcome
	// stops cancel the contexts of the build and what it started.
	stopMu sync.Mutex
	stops  []context.CancelFunc
	closed bool
	// loops are the goroutines the build leaves running (the save loop,
	// the background parser); Close waits for them.
	loops sync.WaitGroup
	// busy counts the calls being answered: background work waits while
	// there is one.
	busy atomic.Int32
	// late counts the calls being answered past their deadline (see
	// CallUntil), which the build's workers wait for.
	late atomic.Int32
	// cores says how many background parse workers may run.
	cores coreGate
	// parseWake tells the background parser that files need parsing.
	parseWake chan struct{}
	// Walk is the build's walk, and pass its word pass as it goes, for
	// calls answered before the word index (index_cold.go).
	Walk buildWalk
	Pass atomic.Pointer[WordPass]
	// Ahead holds the records of files calls parsed before the index had
	// theirs (index_ahead.go).
	Ahead aheadRecs
	// WordsDone is called once the word index answers, when the build
	// drops its walk; whenComplete as the index completes, before it is
	// announced complete (the searches make what they keep of it then).
	WordsDone, WhenComplete func()
	// TierOf is the searches' rank of a file by its path and whether it
	// is generated, kept beside each record (tiers).
	TierOf func(path string, generated bool) uint8

	// syncMu serialises bringing the index up to date.
	syncMu sync.Mutex
	// saveMu serialises saves of the disk cache. A save takes its
	// snapshot under mu and encodes and writes it holding saveMu alone,
	// so a call that brings the index up to date does not wait for a
	// large project's write (taken after syncMu where both are held).
	saveMu sync.Mutex

	Mu sync.RWMutex
	// Files holds the records by id; nil for an id no record has. A
	// replaced or removed file's record stays, dead, until a merge of the
	// postings drops its id from them.
	Files []*FileRec
	// Tiers holds each id's record's tier (fileRec.tier), beside files:
	// find_references splits a common name's files by tier without
	// touching their records (on the kernel, ranking the ~20,000 files
	// of "ret" by their paths took 5 ms of a 6 ms call).
	Tiers  []uint8
	ByPath map[string]*FileRec
	Live   int
	// Words interns every word and definition name (shared with the
	// process's other indexes: see Shared); wordPost lists the files
	// holding each word.
	Words    *wordTable
	WordPost Postings
	// kinds are the kinds of records each file has (index_kind.go), and
	// kindPost[k] lists the files holding each key of kind k.
	kinds    []RecordKind
	KindPost []Postings
	// spills[k]: kind k's records are in the spill file (index_spill.go).
	spill  *spillFile
	spills []bool
	// wordBase is how many file ids the word postings' base covers:
	// every file with a lower id has its words there.
	wordBase uint32
	// deadWords and deadKind[k] count the records killed since the word
	// postings' and kind k's postings' last merge.
	deadWords int
	deadKind  []int
	// merging counts the merges under way outside the lock
	// (index_merge.go); mergeDone is signalled, under Mu, as each ends.
	merging   int
	mergeDone *sync.Cond
	// mergeAt is the overlay size past which postings are merged.
	mergeAt int
	// failed counts live records of files that could not be read.
	failed int
	// gen is bumped by every change, so that save knows what it saved;
	// imageGen is the gen of the last image (index_image.go).
	gen, savedGen, imageGen uint64
	// filesGen is bumped by every change to the files (one read, re-read
	// or removed), not by a parse: what a search learnt of the files
	// holds while it stays (see FilesGen).
	filesGen uint64
	// noImage: the index writes no image (see imageWaits).
	noImage bool
	// parsedGen is gen+1 when every file was found parsed at gen.
	parsedGen atomic.Uint64
	// Cached counts the files the disk cache served at the start.
	Cached int
}

// FileRec is what the index knows of one file.
type FileRec struct {
	Path string
	ID   uint32
	Stat filestat.Stat
	// Ref is when the file was read (Unix ns), for the racy rule; 0 for a
	// record from the disk cache, verified against the cache's time.
	Ref int64
	// Recs are the file's records, one per kind (index_kind.go), once
	// parsed is set.
	Recs records
	// Parsed: defs are known (a file without a grammar has none). A file
	// the parser gave up on (its time limit) is not parsed: the next call
	// that needs it tries again, within its own time limit.
	Parsed bool
	// Failed: the file could not be read (project.ErrUnreadable); nothing is
	// known of it, it is not saved, and the next sync reads it again.
	Failed bool
	Dead   bool
	// tried: the background parser has had its go at the file.
	tried bool
	// Generated: the file's first lines say it is generated
	// (grammar.IsGeneratedHead); it ranks last (see rank.go).
	Generated bool
	// FromStore: the record came from the disk cache's store.
	FromStore bool
	// packed: recs lie in an arena with others' (the image's, or
	// compactRecords'), not in memory of their own.
	packed bool
	// Tier ranks the file (see rank.go), known once its head is: made
	// when the record is, so that ranking a common name's thousands of
	// files matches no path against the rules (see Index.tiers).
	Tier uint8
	// Key is the store's key of the file's records (index_store.go);
	// the zero key for a file with nothing in it.
	Key diskcache.Key
	// shared holds recs when other indexes may share them (see
	// shareRecords); else the zero handle.
	shared unique.Handle[string]
}

// setTier sets r's tier (tierOf), once its path and head are known.
func (ix *Index) setTier(r *FileRec) { r.Tier = ix.TierOf(r.Path, r.Generated) }

// Entry is the file as the walk lists it, with the record's stat.
func (r *FileRec) Entry() project.Entry {
	return project.Entry{Path: r.Path, Size: r.Stat.Size, ModTime: time.Unix(0, r.Stat.MTime), ID: filestat.ID{Ino: r.Stat.Inode}, CTime: r.Stat.CTime}
}

// NewEngine returns the index engine of the project proj, keeping the
// records of kinds; Build fills it.
func NewEngine(proj *project.Root, opts Options, kinds []RecordKind) *Index {
	logf := opts.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	shared := opts.Shared
	if shared == nil {
		shared = &Shared{words: newWordTable(), spill: newSpillFile(false)}
	}
	// With other indexes (a Shared given), the postings' blocks are
	// interned as the records are; alone, an index pays nothing for it.
	many := opts.Shared != nil
	ix := &Index{
		proj:      proj,
		opts:      opts,
		Logf:      logf,
		Rules:     proj.Rules(),
		ready:     make(chan struct{}),
		parseWake: make(chan struct{}, 1),
		ByPath:    map[string]*FileRec{},
		Words:     shared.words,
		WordPost:  Postings{shared: many},
		kinds:     kinds,
		KindPost:  make([]Postings, len(kinds)),
		deadKind:  make([]int, len(kinds)),
		WordsDone: func() {},
		// Set by the searches.
		WhenComplete: func() {},
		TierOf:       func(string, bool) uint8 { return 0 },
		spill:        shared.spill,
		spills:       make([]bool, len(kinds)),
	}
	for k, kind := range kinds {
		if s, ok := kind.(SpillKind); ok && s.Spill() {
			ix.spills[k] = true
		}
	}
	for k := range ix.KindPost {
		ix.KindPost[k].shared = many
	}
	ix.mergeDone = sync.NewCond(&ix.Mu)
	ix.mergeAt = maxOverlay
	return ix
}

// Start builds the index in the background; Close stops it.
func (ix *Index) Start(ctx context.Context) {
	ix.Started.Store(true)
	go ix.Build(ctx)
}

// withStop returns ctx with a cancel that Close calls.
func (ix *Index) withStop(ctx context.Context) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	ix.stopMu.Lock()
	ix.stops = append(ix.stops, cancel)
	if ix.closed {
		cancel()
	}
	ix.stopMu.Unlock()
	return ctx
}

// Ready is closed once the build has ended: every file's words and
// definitions are in (or the build was stopped).
func (ix *Index) Ready() <-chan struct{} { return ix.ready }

// Close stops the build, the background work and the watcher, and saves
// the disk cache.
func (ix *Index) Close() {
	ix.stopMu.Lock()
	ix.closed = true
	for _, cancel := range ix.stops {
		cancel()
	}
	ix.stopMu.Unlock()
	if ix.Started.Load() {
		<-ix.ready
	}
	ix.loops.Wait()
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	if ix.Watcher != nil {
		ix.Watcher.Close()
		ix.Watcher = nil
	}
	ix.Mu.Lock()
	ix.waitMergesLocked()
	ix.Mu.Unlock()
	ix.saveMu.Lock()
	defer ix.saveMu.Unlock()
	ix.saveLocked(true)
	if ix.store != nil {
		ix.store.Release()
		ix.store = nil
	}
	if ix.opts.Shared == nil {
		ix.spill.close()
	}
}

// Build walks the project and fills the index: every file's words, from
// the disk cache where its record is current, else read; then, at low
// priority, the definitions of every file not parsed yet. It starts the
// watcher before the walk, so that no change made during the build is
// missed.
func (ix *Index) Build(ctx context.Context) {
	defer close(ix.ready)
	ctx = ix.withStop(ctx)
	start := time.Now()
	spareProc()
	ix.opts.Memory.building()
	ix.startWatch()
	ix.cacheFile = ix.cachePath()
	if !ix.wordPass(ctx, start) {
		return
	}
	if ix.HoldSymbols != nil {
		select {
		case <-ix.HoldSymbols:
		case <-ctx.Done():
			return
		}
	}
	if !ix.symbolPass(ctx, start) {
		return
	}
	if ix.cacheFile != "" {
		// Saved from now on every saveInterval while the index changes;
		// not during the background parse, where each save of a large
		// project copies the whole index at once (a heap spike that
		// made the collector stall calls for seconds on the kernel),
		// and a server stopped early loses only parsing, which the next
		// start redoes in the background.
		ix.loops.Add(1)
		go func() {
			defer ix.loops.Done()
			ix.saveLoop(ctx)
		}()
	}
	ix.loops.Add(1)
	go func() {
		defer ix.loops.Done()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ix.parseWake:
				ix.parsePending(ctx)
			}
		}
	}()
}

// startWatch starts the watcher, unless the options ask for sweeps or
// watching fails (then each answer sweeps).
func (ix *Index) startWatch() {
	if ix.opts.NoWatch {
		return
	}
	w, err := watch.Start(ix.proj.Real, watch.Options{Skip: ix.Rules.DirIgnored, SyncTimeout: ix.opts.SyncTimeout, Deferred: true})
	if err != nil {
		ix.Logf("watching failed, sweeping before each answer instead: %v", err)
		return
	}
	ix.Watcher = w
}

// cachePath is the disk cache file the options name, "" for none.
func (ix *Index) cachePath() string {
	switch ix.opts.CacheFile {
	case "-":
		return ""
	case "":
		dir, err := diskcache.Dir(ix.proj.Real)
		if err != nil {
			ix.Logf("no disk cache: %v", err)
			return ""
		}
		return filepath.Join(dir, diskcache.FileName)
	}
	return ix.opts.CacheFile
}

// storeDir is the store's folder, "" for none.
func (ix *Index) storeDir() string {
	switch {
	case ix.cacheFile == "":
		return ""
	case ix.opts.StoreDir != "":
		return ix.opts.StoreDir
	case ix.opts.CacheFile == "":
		dir, err := diskcache.StoreDir()
		if err != nil {
			return ""
		}
		return dir
	}
	return filepath.Join(filepath.Dir(filepath.Dir(ix.cacheFile)), "store")
}

// wordPass walks the project and puts every file's words in, from the
// disk cache where it holds the file as it is, else read. It reports
// whether the pass ended (neither the walk nor ctx stopped it).
func (ix *Index) wordPass(ctx context.Context, start time.Time) bool {
	// The cache is read while the project is walked: on a large project
	// each takes a second or more.
	var snap *diskcache.Snapshot
	var img *loadedImage
	loaded := make(chan struct{})
	go func() {
		defer close(loaded)
		if ix.cacheFile == "" {
			return
		}
		var err error
		if snap, err = diskcache.Load(ix.cacheFile, ix.proj.Real, CacheProducer()); err != nil {
			ix.Logf("%v", err)
		}
		if dir := ix.storeDir(); dir != "" {
			ix.store, err = diskcache.OpenShared(dir, CacheProducer(), ix.opts.StoreLimit)
			if err != nil {
				ix.Logf("%v", err)
			}
		}
		if snap != nil {
			img = ix.loadImage()
		}
	}()
	// The watcher watches each folder as the walk enters it (Deferred).
	var hook project.WalkHook
	if ix.Watcher != nil {
		hook = ix.Watcher
	}
	files, links, err := ix.proj.WalkLinksHooked(ctx, hook)
	if err != nil && ix.Watcher != nil && ctx.Err() == nil {
		// Whatever the walk did not enter, the watcher's own walk does.
		ix.Watcher.Resync()
	}
	ix.Walk.Set(files, err == nil)
	if err == nil {
		ix.Logf("walk done: %d files in %d ms", len(files), time.Since(start).Milliseconds())
	}
	<-loaded
	if err != nil {
		return false
	}
	if ix.Watcher != nil {
		ix.Watcher.SetLinks(links)
	}
	if img != nil {
		ix.readWordsImage(ctx, files, snap, img)
	} else {
		ix.readWords(ctx, files, snap)
	}
	ix.Mu.Lock()
	ix.noImage = imageWaits(snap != nil, ix.Cached, ix.Live)
	cached, live := ix.Cached, ix.Live
	ix.Mu.Unlock()
	if ix.noImage && ix.cacheFile != "" {
		ix.Logf("a new checkout (%d of %d files from the store): its image waits for its next run", cached, live)
	}
	if ix.store != nil {
		ix.store.Touch()
	}
	if ctx.Err() != nil {
		return false
	}
	ix.WordsReady.Store(true)
	ix.dropWalk()
	ix.Logf("word pass done: %d files in %d ms", len(files), time.Since(start).Milliseconds())
	// The pass's garbage (every file's word list, the entries read)
	// goes back to the system now, not at the scavenger's pace, and
	// before a save adds its own (a list of every file, encoded): on
	// top of it, the kernel's second checkout peaked ~25 MB higher.
	releaseGoHeap()
	return true
}

// longParse reports whether parsing todo files of live is long: a
// twentieth of them or more.
func longParse(todo, live int) bool { return todo > 0 && todo >= live/20 }

// symbolPass parses every file not parsed yet, at low priority, then
// makes the names' text and saves the complete index. It reports whether
// the pass ended (ctx did not stop it).
func (ix *Index) symbolPass(ctx context.Context, start time.Time) bool {
	// The parse's own target only where much is left to parse: a
	// checkout served from the store parses a handful of files, and at
	// the parse's target its heap would grow by half its live size
	// first (the kernel's second checkout peaked some 50 MiB higher).
	// And a save first, which keeps the word pass's work for a server
	// stopped during a long parse; before a short one the save at the
	// index's completion follows in a moment, and a second one would
	// only delay it (~0.15 s on the kernel's second checkout).
	todo, live := ix.pendingFiles()
	if longParse(len(todo), live) {
		ix.Save()
		ix.opts.Memory.parsing()
	} else {
		ix.opts.Memory.complete()
	}
	ix.parseFiles(ctx, todo)
	if ctx.Err() != nil {
		return false
	}
	// The calls' parses left are of files changed since.
	ix.Ahead.drop()
	// What the parse left in the C allocator, before the completion's
	// steps grow the Go heap (the kernel's cold build peaked there with
	// 80 MiB of it still resident).
	cmem.Trim()
	// What is left allocates the postings' arrays, which
	// the collector need not scan: as tight as once complete.
	ix.opts.Memory.complete()
	// The postings merged as the save below would merge them (outside
	// the lock: calls go on meanwhile), and the records moved together.
	ix.mergeAll()
	ix.compactRecords()
	// The parse's and the merge's garbage first, as at the word pass's
	// end, before the names' text adds its own memory.
	releaseGoHeap()
	// The names' text for find_symbol's fallback is part of the complete
	// index: made at the fallback's first search instead (as from
	// 1ee08f1), it cost that call 0.3 s on the kernel (0.4 s and more
	// under load, the warm find_symbol's slowest call: issue 42), for the
	// 60 MB the first fallback allocates anyway; and made once the index
	// is announced complete, a client's first call could still find it
	// in the making.
	ix.WhenComplete()
	ix.symbolsReady.Store(true)
	ix.Mu.RLock()
	n, cached := ix.Live, ix.Cached
	ix.Mu.RUnlock()
	ix.Ahead.mu.Lock()
	ahead := ix.Ahead.Taken
	ix.Ahead.mu.Unlock()
	byCalls := ""
	if ahead > 0 {
		byCalls = fmt.Sprintf(", %d parsed by calls", ahead)
	}
	ix.Logf("index complete: %d files (%d from cache) in %d ms%s", n, cached, time.Since(start).Milliseconds(), byCalls)
	ix.save(true)
	// And what the parsers freed on the C side (80 MB on the kernel).
	cmem.Trim()
	return true
}

// MemoryPolicy is how the Go runtime collects while an index lives. The
// program decides it (cmd/zumba does, for the server, minding GOGC and
// GOMEMLIMIT); the zero value leaves the runtime as the program set it.
type MemoryPolicy struct {
	// Limit is the Go heap's soft limit (debug.SetMemoryLimit), set when
	// the build starts; 0 leaves it.
	Limit int64
	// WordsGCPercent is the collector's target (debug.SetGCPercent)
	// during the word pass, GCPercent during the parse that follows, and
	// CompleteGCPercent once every file is parsed (little is allocated
	// then but by calls); 0 leaves it. The word pass's heap is mostly
	// arrays without pointers (the vocabulary, the records, the
	// postings), cheap to mark, so a tight target there costs little
	// time and keeps the peak near the live heap (on the kernel's second
	// checkout, served from the store: 539 MiB at 10 instead of 662 MiB
	// at 50, in about the same time).
	WordsGCPercent, GCPercent, CompleteGCPercent int
}

// building applies the policy when the build starts.
func (m MemoryPolicy) building() {
	if m.Limit > 0 {
		debug.SetMemoryLimit(m.Limit)
	}
	switch {
	case m.WordsGCPercent > 0:
		debug.SetGCPercent(m.WordsGCPercent)
	case m.GCPercent > 0:
		debug.SetGCPercent(m.GCPercent)
	}
}

// parsing applies the policy when the word pass has ended.
func (m MemoryPolicy) parsing() {
	if m.GCPercent > 0 {
		debug.SetGCPercent(m.GCPercent)
	}
}

// complete applies the policy once the index is complete.
func (m MemoryPolicy) complete() {
	if m.CompleteGCPercent > 0 {
		debug.SetGCPercent(m.CompleteGCPercent)
	}
}

// releaseSize is the least Go heap worth returning to the system at
// once: below it a full collection costs more than the memory it gives
// back (a small project's whole index is a few megabytes). Above it the
// scavenger alone leaves the garbage of the build resident for good: the
// standard library's index (a heap of ~45 MB) stayed at 63 MiB resident
// without the release, 56 MiB with it, and two roots of it at 87 or 74
// MiB depending on whether their heap had just crossed 64 MB.
const releaseSize = 16 << 20

// releaseGoHeap returns the Go heap's garbage and free memory to the
// system now (debug.FreeOSMemory), when there is at least releaseSize of
// heap to look at: its objects, live or not yet swept, and its free spans
// not yet returned.
func releaseGoHeap() {
	s := []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
	}
	metrics.Read(s)
	var n uint64
	for _, x := range s {
		if x.Value.Kind() == metrics.KindUint64 {
			n += x.Value.Uint64()
		}
	}
	if n >= releaseSize {
		debug.FreeOSMemory()
	}
}

// imageWaits reports whether a project's first run writes no image (see
// index_image.go): a project without a snapshot (never indexed, or its
// list deleted) whose files came mostly (cached of live) from the store,
// i.e. a new checkout (a task's worktree, a copy) of what another
// checkout indexed. Such a checkout may never be served again, and an
// image of it would be a second copy of the other's (the kernel's: 285
// MB, 0.4 of the tree's size, for each worktree). If it is served again,
// that restart loads from the store (as its first run did) and writes the
// image then. A cold build (files read, not from the store) writes its
// image at once: its restart is what the image is for.
func imageWaits(hadSnapshot bool, cached, live int) bool {
	return !hadSnapshot && live > 0 && 2*cached > live
}

// saveInterval is how often the disk cache is saved while the index
// changes, so that a server killed without warning loses little.
const saveInterval = 2 * time.Minute

// Save writes the disk cache if the index changed since it was last
// saved or loaded, and then returns the memory the snapshot took to the
// system at once (on a large project it is a copy of the whole index,
// which the scavenger would leave resident for minutes). It reports
// whether it wrote.
func (ix *Index) Save() bool { return ix.save(false) }

// save is Save, writing the image too (index_image.go) with image.
func (ix *Index) save(image bool) bool {
	ix.saveMu.Lock()
	defer ix.saveMu.Unlock()
	ix.Mu.RLock()
	changed := ix.cacheFile != "" && (ix.gen != ix.savedGen || image && !ix.noImage && ix.gen != ix.imageGen)
	ix.Mu.RUnlock()
	if !changed {
		return false
	}
	ix.saveLocked(image)
	releaseGoHeap()
	return true
}

func (ix *Index) saveLoop(ctx context.Context) {
	t := time.NewTicker(saveInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			ix.Save()
		}
	}
}

// Progress says how far the build has got: whether the word index and the
// symbol index are complete, and how many files are indexed.
func (ix *Index) Progress() (words, symbols bool, files int) {
	ix.Mu.RLock()
	defer ix.Mu.RUnlock()
	return ix.WordsReady.Load(), ix.symbolsReady.Load(), ix.Live
}
