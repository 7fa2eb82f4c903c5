package resolve

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
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
		m, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", dir, "*.go"))
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
