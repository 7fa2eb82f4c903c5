package outline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/grammar"
)

// FuzzOutline outlines any bytes as any registered language: it must not
// panic or hang (a parse stops at its deadline), and the outline must be
// well nested (checkNesting). Its seeds are the outline corpus (-short
// takes every third file of each language: TestCorpus outlines them all),
// the committed testdata/fuzz inputs, and the hostile inputs below.
func FuzzOutline(f *testing.F) {
	langs := grammar.Languages()
	every := 1
	if testing.Short() {
		every = 3
	}
	for i, l := range langs {
		files, _ := filepath.Glob(filepath.Join(corpusDir, l.Name, "*"))
		n := 0
		for _, file := range files {
			if strings.HasSuffix(file, ".golden") {
				continue
			}
			if n++; (n-1)%every != 0 {
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(i), src)
		}
	}
	// Deep nesting (issue 11, defect 4), in the languages it was found in.
	for name, src := range deepInputs(20000) {
		for i, l := range langs {
			if l == grammar.ForPath(name, src) {
				f.Add(uint8(i), src)
			}
		}
	}
	// Huge outlines (issue 11, defect 6), scaled down: thousands of
	// one-line functions, minified code on one line, one long heading;
	// under -short still over fuzzHead, so that ParseHead runs on them.
	huge := 256 << 10
	if testing.Short() {
		huge = fuzzHead + fuzzHead/2
	}
	for name, src := range hugeInputs(huge) {
		for i, l := range langs {
			if l == grammar.ForPath(name, src) {
				f.Add(uint8(i), src)
			}
		}
	}
	// Inputs FuzzOutline found, by language name (the committed seeds
	// name a language by its place in the registry, which moves as
	// languages are added): a definition inside another's head (C, C++)
	// and `export default` with the function on the next line (TSX).
	for _, in := range []struct{ lang, src string }{
		{"cpp", "class {A();}A()&"},
		{"c", "A(struct A{}A(A);"},
		{"tsx", "export default\nfunction(A{}"},
	} {
		f.Add(uint8(slices.Index(langs, grammar.ByName(in.lang))), []byte(in.src))
	}
	f.Fuzz(func(t *testing.T, lang uint8, src []byte) {
		l := langs[int(lang)%len(langs)]
		// A parse that does not end (tree-sitter-swift loops forever on
		// some inputs, see TestParseDeadline) must stop at its deadline.
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start := time.Now()
		o, err := Parse(ctx, l, src)
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("Parse(%s, %q) took %v with a 1s deadline", l.Name, src, d)
		}
		if err != nil && errors.Is(err, context.DeadlineExceeded) {
			return
		}
		if err != nil {
			t.Fatalf("Parse(%s, %q) = %v", l.Name, src, err)
		}
		if err := checkNesting(o, src); err != "" {
			t.Fatalf("Parse(%s, %q): %s\n%s", l.Name, src, err, text(o))
		}
		// The head of a large input, as the outline tool reads it.
		if len(src) <= fuzzHead {
			return
		}
		h, err := ParseHead(ctx, l, src, fuzzHead)
		if err != nil {
			return // the deadline, spent by Parse above
		}
		cut := headCut(src, fuzzHead)
		if want := 1 + bytes.Count(src[:cut], []byte{'\n'}); h.CutLine != want {
			t.Fatalf("ParseHead(%s): CutLine %d; want %d", l.Name, h.CutLine, want)
		}
		if err := checkNesting(h, src[:cut]); err != "" {
			t.Fatalf("ParseHead(%s, %q): %s\n%s", l.Name, src, err, text(h))
		}
	})
}

// fuzzHead is the head FuzzOutline outlines of an input larger than it.
const fuzzHead = 64 << 10

// hugeInputs are files with outlines far over the outline tool's bound,
// of about n bytes, as a hostile user wrote them at 8-15 MB (issue 11,
// defect 6).
func hugeInputs(n int) map[string][]byte {
	var goFuncs, js bytes.Buffer
	goFuncs.WriteString("package big\n\n")
	for i := 0; goFuncs.Len() < n; i++ {
		fmt.Fprintf(&goFuncs, "func F%d(a, b int) int { return a + b*%d }\n", i, i)
	}
	for i := 0; js.Len() < n; i++ {
		fmt.Fprintf(&js, "function f%d(a){return{m%d(){return a}}}var v%d=()=>%d;", i, i, i, i)
	}
	return map[string][]byte{
		"funcs.go":   goFuncs.Bytes(),
		"min.js":     js.Bytes(),
		"heading.md": []byte("# " + strings.Repeat("word ", n/5) + "\n"),
	}
}
