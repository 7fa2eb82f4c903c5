package search

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/internal/filetier"
	"github.com/zumba-dev/zumba/search/internal/scan"
)

// References answers like [Root.References], reading only the files the
// word index names once it is built.
func (ix *Index) References(ctx context.Context, name string, filter *project.PathFilter) (*RefResult, error) {
	defer ix.Call()()
	if !ix.WordsReady.Load() {
		name = strings.TrimSpace(name)
		if err := checkName(name); err != nil {
			return nil, err
		}
		if res, err := ix.coldReferences(ctx, name, filter); !errors.Is(err, errWordsReady) {
			return res, err
		}
	}
	name = strings.TrimSpace(name)
	if err := checkName(name); err != nil {
		return nil, err
	}
	if err := ix.Sync(ctx); err != nil {
		return nil, err
	}
	// The candidates are read in path order, tier by tier (rankFiles),
	// until the answer is full: a common name's first files hold its
	// first lines, so the entries of its other thousands of files are
	// never made.
	ix.Mu.RLock()
	ids, all := ix.CandidateIDsLocked(name)
	if all {
		ids = ix.LiveIDsLocked()
	}
	below := ix.order.sortedBelowLocked(ix)
	cut, _ := slices.BinarySearch(ids, below)
	// Split by the tiers beside the records: the records themselves
	// are read only as far as the answer needs them.
	var counts [filetier.Count]int
	for _, f := range ids[:cut] {
		counts[ix.Tiers[f]]++
	}
	var heads [filetier.Count][]*index.FileRec
	for t, n := range counts {
		heads[t] = make([]*index.FileRec, 0, n)
	}
	for _, f := range ids[:cut] {
		t := ix.Tiers[f]
		heads[t] = append(heads[t], ix.Files[f])
	}
	var lates [filetier.Count][]project.Entry
	for _, f := range ids[cut:] {
		r := ix.Files[f]
		t := ix.Tiers[f]
		lates[t] = append(lates[t], r.Entry())
	}
	ix.Mu.RUnlock()
	for t := range lates {
		lates[t] = index.SortByPath(lates[t])
	}
	var refs []Ref
	chunk := make([]project.Entry, 0, 1024)
	for t := range filetier.Count {
		head, late := heads[t], lates[t]
		for size := 16; len(head) > 0 || len(late) > 0; size = min(2*size, cap(chunk)) {
			chunk = chunk[:0]
			for len(chunk) < size && (len(head) > 0 || len(late) > 0) {
				if len(late) == 0 || len(head) > 0 && head[0].Path < late[0].Path {
					chunk, head = append(chunk, head[0].Entry()), head[1:]
				} else {
					chunk, late = append(chunk, late[0]), late[1:]
				}
			}
			kept, err := FilterEntries(ctx, chunk, filter)
			if err != nil {
				return nil, err
			}
			got, more, err := References(ctx, kept, ix.root, name, RefLimit-len(refs))
			if err != nil {
				return nil, err
			}
			refs = append(refs, got...)
			if more {
				return &RefResult{Refs: refs, More: true}, nil
			}
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
		for f := o.checked; f < len(ix.Files); f++ {
			r := ix.Files[f]
			if r == nil {
				o.below = uint32(f + 1)
				continue
			}
			if o.below > 0 && o.last != "" && r.Path <= o.last {
				break
			}
			o.last, o.below = r.Path, uint32(f+1)
		}
	}
	o.checked = len(ix.Files)
	return o.below
}

// rankedCandidates lists the candidates of name (see candidates) tier by
// tier (rank.go), each tier in path order, as find_references reads them.
func (ix *Index) rankedCandidates(name string) []project.Entry {
	ix.Mu.RLock()
	ids, all := ix.CandidateIDsLocked(name)
	if all {
		ids = ix.LiveIDsLocked()
	}
	var tiers [filetier.Count][]project.Entry
	for _, f := range ids {
		t := ix.Tiers[f]
		tiers[t] = append(tiers[t], ix.Files[f].Entry())
	}
	ix.Mu.RUnlock()
	out := make([]project.Entry, 0, len(ids))
	for _, t := range tiers {
		out = append(out, index.SortByPath(t)...)
	}
	return out
}

// Symbols answers like [Root.Symbols]. Before the word index is built it
// searches the files directly; after, it parses the files the word index
// says may define the name and are not parsed yet, then answers from the
// definitions. When the time limit stops the parsing, the answer is what
// the files parsed so far define, saying how many that is
// (SymbolResult.Building).
func (ix *Index) Symbols(ctx context.Context, q SymbolQuery) (*SymbolResult, error) {
	deadline := StopBy(ctx, ix.symbolTimeLimit())
	if err := checkName(q.Name); err != nil {
		return nil, err
	}
	defer ix.CallUntil(deadline)()
	q.packages = newGoPackages(ix.root.Root)
	if !ix.WordsReady.Load() {
		if res, err := ix.coldSymbols(ctx, q, deadline); !errors.Is(err, errWordsReady) {
			return res, err
		}
	}
	t0 := time.Now()
	if err := ix.Sync(ctx); err != nil {
		return nil, err
	}
	synced := time.Since(t0)
	key, gen := fmt.Sprintf("%d %t %s", q.Limit, q.Containing, q.Name), ix.FilesGen()
	if res, ok := ix.symbolMemo.Get(ix.Index, key); ok {
		return res.copy(), nil
	}
	res, err := ix.symbols(ctx, q, q.limit(), deadline)
	if err == nil && !res.Building {
		ix.symbolMemo.Put(ix.Index, key, gen, res.copy())
	}
	if d := time.Since(t0); d > time.Second {
		ix.Logf("symbols %s: %d ms (%d ms bringing the index up to date), complete %v", project.Echo(q.Name), d.Milliseconds(), synced.Milliseconds(), res != nil && !res.Building)
	}
	return res, err
}

func (ix *Index) symbolTimeLimit() time.Duration {
	if ix.symbolLimit != 0 {
		return ix.symbolLimit
	}
	return ix.root.symbolTimeLimit()
}

// symbols answers q from the definitions, as Symbols would from the
// files: exact definitions in path and line order, else those whose names
// contain q, best first. The files that may hold an answer are parsed
// first, until the deadline.
func (ix *Index) symbols(ctx context.Context, q SymbolQuery, limit int, deadline time.Time) (*SymbolResult, error) {
	ix.Mu.RLock()
	n := ix.Live
	var ids []uint32
	// Once every file is parsed (the usual case after the background
	// pass), a common name's thousands of candidates need no listing.
	if !ix.AllParsedLocked() {
		var all bool
		ids, all = ix.CandidateIDsLocked(string(q.needle))
		if all {
			ids = ix.LiveIDsLocked()
		}
	}
	ix.Mu.RUnlock()
	t0 := time.Now()
	complete := ix.EnsureParsed(ctx, ids, deadline)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if d := time.Since(t0); d > time.Second {
		ix.Logf("symbols %s: %d files may define it; parsing them took %d ms, complete %v", project.Echo(q.Name), len(ids), d.Milliseconds(), complete)
	}
	res := &SymbolResult{Searched: n, Files: n}
	// What the call reads ends up copied into its answer (line text),
	// so the buffer can serve the next call.
	sc := scan.GetScratch()
	defer scan.PutScratch(sc)
	defs, err := ix.exact(ctx, q, limit, sc)
	if err != nil {
		return nil, err
	}
	if len(defs) == 0 || q.Containing {
		// The files that may define a name containing q are parsed first,
		// unless every file is parsed already (the usual case once the
		// background pass is through): finding them scans the vocabulary.
		// A partial answer's unqualified fallback needs none of them
		// (listing them scans the vocabulary: 0.25 s on the kernel).
		var fids []uint32
		if q.qualified() || complete && !ix.AllParsed() {
			fids = ix.foldCandidates(q)
			if complete {
				complete = ix.EnsureParsed(ctx, fids, deadline)
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
		res.Building, res.Indexed = true, ix.ParsedFiles()
	}
	return res, ctx.Err()
}
