package gitread

import (
	"path"
	"slices"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Rename detection as git diff -M does it (diffcore-rename): a deleted
// file and an added one are the same file renamed when their blobs are
// equal, else when they are similar enough. In git's order: equal blobs
// first; then pairs whose base names are the same and unique on both
// sides, at 75% similarity or more; then every remaining pair, most
// similar first, at 50% or more, each file in one pair at most.
// Similarity is the share of the larger file's bytes found in the other,
// counted by chunks (lines, cut at 64 bytes) as git counts them.

const (
	maxScore      = 60000
	minScore      = maxScore / 2                     // -M's 50%
	minBaseScore  = minScore + (maxScore-minScore)/2 // 75%, for same base names
	candidates    = 4                                // kept per added file
	renameLimit   = 1000                             // diff.renameLimit's default
	spanHashBase  = 107927
	spanChunkSize = 64
)

type renamePair struct{ src, dst string }

func isRegular(m filemode.FileMode) bool {
	return m == filemode.Regular || m == filemode.Executable || m == filemode.Deprecated
}

// detectRenames pairs deleted files (their base versions in old, their
// entries in base) with added ones (their work tree versions in work),
// in git's three steps: equal blobs, unique base names, the rest by
// similarity.
func detectRenames(deleted, added []string, old, work map[string]*side, base map[string]entry) []renamePair {
	if len(deleted) == 0 || len(added) == 0 {
		return nil
	}
	r := &renamer{old: old, work: work, base: base, usedSrc: map[string]bool{}, usedDst: map[string]bool{}, spans: map[string]map[uint32]int{}}
	r.equal(deleted, added)
	srcs := slices.DeleteFunc(slices.Clone(deleted), func(p string) bool { return r.usedSrc[p] })
	dsts := slices.DeleteFunc(slices.Clone(added), func(p string) bool { return r.usedDst[p] })
	if len(srcs) == 0 || len(dsts) == 0 {
		return r.pairs
	}
	r.sameBase(srcs, dsts)
	srcs = slices.DeleteFunc(srcs, func(p string) bool { return r.usedSrc[p] })
	dsts = slices.DeleteFunc(dsts, func(p string) bool { return r.usedDst[p] })
	if len(srcs) == 0 || len(dsts) == 0 || len(srcs)*len(dsts) > renameLimit*renameLimit {
		return r.pairs
	}
	r.similar(srcs, dsts)
	return r.pairs
}

// renamer is detectRenames' state: the sides, the pairs found, the
// files paired already and each file's span hashes.
type renamer struct {
	old, work        map[string]*side
	base             map[string]entry
	pairs            []renamePair
	usedSrc, usedDst map[string]bool
	spans            map[string]map[uint32]int
}

func (r *renamer) record(src, dst string) {
	r.pairs = append(r.pairs, renamePair{src, dst})
	r.usedSrc[src], r.usedDst[dst] = true, true
}

// equal pairs equal blobs. Among several sources, git prefers one not
// used yet with the same base name, and among equals the one it
// registered last.
func (r *renamer) equal(deleted, added []string) {
	bySrcID := map[[20]byte][]string{}
	for _, p := range deleted {
		bySrcID[r.base[p].id] = append(bySrcID[r.base[p].id], p)
	}
	for _, dst := range added {
		w := r.work[dst]
		best, bestScore := "", -1
		srcs := bySrcID[w.id]
		for i := len(srcs) - 1; i >= 0; i-- {
			src := srcs[i]
			sm := r.base[src].mode
			if (!isRegular(sm) || !isRegular(w.mode)) && sm != w.mode {
				continue
			}
			if r.usedSrc[src] {
				continue
			}
			score := 1
			if path.Base(src) == path.Base(dst) {
				score++
			}
			if score > bestScore {
				best, bestScore = src, score
				if score == 2 {
					break
				}
			}
		}
		if best != "" {
			r.record(best, dst)
		}
	}
}

func (r *renamer) spanOf(p string, s *side) map[uint32]int {
	if m, ok := r.spans[p]; ok {
		return m
	}
	m := spanHashes(s.data, !isBinary(s.data))
	r.spans[p] = m
	return m
}

// similarity is git's score of dst as a copy of src, 0 when it cannot
// reach floor.
func (r *renamer) similarity(src, dst string, floor int) int {
	o, w := r.old[src], r.work[dst]
	if o == nil || w == nil || o.big || w.big || !isRegular(o.mode) || !isRegular(w.mode) {
		return 0
	}
	so, sw := len(o.data), len(w.data)
	maxSize, baseSize := max(so, sw), min(so, sw)
	if maxSize*(maxScore-floor) < (maxSize-baseSize)*maxScore {
		return 0
	}
	if sw == 0 {
		return 0
	}
	a, b := r.spanOf("s"+src, o), r.spanOf("d"+dst, w)
	copied := 0
	for h, n := range a {
		copied += min(n, b[h])
	}
	return int(int64(copied) * maxScore / int64(maxSize))
}

// sameBase pairs the files whose base name is unique among the sources
// and among the destinations, when similar enough.
func (r *renamer) sameBase(srcs, dsts []string) {
	srcBase, dstBase := map[string]int{}, map[string]int{}
	for i, p := range srcs {
		if _, ok := srcBase[path.Base(p)]; ok {
			srcBase[path.Base(p)] = -1
		} else {
			srcBase[path.Base(p)] = i
		}
	}
	for i, p := range dsts {
		if _, ok := dstBase[path.Base(p)]; ok {
			dstBase[path.Base(p)] = -1
		} else {
			dstBase[path.Base(p)] = i
		}
	}
	for i, src := range srcs {
		name := path.Base(src)
		if srcBase[name] != i {
			continue
		}
		j, ok := dstBase[name]
		if !ok || j < 0 || r.usedDst[dsts[j]] {
			continue
		}
		if r.similarity(src, dsts[j], minBaseScore) >= minBaseScore {
			r.record(src, dsts[j])
		}
	}
}

// A renameScore is a candidate pair of the last step: the indexes of its
// destination (-1: none) and source, and their scores.
type renameScore struct {
	dst, src, score, nameScore int
}

// betterRename is < 0 when a sorts first.
func betterRename(a, b renameScore) int {
	if a.dst < 0 {
		if b.dst < 0 {
			return 0
		}
		return 1
	}
	if b.dst < 0 {
		return -1
	}
	if a.score == b.score {
		return b.nameScore - a.nameScore
	}
	return b.score - a.score
}

// similar pairs the rest, most similar first: each added file keeps its
// best candidates.
func (r *renamer) similar(srcs, dsts []string) {
	var mx []renameScore
	for i, dst := range dsts {
		m := make([]renameScore, candidates)
		for k := range m {
			m[k].dst = -1
		}
		for j, src := range srcs {
			o := renameScore{dst: i, src: j, score: r.similarity(src, dst, minScore)}
			if path.Base(src) == path.Base(dst) {
				o.nameScore = 1
			}
			worst := 0
			for k := 1; k < candidates; k++ {
				if betterRename(m[k], m[worst]) > 0 {
					worst = k
				}
			}
			if betterRename(m[worst], o) > 0 {
				m[worst] = o
			}
		}
		mx = append(mx, m...)
	}
	slices.SortStableFunc(mx, betterRename)
	for _, m := range mx {
		if m.dst < 0 || m.score < minScore {
			break
		}
		if r.usedDst[dsts[m.dst]] || r.usedSrc[srcs[m.src]] {
			continue
		}
		r.record(srcs[m.src], dsts[m.dst])
	}
}

// spanHashes cuts data into chunks (each line, or 64 bytes of a longer
// one; a CR before LF is skipped in text) and adds up their bytes by the
// chunk's hash, as git's similarity counts them.
func spanHashes(data []byte, text bool) map[uint32]int {
	m := map[uint32]int{}
	var acc1, acc2 uint32
	n := 0
	for i := 0; i < len(data); i++ {
		c := uint32(data[i])
		if text && c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			continue
		}
		old1 := acc1
		acc1 = (acc1 << 7) ^ (acc2 >> 25)
		acc2 = (acc2 << 7) ^ (old1 >> 25)
		acc1 += c
		n++
		if n < spanChunkSize && c != '\n' {
			continue
		}
		m[(acc1+acc2*0x61)%spanHashBase] += n
		n, acc1, acc2 = 0, 0, 0
	}
	if n > 0 {
		m[(acc1+acc2*0x61)%spanHashBase] += n
	}
	return m
}
