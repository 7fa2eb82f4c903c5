package grammar

import "testing"

func TestGuardSwift(t *testing.T) {
	tests := []struct{ src, want string }{
		{"if let r = try? a?.b {", "if let r =      a?.b {"},
		{"x = try! f()\ny = try g()", "x =      f()\ny =     g()"},
		{"let v = await\n  load()", "let v =      \n  load()"},
		{"try await f()", "          f()"},
		// Not keywords: a label, a member, an identifier, a string's end.
		{"f(try: 1)", "f(try: 1)"},
		{"a.try b", "a.try b"},
		{"retry x", "retry x"},
		{"awaiting x", "awaiting x"},
		{"`try` x", "`try` x"},
	}
	for _, tt := range tests {
		src := []byte(tt.src)
		if got := string(guardSwift(src)); got != tt.want {
			t.Errorf("guardSwift(%q) = %q; want %q", tt.src, got, tt.want)
		}
		if string(src) != tt.src {
			t.Errorf("guardSwift(%q) modified its input", tt.src)
		}
	}
}
