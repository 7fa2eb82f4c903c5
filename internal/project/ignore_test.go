package project

import "testing"

func TestWildmatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, text string
		pathname      bool
		want          bool
	}{
		{"*.go", "a.go", false, true},
		{"*.go", "a/b.go", true, false},
		{"a/**/b", "a/b", true, true},
		{"a/**/b", "a/x/y/b", true, true},
		{"**/b", "b", true, true},
		{"**/b", "x/y/b", true, true},
		{"a/**", "a/x/y", true, true},
		{"a/**", "a", true, false},
		{"a**b", "a/b", true, false},
		{"a**b", "axxb", true, true},
		{"\\#h", "#h", true, true},
		{"[!a]*", "ba", true, true},
		{"[!a]*", "ab", true, false},
		{"[^a]", "b", true, true},
		{"[]]", "]", true, true},
		{"[a-]", "-", true, true},
		{"[[:digit:]x]", "x", true, true},
		{"[[:digit:]x]", "5", true, true},
		{"[[:nope:]]", "n", true, false},
		{"[a", "a", true, false},
		{"a?c", "a/c", true, false},
		{"a?c", "abc", true, true},
		{"*/c", "x/c", true, true},
		{"*/c", "x/y/c", true, false},
		{"a\\", "a", true, false},
		{"a\\ b", "a b", true, true},
	} {
		if got := wildmatch(tc.pattern, tc.text, tc.pathname); got != tc.want {
			t.Errorf("wildmatch(%q, %q, %v) = %v; want %v", tc.pattern, tc.text, tc.pathname, got, tc.want)
		}
	}
}
