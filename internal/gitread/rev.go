package gitread

import (
	"container/heap"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrUnknownRevision is returned for a name that names no commit.
var ErrUnknownRevision = errors.New("unknown revision")

// ErrNoMergeBase is returned when two commits share no commit that the
// repository holds (a shallow clone without it, or unrelated histories).
var ErrNoMergeBase = errors.New("no merge base")

// MissingError is an object the repository lacks (a partial or shallow
// clone): zumba never fetches it.
type MissingError struct {
	ID   plumbing.Hash
	What string // what it is, e.g. "the blob of a.go at the base"
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("the repository lacks object %s (%s): a partial or shallow clone; zumba does not fetch, run git fetch and ask again", e.ID, e.What)
}

// object reads an object from the repository's storage or its
// alternates.
func (r *Repo) object(t plumbing.ObjectType, id plumbing.Hash) (plumbing.EncodedObject, error) {
	var err error
	for _, s := range r.objects {
		var o plumbing.EncodedObject
		if o, err = s.EncodedObject(t, id); err == nil {
			return o, nil
		}
		if !errors.Is(err, plumbing.ErrObjectNotFound) {
			return nil, err
		}
	}
	return nil, err
}

// commit reads a commit.
func (r *Repo) commit(id plumbing.Hash) (*commitInfo, error) {
	o, err := r.object(plumbing.CommitObject, id)
	if err != nil {
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return nil, &MissingError{ID: id, What: "a commit"}
		}
		return nil, err
	}
	return parseCommit(o)
}

// maxRefDepth bounds a chain of symbolic references.
const maxRefDepth = 10

// ref resolves a reference name to the object it names, following
// symbolic references; ok is false when it does not exist.
func (r *Repo) ref(name string) (plumbing.Hash, bool) {
	n := plumbing.ReferenceName(name)
	for range maxRefDepth {
		ref, err := r.store.Reference(n)
		if err != nil {
			return plumbing.ZeroHash, false
		}
		if ref.Type() == plumbing.HashReference {
			return ref.Hash(), true
		}
		n = ref.Target()
	}
	return plumbing.ZeroHash, false
}

// peel follows tags to the commit they name.
func (r *Repo) peel(id plumbing.Hash) (plumbing.Hash, error) {
	for range maxRefDepth {
		o, err := r.object(plumbing.AnyObject, id)
		if err != nil {
			return id, err
		}
		switch o.Type() {
		case plumbing.CommitObject:
			return id, nil
		case plumbing.TagObject:
			if id, err = parseTagTarget(o); err != nil {
				return id, err
			}
		default:
			return id, ErrUnknownRevision
		}
	}
	return id, ErrUnknownRevision
}

// Head is the commit HEAD names.
func (r *Repo) Head() (string, error) {
	id, ok := r.ref("HEAD")
	if !ok {
		return "", ErrUnknownRevision
	}
	id, err := r.peel(id)
	return id.String(), err
}

// Resolve returns the commit rev names: HEAD, a branch, tag or remote
// branch (found as git finds a short name), a full or abbreviated commit
// id, each optionally followed by ~N, ^N and ^{commit} steps.
func (r *Repo) Resolve(rev string) (string, error) {
	if rev == "" || len(rev) > 1024 || strings.ContainsAny(rev, "\x00\n :?*[\\") || strings.HasPrefix(rev, "-") || strings.Contains(rev, "..") || strings.Contains(rev, "@{") {
		return "", ErrUnknownRevision
	}
	name, steps := rev, ""
	if i := strings.IndexAny(rev, "~^"); i >= 0 {
		name, steps = rev[:i], rev[i:]
	}
	id, err := r.resolveName(name)
	if err != nil {
		return "", err
	}
	if id, err = r.peel(id); err != nil {
		return "", r.unknown(err)
	}
	for steps != "" {
		op := steps[0]
		steps = steps[1:]
		if op == '^' && strings.HasPrefix(steps, "{") {
			end := strings.IndexByte(steps, '}')
			if end < 0 || (steps[1:end] != "commit" && steps[1:end] != "") {
				return "", ErrUnknownRevision
			}
			steps = steps[end+1:]
			continue
		}
		n := 0
		for n < len(steps) && steps[n] >= '0' && steps[n] <= '9' {
			n++
		}
		count := 1
		if n > 0 {
			if count, err = strconv.Atoi(steps[:n]); err != nil || count > 1<<20 {
				return "", ErrUnknownRevision
			}
		}
		steps = steps[n:]
		if op == '^' {
			if count == 0 {
				continue
			}
			if id, err = r.parent(id, count-1); err != nil {
				return "", err
			}
			continue
		}
		for range count {
			if id, err = r.parent(id, 0); err != nil {
				return "", err
			}
		}
	}
	return id.String(), nil
}

func (r *Repo) unknown(err error) error {
	var missing *MissingError
	if errors.As(err, &missing) {
		return err
	}
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return ErrUnknownRevision
	}
	return err
}

// parent is the i-th parent of commit id.
func (r *Repo) parent(id plumbing.Hash, i int) (plumbing.Hash, error) {
	c, err := r.commit(id)
	if err != nil {
		return id, err
	}
	if i >= len(c.parents) {
		return id, ErrUnknownRevision
	}
	return c.parents[i], nil
}

// resolveName finds a name as git does: a full commit id, HEAD, then the
// references refs/NAME, refs/tags/NAME, refs/heads/NAME,
// refs/remotes/NAME, refs/remotes/NAME/HEAD, then an abbreviated id.
func (r *Repo) resolveName(name string) (plumbing.Hash, error) {
	if name == "@" {
		name = "HEAD"
	}
	if len(name) == 40 && isHex(name) {
		return plumbing.NewHash(name), nil
	}
	for _, full := range []string{name, "refs/" + name, "refs/tags/" + name, "refs/heads/" + name, "refs/remotes/" + name, "refs/remotes/" + name + "/HEAD"} {
		if full != "HEAD" && !strings.HasPrefix(full, "refs/") {
			continue
		}
		if id, ok := r.ref(full); ok {
			return id, nil
		}
	}
	if len(name) >= 4 && len(name) < 40 && isHex(name) {
		var found []plumbing.Hash
		for _, s := range r.objects {
			ids, err := s.HashesWithPrefix(hexPrefix(name))
			if err != nil {
				continue
			}
			for _, id := range ids {
				if strings.HasPrefix(id.String(), strings.ToLower(name)) {
					found = append(found, id)
				}
			}
		}
		var commits []plumbing.Hash
		for _, id := range found {
			if c, err := r.peel(id); err == nil {
				commits = append(commits, c)
			}
		}
		if len(commits) == 1 {
			return commits[0], nil
		}
	}
	return plumbing.ZeroHash, ErrUnknownRevision
}

// hexPrefix is the whole bytes of an abbreviated id.
func hexPrefix(s string) []byte {
	s = s[:len(s)&^1]
	b := make([]byte, len(s)/2)
	for i := range b {
		v, _ := strconv.ParseUint(s[2*i:2*i+2], 16, 8)
		b[i] = byte(v)
	}
	return b
}

func isHex(s string) bool {
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// maxMergeBaseCommits bounds the commits a merge base search reads.
const maxMergeBaseCommits = 1 << 20

// MergeBase is the best common ancestor of commits a and b, as git
// merge-base finds it: both histories are walked newest first (by commit
// date; the commit-graph file, where there is one, gives the dates and
// parents without reading the commits) until every commit still queued
// is an ancestor of a common one found; of the common ones, the newest
// that no other reaches. A shallow clone's boundary commits count as
// having no parent.
func (r *Repo) MergeBase(a, b string) (string, error) {
	ia, ib := plumbing.NewHash(a), plumbing.NewHash(b)
	if ia == ib {
		return a, nil
	}
	nodes := r.newCommitNodes()
	defer nodes.close()
	type mark uint8
	const (
		fromA mark = 1 << iota
		fromB
		stale
	)
	marks := map[plumbing.Hash]mark{}
	q := &nodeQueue{}
	for _, start := range []struct {
		id plumbing.Hash
		m  mark
	}{{ia, fromA}, {ib, fromB}} {
		n, err := nodes.get(start.id)
		if err != nil {
			return "", err
		}
		marks[start.id] |= start.m
		heap.Push(q, n)
	}
	var common []*commitNode
	read := 0
	for q.Len() > 0 {
		// Stop when every queued commit is stale.
		allStale := true
		for _, n := range q.items {
			if marks[n.id]&stale == 0 {
				allStale = false
				break
			}
		}
		if allStale {
			break
		}
		if read++; read > maxMergeBaseCommits {
			return "", fmt.Errorf("merge base: over %d commits read", maxMergeBaseCommits)
		}
		n := heap.Pop(q).(*commitNode)
		flags := marks[n.id]
		if flags&(fromA|fromB) == fromA|fromB && flags&stale == 0 {
			if !slices.Contains(common, n) {
				common = append(common, n)
			}
			// What a common commit reaches is not a best one.
			flags |= stale
		}
		if r.shallow[n.id] {
			continue
		}
		for _, p := range n.parents {
			if marks[p]&flags == flags {
				continue
			}
			marks[p] |= flags
			pn, err := nodes.get(p)
			if err != nil {
				if isMissing(err) {
					// Beyond what the repository holds: a shallow clone
					// without its shallow file, or a partial one.
					continue
				}
				return "", err
			}
			heap.Push(q, pn)
		}
	}
	// Of the common ones not reached from another, git names the newest
	// that no other reaches.
	common = slices.DeleteFunc(common, func(c *commitNode) bool { return marks[c.id]&stale != 0 })
	slices.SortStableFunc(common, func(x, y *commitNode) int { return y.when.Compare(x.when) })
	for _, c := range common {
		if !r.reachedByOther(nodes, c, common) {
			return c.id.String(), nil
		}
	}
	return "", ErrNoMergeBase
}

// reachedByOther reports whether another of the common commits reaches c
// (then c is not a best common ancestor), walking down to commits older
// than c.
func (r *Repo) reachedByOther(nodes *commitNodes, c *commitNode, common []*commitNode) bool {
	if len(common) < 2 {
		return false
	}
	seen := map[plumbing.Hash]bool{}
	q := &nodeQueue{}
	for _, o := range common {
		if o != c {
			heap.Push(q, o)
		}
	}
	for read := 0; q.Len() > 0 && read < maxMergeBaseCommits; read++ {
		n := heap.Pop(q).(*commitNode)
		if n.id == c.id {
			return true
		}
		if n.when.Before(c.when) || r.shallow[n.id] {
			continue
		}
		for _, p := range n.parents {
			if seen[p] {
				continue
			}
			seen[p] = true
			if pn, err := nodes.get(p); err == nil {
				heap.Push(q, pn)
			}
		}
	}
	return false
}

// nodeQueue holds commits newest first by commit date, as git walks
// without generation numbers; commits of the same date in the order they
// were queued, as git's queue keeps them.
type nodeQueue struct {
	items []*commitNode
	seq   []int
	n     int
}

func (q *nodeQueue) Len() int { return len(q.items) }
func (q *nodeQueue) Less(i, j int) bool {
	if c := q.items[i].when.Compare(q.items[j].when); c != 0 {
		return c > 0
	}
	return q.seq[i] < q.seq[j]
}
func (q *nodeQueue) Swap(i, j int) {
	q.items[i], q.items[j] = q.items[j], q.items[i]
	q.seq[i], q.seq[j] = q.seq[j], q.seq[i]
}
func (q *nodeQueue) Push(x any) {
	q.items = append(q.items, x.(*commitNode))
	q.seq = append(q.seq, q.n)
	q.n++
}
func (q *nodeQueue) Pop() any {
	x := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	q.seq = q.seq[:len(q.seq)-1]
	return x
}
