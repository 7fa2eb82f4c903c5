package search

import (
	"context"
	"sync"
	"time"

	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/internal/filetier"
)

// Calls answered before the word index is in (issue 42) cooperate with
// the build instead of competing with it:
//
//   - they list the files from the build's walk, with what the watcher
//     saw change since, instead of walking beside it (coldView);
//   - a file the word pass has read is judged by its words (wordPass):
//     only those that hold the name's words are read again;
//   - what a call learnt of each file for its query is remembered for the
//     next call of the same query (coldMemo), which reads only the files
//     not known yet, and a call that finds one of the same query in
//     flight waits for it and goes on from where it stopped;
//   - the files a call parses give the index their definitions
//     (index_ahead.go), so that the build does not parse them again.
//
// index_cold_refs.go and index_cold_symbols.go are the two searches.

// errStillListing is coldView's error when the time limit came before
// the build's walk had listed the project's files: nothing was searched.
// The searches answer with Building set and no files (Files 0 or Total
// 0), which the tools print as such.
var errStillListing = index.ErrStillListing

// errWordsReady is coldView's error when the word index came in since
// the call found it missing: the call answers from it instead.
var errWordsReady = index.ErrWordsReady

// walkTiers are the tiers (filetier.Of) of the files of the build's walk,
// made at a call's first need and dropped once the word index is in.
type walkTiers struct {
	mu      sync.Mutex
	tiers   []uint8
	dropped bool
}

// of returns the tier of each of files, the walk's own.
func (w *walkTiers) of(files []project.Entry) []uint8 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.tiers != nil {
		return w.tiers
	}
	tiers := tiersOf(files)
	if !w.dropped {
		w.tiers = tiers
	}
	return tiers
}

// drop forgets the tiers, for good.
func (w *walkTiers) drop() {
	w.mu.Lock()
	w.tiers, w.dropped = nil, true
	w.mu.Unlock()
}

// coldView is the project as a call answered before the word index sees
// it: its files as Walk would list them now, in path order, and for each
// the index of the same file in the build's walk when what the build
// (and earlier calls) learnt of it may still hold.
type coldView struct {
	files []project.Entry
	// at[k] is files[k]'s index in the build's walk, -1 when it is not
	// there or changed since; nil when files is the walk itself.
	at []int32
	// watched: the watcher vouches that the files at their walk's index
	// have not changed since the walk; else a file is trusted only while
	// its stat proves it unchanged (not racy).
	watched bool
	// tiers are the files' tiers (filetier.Of), in files' order.
	tiers []uint8
	pass  *index.WordPass
	// walkN is how many files the build's walk has.
	walkN int
}

// walkLen is how many files the build's walk has (0: none to refer to).
func (v *coldView) walkLen() int { return v.walkN }

// walkIndex is the index of files[k] in the build's walk, -1 for none.
func (v *coldView) walkIndex(k int) int32 {
	if v.at == nil {
		return int32(k)
	}
	return v.at[k]
}

// trusted reports whether what was learnt of files[k] from its bytes read
// at ref (Unix ns; 0: a record the disk cache's stat vouched for) still
// holds, the file being at its walk's stat.
func (v *coldView) trusted(k int, ref int64) bool {
	return v.watched || ref == 0 || !v.files[k].Stat().RacyAt(ref)
}

// ranked lists the indexes of the files filter keeps (nil: all), tier by
// tier, each tier in path order, as find_symbol and find_references read
// them (rankFiles).
func (v *coldView) ranked(ctx context.Context, filter *project.PathFilter) ([]int32, error) {
	var tiers [filetier.Count][]int32
	for k := range v.files {
		if filter != nil {
			if k%1024 == 1023 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if !filter.Match(v.files[k].Path) {
				continue
			}
		}
		t := v.tiers[k]
		tiers[t] = append(tiers[t], int32(k))
	}
	out := tiers[filetier.Own]
	for _, t := range tiers[filetier.Own+1:] {
		out = append(out, t...)
	}
	return out, nil
}

// coldFiles lists the project's files, as Walk would now, for a call
// answered before the word index (see coldView).
func (ix *Index) coldFiles(ctx context.Context, deadline time.Time) ([]project.Entry, error) {
	v, err := ix.coldView(ctx, deadline)
	if err != nil {
		return nil, err
	}
	return v.files, nil
}

// coldRanked is coldView's files that filter keeps (nil: all), ranked as
// the searches read them (coldView.ranked).
func (ix *Index) coldRanked(ctx context.Context, deadline time.Time, filter *project.PathFilter) (*coldView, []int32, error) {
	v, err := ix.coldView(ctx, deadline)
	if err != nil {
		return nil, nil, err
	}
	order, err := v.ranked(ctx, filter)
	return v, order, err
}

// coldView is the project for a call answered before the word index:
// the engine's listing (see [index.Index.Listing]: the build's walk with
// what the watcher saw change since, or a walk of its own), with each
// file's tier. Past deadline with the files still being listed, the
// error is errStillListing.
func (ix *Index) coldView(ctx context.Context, deadline time.Time) (*coldView, error) {
	var walked []project.Entry
	l, err := ix.Listing(ctx, deadline, func(files []project.Entry) { walked = files })
	if err != nil {
		return nil, err
	}
	v := &coldView{files: l.Files, at: l.At, watched: l.Watched, pass: l.Pass, walkN: l.WalkN}
	if l.At == nil && walked != nil {
		v.tiers = ix.walkTiers.of(walked)
	} else {
		v.tiers = tiersOf(v.files)
	}
	return v, nil
}

func tiersOf(files []project.Entry) []uint8 {
	out := make([]uint8, len(files))
	for k := range files {
		out[k] = filetier.Of(files[k].Path)
	}
	return out
}

// dropCold forgets what the calls before the word index kept, once it
// answers.
func (ix *Index) dropCold() {
	ix.walkTiers.drop()
	ix.coldRefs.drop()
	ix.cold.drop()
}

// A coldMemo remembers, for one query, what each file of the build's
// walk gave a call answered before the word index: nothing (it cannot
// answer), or a result of type T kept in the memo. Files that changed
// since the walk (at no walk index) are not remembered.
type coldMemo[T any] struct {
	mu sync.Mutex
	// flight holds one call of the memo's query at a time: a call that
	// finds another of its query in flight waits for it, and then takes
	// what it learnt instead of reading the same files beside it.
	flight chan struct{}
	key    string
	// gen counts the queries remembered, so that a call of an older one
	// neither reads nor writes the newer one's files.
	gen uint64
	// state[i] says what walk file i gave; round[i] which call learnt
	// it, whose start (Unix ns, before any of its reads) is rounds[j].
	state  []uint8
	round  []uint32
	rounds []int64
	got    map[int32]T
}

// A file's state in a coldMemo.
const (
	memoUnknown uint8 = iota
	// memoNone: the file cannot answer the query.
	memoNone
	// memoGot: the file's result is in got.
	memoGot
	// memoFold: find_symbol's: the file holds the query's needle only in
	// another case or inside other words: parsed only when nothing
	// matches exactly.
	memoFold
	// memoNotWord: find_symbol's: the word pass found the file without
	// the needle's words; whether it holds the needle in another case is
	// decided from its words when needed.
	memoNotWord
)

// memoCall is one call's hold on a coldMemo.
type memoCall[T any] struct {
	m      *coldMemo[T]
	gen    uint64
	round  uint32
	flight chan struct{} // held until end; nil: not held
}

// begin starts a call of query key on a view whose build's walk has
// walkLen files, the call having started at start (Unix ns): the memo
// starts afresh when the query or the walk differs, and the call waits
// (until ctx ends) for a call of the same query in flight. end must be
// called once the call is done.
func (m *coldMemo[T]) begin(ctx context.Context, key string, walkLen int, start int64) *memoCall[T] {
	m.mu.Lock()
	if m.key != key || len(m.state) != walkLen || m.flight == nil {
		m.key = key
		m.gen++
		m.state = make([]uint8, walkLen)
		m.round = make([]uint32, walkLen)
		m.rounds = nil
		m.got = map[int32]T{}
		m.flight = make(chan struct{}, 1)
	}
	c := &memoCall[T]{m: m, gen: m.gen}
	flight := m.flight
	m.mu.Unlock()
	select {
	case flight <- struct{}{}:
		c.flight = flight
	case <-ctx.Done():
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.gen == c.gen {
		m.rounds = append(m.rounds, start)
		c.round = uint32(len(m.rounds) - 1)
	}
	return c
}

// end marks the call done.
func (c *memoCall[T]) end() {
	if c.flight != nil {
		<-c.flight
		c.flight = nil
	}
}

// get returns what walk file i gave, and when that was learnt.
func (c *memoCall[T]) get(i int32) (state uint8, v T, at int64) {
	m := c.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.gen != c.gen || i < 0 || int(i) >= len(m.state) || m.state[i] == memoUnknown {
		return memoUnknown, v, 0
	}
	return m.state[i], m.got[i], m.rounds[m.round[i]]
}

// set records what walk file i gave the call.
func (c *memoCall[T]) set(i int32, state uint8, v T) {
	m := c.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.gen != c.gen || i < 0 || int(i) >= len(m.state) || int(c.round) >= len(m.rounds) {
		return
	}
	m.state[i], m.round[i] = state, c.round
	if state == memoGot {
		m.got[i] = v
	} else {
		delete(m.got, i)
	}
}

// drop forgets everything once the word index answers.
func (m *coldMemo[T]) drop() {
	m.mu.Lock()
	m.key, m.state, m.round, m.rounds, m.got, m.flight = "", nil, nil, nil, nil, nil
	m.gen++
	m.mu.Unlock()
}
