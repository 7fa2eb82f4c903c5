package grammar

import "testing"

func TestIsTestFile(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"command.go", false},
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
	} {
		if got := IsTestFile(tc.path); got != tc.want {
			t.Errorf("IsTestFile(%q) = %v; want %v", tc.path, got, tc.want)
		}
	}
}
