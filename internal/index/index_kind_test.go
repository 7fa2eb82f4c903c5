package index

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/outline"
)

// treeKind is a TreeKind whose record names the root's type and the
// number of its named children and definitions, and counts how it was
// made.
type treeKind struct{ trees, plains atomic.Int32 }

func (k *treeKind) MakeTree(path string, data []byte, defs []outline.Definition, lang *grammar.Language, root *sitter.Node) []byte {
	k.trees.Add(1)
	return fmt.Appendf(nil, "%s %s %d %d", lang.Name, root.Type(), root.NamedChildCount(), len(defs))
}

func (k *treeKind) MakePlain(path string, data []byte, defs []outline.Definition) []byte {
	k.plains.Add(1)
	return []byte("plain")
}

func (k *treeKind) Make(path string, data []byte, defs []outline.Definition, _ *Vocab) []byte {
	panic("Make of a plain kind")
}
func (*treeKind) Keys(_ []byte, dst []uint32) []uint32 { return dst }
func (*treeKind) Export(dst, rec []byte, _ uint64, _ func(uint32) uint32) ([]byte, error) {
	return append(dst, rec...), nil
}
func (*treeKind) PathStrings(_ string, dst [][]byte) [][]byte { return dst }
func (*treeKind) Import(dst, rec []byte, _ uint64, _ func(uint32) uint32, _ []uint32) ([]byte, error) {
	return append(dst, rec...), nil
}

// TestTreeKind: a tree kind's record is made from the outline's own
// parse (MakeTree, once), not by a parse of its own (MakePlain), unless
// the index has no tree of the file (records made ahead).
func TestTreeKind(t *testing.T) {
	t.Parallel()
	k := &treeKind{}
	ix := &Index{kinds: []RecordKind{k}, Words: newWordTable()}
	src := []byte("package p\n\nimport \"os\"\n\nfunc F() {}\n\ntype T struct{}\n")
	lang := grammar.ForPath("p.go", src)
	defs, fromTree, ok := ix.parseDefs(context.Background(), "p.go", lang, src)
	if !ok || len(defs) != 2 {
		t.Fatalf("parseDefs: ok %v, %d definitions; want true, 2", ok, len(defs))
	}
	recs := ix.makeRecords("p.go", src, defs, fromTree)
	if got, want := string(recs.Get(0)), "go source_file 4 2"; got != want {
		t.Errorf("record from the tree %q; want %q", got, want)
	}
	if k.trees.Load() != 1 || k.plains.Load() != 0 {
		t.Errorf("MakeTree %d times, MakePlain %d; want 1, 0", k.trees.Load(), k.plains.Load())
	}
	// Ahead of the build: no tree, MakePlain.
	if got := string(ix.makeRecords("p.go", src, defs, nil).Get(0)); got != "plain" {
		t.Errorf("record without a tree %q; want plain", got)
	}
	// No definitions: no record, no tree walk.
	empty := []byte("package p\n")
	defs, fromTree, ok = ix.parseDefs(context.Background(), "q.go", lang, empty)
	if !ok || len(defs) != 0 || ix.makeRecords("q.go", empty, defs, fromTree) != nil || k.trees.Load() != 1 {
		t.Errorf("file without definitions: ok %v, %d definitions, MakeTree %d times; want true, 0, 1", ok, len(defs), k.trees.Load())
	}
}

// TestParseAhead: a call's parse ahead of the build gives the build the
// file's records made from that parse's tree (MakeTree), not by a second
// parse (MakePlain), under the bytes' key.
func TestParseAhead(t *testing.T) {
	t.Parallel()
	k := &treeKind{}
	ix := &Index{kinds: []RecordKind{k}, Words: newWordTable()}
	src := []byte("package p\n\nimport \"os\"\n\nfunc F() {}\n\ntype T struct{}\n")
	defs, ok := ix.ParseAhead(context.Background(), "p.go", src, grammar.ForPath("p.go", src))
	if !ok || len(defs) != 2 {
		t.Fatalf("ParseAhead: ok %v, %d definitions; want true, 2", ok, len(defs))
	}
	recs, ok := ix.Ahead.take("p.go", contentKey("p.go", src))
	if !ok {
		t.Fatal("no records ahead for the file's bytes")
	}
	if got, want := string(recs.Get(0)), "go source_file 4 2"; got != want {
		t.Errorf("record ahead %q; want %q", got, want)
	}
	if k.trees.Load() != 1 || k.plains.Load() != 0 {
		t.Errorf("MakeTree %d times, MakePlain %d; want 1, 0", k.trees.Load(), k.plains.Load())
	}
}
