package search

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/internal/filetier"
	"github.com/zumba-dev/zumba/search/internal/scan"
)

// coldRef is what a file gave a find_references call before the word
// index: its lines, and whether its first lines say it is generated (its
// lines then come after the others').
type coldRef struct {
	refs      []Ref
	generated bool
}

// nameKeys are the word ids of the words of name (sorted, without
// repeats), for judging the files by their words: all is set when every
// file may hold name (a name without words, or with one too long to be
// indexed); missing when one of its words is not in the vocab yet.
type nameKeys struct {
	words   [][]byte
	ids     []uint32
	all     bool
	missing bool
}

func (ix *Index) nameKeys(name []byte) nameKeys {
	var k nameKeys
	index.ForWords(name, func(w []byte) { k.words = append(k.words, w) })
	if len(k.words) == 0 {
		k.all = true
		return k
	}
	for _, w := range k.words {
		if !index.IndexedWord(w) {
			k.all = true
			return k
		}
	}
	k.ids, k.missing = ix.lookupWords(k.words)
	return k
}

// lookupWords returns the sorted ids of words, and missing when one is not
// in the vocab.
func (ix *Index) lookupWords(words [][]byte) (ids []uint32, missing bool) {
	for _, w := range words {
		id, ok := ix.Words.Lookup(w)
		if !ok {
			return nil, true
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return slices.Compact(ids), false
}

// heldBy reports whether a file whose words are packed (the word pass's
// list) may hold the name as a whole word: it holds every one of its
// words. A word missing from the vocab when the keys were made is looked
// up again: the file's words were added to the vocab before the word
// pass let the call see them.
func (ix *Index) heldBy(k *nameKeys, packed []byte) bool {
	if k.all {
		return true
	}
	ids := k.ids
	if k.missing {
		var missing bool
		if ids, missing = ix.lookupWords(k.words); missing {
			return false
		}
	}
	return index.PackedHolds(packed, ids)
}

// coldReferences answers find_references before the word index is in,
// as the direct search does, within the find_symbol time limit: the
// files the word pass has read are judged by their words and only those
// that may hold the name are read; what each file gave is remembered for
// the next call of the same name (see index_cold.go). When the time
// limit stops it short of the answer, the answer says how many files it
// covered (RefResult.Building).
func (ix *Index) coldReferences(ctx context.Context, name string, filter *project.PathFilter) (*RefResult, error) {
	deadline := StopBy(ctx, ix.symbolTimeLimit())
	start := time.Now().UnixNano()
	v, order, err := ix.coldRanked(ctx, deadline, filter)
	if errors.Is(err, errStillListing) {
		return &RefResult{Building: true}, nil
	}
	if err != nil {
		return nil, err
	}
	call := ix.coldRefs.begin(ctx, name, v.walkLen(), start)
	defer call.end()
	keys := ix.nameKeys([]byte(name))
	sc := NewWordScanner(name)
	per := make([]coldRef, len(order))
	emitted, timedOut := scan.OrderedReusing(ctx, len(order), RefLimit, deadline, func(n int, scr *project.Scratch) int {
		k := int(order[n])
		i := v.walkIndex(k)
		count := func(c coldRef) int {
			per[n] = c
			if c.generated {
				// Not counted: its lines come last.
				return 0
			}
			return len(c.refs)
		}
		if i >= 0 {
			if st, got, at := call.get(i); st != memoUnknown && v.trusted(k, at) {
				return count(got)
			}
			if r, words, ok := v.pass.Covered(i); ok && v.trusted(k, r.Ref) && !ix.heldBy(&keys, words) {
				call.set(i, memoNone, coldRef{})
				return 0
			}
		}
		e := v.files[k]
		data, err := ix.src.Contents(e, scr)
		if err != nil {
			return 0
		}
		c := coldRef{refs: fileRefs(e.Path, data, sc)}
		c.generated = len(c.refs) > 0 && v.tiers[k] < filetier.Vendored && grammar.IsGeneratedHead(data)
		if len(c.refs) == 0 {
			call.set(i, memoNone, c)
		} else {
			call.set(i, memoGot, c)
		}
		return count(c)
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &RefResult{}
	var last []Ref
	for _, c := range per[:emitted] {
		if c.generated {
			last = append(last, c.refs...)
			continue
		}
		res.Refs = append(res.Refs, c.refs...)
		if len(res.Refs) > RefLimit {
			res.Refs, res.More = res.Refs[:RefLimit], true
			return res, nil
		}
	}
	if timedOut {
		res.Building, res.Searched, res.Files = true, emitted, len(order)
	}
	res.Refs = append(res.Refs, last...)
	if len(res.Refs) > RefLimit {
		res.Refs, res.More = res.Refs[:RefLimit], true
	}
	return res, nil
}

// coldSites answers [Index.Sites] before the word index is in, over the
// build's walk (coldView) as coldReferences does: the files the word pass
// has read and found without the name's words are left out unread, and
// the others are searched as [Root.Sites] searches them, in the same
// order, so that the answer is the direct search's. Before the walk has
// listed the files, at the time limit, it answers Sites.Building.
func (ix *Index) coldSites(ctx context.Context, name string, filter *project.PathFilter, opts RefOptions, cache *ParseCache) (*Sites, error) {
	name = strings.TrimSpace(name)
	if err := checkName(name); err != nil {
		return nil, err
	}
	opts.siteLimit, opts.countLimit = cmp.Or(ix.root.SiteTimeLimit, opts.TimeLimit), ix.root.CountTimeLimit
	v, order, err := ix.coldRanked(ctx, StopBy(ctx, cmp.Or(opts.siteLimit, siteTimeLimit)), filter)
	if errors.Is(err, errStillListing) {
		return &Sites{Building: true}, nil
	}
	if err != nil {
		return nil, err
	}
	keys := ix.nameKeys([]byte(name))
	files := make([]project.Entry, 0, len(order))
	for _, k := range order {
		r, words, ok := v.pass.Covered(v.walkIndex(int(k)))
		if ok && v.trusted(int(k), r.Ref) && !ix.heldBy(&keys, words) {
			continue
		}
		files = append(files, v.files[k])
	}
	opts.late = true
	return limitedSites(ctx, files, ix.src, name, opts, cache)
}
