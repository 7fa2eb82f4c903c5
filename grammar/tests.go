package grammar

import (
	"path"
	"strings"
)

// TestFiles describes a language's test files, by name and by folder.
type TestFiles struct {
	// Names are base-name patterns in path.Match syntax ("*_test.go",
	// "*.spec.*").
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
	l := ForPath(p, nil)
	return l != nil && l.Tests.match(p)
}

func (t TestFiles) match(p string) bool {
	dir, base := path.Split(p)
	for _, pat := range t.Names {
		if ok, _ := path.Match(pat, base); ok {
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
