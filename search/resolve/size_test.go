package resolve

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/internal/index"
)

// TestFactsSize sums the facts' records of the Go files under
// ZUMBA_FACTS_SIZE_DIR, by part.
func TestFactsSize(t *testing.T) {
	dir := os.Getenv("ZUMBA_FACTS_SIZE_DIR")
	if dir == "" {
		t.Skip("ZUMBA_FACTS_SIZE_DIR is not set")
	}
	var src, total, interned, noLocals, noSites, nSites, nLocals, nExprs int
	v := index.NewVocab()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		data, _ := os.ReadFile(p)
		f := Parse(data)
		if f == nil {
			return nil
		}
		src += len(data)
		rec := Encode(f)
		total += len(rec)
		in := Kind{}.Intern(rec, v)
		interned += len(in)
		nSites, nLocals, nExprs = nSites+len(f.Sites), nLocals+len(f.Locals), nExprs+len(f.Exprs)
		g := *f
		g.Locals = nil
		noLocals += len(Encode(&g))
		g = *f
		g.Sites = nil
		noSites += len(Encode(&g))
		return nil
	})
	t.Logf("Go source %d KiB: facts %d KiB (locals %d KiB, sites %d KiB); %d sites, %d locals, %d expressions",
		src>>10, total>>10, (total-noLocals)>>10, (total-noSites)>>10, nSites, nLocals, nExprs)
	t.Logf("in the index, strings as vocab ids: %d KiB (%d strings in the vocab)", interned>>10, v.Len())
}
