package gitread

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	commitgraph "github.com/go-git/go-git/v5/plumbing/format/commitgraph/v2"
)

// The three kinds of objects read here are decoded here, in a few lines
// each, rather than with go-git's plumbing/object, which would bring
// signature checking (OpenPGP and its ciphers), a text diff library and
// more into the binary for nothing this package needs.

// maxObject bounds a commit, tag or tree object read.
const maxObject = 64 << 20

// commitInfo is what the diff needs of a commit.
type commitInfo struct {
	tree    plumbing.Hash
	parents []plumbing.Hash
	when    time.Time // the committer's date
}

// readAll reads an object's bytes, at most maxObject.
func readAll(o plumbing.EncodedObject) ([]byte, error) {
	if o.Size() > maxObject {
		return nil, fmt.Errorf("object %s is over %d bytes", o.Hash(), maxObject)
	}
	r, err := o.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, maxObject))
}

// parseCommit reads a commit's headers: tree, parents, committer date.
func parseCommit(o plumbing.EncodedObject) (*commitInfo, error) {
	data, err := readAll(o)
	if err != nil {
		return nil, err
	}
	c := &commitInfo{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxObject)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			break // the message
		}
		key, val, _ := bytes.Cut(line, []byte(" "))
		switch string(key) {
		case "tree":
			c.tree = plumbing.NewHash(string(val))
		case "parent":
			c.parents = append(c.parents, plumbing.NewHash(string(val)))
		case "committer":
			c.when = signatureTime(val)
		}
	}
	if c.tree.IsZero() {
		return nil, fmt.Errorf("commit %s has no tree", o.Hash())
	}
	return c, nil
}

// signatureTime is the date of "NAME <EMAIL> SECONDS ZONE".
func signatureTime(sig []byte) time.Time {
	if i := bytes.LastIndexByte(sig, '>'); i >= 0 {
		sig = sig[i+1:]
	}
	fields := bytes.Fields(sig)
	if len(fields) == 0 {
		return time.Time{}
	}
	sec, err := strconv.ParseInt(string(fields[0]), 10, 64)
	if err != nil {
		return time.Time{}
	}
	return time.Unix(sec, 0)
}

// parseTagTarget is the object a tag names.
func parseTagTarget(o plumbing.EncodedObject) (plumbing.Hash, error) {
	data, err := readAll(o)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	val, ok := bytes.CutPrefix(line, []byte("object "))
	if !ok {
		return plumbing.ZeroHash, fmt.Errorf("tag %s names no object", o.Hash())
	}
	return plumbing.NewHash(string(val)), nil
}

// treeEntry is one entry of a tree object.
type treeEntry struct {
	name string
	mode filemode.FileMode
	id   plumbing.Hash
}

// parseTree reads a tree: entries of "MODE NAME\0" and 20 bytes of id.
func parseTree(o plumbing.EncodedObject) ([]treeEntry, error) {
	data, err := readAll(o)
	if err != nil {
		return nil, err
	}
	var out []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || len(data) < nul+1+20 {
			return nil, fmt.Errorf("tree %s is malformed", o.Hash())
		}
		mode, err := filemode.New(string(data[:sp]))
		if err != nil {
			return nil, fmt.Errorf("tree %s: %w", o.Hash(), err)
		}
		e := treeEntry{name: string(data[sp+1 : nul]), mode: mode}
		copy(e.id[:], data[nul+1:nul+21])
		out = append(out, e)
		data = data[nul+21:]
	}
	return out, nil
}

// commitNode is a commit as the merge base walk sees it.
type commitNode struct {
	id      plumbing.Hash
	parents []plumbing.Hash
	when    time.Time
}

// commitNodes reads commits for the merge base walk: through the
// commit-graph file where it holds them (no commit object is read), else
// from their objects.
type commitNodes struct {
	r     *Repo
	graph commitgraph.Index
	seen  map[plumbing.Hash]*commitNode
}

func (r *Repo) newCommitNodes() *commitNodes {
	n := &commitNodes{r: r, seen: map[plumbing.Hash]*commitNode{}}
	if idx, err := commitgraph.OpenChainOrFileIndex(r.store.Filesystem()); err == nil {
		n.graph = idx
	}
	return n
}

func (n *commitNodes) close() {
	if n.graph != nil {
		n.graph.Close()
	}
}

// get returns the commit id; a MissingError when the repository lacks it.
func (n *commitNodes) get(id plumbing.Hash) (*commitNode, error) {
	if c, ok := n.seen[id]; ok {
		return c, nil
	}
	var c *commitNode
	if n.graph != nil {
		if i, err := n.graph.GetIndexByHash(id); err == nil {
			if d, err := n.graph.GetCommitDataByIndex(i); err == nil {
				c = &commitNode{id: id, parents: d.ParentHashes, when: d.When}
			}
		}
	}
	if c == nil {
		info, err := n.r.commit(id)
		if err != nil {
			return nil, err
		}
		c = &commitNode{id: id, parents: info.parents, when: info.when}
	}
	n.seen[id] = c
	return c, nil
}

// isMissing reports whether err says an object is missing.
func isMissing(err error) bool {
	var m *MissingError
	return errors.As(err, &m) || errors.Is(err, plumbing.ErrObjectNotFound)
}
