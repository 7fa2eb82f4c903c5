package grammar

import (
	"path"
	"strings"
	"sync"
)

// TestFiles describes a language's test files, by name and by folder.
type TestFiles struct {
	// Names are base-name patterns where "*" stands for any run of
	// characters ("*_test.go", "*.spec.*").
	Names []string
	// Dirs are folders, one or more segments ("tests", "src/test"): a file
	// anywhere under a folder whose path ends with one is a test file.
	Dirs []string
}

var (
	jsTests     = TestFiles{Names: []string{"*.test.*", "*.spec.*"}, Dirs: []string{"__tests__"}}
	dotnetTests = TestFiles{Names: []string{"*Test.*", "*Tests.*"}, Dirs: []string{"src/test"}}
	// anyTests are the folders of test data and fixtures, in every
	// language.
	anyTests = TestFiles{Dirs: []string{"testdata", "fixtures"}}
)

// IsTestFile reports whether the project path p (slash-separated) is a
// test file: one its language's Tests describe, or one under a testdata
// or fixtures folder. The language is chosen from the name alone, so an
// extensionless script is judged by the folders only.
func IsTestFile(p string) bool {
	if anyTests.match(p) {
		return true
	}
	l := testLanguage(p)
	return l != nil && l.Tests.match(p)
}

// testLanguages maps the file names and extensions of the languages that
// have Tests to them. find_symbol asks about every file of a project, so
// the lookup is a map rather than ForPath's scan of the registry; it gives
// what ForPath gives for these languages, whose extensions have one dot
// or end with one that does (".d.ts": ".ts").
var testLanguages = sync.OnceValue(func() map[string]*Language {
	m := map[string]*Language{}
	for _, l := range registry {
		if len(l.Tests.Names) == 0 && len(l.Tests.Dirs) == 0 {
			continue
		}
		for _, f := range l.Filenames {
			m[f] = l
		}
		for _, e := range l.Extensions {
			m[e[strings.LastIndexByte(e, '.'):]] = l
		}
	}
	return m
})

func testLanguage(p string) *Language {
	base := path.Base(p)
	if l := testLanguages()[base]; l != nil {
		return l
	}
	i := strings.LastIndexByte(base, '.')
	if i <= 0 {
		return nil
	}
	ext := base[i:]
	for k := 1; k < len(ext); k++ {
		if c := ext[k]; 'A' <= c && c <= 'Z' {
			ext = strings.ToLower(ext)
			break
		}
	}
	return testLanguages()[ext]
}

func (t TestFiles) match(p string) bool {
	dir, base := path.Split(p)
	for _, pat := range t.Names {
		if starMatch(pat, base) {
			return true
		}
	}
	if len(t.Dirs) == 0 || dir == "" {
		return false
	}
	// Each folder of p, with a "/" on both sides, so that a Dirs entry
	// matches whole segments.
	folders := "/" + dir
	for _, d := range t.Dirs {
		if strings.Contains(folders, "/"+d+"/") {
			return true
		}
	}
	return false
}

// starMatch reports whether s matches pat, where "*" in pat stands for any
// run of characters (none too). Taking each piece between stars at its
// first place is enough for a pattern of only stars.
func starMatch(pat, s string) bool {
	i := strings.IndexByte(pat, '*')
	if i < 0 {
		return pat == s
	}
	if !strings.HasPrefix(s, pat[:i]) {
		return false
	}
	s, pat = s[i:], pat[i+1:]
	for {
		j := strings.IndexByte(pat, '*')
		if j < 0 {
			return strings.HasSuffix(s, pat)
		}
		k := strings.Index(s, pat[:j])
		if k < 0 {
			return false
		}
		s, pat = s[k+j:], pat[j+1:]
	}
}
