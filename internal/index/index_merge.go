package index

// Overlay sizes past which the postings are merged (Index.mergeAt:
// maxOverlay, or less in a test).
const (
	maxOverlay = 1 << 21
	maxDead    = 1 << 14
)

// MergeLocked folds the postings' overlays into their bases and drops
// dead records from them, when worth it or when all is set. With all,
// postings whose blocks are shared with other roots keep a small change
// in the overlay (see postings.keep).
func (ix *Index) MergeLocked(all bool) {
	live := func(f uint32) bool { return ix.Files[f] != nil }
	n := ix.Words.Len()
	if ix.dueLocked(&ix.WordPost, ix.deadWords, all) {
		ix.WordPost.merge(n, live)
		ix.wordBase = uint32(len(ix.Files))
		ix.deadWords = 0
	}
	for k := range ix.KindPost {
		if p := &ix.KindPost[k]; ix.dueLocked(p, ix.deadKind[k], all) {
			p.merge(n, func(f uint32) bool { return live(f) && ix.Files[f].Parsed })
			ix.deadKind[k] = 0
		}
	}
}

// dueLocked reports whether postings p, dead of whose files died since
// their last merge, are worth merging (see MergeLocked).
func (ix *Index) dueLocked(p *Postings, dead int, all bool) bool {
	if p.Overlay() > ix.mergeAt || dead > maxDead && dead > ix.Live/8 {
		return true
	}
	return all && (dead > 0 || p.Overlay() > 0) && !p.keep(dead)
}

// A merge of a kind's postings takes a few hundred ms on the kernel
// (every key of the vocab is visited: 4 million), several times in a
// cold build and once more at its end. Under the index's lock, it held
// up every call's answer and every parse for as long: a partial answer
// due at 3.5 s came up to 450 ms late (issue 42). So the build's merges
// are made outside the lock: under it, the overlay is frozen (readers
// still see it; new entries go to a fresh one) and what the merge reads
// is noted; the merge then reads only that, which nothing changes; and
// under the lock again the new base replaces the old one and the frozen
// overlay, unless a merge under the lock (MergeLocked), which folds the
// frozen overlay too, came first.

// mergeSoonLocked has kind k's postings merged outside the lock by a
// goroutine of its own, unless a merge of them is under way.
func (ix *Index) mergeSoonLocked(k int) {
	if finish := ix.startMergeLocked(k); finish != nil {
		go finish()
	}
}

// startMergeLocked freezes kind k's overlay and returns the merge to run
// outside the lock (it takes the lock to put its result in place); nil
// when a merge of them is under way or there is nothing to merge.
func (ix *Index) startMergeLocked(k int) (finish func()) {
	p := &ix.KindPost[k]
	if p.merging || p.Overlay() == 0 && ix.deadKind[k] == 0 {
		return nil
	}
	p.merging = true
	p.frozen, p.overlay = p.overlay, overlay{}
	src := Postings{NKeys: p.NKeys, Blocks: p.Blocks, shared: p.shared, handles: p.handles, overlay: p.frozen}
	nkeys, epoch, dead := ix.Words.Len(), p.epoch, ix.deadKind[k]
	// The files kept: live and parsed now. One that dies meanwhile stays
	// in the base until the next merge (readers skip it) and is counted
	// for that one.
	keep := make([]uint64, (len(ix.Files)+63)/64)
	for f, r := range ix.Files {
		if r != nil && r.Parsed {
			keep[f/64] |= 1 << (f % 64)
		}
	}
	ix.merging++
	return func() {
		src.merge(nkeys, func(f uint32) bool { return keep[f/64]&(1<<(f%64)) != 0 })
		ix.Mu.Lock()
		defer ix.Mu.Unlock()
		if p.epoch == epoch {
			p.NKeys, p.Blocks, p.handles = src.NKeys, src.Blocks, src.handles
			p.Gen++
			p.frozen = overlay{}
			ix.deadKind[k] -= dead
		}
		p.merging = false
		ix.merging--
		ix.mergeDone.Broadcast()
	}
}

// mergeAll merges every postings due a merge (MergeLocked(true)), the
// kinds' outside the lock, once the merges under way are done. It is
// called without the lock.
func (ix *Index) mergeAll() {
	ix.Mu.Lock()
	ix.waitMergesLocked()
	var finish []func()
	for k := range ix.KindPost {
		if ix.dueLocked(&ix.KindPost[k], ix.deadKind[k], true) {
			if f := ix.startMergeLocked(k); f != nil {
				finish = append(finish, f)
			}
		}
	}
	ix.Mu.Unlock()
	for _, f := range finish {
		f()
	}
	// The words', and what calls added meanwhile (seldom anything).
	ix.Mu.Lock()
	ix.MergeLocked(true)
	ix.Mu.Unlock()
}

// waitMergesLocked waits until no merge is under way outside the lock.
func (ix *Index) waitMergesLocked() {
	for ix.merging > 0 {
		ix.mergeDone.Wait()
	}
}
