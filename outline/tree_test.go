package outline

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

// TestOutlineTree outlines every file of a real source tree named by
// ZUMBA_OUTLINE_TREE (scripts/swift-npm-check fetches one: the Swift
// sources an npm package ships). Every file must outline without error;
// files the grammar cannot fully parse are listed, since their entries
// near the error may be lost. ZUMBA_OUTLINE_LANG keeps one language.
func TestOutlineTree(t *testing.T) {
	root, only := os.Getenv("ZUMBA_OUTLINE_TREE"), os.Getenv("ZUMBA_OUTLINE_LANG")
	if root == "" {
		t.Skip("set ZUMBA_OUTLINE_TREE to a source tree to outline it whole")
	}
	var files, lines, entries int
	var partial []string
	perLang := map[string]int{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lang := grammar.ForPath(p, src)
		if lang == nil || lang.Name == "markdown" || (only != "" && lang.Name != only) {
			return nil
		}
		o, err := Parse(context.Background(), lang, src)
		if err != nil {
			t.Errorf("outline %s: %v", p, err)
			return nil
		}
		files++
		perLang[lang.Name]++
		lines += strings.Count(string(src), "\n")
		entries += len(o.Definitions(""))
		if o.Partial {
			rel, _ := filepath.Rel(root, p)
			partial = append(partial, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(partial)
	t.Logf("%d files %v, %d lines, %d entries; %d with syntax errors the grammar reports:", files, perLang, lines, entries, len(partial))
	for _, p := range partial {
		t.Logf("  %s", p)
	}
}
