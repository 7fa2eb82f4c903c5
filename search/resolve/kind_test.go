package resolve

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/outline"
)

// TestKindFromTree: the facts read from the outline's tree (MakeTree, as
// the index makes them) are those of a parse of their own (MakePlain),
// on the standard library's os and net/http; a file of another language
// has none.
func TestKindFromTree(t *testing.T) {
	t.Parallel()
	var files []string
	for _, dir := range []string{"os", "net/http"} {
		m, _ := filepath.Glob(filepath.Join(fixture.GOROOT(), "src", dir, "*.go"))
		files = append(files, m...)
	}
	if len(files) < 50 {
		t.Skipf("%d Go files in GOROOT's os and net/http", len(files))
	}
	for _, p := range files {
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
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(fixture.GOROOT(), "src", "os", "*.go"))
	if len(files) < 20 {
		t.Skipf("%d Go files in GOROOT's os", len(files))
	}
	v := index.NewVocab()
	v.InternString("a word before") // the facts' ids do not start at 0
	for _, p := range files {
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
		// Exported to a store numbering its strings its own way.
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
		if _, err := (Kind{}).Export(nil, in, 1, func(id uint32) uint32 { return id }); err == nil {
			t.Fatalf("%s: ids past the strings exported without an error", p)
		}
	}
}
