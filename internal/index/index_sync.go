package index

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/cmem"
	"github.com/zumba-dev/zumba/internal/diskcache"
	"github.com/zumba-dev/zumba/internal/filestat"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
)

// readWords is the build's first pass: every file's records, from the
// disk cache where it holds them (the project's snapshot names the key
// of an unchanged file's records, or the file's bytes hash to a key the
// store holds), else read for their words. The postings are built in one
// go; each file's word list lives only until then.
func (ix *Index) readWords(ctx context.Context, files []project.Entry, snap *diskcache.Snapshot) {
	known := map[string]*diskcache.File{}
	if snap != nil {
		for i := range snap.Files {
			known[snap.Files[i].Path] = &snap.Files[i]
		}
	}
	recs := make([]*FileRec, len(files))
	// Each file's words, and the keys of each kind of its records,
	// packed (packIDs) until the postings are built: listed here by the
	// workers, the builds below only lay them out, at once.
	words := make([][]byte, len(files))
	// The calls answered meanwhile judge the files read by their words.
	pass := &WordPass{files: files, recs: recs, words: words, done: make([]atomic.Bool, len(files))}
	ix.Pass.Store(pass)
	keys := make([][][]byte, len(ix.kinds))
	for k := range keys {
		keys[k] = make([][]byte, len(files))
	}
	var arena packArena
	ix.parallel(ctx, len(files), workers(), buildWork, func(i int, sc *project.Scratch) {
		if ix.HoldWords != nil && i >= ix.HoldWordsAt {
			select {
			case <-ix.HoldWords:
			case <-ctx.Done():
				return
			}
		}
		e := files[i]
		es := entryScratches.Get().(*entryScratch)
		defer entryScratches.Put(es)
		var wids []uint32
		if f := known[e.Path]; f != nil && e.Stat().Unchanged(f.Stat, snap.Written) {
			recs[i], wids = ix.fromStore(e, f.Key, 0, es)
		}
		if recs[i] == nil {
			recs[i], wids = ix.read(e, sc, es)
		}
		words[i] = packIDs(&arena, wids)
		es.keys = es.keysFor(len(ix.kinds))
		ix.recKeys(recs[i], es.keys)
		for k := range keys {
			keys[k][i] = packIDs(&arena, es.keys[k])
		}
		pass.done[i].Store(true)
	})
	if ctx.Err() != nil {
		return
	}
	ix.Mu.Lock()
	defer ix.Mu.Unlock()
	first := uint32(len(ix.Files))
	for i, r := range recs {
		r.ID = first + uint32(i)
		ix.Files = append(ix.Files, r)
		ix.Tiers = append(ix.Tiers, r.Tier)
		ix.ByPath[r.Path] = r
		ix.Live++
		if r.Failed {
			ix.failed++
		}
		if r.FromStore {
			ix.Cached++
		}
		ix.countLocked(r, 1)
	}
	n := ix.Words.Len()
	var wg sync.WaitGroup
	wg.Go(func() { ix.WordPost.build(n, first, words) })
	for k := range ix.KindPost {
		wg.Go(func() { ix.KindPost[k].build(n, first, keys[k]) })
	}
	wg.Wait()
	ix.wordBase = uint32(len(ix.Files))
	ix.gen++
	ix.filesGen++
	if snap != nil && ix.Cached == len(files) && len(known) == len(files) {
		// Nothing changed: the cache holds this index already.
		ix.savedGen = ix.gen
	}
}

// read reads the file e for a record: from the store when it holds the
// file's bytes' records, else its words, and whether it has definitions
// to parse later. The words are in es's memory, valid until its next
// use.
func (ix *Index) read(e project.Entry, sc *project.Scratch, es *entryScratch) (*FileRec, []uint32) {
	readAt := time.Now().UnixNano()
	r := &FileRec{Path: e.Path, Stat: e.Stat(), Ref: readAt}
	lang := grammar.ForPath(e.Path, nil)
	data, err := ix.proj.Contents(e, sc)
	switch {
	case errors.Is(err, project.ErrUnreadable):
		r.Failed = true
		ix.setTier(r)
		return r, nil
	case err != nil:
		// Not covered (binary, grown too large): nothing in it.
		r.Parsed = true
		ix.setTier(r)
		return r, nil
	}
	if lang == nil && !strings.Contains(e.Path[strings.LastIndexByte(e.Path, '/')+1:], ".") {
		lang = grammar.ForPath(e.Path, data[:min(len(data), project.BinaryPrefix)])
	}
	key := contentKey(e.Path, data)
	if ix.store != nil {
		if s, w := ix.fromStore(e, key, readAt, es); s != nil {
			return s, w
		}
	}
	r.Key = key
	if a, ok := ix.Ahead.take(e.Path, key); ok {
		// A call parsed these bytes before the record was made.
		r.Parsed, r.Recs = true, a
		if ix.opts.Shared != nil {
			r.shared, r.Recs = ShareRecords(r.Recs)
		}
	} else if lang == nil {
		r.Parsed = true
	}
	r.Generated = grammar.IsGeneratedHead(data)
	ix.setTier(r)
	es.ids = ix.wordIDs(data, es.ids[:0])
	return r, es.ids
}

// fromStore makes the record of the file e from the store's entry for
// Key (the zero key: a file with nothing in it), read at ref (0: its
// stat was checked against the snapshot's). It returns nil when the
// store has no usable entry. The words are in es's memory, valid until
// its next use.
func (ix *Index) fromStore(e project.Entry, key diskcache.Key, ref int64, es *entryScratch) (*FileRec, []uint32) {
	r := &FileRec{Path: e.Path, Stat: e.Stat(), Ref: ref, Key: key, Parsed: true, FromStore: true}
	if key == (diskcache.Key{}) {
		ix.setTier(r)
		return r, nil
	}
	if ix.store == nil {
		return nil, nil
	}
	b, ok, err := ix.store.Get(key, es.entry[:0])
	es.entry = b
	if err != nil {
		ix.Logf("%v", err)
	}
	if !ok {
		return nil, nil
	}
	s, err := ix.decodeEntryWith(b, e.Path, es)
	if err != nil {
		ix.Logf("store entry %s (%s) discarded: %v", key, e.Path, err)
		return nil, nil
	}
	r.Generated, r.Recs = s.Generated, s.Recs
	ix.setTier(r)
	if ix.opts.Shared != nil {
		r.shared, r.Recs = ShareRecords(r.Recs)
	}
	return r, s.Words
}

// load re-reads the file e into a new record, replacing the old one.
// When its bytes are those of the old record, parsed (a file re-read
// because its stat could not prove it unchanged, or written again as it
// was), the new record is the old one with the new stat, under the same
// id: the postings change nothing (and keep the blocks they share with
// other roots). A copy, as readers use a record's stat outside the lock
// (parseFile, entry).
func (ix *Index) load(e project.Entry, sc *project.Scratch) {
	es := entryScratches.Get().(*entryScratch)
	defer entryScratches.Put(es)
	r, wids := ix.read(e, sc, es)
	ix.Mu.Lock()
	defer ix.Mu.Unlock()
	if old := ix.ByPath[r.Path]; old != nil && old.Parsed && !old.Failed && !r.Failed && r.Key != (diskcache.Key{}) && old.Key == r.Key {
		same := *old
		same.Stat, same.Ref = r.Stat, r.Ref
		ix.Files[same.ID] = &same
		ix.ByPath[same.Path] = &same
		ix.gen++
		ix.filesGen++
		return
	}
	ix.installLocked(r, wids)
}

// installLocked makes r the file's record, with the words wids.
func (ix *Index) installLocked(r *FileRec, wids []uint32) {
	if old := ix.ByPath[r.Path]; old != nil {
		ix.killLocked(old)
	}
	r.ID = uint32(len(ix.Files))
	ix.Files = append(ix.Files, r)
	ix.Tiers = append(ix.Tiers, r.Tier)
	ix.ByPath[r.Path] = r
	ix.Live++
	if r.Failed {
		ix.failed++
	}
	for _, w := range wids {
		ix.WordPost.add(w, r.ID)
	}
	ix.addKeysLocked(r, false)
	ix.countLocked(r, 1)
	ix.gen++
	ix.filesGen++
}

// addKeysLocked puts r under the keys of its records in each kind's
// postings; with merge, has them merged when their overlay grew large.
func (ix *Index) addKeysLocked(r *FileRec, merge bool) {
	keys := make([][]uint32, len(ix.kinds))
	ix.recKeys(r, keys)
	for k, ks := range keys {
		for _, key := range ks {
			ix.KindPost[k].add(key, r.ID)
		}
		if merge && len(ix.KindPost[k].Pool)/2 > ix.mergeAt {
			ix.mergeSoonLocked(k)
		}
	}
}

// killLocked marks r as no longer the file's record.
func (ix *Index) killLocked(r *FileRec) {
	if r.Dead {
		return
	}
	r.Dead = true
	ix.Live--
	ix.deadWords++
	if r.Parsed {
		for k := range ix.kinds {
			if len(r.Recs.Get(k)) > 0 {
				ix.deadKind[k]++
			}
		}
		ix.countLocked(r, -1)
	}
	if r.Failed {
		ix.failed--
	}
	if ix.ByPath[r.Path] == r {
		delete(ix.ByPath, r.Path)
	}
	// Readers of the postings skip ids without a record.
	ix.Files[r.ID] = nil
	ix.gen++
	ix.filesGen++
}

// wordScratch is one worker's state for listing a file's words.
type wordScratch struct {
	// mark[id] == gen: word id already listed for this file.
	mark    []uint32
	gen     uint32
	unknown map[string]struct{}
	// batch holds words to look up (in the file's bytes), bids their
	// ids; hs and refs are lookupAll's.
	batch    [][]byte
	bids     []uint32
	hs, refs []uint64
}

// wordBatch is how many words wordIDs looks up at once.
const wordBatch = 256

var wordScratches = sync.Pool{New: func() any { return &wordScratch{unknown: map[string]struct{}{}} }}

// wordIDs lists the distinct words of data (runs of wordRune
// characters, as WordScanner bounds them) that the index keeps, as word
// ids, appended to dst. Known words are looked up without allocating;
// only words new to the index are copied.
func (ix *Index) wordIDs(data []byte, dst []uint32) []uint32 {
	ws := wordScratches.Get().(*wordScratch)
	defer wordScratches.Put(ws)
	ws.gen++
	if ws.gen == 0 {
		clear(ws.mark)
		ws.gen = 1
	}
	clear(ws.unknown)
	ids := dst
	ix.Words.read(func(v *Vocab) {
		if n := v.Len(); len(ws.mark) < n {
			ws.mark = append(ws.mark, make([]uint32, n-len(ws.mark)+n/4)...)
		}
		// The words are looked up a batch at a time (see lookupAll).
		flush := func() {
			ws.bids = slices.Grow(ws.bids[:0], len(ws.batch))[:len(ws.batch)]
			ws.hs, ws.refs = v.lookupAll(ws.batch, ws.bids, ws.hs, ws.refs)
			for i, id := range ws.bids {
				switch {
				case id == notFound:
					if _, seen := ws.unknown[string(ws.batch[i])]; !seen {
						ws.unknown[string(ws.batch[i])] = struct{}{}
					}
				case ws.mark[id] != ws.gen:
					ws.mark[id] = ws.gen
					ids = append(ids, id)
				}
			}
			ws.batch = ws.batch[:0]
		}
		ForWords(data, func(w []byte) {
			if !IndexedWord(w) {
				return
			}
			ws.batch = append(ws.batch, w)
			if len(ws.batch) == wordBatch {
				flush()
			}
		})
		flush()
	})
	clear(ws.batch[:cap(ws.batch)]) // no hold on data
	if len(ws.unknown) > 0 {
		ix.Words.Write(func(v *Vocab) {
			for w := range ws.unknown {
				// Another worker (or index) may have added it
				// meanwhile, and listed it for this file's known
				// words never.
				ids = append(ids, v.InternString(w))
			}
		})
	}
	return ids
}

// ForWords calls f with every maximal run of word characters of data.
func ForWords(data []byte, f func(w []byte)) {
	wordAt := func(i int) int {
		c := data[i]
		if c < utf8.RuneSelf {
			if c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
				return 1
			}
			return -1
		}
		r, n := utf8.DecodeRune(data[i:])
		if WordRune(r) {
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

// ParseFile parses the file of r and adds its definitions, unless the
// file changed since r was made (the next sync replaces r) or r was
// replaced meanwhile. It reports whether r's definitions are known.
func (ix *Index) ParseFile(ctx context.Context, r *FileRec, sc *project.Scratch) bool {
	// A call may have parsed it since the caller listed it.
	ix.Mu.RLock()
	dead, parsed := r.Dead, r.Parsed
	ix.Mu.RUnlock()
	if dead {
		return false
	}
	if parsed {
		return true
	}
	if r.Key != (diskcache.Key{}) {
		if a, ok := ix.Ahead.take(r.Path, r.Key); ok {
			return ix.setParsed(r, a)
		}
	}
	// The definitions must be of the file the words were read from.
	fi, err := ix.proj.Stat(r.Path)
	if err != nil || filestat.Of(fi) != r.Stat {
		return false
	}
	data, err := ix.proj.Contents(r.Entry(), sc)
	var defs []outline.Definition
	var fromTree [][]byte
	switch {
	case errors.Is(err, project.ErrUnreadable):
		return false
	case err != nil:
	default:
		// A racy record's stat does not vouch for the bytes: its
		// definitions must be of the bytes its words and key were read
		// from, since the store keeps them under that key.
		if r.Ref != 0 && r.Stat.RacyAt(r.Ref) && contentKey(r.Path, data) != r.Key {
			return false
		}
		lang := grammar.ForPath(r.Path, data[:min(len(data), project.BinaryPrefix)])
		if lang == nil {
			break
		}
		var ok bool
		if defs, fromTree, ok = ix.parseDefs(ctx, r.Path, lang, data); !ok {
			// Stopped by a call's deadline or the parser's own time
			// limit (a loaded machine, a file built to be slow): not
			// "no definitions" but unknown, left for the next call that
			// needs the file (issue 12: a failure is never remembered
			// as nothing here).
			return false
		}
	}
	return ix.setParsed(r, ix.makeRecords(r.Path, data, defs, fromTree))
}

// parseDefs parses the file at path, whose bytes are data, with lang's
// grammar: its definitions, and the records of the tree kinds made from
// the same tree (see treeRecords; nil without tree kinds). ok is false
// when the parse did not finish.
func (ix *Index) parseDefs(ctx context.Context, path string, lang *grammar.Language, data []byte) (defs []outline.Definition, fromTree [][]byte, ok bool) {
	if !ix.hasTreeKind() {
		o, err := outline.Parse(ctx, lang, data)
		if err != nil {
			return nil, nil, false
		}
		return o.Definitions(""), nil, true
	}
	_, err := outline.ParseTree(ctx, lang, data, func(o *outline.Outline, root *sitter.Node) {
		defs = o.Definitions("")
		fromTree = ix.treeRecords(path, data, defs, lang, root)
	})
	return defs, fromTree, err == nil
}

// setParsed gives r its records, unless r was replaced meanwhile. It
// reports whether r's definitions are known.
func (ix *Index) setParsed(r *FileRec, recs records) bool {
	ix.Mu.Lock()
	defer ix.Mu.Unlock()
	if r.Dead {
		return false
	}
	if r.Parsed {
		return true
	}
	r.Parsed = true
	r.Recs = recs
	ix.addKeysLocked(r, true)
	ix.countLocked(r, 1)
	if ix.opts.Shared != nil {
		r.shared, r.Recs = ShareRecords(r.Recs)
	}
	ix.gen++
	return true
}

// parsePending parses, in the background, every file not parsed yet.
func (ix *Index) parsePending(ctx context.Context) {
	todo, _ := ix.pendingFiles()
	ix.parseFiles(ctx, todo)
}

// pendingFiles lists the files not parsed yet that the background parser
// has not tried, and counts the live files.
func (ix *Index) pendingFiles() (todo []*FileRec, live int) {
	ix.Mu.RLock()
	defer ix.Mu.RUnlock()
	for _, r := range ix.Files {
		if r != nil && !r.Dead && !r.Parsed && !r.Failed && !r.tried {
			todo = append(todo, r)
		}
	}
	return todo, ix.Live
}

// parseFiles parses the files todo (pendingFiles) in the background.
func (ix *Index) parseFiles(ctx context.Context, todo []*FileRec) {
	var done atomic.Int64
	if ix.store != nil && len(todo) >= storeFiles {
		defer every(storeEvery, ix.storeParsed)()
	}
	if len(todo) >= progressFiles {
		defer every(progressEvery, func() {
			ix.Logf("parsing: %d of %d files, %d workers", done.Load(), len(todo), ix.cores.workers(backgroundWorkers()))
		})()
	}
	if len(todo) >= storeFiles {
		// Tree-sitter's parses free their memory to the C allocator,
		// which keeps it for the next: after one large file (a generated
		// header of several MB) that is tens of MB held and unused until
		// the parse ends (on the kernel, 60 to 90 MiB of the cold build's
		// peak). Given back as it goes.
		defer every(trimEvery, cmem.Trim)()
	}
	var copies copySource
	ix.parallel(ctx, len(todo), backgroundWorkers(), idleWork, func(i int, sc *project.Scratch) {
		r := todo[i]
		if !ix.parseCopy(r, &copies) && ix.ParseFile(ctx, r, sc) {
			copies.add(r)
		}
		ix.Mu.Lock()
		r.tried = true
		ix.Mu.Unlock()
		done.Add(1)
	})
	copies.log(ix)
}

// every calls f every d until the function it returns is called.
func every(d time.Duration, f func()) (stop func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				f()
			}
		}
	}()
	return func() { close(done) }
}

// A background parse of progressFiles files or more logs its progress
// every progressEvery; one of storeFiles or more puts what it parsed in
// the store every storeEvery, and gives the C allocator's free memory
// back every trimEvery.
const (
	progressFiles = 10000
	progressEvery = time.Minute
	storeFiles    = 2000
	trimEvery     = 2 * time.Second
)

// EnsureParsed parses, for a call, the files of ids not parsed yet, until
// the deadline. It reports whether every one is parsed.
func (ix *Index) EnsureParsed(ctx context.Context, ids []uint32, deadline time.Time) bool {
	ix.Mu.RLock()
	var todo []*FileRec
	for _, f := range ids {
		if r := ix.Files[f]; r != nil && !r.Dead && !r.Parsed && !r.Failed {
			todo = append(todo, r)
		}
	}
	ix.Mu.RUnlock()
	if len(todo) == 0 {
		return true
	}
	pctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	ok := make([]bool, len(todo))
	// One parse per core: more would only hold more parse trees at once.
	ix.parallel(pctx, len(todo), workers(), callWork, func(i int, sc *project.Scratch) {
		ok[i] = ix.ParseFile(pctx, todo[i], sc)
	})
	return !slices.Contains(ok, false)
}

// wakeParser tells the background parser that files were (re)read.
func (ix *Index) wakeParser() {
	select {
	case ix.parseWake <- struct{}{}:
	default:
	}
}

// Sync brings the index up to date with the files as they are now: the
// paths the watcher reports are re-read, or, when it may have missed
// events (or there is no watcher), every file's stat is compared. Files
// that could not be read are tried again.
func (ix *Index) Sync(ctx context.Context) error {
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	if ix.Watcher == nil {
		return ix.sweep(ctx, true)
	}
	ch := ix.Watcher.Changes(ctx)
	switch {
	case ch.IgnoreChanged:
		ix.Rules.Reset()
		if err := ix.Watcher.Resync(); err != nil {
			ix.Logf("watch: %v", err)
		}
		return ix.sweep(ctx, false)
	case ch.Rescan:
		return ix.sweep(ctx, false)
	}
	paths := ch.Paths
	ix.Mu.RLock()
	if ix.failed > 0 {
		for p, r := range ix.ByPath {
			if r.Failed {
				paths = append(paths, p)
			}
		}
	}
	ix.Mu.RUnlock()
	if len(paths) == 0 {
		return nil
	}
	var read []project.Entry
	there := map[string]bool{}
	for _, p := range paths {
		if e, ok := ix.Rules.Entry(p); ok {
			read = append(read, e)
			there[p] = true
		}
	}
	ix.Mu.Lock()
	for _, p := range paths {
		if r := ix.ByPath[p]; r != nil {
			// A file: nothing is indexed under it. One still there is
			// re-read below, which replaces its record (or keeps it, with
			// the same bytes), as a sweep does.
			if !there[p] {
				ix.killLocked(r)
			}
			continue
		}
		prefix := p + "/"
		for q, r := range ix.ByPath {
			if strings.HasPrefix(q, prefix) {
				ix.killLocked(r)
			}
		}
	}
	ix.Mu.Unlock()
	ix.readAll(ctx, read, true)
	return ctx.Err()
}

// sweep walks the project and re-reads the files whose stat changed,
// drops those gone, and adds new ones; with racy, also the files modified
// too close to when they were read for their stat to prove them unchanged.
func (ix *Index) sweep(ctx context.Context, racy bool) error {
	files, links, err := ix.proj.WalkLinks(ctx)
	if err != nil {
		return fmt.Errorf("walk %s: %w", ix.proj.Dir, err)
	}
	if ix.Watcher != nil {
		ix.Watcher.SetLinks(links)
	}
	var read []project.Entry
	seen := make(map[string]bool, len(files))
	ix.Mu.Lock()
	for _, e := range files {
		seen[e.Path] = true
		st := e.Stat()
		r := ix.ByPath[e.Path]
		if r == nil || r.Failed || r.Stat != st || (racy && r.Ref != 0 && st.RacyAt(r.Ref)) {
			read = append(read, e)
		}
	}
	for p, r := range ix.ByPath {
		if !seen[p] {
			ix.killLocked(r)
		}
	}
	ix.Mu.Unlock()
	ix.readAll(ctx, read, true)
	return ctx.Err()
}

// readAll re-reads files in parallel, for a call (fg) or in the
// background, then merges the postings if their overlays grew large.
func (ix *Index) readAll(ctx context.Context, files []project.Entry, fg bool) {
	if len(files) == 0 {
		return
	}
	kind := buildWork
	if fg {
		kind = callWork
	}
	ix.parallel(ctx, len(files), workers(), kind, func(i int, sc *project.Scratch) {
		ix.load(files[i], sc)
	})
	ix.Mu.Lock()
	ix.MergeLocked(false)
	ix.Mu.Unlock()
	ix.wakeParser()
}
