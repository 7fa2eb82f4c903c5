package project

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/bmatcuk/doublestar/v4"
)

func TestPathFilter(t *testing.T) {
	for _, tc := range []struct {
		globs string
		path  string
		want  bool
	}{
		{"*.rs", "src/deep/mod.rs", true},
		{"*.rs", "mod.rs", true},
		{"*.rs", "src/mod.go", false},
		{"src/**", "src/a/b.go", true},
		{"src/**", "lib/src/a.go", false},
		{"src/*.go", "src/a.go", true},
		{"src/*.go", "src/x/a.go", false},
		{"src", "src/x/a.go", true}, // a path without wildcards keeps that folder
		{"x", "src/x/a.go", false},
		{"src", "lib/src", true},
		{"src/x", "src/x/a.go", true},
		{"src/x", "src/x", true},
		{"src/x", "src/xy/a.go", false},
		{"src/*", "src/x/a.go", false},
		{"src/*", "src/a.go", true},
		{"/src/", "src/a.go", true},
		{"./src/*.go", "src/a.go", true},
		{"vendor/", "a/vendor/b/c.go", true},
		{"vendor/", "a/vendor", false},
		{"vendor", "a/vendor/b/c.go", false},
		{"src/*/", "src/x/a.go", true},
		{"src/*/", "src/a.go", false},
		{"test*", "testdata/a.go", false},
		{"*_test.go, docs/**", "docs/a.md", true},
		{"*_test.go ,docs/**", "x_test.go", true},
		{"*.{ts,tsx}", "a/b.tsx", true},
		{"*.{ts,tsx}", "a/b.js", false},
		{"a\\,b", "a,b", true},
		{"[ab].go", "b.go", true},
		// "!GLOB" excludes, whatever the other globs keep.
		{"src/**,!**/*_test.go", "src/a.go", true},
		{"src/**,!**/*_test.go", "src/x/a_test.go", false},
		{"src/**, !*_test.go", "src/x/a_test.go", false},
		{"src/**,!*_test.go", "lib/a.go", false},
		{"!vendor/", "a/vendor/b.go", false},
		{"!vendor/", "a/b.go", true}, // exclusions alone keep the rest
		{"!src", "src/x/a.go", false},
		{"! docs/**", "docs/a.md", false},
		{"[!a].go", "b.go", true}, // a "!" inside brackets is doublestar's
	} {
		f, err := ParsePathFilter(tc.globs)
		if err != nil {
			t.Errorf("ParsePathFilter(%q): %v", tc.globs, err)
			continue
		}
		if got := f.Match(tc.path); got != tc.want {
			t.Errorf("ParsePathFilter(%q).Match(%q) = %v; want %v", tc.globs, tc.path, got, tc.want)
		}
	}
	for _, bad := range []string{"[a", "{a,b", "src/[", "a, b[", "\\", "!", "src/**, ! ", "![x"} {
		if _, err := ParsePathFilter(bad); err == nil {
			t.Errorf("ParsePathFilter(%q) succeeded; want an error", bad)
		}
	}
	for _, empty := range []string{"", " ", ",", " , "} {
		if f, err := ParsePathFilter(empty); f != nil || err != nil {
			t.Errorf("ParsePathFilter(%q) = %v, %v; want no filter", empty, f, err)
		}
	}
}

// TestPathFilterLongGlobEcho: an invalid glob is repeated in the error
// cut to 300 characters, not whole (issue 32, item 4: a 10 MB glob gave
// a 35 MB answer).
func TestPathFilterLongGlobEcho(t *testing.T) {
	for _, glob := range []string{
		"[" + strings.Repeat("a", 10<<20),
		strings.Repeat("é", 5<<20) + "{",
		"src/" + strings.Repeat("\x00", 1<<20) + "[",
	} {
		_, err := ParsePathFilter(glob)
		if err == nil {
			t.Fatalf("ParsePathFilter(%d bytes) gave no error", len(glob))
		}
		if n := len(err.Error()); n > 2000 {
			t.Errorf("ParsePathFilter(%d bytes) error is %d bytes: %.80q…", len(glob), n, err.Error())
		}
		if !strings.Contains(err.Error(), "…") || !strings.HasSuffix(err.Error(), "in path: check its brackets and braces") {
			t.Errorf("ParsePathFilter(%d bytes) = %.120q…; want the glob cut with …", len(glob), err.Error())
		}
	}
}

// FuzzGlob feeds the path argument's parser and matcher arbitrary input:
// no panic, and a glob without special characters (nor a leading "!")
// matches its own path.
func FuzzGlob(f *testing.F) {
	for _, s := range []string{"src/**, *.rs", "*.{ts,tsx}", "[a-z]?", "a\\,b", "{a,{b,c}}", "**/x/**", "[", "\\"} {
		f.Add(s, "src/a/b.rs")
	}
	f.Fuzz(func(t *testing.T, globs, path string) {
		filter, err := ParsePathFilter(globs)
		if err != nil {
			return
		}
		filter.Match(path)
		g := strings.TrimSpace(globs)
		// An exclusion ("!GLOB") keeps every path but its own: it is no
		// glob of a path.
		if g != "" && !strings.HasPrefix(g, "!") && !strings.ContainsAny(g, "*?[]{}\\, ") && !strings.HasPrefix(g, ".") && !strings.HasSuffix(g, "/") && !strings.HasPrefix(g, "/") && !strings.Contains(g, "//") {
			if !filter.Match(g) {
				t.Errorf("ParsePathFilter(%q) does not match its own path", g)
			}
		}
	})
}

// TestBraceExpansionDifferential: a glob's braces expanded match exactly
// what doublestar matches with the braces in place, over short random
// patterns of a small alphabet and a set of paths. The oracle is
// doublestar on PATTERN/x against PATH/x: where a name ends before the
// pattern does, doublestar asks whether the rest can match nothing by a
// short list of shapes ("*", "/**", "{…}" first) and answers no for others
// that can ("??*{}" on "ab", "a***" on "a"); a name that goes on past the
// pattern takes the general path, which reads "{a,b}" as "a or b" as its
// documentation says. Expanded, "foo*{,.bak}" matches "foo" as it should.
func TestBraceExpansionDifferential(t *testing.T) {
	// Never empty: a path or base name the filter is asked about has a byte
	// at least (doublestar alone tells "*{,x}" from "*" on "").
	names := []string{"a", "b", "ab", "ba", "a/b", "b/a", "a,b", "{a}", "a/b/a", "aa/bb", "a[b", "a]", "-", "a\\b"}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "ab/*?{},[]!\\-"
	checked := 0
	for n := 0; n < 200000; n++ {
		b := make([]byte, 1+r.IntN(9))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		p := string(b)
		if !doublestar.ValidatePattern(p) || strings.HasSuffix(p, "/") {
			continue
		}
		pats, err := expandBraces(p+"/x", 1<<20)
		if err != nil {
			continue
		}
		checked++
		g := pathGlob{patterns: pats, kind: pathKind}
		for _, name := range names {
			if got, want := g.matchAny(name+"/x"), doublestar.MatchUnvalidated(p+"/x", name+"/x"); got != want {
				t.Fatalf("pattern %q expanded to %q: matches %q = %v; doublestar says %v", p, pats, name, got, want)
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d valid patterns checked", checked)
	}
}

// TestPathFilterBraceBounds: braces that stand for too many globs, or
// nest too deep, are refused at once (issue 43, item 5: "{*,*}" fourteen
// times took 15 s a call, nested braces minutes).
func TestPathFilterBraceBounds(t *testing.T) {
	for _, bad := range []string{
		strings.Repeat("{*,*}", 7) + "zzz",
		strings.Repeat("{*,*}", 14) + "zzz",
		strings.Repeat("{", 1000) + "a" + strings.Repeat("}", 1000),
		strings.Repeat("{", 4000) + "a" + strings.Repeat("}", 4000),
		"{" + strings.Repeat("a,", 64) + "b}",
		strings.TrimSuffix(strings.Repeat("*.go,", 65), ","),
		"{a,b}" + strings.Repeat("x", maxBracedGlob),
	} {
		start := time.Now()
		_, err := ParsePathFilter(bad)
		if err == nil {
			t.Errorf("ParsePathFilter(%.40q…) succeeded; want an error", bad)
		} else if !strings.Contains(err.Error(), "in path") {
			t.Errorf("ParsePathFilter(%.40q…) = %v; want it to name the path argument", bad, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("ParsePathFilter(%.40q…) took %v", bad, d)
		}
	}
	for _, good := range []string{strings.Repeat("{*,*}", 6) + "zzz", "{src,lib}/**/*.{ts,tsx,js,jsx}", "{{{{a}}}}"} {
		if _, err := ParsePathFilter(good); err != nil {
			t.Errorf("ParsePathFilter(%q): %v", good, err)
		}
	}
}
