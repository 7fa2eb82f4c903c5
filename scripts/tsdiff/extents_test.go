//go:build tsdiff

package tsdiff

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/outline"
)

// extentRef is one entry of outline.js --extents: the name's line and the
// definition's first and last lines as the TypeScript compiler sees them.
type extentRef struct {
	line, first, last int
	kind, name        string
}

// TestTSDiffExtents compares, for every entry outline.js lists in the
// pinned packages, the extent read_symbol gives for PATH:LINE of its name
// (the innermost definition holding that line) with the compiler's: the
// node's first line, comments directly above included, to its last line.
// Files with syntax errors are counted apart.
func TestTSDiffExtents(t *testing.T) {
	if os.Getenv("ZUMBA_TSDIFF") == "" {
		t.Skip("set ZUMBA_TSDIFF=1 to compare with the TypeScript compiler (needs node, npm and the npm registry)")
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH", tool)
		}
	}
	installTypeScript(t)
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, p := range packages {
		fs, err := sources(unpack(t, p.spec))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	ref := extentReference(t, files)
	type tally struct{ n, agreed int }
	byLang := map[string]*tally{}
	var clean, partial tally
	var report bytes.Buffer
	for _, f := range files {
		lang := grammar.ForPath(f, nil)
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		o, err := outline.Parse(ctx, lang, src)
		cancel()
		if err != nil {
			t.Fatalf("outline %s: %v", f, err)
		}
		tl := &clean
		if o.Partial {
			tl = &partial
		}
		if byLang[lang.Name] == nil {
			byLang[lang.Name] = &tally{}
		}
		for _, r := range ref[f] {
			tl.n++
			byLang[lang.Name].n++
			first, last, ok := extentAt(o, r.line)
			if ok && first == r.first && last == r.last {
				tl.agreed++
				byLang[lang.Name].agreed++
				continue
			}
			if !o.Partial {
				fmt.Fprintf(&report, "%s:%d %s %s: tsc %d-%d, zumba %d-%d\n", f, r.line, r.kind, r.name, r.first, r.last, first, last)
			}
		}
	}
	reportPath := filepath.Join(cacheDir, "extents-report.txt")
	if err := os.WriteFile(reportPath, report.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	pct := func(tl tally) float64 { return 100 * float64(tl.agreed) / float64(max(tl.n, 1)) }
	for _, l := range []string{"typescript", "tsx", "javascript"} {
		if tl := byLang[l]; tl != nil {
			t.Logf("%-12s %6d/%6d extents agree (%.3f%%)", l, tl.agreed, tl.n, pct(*tl))
		}
	}
	t.Logf("files without syntax errors: %d/%d (%.3f%%); with syntax errors: %d/%d; disagreements: %s",
		clean.agreed, clean.n, pct(clean), partial.agreed, partial.n, reportPath)
	if pct(clean) < 99 {
		lines := strings.SplitAfterN(report.String(), "\n", 31)
		t.Errorf("extents agree for %.3f%% of definitions in files without syntax errors; want at least 99%%; first disagreements:\n%s",
			pct(clean), strings.Join(lines[:min(len(lines), 30)], ""))
	}
}

// extentReference runs outline.js --extents once over every file.
func extentReference(t *testing.T, files []string) map[string][]extentRef {
	cmd := exec.Command("node", "outline.js", "--extents")
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node outline.js --extents: %v\n%s", err, stderr.String())
	}
	ref := map[string][]extentRef{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var rec struct {
			File    string
			Entries [][]any
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("node outline.js --extents: %v", err)
		}
		for _, e := range rec.Entries {
			ref[rec.File] = append(ref[rec.File], extentRef{
				line:  int(e[0].(float64)),
				kind:  e[1].(string),
				name:  e[2].(string),
				first: int(e[4].(float64)),
				last:  int(e[5].(float64)),
			})
		}
	}
	return ref
}

// extentAt is the extent of the innermost definition holding line, as
// read_symbol PATH:LINE finds it.
func extentAt(o *outline.Outline, line int) (first, last int, ok bool) {
	defs := o.Definitions("")
	i, inside := outline.Enclosing(defs, line)
	if i < 0 || !inside {
		return 0, 0, false
	}
	return defs[i].Start, defs[i].End, true
}
