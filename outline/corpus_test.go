package outline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

const corpusDir = "../testdata/outline"

// TestCorpus outlines every case in testdata/outline/<lang>/: each is
// detected as its folder's language and outlined, well nested. The text
// is compared with NAME.golden beside it by mcpserver's TestOutlineCorpus,
// which prints it as the outline tool does.
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
				if msg := checkNesting(o, src); msg != "" {
					t.Error(msg)
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
