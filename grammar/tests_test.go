package grammar

import (
	"strings"
	"testing"
)

func TestIsTestFile(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"command.go", false},
		{"Tests/SDImageCacheTests.m", true},
		{"Sources/ShapeSpec.m", true},
		{"Sources/Shape.m", false},
		{"t/basic.t", true},
		{"test/Vault.t.sol", true},
		{"src/Vault.sol", false},
		{"apps/x/test/x_SUITE.erl", true},
		{"src/x_tests.erl", true},
		{"src/x.erl", false},
		{"tests/testthat/test-join.R", true},
		{"R/join.R", false},
		{"lib/Foo/Bar.pm", false},
		{"t/lib/Helper.pm", true},
		{"command_test.go", true},
		{"pkg/internal/testdata/x.go", true},
		{"pkg/testdata.go", false},
		{"a/fixtures/b/c.rb", true},
		{"test_server.py", true},
		{"server_test.py", true},
		{"pkg/tests/helpers.py", true},
		{"pkg/conftest.py", true},
		{"pkg/testing.py", false},
		{"latest.py", false},
		{"src/find.ts", false},
		{"src/find.test.ts", true},
		{"src/find.spec.tsx", true},
		{"src/__tests__/find.js", true},
		{"src/test/find.ts", false},
		{"tests/integration.rs", true},
		{"crates/x/tests/it.rs", true},
		{"src/lib.rs", false},
		{"src/tests.rs", false},
		{"app/src/test/java/a/B.java", true},
		{"app/src/main/java/a/B.java", false},
		{"app/src/main/java/a/BTest.java", true},
		{"Foo.Tests/FooTests.cs", true},
		{"Contest.kt", false},
		{"spec/model_spec.rb", true},
		{"test/model_test.rb", true},
		{"lib/model.rb", false},
		{"lib/test/x.py", false},
		{"c/test/x.c", false},
		{"tests", false},
		{"test/behavior/align.zig", true},
		{"tests/lsp_features/hover.zig", true},
		{"src/main.zig", false},
		{"test/widget_test.dart", true},
		{"lib/src/boollist_test.dart", true},
		{"lib/src/boollist.dart", false},
		{"test/Data/MapSpec.hs", true},
		{"src/Data/MapSpec.hs", true},
		{"src/Data/Map.hs", false},
		{"test/runtests.jl", true},
		{"src/DataFrames.jl", false},
	} {
		if got := IsTestFile(tc.path); got != tc.want {
			t.Errorf("IsTestFile(%q) = %v; want %v", tc.path, got, tc.want)
		}
	}
}

// TestTestLanguageAsForPath: the fast lookup chooses what ForPath chooses
// for every extension and file name of a language with test files.
func TestTestLanguageAsForPath(t *testing.T) {
	for _, l := range registry {
		if len(l.Tests.Names) == 0 && len(l.Tests.Dirs) == 0 {
			continue
		}
		names := append([]string{}, l.Filenames...)
		for _, e := range l.Extensions {
			names = append(names, "dir/file"+e, "dir/FILE"+strings.ToUpper(e))
		}
		for _, n := range names {
			if got, want := testLanguage(n), ForPath(n, nil); got != want {
				t.Errorf("testLanguage(%q) = %v; ForPath chooses %v", n, got.Name, want.Name)
			}
		}
	}
}

func TestStarMatch(t *testing.T) {
	for _, tc := range []struct {
		pat, s string
		want   bool
	}{
		{"*_test.go", "a_test.go", true},
		{"*_test.go", "_test.go", true},
		{"*_test.go", "a_test.gox", false},
		{"test_*.py", "test_a.py", true},
		{"test_*.py", "test_.py", true},
		{"test_*.py", "test.py", false},
		{"*.test.*", "a.test.ts", true},
		{"*.test.*", "a.test", false},
		{"*.test.*", "a.testing.ts", false},
		{"*.test.*", "a.b.test.c.d", true},
		{"*Test.*", "FooTest.java", true},
		{"*Test.*", "Test.java", true},
		{"*Test.*", "Contest.java", false},
		{"*Tests.*", "FooTests.cs", true},
		{"conftest.py", "conftest.py", true},
		{"conftest.py", "xconftest.py", false},
		{"a*b*c", "abc", true},
		{"a*b*c", "acb", false},
	} {
		if got := starMatch(tc.pat, tc.s); got != tc.want {
			t.Errorf("starMatch(%q, %q) = %v; want %v", tc.pat, tc.s, got, tc.want)
		}
	}
}
