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
// entries in base) with added ones (their work tree versions in work).
func detectRenames(deleted, added []string, old, work map[string]*side, base map[string]entry) []renamePair {
	if len(deleted) == 0 || len(added) == 0 {
		return nil
	}
	var pairs []renamePair
	usedSrc := map[string]bool{}
	usedDst := map[string]bool{}
	record := func(src, dst string) {
		pairs = append(pairs, renamePair{src, dst})
		usedSrc[src], usedDst[dst] = true, true
	}
	// 1. Equal blobs. Among several sources, git prefers one not used yet
	// with the same base name, and among equals the one it registered
	// last.
	bySrcID := map[[20]byte][]string{}
	for _, p := range deleted {
		bySrcID[base[p].id] = append(bySrcID[base[p].id], p)
	}
	for _, dst := range added {
		w := work[dst]
		best, bestScore := "", -1
		srcs := bySrcID[w.id]
		for i := len(srcs) - 1; i >= 0; i-- {
			src := srcs[i]
			sm := base[src].mode
			if (!isRegular(sm) || !isRegular(w.mode)) && sm != w.mode {
				continue
			}
			if usedSrc[src] {
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
			record(best, dst)
		}
	}
	var srcs, dsts []string
	for _, p := range deleted {
		if !usedSrc[p] {
			srcs = append(srcs, p)
		}
	}
	for _, p := range added {
		if !usedDst[p] {
			dsts = append(dsts, p)
		}
	}
	if len(srcs) == 0 || len(dsts) == 0 {
		return pairs
	}
	spans := map[string]map[uint32]int{}
	spanOf := func(p string, s *side) map[uint32]int {
		if m, ok := spans[p]; ok {
			return m
		}
		m := spanHashes(s.data, !isBinary(s.data))
		spans[p] = m
		return m
	}
	similarity := func(src, dst string, floor int) int {
		o, w := old[src], work[dst]
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
		a, b := spanOf("s"+src, o), spanOf("d"+dst, w)
		copied := 0
		for h, n := range a {
			copied += min(n, b[h])
		}
		return int(int64(copied) * maxScore / int64(maxSize))
	}
	// 2. Unique base names.
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
		if !ok || j < 0 || usedDst[dsts[j]] {
			continue
		}
		if similarity(src, dsts[j], minBaseScore) >= minBaseScore {
			record(src, dsts[j])
		}
	}
	srcs = slices.DeleteFunc(srcs, func(p string) bool { return usedSrc[p] })
	var left []string
	for _, p := range dsts {
		if !usedDst[p] {
			left = append(left, p)
		}
	}
	dsts = left
	if len(srcs) == 0 || len(dsts) == 0 || len(srcs)*len(dsts) > renameLimit*renameLimit {
		return pairs
	}
	// 3. The rest, most similar first: each added file keeps its best
	// candidates.
	type scored struct {
		dst, src, score, nameScore int
	}
	better := func(a, b scored) int { // < 0 when a sorts first
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
	var mx []scored
	for i, dst := range dsts {
		m := make([]scored, candidates)
		for k := range m {
			m[k].dst = -1
		}
		for j, src := range srcs {
			o := scored{dst: i, src: j, score: similarity(src, dst, minScore)}
			if path.Base(src) == path.Base(dst) {
				o.nameScore = 1
			}
			worst := 0
			for k := 1; k < candidates; k++ {
				if better(m[k], m[worst]) > 0 {
					worst = k
				}
			}
			if better(m[worst], o) > 0 {
				m[worst] = o
			}
		}
		mx = append(mx, m...)
	}
	slices.SortStableFunc(mx, better)
	for _, m := range mx {
		if m.dst < 0 || m.score < minScore {
			break
		}
		if usedDst[dsts[m.dst]] || usedSrc[srcs[m.src]] {
			continue
		}
		record(srcs[m.src], dsts[m.dst])
	}
	return pairs
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
