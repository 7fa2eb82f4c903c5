package search

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

	"github.com/zumba-dev/zumba/grammar"
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
func (ix *engine) readWords(ctx context.Context, files []project.Entry, snap *diskcache.Snapshot) {
	known := map[string]*diskcache.File{}
	if snap != nil {
		for i := range snap.Files {
			known[snap.Files[i].Path] = &snap.Files[i]
		}
	}
	recs := make([]*fileRec, len(files))
	// Each file's words, and the keys of each kind of its records,
	// packed (packIDs) until the postings are built: listed here by the
	// workers, the builds below only lay them out, at once.
	words := make([][]byte, len(files))
	// The calls answered meanwhile judge the files read by their words.
	pass := &wordPass{files: files, recs: recs, words: words, done: make([]atomic.Bool, len(files))}
	ix.pass.Store(pass)
	keys := make([][][]byte, len(ix.kinds))
	for k := range keys {
		keys[k] = make([][]byte, len(files))
	}
	var arena packArena
	ix.parallel(ctx, len(files), workers(), buildWork, func(i int, sc *project.Scratch) {
		if ix.holdWords != nil && i >= ix.holdWordsAt {
			select {
			case <-ix.holdWords:
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
	ix.mu.Lock()
	defer ix.mu.Unlock()
	first := uint32(len(ix.files))
	for i, r := range recs {
		r.id = first + uint32(i)
		ix.files = append(ix.files, r)
		ix.tiers = append(ix.tiers, r.tier)
		ix.byPath[r.path] = r
		ix.live++
		if r.failed {
			ix.failed++
		}
		if r.fromStore {
			ix.cached++
		}
		ix.countLocked(r, 1)
	}
	n := ix.words.len()
	var wg sync.WaitGroup
	wg.Go(func() { ix.wordPost.build(n, first, words) })
	for k := range ix.kindPost {
		wg.Go(func() { ix.kindPost[k].build(n, first, keys[k]) })
	}
	wg.Wait()
	ix.wordBase = uint32(len(ix.files))
	ix.gen++
	if snap != nil && ix.cached == len(files) && len(known) == len(files) {
		// Nothing changed: the cache holds this index already.
		ix.savedGen = ix.gen
	}
}

// read reads the file e for a record: from the store when it holds the
// file's bytes' records, else its words, and whether it has definitions
// to parse later. The words are in es's memory, valid until its next
// use.
func (ix *engine) read(e project.Entry, sc *project.Scratch, es *entryScratch) (*fileRec, []uint32) {
	readAt := time.Now().UnixNano()
	r := &fileRec{path: e.Path, st: e.Stat(), ref: readAt}
	lang := grammar.ForPath(e.Path, nil)
	data, err := ix.proj.Contents(e, sc)
	switch {
	case errors.Is(err, project.ErrUnreadable):
		r.failed = true
		ix.setTier(r)
		return r, nil
	case err != nil:
		// Not covered (binary, grown too large): nothing in it.
		r.parsed = true
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
	r.key = key
	if a, ok := ix.ahead.take(e.Path, key); ok {
		// A call parsed these bytes before the record was made.
		r.parsed, r.recs = true, a
		if ix.opts.Shared != nil {
			r.shared, r.recs = shareRecords(r.recs)
		}
	} else if lang == nil {
		r.parsed = true
	}
	r.generated = grammar.IsGeneratedHead(data)
	ix.setTier(r)
	es.ids = ix.wordIDs(data, es.ids[:0])
	return r, es.ids
}

// fromStore makes the record of the file e from the store's entry for
// key (the zero key: a file with nothing in it), read at ref (0: its
// stat was checked against the snapshot's). It returns nil when the
// store has no usable entry. The words are in es's memory, valid until
// its next use.
func (ix *engine) fromStore(e project.Entry, key diskcache.Key, ref int64, es *entryScratch) (*fileRec, []uint32) {
	r := &fileRec{path: e.Path, st: e.Stat(), ref: ref, key: key, parsed: true, fromStore: true}
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
		ix.logf("%v", err)
	}
	if !ok {
		return nil, nil
	}
	s, err := ix.decodeEntryWith(b, e.Path, es)
	if err != nil {
		ix.logf("store entry %s (%s) discarded: %v", key, e.Path, err)
		return nil, nil
	}
	r.generated, r.recs = s.generated, s.recs
	ix.setTier(r)
	if ix.opts.Shared != nil {
		r.shared, r.recs = shareRecords(r.recs)
	}
	return r, s.words
}

// load re-reads the file e into a new record, replacing the old one.
// When its bytes are those of the old record, parsed (a file re-read
// because its stat could not prove it unchanged, or written again as it
// was), the new record is the old one with the new stat, under the same
// id: the postings change nothing (and keep the blocks they share with
// other roots). A copy, as readers use a record's stat outside the lock
// (parseFile, entry).
func (ix *engine) load(e project.Entry, sc *project.Scratch) {
	es := entryScratches.Get().(*entryScratch)
	defer entryScratches.Put(es)
	r, wids := ix.read(e, sc, es)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if old := ix.byPath[r.path]; old != nil && old.parsed && !old.failed && !r.failed && r.key != (diskcache.Key{}) && old.key == r.key {
		same := *old
		same.st, same.ref = r.st, r.ref
		ix.files[same.id] = &same
		ix.byPath[same.path] = &same
		ix.gen++
		return
	}
	ix.installLocked(r, wids)
}

// installLocked makes r the file's record, with the words wids.
func (ix *engine) installLocked(r *fileRec, wids []uint32) {
	if old := ix.byPath[r.path]; old != nil {
		ix.killLocked(old)
	}
	r.id = uint32(len(ix.files))
	ix.files = append(ix.files, r)
	ix.tiers = append(ix.tiers, r.tier)
	ix.byPath[r.path] = r
	ix.live++
	if r.failed {
		ix.failed++
	}
	for _, w := range wids {
		ix.wordPost.add(w, r.id)
	}
	ix.addKeysLocked(r, false)
	ix.countLocked(r, 1)
	ix.gen++
}

// addKeysLocked puts r under the keys of its records in each kind's
// postings; with merge, merges them when their overlay grew large.
func (ix *engine) addKeysLocked(r *fileRec, merge bool) {
	keys := make([][]uint32, len(ix.kinds))
	ix.recKeys(r, keys)
	for k, ks := range keys {
		for _, key := range ks {
			ix.kindPost[k].add(key, r.id)
		}
		if merge && ix.kindPost[k].overlay() > maxOverlay {
			ix.mergeLocked(false)
		}
	}
}

// killLocked marks r as no longer the file's record.
func (ix *engine) killLocked(r *fileRec) {
	if r.dead {
		return
	}
	r.dead = true
	ix.live--
	ix.deadWords++
	if r.parsed {
		for k := range ix.kinds {
			if len(r.recs.get(k)) > 0 {
				ix.deadKind[k]++
			}
		}
		ix.countLocked(r, -1)
	}
	if r.failed {
		ix.failed--
	}
	if ix.byPath[r.path] == r {
		delete(ix.byPath, r.path)
	}
	// Readers of the postings skip ids without a record.
	ix.files[r.id] = nil
	ix.gen++
}

// Overlay sizes past which the postings are merged.
const (
	maxOverlay = 1 << 21
	maxDead    = 1 << 14
)

// mergeLocked folds the postings' overlays into their bases and drops
// dead records from them, when worth it or when all is set. With all,
// postings whose blocks are shared with other roots keep a small change
// in the overlay (see postings.keep).
func (ix *engine) mergeLocked(all bool) {
	live := func(f uint32) bool { return ix.files[f] != nil }
	n := ix.words.len()
	due := func(p *postings, dead int) bool {
		if p.overlay() > maxOverlay || dead > maxDead && dead > ix.live/8 {
			return true
		}
		return all && (dead > 0 || p.overlay() > 0) && !p.keep(dead)
	}
	if due(&ix.wordPost, ix.deadWords) {
		ix.wordPost.merge(n, live)
		ix.wordBase = uint32(len(ix.files))
		ix.deadWords = 0
	}
	for k := range ix.kindPost {
		if p := &ix.kindPost[k]; due(p, ix.deadKind[k]) {
			p.merge(n, func(f uint32) bool { return live(f) && ix.files[f].parsed })
			ix.deadKind[k] = 0
		}
	}
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
func (ix *engine) wordIDs(data []byte, dst []uint32) []uint32 {
	ws := wordScratches.Get().(*wordScratch)
	defer wordScratches.Put(ws)
	ws.gen++
	if ws.gen == 0 {
		clear(ws.mark)
		ws.gen = 1
	}
	clear(ws.unknown)
	ids := dst
	ix.words.read(func(v *vocab) {
		if n := v.len(); len(ws.mark) < n {
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
		forWords(data, func(w []byte) {
			if !indexedWord(w) {
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
		ix.words.write(func(v *vocab) {
			for w := range ws.unknown {
				// Another worker (or index) may have added it
				// meanwhile, and listed it for this file's known
				// words never.
				ids = append(ids, v.internString(w))
			}
		})
	}
	return ids
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
		if wordRune(r) {
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

// parseFile parses the file of r and adds its definitions, unless the
// file changed since r was made (the next sync replaces r) or r was
// replaced meanwhile. It reports whether r's definitions are known.
func (ix *engine) parseFile(ctx context.Context, r *fileRec, sc *project.Scratch) bool {
	// A call may have parsed it since the caller listed it.
	ix.mu.RLock()
	dead, parsed := r.dead, r.parsed
	ix.mu.RUnlock()
	if dead {
		return false
	}
	if parsed {
		return true
	}
	if r.key != (diskcache.Key{}) {
		if a, ok := ix.ahead.take(r.path, r.key); ok {
			return ix.setParsed(r, a)
		}
	}
	// The definitions must be of the file the words were read from.
	fi, err := ix.proj.Stat(r.path)
	if err != nil || filestat.Of(fi) != r.st {
		return false
	}
	data, err := ix.proj.Contents(r.entry(), sc)
	var defs []outline.Definition
	switch {
	case errors.Is(err, project.ErrUnreadable):
		return false
	case err != nil:
	default:
		// A racy record's stat does not vouch for the bytes: its
		// definitions must be of the bytes its words and key were read
		// from, since the store keeps them under that key.
		if r.ref != 0 && r.st.RacyAt(r.ref) && contentKey(r.path, data) != r.key {
			return false
		}
		lang := grammar.ForPath(r.path, data[:min(len(data), project.BinaryPrefix)])
		if lang == nil {
			break
		}
		o, err := outline.Parse(ctx, lang, data)
		if err != nil {
			// Stopped by a call's deadline or the parser's own time
			// limit (a loaded machine, a file built to be slow): not
			// "no definitions" but unknown, left for the next call that
			// needs the file (issue 12: a failure is never remembered
			// as nothing here).
			return false
		}
		defs = o.Definitions("")
	}
	return ix.setParsed(r, ix.makeRecords(r.path, data, defs))
}

// setParsed gives r its records, unless r was replaced meanwhile. It
// reports whether r's definitions are known.
func (ix *engine) setParsed(r *fileRec, recs records) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if r.dead {
		return false
	}
	if r.parsed {
		return true
	}
	r.parsed = true
	r.recs = recs
	ix.addKeysLocked(r, true)
	ix.countLocked(r, 1)
	if ix.opts.Shared != nil {
		r.shared, r.recs = shareRecords(r.recs)
	}
	ix.gen++
	return true
}

// parsePending parses, in the background, every file not parsed yet.
func (ix *engine) parsePending(ctx context.Context) {
	todo, _ := ix.pendingFiles()
	ix.parseFiles(ctx, todo)
}

// pendingFiles lists the files not parsed yet that the background parser
// has not tried, and counts the live files.
func (ix *engine) pendingFiles() (todo []*fileRec, live int) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	for _, r := range ix.files {
		if r != nil && !r.dead && !r.parsed && !r.failed && !r.tried {
			todo = append(todo, r)
		}
	}
	return todo, ix.live
}

// parseFiles parses the files todo (pendingFiles) in the background.
func (ix *engine) parseFiles(ctx context.Context, todo []*fileRec) {
	var done atomic.Int64
	if ix.store != nil && len(todo) >= storeFiles {
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			t := time.NewTicker(storeEvery)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					ix.storeParsed()
				}
			}
		}()
	}
	if len(todo) >= progressFiles {
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			t := time.NewTicker(progressEvery)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					ix.logf("parsing: %d of %d files, %d workers", done.Load(), len(todo), ix.cores.workers(backgroundWorkers()))
				}
			}
		}()
	}
	ix.parallel(ctx, len(todo), backgroundWorkers(), idleWork, func(i int, sc *project.Scratch) {
		r := todo[i]
		ix.parseFile(ctx, r, sc)
		ix.mu.Lock()
		r.tried = true
		ix.mu.Unlock()
		done.Add(1)
	})
}

// A background parse of progressFiles files or more logs its progress
// every progressEvery; one of storeFiles or more puts what it parsed in
// the store every storeEvery.
const (
	progressFiles = 10000
	progressEvery = time.Minute
	storeFiles    = 2000
)

// ensureParsed parses, for a call, the files of ids not parsed yet, until
// the deadline. It reports whether every one is parsed.
func (ix *engine) ensureParsed(ctx context.Context, ids []uint32, deadline time.Time) bool {
	ix.mu.RLock()
	var todo []*fileRec
	for _, f := range ids {
		if r := ix.files[f]; r != nil && !r.dead && !r.parsed && !r.failed {
			todo = append(todo, r)
		}
	}
	ix.mu.RUnlock()
	if len(todo) == 0 {
		return true
	}
	pctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	ok := make([]bool, len(todo))
	// One parse per core: more would only hold more parse trees at once.
	ix.parallel(pctx, len(todo), workers(), callWork, func(i int, sc *project.Scratch) {
		ok[i] = ix.parseFile(pctx, todo[i], sc)
	})
	return !slices.Contains(ok, false)
}

// wakeParser tells the background parser that files were (re)read.
func (ix *engine) wakeParser() {
	select {
	case ix.parseWake <- struct{}{}:
	default:
	}
}

// sync brings the index up to date with the files as they are now: the
// paths the watcher reports are re-read, or, when it may have missed
// events (or there is no watcher), every file's stat is compared. Files
// that could not be read are tried again.
func (ix *engine) sync(ctx context.Context) error {
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	if ix.watcher == nil {
		return ix.sweep(ctx, true)
	}
	ch := ix.watcher.Changes(ctx)
	switch {
	case ch.IgnoreChanged:
		ix.rules.Reset()
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
		for p, r := range ix.byPath {
			if r.failed {
				paths = append(paths, p)
			}
		}
	}
	ix.mu.RUnlock()
	if len(paths) == 0 {
		return nil
	}
	var read []project.Entry
	there := map[string]bool{}
	for _, p := range paths {
		if e, ok := ix.rules.Entry(p); ok {
			read = append(read, e)
			there[p] = true
		}
	}
	ix.mu.Lock()
	for _, p := range paths {
		if r := ix.byPath[p]; r != nil {
			// A file: nothing is indexed under it. One still there is
			// re-read below, which replaces its record (or keeps it, with
			// the same bytes), as a sweep does.
			if !there[p] {
				ix.killLocked(r)
			}
			continue
		}
		prefix := p + "/"
		for q, r := range ix.byPath {
			if strings.HasPrefix(q, prefix) {
				ix.killLocked(r)
			}
		}
	}
	ix.mu.Unlock()
	ix.readAll(ctx, read, true)
	return ctx.Err()
}

// sweep walks the project and re-reads the files whose stat changed,
// drops those gone, and adds new ones; with racy, also the files modified
// too close to when they were read for their stat to prove them unchanged.
func (ix *engine) sweep(ctx context.Context, racy bool) error {
	files, links, err := ix.proj.WalkLinks(ctx)
	if err != nil {
		return fmt.Errorf("walk %s: %w", ix.proj.Dir, err)
	}
	if ix.watcher != nil {
		ix.watcher.SetLinks(links)
	}
	var read []project.Entry
	seen := make(map[string]bool, len(files))
	ix.mu.Lock()
	for _, e := range files {
		seen[e.Path] = true
		st := e.Stat()
		r := ix.byPath[e.Path]
		if r == nil || r.failed || r.st != st || (racy && r.ref != 0 && st.RacyAt(r.ref)) {
			read = append(read, e)
		}
	}
	for p, r := range ix.byPath {
		if !seen[p] {
			ix.killLocked(r)
		}
	}
	ix.mu.Unlock()
	ix.readAll(ctx, read, true)
	return ctx.Err()
}

// readAll re-reads files in parallel, for a call (fg) or in the
// background, then merges the postings if their overlays grew large.
func (ix *engine) readAll(ctx context.Context, files []project.Entry, fg bool) {
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
	ix.mu.Lock()
	ix.mergeLocked(false)
	ix.mu.Unlock()
	ix.wakeParser()
}
