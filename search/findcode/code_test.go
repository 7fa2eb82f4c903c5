package findcode

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

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

// TestCodeBound: find_code's scoring stops at the files whose bound
// cannot pass the best Limit found, and answers as scoring every file
// holding a query word does (here on package search's own files).
func TestCodeBound(t *testing.T) {
	t.Parallel()
	ix := newIndex(t, "..", index.Options{CacheFile: "-", NoWatch: true})
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
// does; with full set, that each finds Limit definitions (so that the
// bound has some to stop at).
func codeBoundSame(t *testing.T, ix *Index, queries []string, full bool) {
	t.Helper()
	ix.Mu.RLock()
	defer ix.Mu.RUnlock()
	for _, q := range queries {
		var got, want []codeHit
		for _, every := range []bool{false, true} {
			sc := ix.codeScorer(context.Background(), parseCodeQuery(q), nil, defaultCodeWeights, &Result{})
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
		if full && len(want) < Limit {
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
		ix := newIndex(t, dir, index.Options{NoWatch: true})
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
		sc := ix.codeScorer(context.Background(), parseCodeQuery(query), nil, defaultCodeWeights, &Result{})
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

// TestCodeOverloads: a name declared several times in one file
// (TypeScript's overloads, a C prototype and its body, a Python def in
// both branches of an if) is one definition in find_code's answer, while
// same-named methods of two types stay two.
func TestCodeOverloads(t *testing.T) {
	dir := fixture.Unpack(t, txtar.Parse([]byte(`-- timer.ts --
/** Emits a tick after the due time. */
export function timer(due: number): Observable<number>;
/** Emits ticks after the due time, then every interval. */
export function timer(due: number, interval: number): Observable<number>;
export function timer(due: number, interval = -1): Observable<number> {
  return tick(due, interval);
}
/** Emits every interval, no due time. */
export function every(interval: number): Observable<number> {
  return tick(interval, interval);
}
-- tick.c --
/* Waits for the next tick of the interval timer. */
int wait_tick(int interval);

/* Waits for the next tick of the interval timer. */
int wait_tick(int interval) { return interval; }
-- tick.py --
import sys
if sys.platform == "win32":
    def wait_tick(interval):
        """Waits for the next tick of the interval timer."""
else:
    def wait_tick(interval):
        """Waits for the next tick of the interval timer."""
-- tick.go --
package tick

type Timer struct{}
type Ticker struct{}

// Stop stops the interval timer's ticks.
func (Timer) Stop() {}

// Stop stops the interval ticker's ticks.
func (Ticker) Stop() {}
`)))
	res, err := dirCode(t, dir, "tick interval timer due", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Defs {
		got = append(got, fmt.Sprintf("%s:%d %s", d.Path, d.Line, d.QualifiedName()))
	}
	slices.Sort(got)
	want := []string{"tick.c:5 wait_tick", "tick.go:10 Ticker.Stop", "tick.go:3 Timer", "tick.go:4 Ticker", "tick.go:7 Timer.Stop", "tick.py:3 wait_tick", "timer.ts:4 timer", "timer.ts:9 every"}
	if !slices.Equal(got, want) {
		t.Errorf("find_code's definitions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
