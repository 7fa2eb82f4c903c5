package outline

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/grammar"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/outline")

const corpusDir = "../testdata/outline"

// TestCorpus outlines every case in testdata/outline/<lang>/ and compares
// the text with NAME.golden beside it.
func TestCorpus(t *testing.T) {
	langs, err := os.ReadDir(corpusDir)
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
		files, err := os.ReadDir(filepath.Join(corpusDir, dir.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			name := f.Name()
			if f.IsDir() || strings.HasSuffix(name, ".golden") {
				continue
			}
			t.Run(dir.Name()+"/"+name, func(t *testing.T) {
				path := filepath.Join(corpusDir, dir.Name(), name)
				src, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if l := grammar.ForPath(name, src); l != lang {
					t.Fatalf("ForPath(%q) = %v; want %s", name, l, lang.Name)
				}
				o, err := Parse(context.Background(), lang, src)
				if err != nil {
					t.Fatal(err)
				}
				got := o.Text()
				golden := path + ".golden"
				if *update {
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./outline -update, then read the golden)", err)
				}
				if diff := cmp.Diff(string(want), got); diff != "" {
					t.Errorf("Outline(%q) mismatch (-want +got):\n%s", path, diff)
				}
			})
		}
	}
}

// TestEveryLanguageHasCorpus keeps the registry and the corpus together.
func TestEveryLanguageHasCorpus(t *testing.T) {
	for _, l := range grammar.Languages() {
		files, _ := filepath.Glob(filepath.Join(corpusDir, l.Name, "*.golden"))
		if len(files) == 0 {
			t.Errorf("language %s has no golden cases in testdata/outline/%s", l.Name, l.Name)
		}
	}
}
