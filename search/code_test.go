package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/internal/index"
)

const codeProject = `
-- mime/mediatype.go --
package mime

// ParseMediaType parses a media type value and any optional
// parameters, per RFC 1521.
func ParseMediaType(v string) (mediatype string, params map[string]string, err error) {
	return "", nil, nil
}

// FormatMediaType serializes mediatype t and the parameters.
func FormatMediaType(t string, param map[string]string) string {
	return ""
}
-- retry/backoff.go --
package retry

// Do calls f until it succeeds, waiting longer after each failure.
func Do(f func() error) error {
	delay := 1
	for attempt := 0; attempt < 5; attempt++ {
		if f() == nil {
			return nil
		}
		sleepExponential(delay)
		delay *= 2
	}
	return nil
}

func sleepExponential(d int) {}
-- retry/backoff_test.go --
package retry

func TestParseMediaTypeRetry(t *testing.T) {}
`

func TestCode(t *testing.T) {
	dir := fixture.Unpack(t, txtar.Parse([]byte(codeProject)))
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	ask := func(q string) []string {
		t.Helper()
		res, err := root.Code(context.Background(), q, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, d := range res.Defs {
			out = append(out, d.Path+" "+d.QualifiedName()+" | "+d.Doc)
		}
		return out
	}
	got := ask("parse media type parameters")
	want := []string{
		"mime/mediatype.go ParseMediaType | ParseMediaType parses a media type value and any optional",
	}
	if diff := cmp.Diff(want, got[:1]); diff != "" {
		t.Errorf("(-want +got)\n%s\nall: %q", diff, got)
	}
	got = ask("retry with exponential backoff")
	if len(got) == 0 || !strings.HasPrefix(got[0], "retry/backoff.go") {
		t.Errorf("retry: %q", got)
	}
	t.Logf("%q", got)
}

// codeAnswer is Code's answer as lines, for comparing.
func codeAnswer(t *testing.T, s Searcher, q string) []string {
	t.Helper()
	res, err := s.Code(context.Background(), q, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range res.Defs {
		out = append(out, fmt.Sprintf("%s:%d-%d %s %.4f", d.Path, d.Start, d.End, d.QualifiedName(), d.Score))
	}
	return out
}

var codeQueries = []string{"parse media type parameters", "retry backoff", "exponential", "mime", "nothing here at all"}

// TestCodeIndex: the index answers as a fresh search does, after a
// restart from the disk cache (which rebuilds the words' postings) and
// after a file changes.
func TestCodeIndex(t *testing.T) {
	t.Parallel()
	dir := fixture.Unpack(t, txtar.Parse([]byte(codeProject)))
	touchPast(t, dir)
	cache := filepath.Join(t.TempDir(), "files")
	same := func(what string, ix *Index, root *Root) {
		t.Helper()
		for _, q := range codeQueries {
			if diff := cmp.Diff(codeAnswer(t, root, q), codeAnswer(t, ix, q)); diff != "" {
				t.Errorf("%s: Code(%q) (-root +index)\n%s", what, q, diff)
			}
		}
	}
	ix, root, _ := testIndex(t, dir, cache, true)
	same("built", ix, root)
	ix.Close()
	ix, root, logs := testIndex(t, dir, cache, true)
	if ix.Cached == 0 {
		t.Fatalf("nothing from the cache; log:\n%s", logs)
	}
	same("restarted", ix, root)
	if got := codeAnswer(t, ix, "exponential"); !strings.Contains(strings.Join(got, " "), "sleepExponential") {
		t.Errorf("exponential: %q", got)
	}
	fixture.WriteFile(t, dir, "retry/backoff.go", "package retry\n\n// Wait sleeps a jittered while.\nfunc Wait() {}\n")
	same("changed", ix, root)
	if got := codeAnswer(t, ix, "exponential"); len(got) != 0 {
		t.Errorf("exponential after the change: %q", got)
	}
	if got := codeAnswer(t, ix, "jittered"); len(got) != 1 || !strings.Contains(got[0], "Wait") {
		t.Errorf("jittered after the change: %q", got)
	}
}

// TestCodeRecordDamage: a damaged record never panics the scorer.
func TestCodeRecordDamage(t *testing.T) {
	dir := fixture.Unpack(t, txtar.Parse([]byte(codeProject)))
	ix, _, _ := testIndex(t, dir, "-", true)
	ix.Mu.Lock()
	var recs []*index.FileRec
	for _, r := range ix.Files {
		if r != nil && len(r.Recs.Get(kindCode)) > 0 {
			recs = append(recs, r)
		}
	}
	orig := make([][]byte, len(recs))
	defs := make([][]byte, len(recs))
	for i, r := range recs {
		orig[i], defs[i] = r.Recs.Get(kindCode), r.Recs.Get(kindDefs)
	}
	ix.Mu.Unlock()
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		ix.Mu.Lock()
		for i, r := range recs {
			c := slices.Clone(orig[i])
			c[rng.IntN(len(c))] = byte(rng.IntN(256))
			if rng.IntN(3) == 0 {
				c = c[:rng.IntN(len(c))]
			}
			r.Recs = index.PackRecords([][]byte{kindDefs: defs[i], kindCode: c})
		}
		ix.Mu.Unlock()
		for _, q := range codeQueries {
			ix.Code(context.Background(), q, nil)
		}
	}
}

// TestCodePartial: before every file's definitions are known, find_code
// answers from the files it could parse within the time limit and says
// so; once the index is complete, it answers in full.
func TestCodePartial(t *testing.T) {
	dir := freshProject(t)
	// Not just written: a sweep would read them again at each call.
	touchPast(t, dir)
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(root, index.Options{CacheFile: "-", NoWatch: true})
	ix.symbolLimit = time.Nanosecond
	ix.HoldSymbols = make(chan struct{})
	ix.Start(context.Background())
	defer ix.Close()
	for {
		if words, _, _ := ix.Progress(); words {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	res, err := ix.Code(context.Background(), "shared method", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Building || res.Indexed >= res.Files {
		t.Errorf("before the symbol pass: building %v, %d of %d files; want part", res.Building, res.Indexed, res.Files)
	}
	close(ix.HoldSymbols)
	<-ix.Ready()
	res, err = ix.Code(context.Background(), "shared method", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Building || len(res.Defs) == 0 {
		t.Errorf("complete: building %v, %d definitions; want a complete answer", res.Building, len(res.Defs))
	}
}
