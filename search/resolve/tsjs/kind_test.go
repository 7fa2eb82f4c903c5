package tsjs

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search/resolve/factrec"
)

// corpus is the outline's TypeScript, TSX and JavaScript corpus.
func corpus(t *testing.T) []string {
	var files []string
	for _, lang := range []string{"typescript", "tsx", "javascript"} {
		m, _ := filepath.Glob(filepath.Join("../../../testdata/outline", lang, "*"))
		for _, p := range m {
			if !strings.HasSuffix(p, ".golden") && Reads(p) {
				files = append(files, p)
			}
		}
	}
	if len(files) < 20 {
		t.Fatalf("%d files in the outline's TypeScript and JavaScript corpus", len(files))
	}
	return files
}

// TestKindFromTree: the facts read from the outline's tree (MakeTree, as
// the index makes them) are those of a parse of their own (MakePlain);
// a file of another language has none.
func TestKindFromTree(t *testing.T) {
	for _, p := range corpus(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lang := grammar.ForPath(p, data)
		var fromTree []byte
		o, err := outline.ParseTree(context.Background(), lang, data, func(o *outline.Outline, root *sitter.Node) {
			fromTree = Kind{}.MakeTree(p, data, o.Definitions(""), lang, root)
		})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		plain := Kind{}.MakePlain(p, data, o.Definitions(""))
		if len(plain) == 0 || !bytes.Equal(fromTree, plain) {
			t.Errorf("%s: facts from the outline's tree (%d bytes) differ from a parse's own (%d bytes)", p, len(fromTree), len(plain))
		}
	}
	py := []byte("def f():\n    return 1\n")
	lang := grammar.ForPath("f.py", py)
	outline.ParseTree(context.Background(), lang, py, func(o *outline.Outline, root *sitter.Node) {
		if rec := (Kind{}).MakeTree("f.py", py, o.Definitions(""), lang, root); rec != nil {
			t.Errorf("facts of a Python file: %d bytes; want none", len(rec))
		}
	})
}

// TestKindIntern: a record with its strings as vocab ids (Intern, as the
// index keeps it) decodes to the same facts as the record Encode made,
// and still does once exported with another numbering of the strings
// (the store's) and imported back; an id past the strings is an error.
func TestKindIntern(t *testing.T) {
	v := index.NewVocab()
	v.InternString("a word before") // the facts' ids do not start at 0
	for _, p := range corpus(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rec := Kind{}.MakePlain(p, data, nil)
		plain, err := Decode(rec)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		want := Encode(plain)
		in := Kind{}.Intern(rec, v)
		got, err := DecodeIn(in, v.View())
		if err != nil || !bytes.Equal(Encode(got), want) {
			t.Fatalf("%s: interned record decodes to other facts (%v)", p, err)
		}
		store := index.NewVocab()
		n := uint64(v.Len())
		out, err := Kind{}.Export(nil, in, n, func(id uint32) uint32 { return store.InternString(v.View().Str(id)) })
		if err != nil {
			t.Fatal(err)
		}
		back, err := Kind{}.Import(nil, out, uint64(store.Len()), func(id uint32) uint32 { return v.InternString(store.View().Str(id)) }, nil)
		if err != nil || !bytes.Equal(back, in) {
			t.Fatalf("%s: exported and imported back: %v, equal %v", p, err, bytes.Equal(back, in))
		}
		if ns := (&factrec.Decoder{B: in[1:]}).N(); ns == 0 {
			continue
		}
		if _, err := (Kind{}).Export(nil, in, 1, func(id uint32) uint32 { return id }); err == nil {
			t.Fatalf("%s: ids past the strings exported without an error", p)
		}
	}
}
