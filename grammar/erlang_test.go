package grammar

import "testing"

func TestErlangName(t *testing.T) {
	for _, tc := range []struct {
		kind       Kind
		head, want string
	}{
		{Function, "area(W, H) when W > 0 -> W * H.", "area/2"},
		{Function, "start() -> ok.", "start/0"},
		{Function, "f([A, B | _], {C, D}, <<E:8, _/binary>>) -> ok.", "f/3"},
		{Function, "g(\"a,b\", $,, 'x,y') -> ok.", "g/3"},
		{Function, "h(A, % a comment, with commas\n  B) -> ok.", "h/2"},
		{Function, "'quoted name'(X) -> X.", "'quoted name'/1"},
		{Function, "'plain'(X) -> X.", "plain/1"},
		{Module, "'OTP-PUB-KEY').", ""},
		{Module, "'shapes').", "shapes"},
		{Struct, "'end', {a}).", ""},
	} {
		if got := erlangName(tc.kind, []byte(tc.head)); got != tc.want {
			t.Errorf("erlangName(%v, %q) = %q; want %q", tc.kind, tc.head, got, tc.want)
		}
	}
}
