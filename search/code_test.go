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

func TestCodeWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ParseMediaType", "pars media typ"},
		{"HTTPServer", "http server"},
		{"utf8Reader base64_encode", "utf8 reader base64 encod"},
		{"parses parsing parsed parse", "pars pars pars pars"},
		{"entries mapped running the of 123 x", "entry map run"},
		{"ÜberÄrger", "über ärger"},
	} {
		var got []string
		forCodeWords([]byte(tc.in), nil, func(w []byte) { got = append(got, string(w)) })
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("forCodeWords(%q) = %q; want %q", tc.in, s, tc.want)
		}
	}
}

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

func TestPrivateName(t *testing.T) {
	for _, tc := range []struct {
		name         string
		goFile, want bool
	}{
		{"ParseMediaType", true, false},
		{"parseMediaType", true, true},
		{"parse_media_type", false, false},
		{"_parse", false, true},
		{"#field", false, true},
		{"Über", true, false},
		{"über", true, true},
		{"", true, false},
	} {
		if got := privateName(tc.name, tc.goFile); got != tc.want {
			t.Errorf("privateName(%q, %v) = %v; want %v", tc.name, tc.goFile, got, tc.want)
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
	ix := NewIndex(root, index.Options{CacheFile: "-", NoWatch: true, SymbolTimeLimit: time.Nanosecond})
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

// TestCodeBound: find_code's scoring stops at the files whose bound
// cannot pass the best CodeLimit found, and answers as scoring every file
// holding a query word does (here on this package's own files).
func TestCodeBound(t *testing.T) {
	t.Parallel()
	root, err := OpenRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(root, index.Options{CacheFile: "-", NoWatch: true})
	defer ix.Close()
	ix.Build(context.Background())
	codeBoundSame(t, ix, []string{
		"parse the file and return its definitions",
		"merge the postings and drop dead records",
		"the disk cache record of a file",
		"score the words of the query",
		"lock the index and read the files",
		"a test of the words",
		"error",
	}, true)
}

// codeBoundSame checks that ix answers each query as scoring every file
// does; with full set, that each finds CodeLimit definitions (so that the
// bound has some to stop at).
func codeBoundSame(t *testing.T, ix *Index, queries []string, full bool) {
	t.Helper()
	ix.Mu.RLock()
	defer ix.Mu.RUnlock()
	for _, q := range queries {
		var got, want []codeHit
		for _, every := range []bool{false, true} {
			sc := ix.codeScorer(context.Background(), parseCodeQuery(q), nil, defaultCodeWeights, &CodeResult{})
			if sc == nil {
				t.Fatalf("%q: no word found", q)
			}
			hits, err := sc.run(context.Background(), every)
			if err != nil {
				t.Fatal(err)
			}
			if every {
				want = hits
			} else {
				got = hits
			}
		}
		if full && len(want) < CodeLimit {
			t.Errorf("%q: %d hits, want a query with more", q, len(want))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: the bound's answer differs from every file's:\n%v\n%v", q, got, want)
		}
	}
}

// TestCodeIDOrder: find_code's answer does not depend on the words' vocab
// ids, which depend on the order the files were indexed in (in parallel):
// neither which words a long definition keeps (maxDefTerms: ties of
// frequency go to the words the file uses first) nor a score, to the last
// bit (summed in the query's order).
func TestCodeIDOrder(t *testing.T) {
	var src strings.Builder
	src.WriteString("-- long/long.go --\npackage long\n\n" +
		"// Long counts tokens quickly.\n//\n// It parses, formats and quotes; it scans, joins and splits.\n" +
		"func Long() {\n\t_ = \"quickly parses\"\n")
	var words []string
	for i := range maxDefTerms + 40 {
		w := fmt.Sprintf("word%03d", i)
		words = append(words, w)
		fmt.Fprintf(&src, "\t_ = %q\n", w)
	}
	src.WriteString("}\n-- other/other.go --\npackage other\n\n// Other formats and splits tokens.\nfunc Other() { _ = \"scans\" }\n")
	dir := fixture.Unpack(t, txtar.Parse([]byte(src.String())))
	query := "long counts tokens quickly parses formats quotes scans joins splits word000 word001"
	answer := func(reverse bool) (found []bool, scores []float64) {
		root, err := OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		root.SymbolTimeLimit = time.Hour
		ix := NewIndex(root, index.Options{NoWatch: true})
		defer ix.Close()
		if reverse {
			// The query's words and the body's get their ids in the
			// reverse order of their use.
			all := slices.Concat(strings.Fields("long count token quickly pars format quot scan join split"), words)
			ix.Words.Write(func(v *index.Vocab) {
				for _, w := range slices.Backward(all) {
					v.InternString(w)
				}
			})
		}
		ix.Start(context.Background())
		<-ix.Ready()
		for _, w := range words {
			res, err := ix.Code(context.Background(), w, nil)
			if err != nil {
				t.Fatal(err)
			}
			found = append(found, len(res.Defs) > 0)
		}
		res, err := ix.Code(context.Background(), query, nil)
		if err != nil {
			t.Fatal(err)
		}
		// A definition's words' scores are summed by group: the groups
		// must follow the query's words, whatever their ids.
		ix.Mu.RLock()
		sc := ix.codeScorer(context.Background(), parseCodeQuery(query), nil, defaultCodeWeights, &CodeResult{})
		ix.Mu.RUnlock()
		group := map[int]int{} // the query word's index: its group
		for _, tm := range sc.terms {
			if tm.weight == 1 {
				group[slices.IndexFunc(parseCodeQuery(query), func(q codeTerm) bool { return q.stem == tm.stem })] = tm.group
			}
		}
		for q := 1; q < len(group); q++ {
			if group[q] <= group[q-1] {
				t.Errorf("reverse %v: query word %d is in group %d, word %d in group %d", reverse, q-1, group[q-1], q, group[q])
			}
		}
		for _, d := range res.Defs {
			scores = append(scores, d.Score)
		}
		return found, scores
	}
	found, scores := answer(false)
	if !found[0] || found[len(found)-1] {
		t.Errorf("the first and the last word of a long body found: %v, %v; want true, false", found[0], found[len(found)-1])
	}
	found2, scores2 := answer(true)
	if !slices.Equal(found2, found) {
		t.Errorf("with other ids, the words found: %v; want %v", found2, found)
	}
	if !slices.Equal(scores2, scores) || len(scores) != 2 {
		t.Errorf("with other ids, the scores: %v; want %v (two)", scores2, scores)
	}
}
