package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/outline"
)

const outlineCorpus = "../testdata/outline"

// TestOutlineCorpus prints the outline of every case in
// testdata/outline/<lang>/ as the outline tool does and compares it with
// NAME.golden beside it: the golden is the tool's answer, with a final
// newline, and empty for a file with nothing to list (the tool then says
// so in a sentence). -update rewrites them; read every line before
// committing.
func TestOutlineCorpus(t *testing.T) {
	t.Parallel()
	langs, err := os.ReadDir(outlineCorpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range langs {
		if !dir.IsDir() {
			continue
		}
		lang := grammar.ByName(dir.Name())
		if lang == nil {
			t.Errorf("testdata/outline/%s: no registered language of that name", dir.Name())
			continue
		}
		files, err := os.ReadDir(filepath.Join(outlineCorpus, dir.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			name := f.Name()
			if f.IsDir() || strings.HasSuffix(name, ".golden") {
				continue
			}
			t.Run(dir.Name()+"/"+name, func(t *testing.T) {
				path := filepath.Join(outlineCorpus, dir.Name(), name)
				src, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				o, err := outline.Parse(context.Background(), lang, src)
				if err != nil {
					t.Fatal(err)
				}
				got, _, _ := boundOutline(o.Entries, maxOutlineAnswer, false)
				if got != "" {
					got += "\n"
				}
				golden := path + ".golden"
				if *update {
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./mcpserver -run TestOutlineCorpus -update, then read the golden)", err)
				}
				if diff := cmp.Diff(string(want), got); diff != "" {
					t.Errorf("outline(%q) mismatch (-want +got):\n%s", path, diff)
				}
			})
		}
	}
}
