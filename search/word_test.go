package search

import (
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/search/internal/lines"
)

func TestWordScanner(t *testing.T) {
	for _, tc := range []struct {
		word, text string
		want       []int
	}{
		{"err", "err := f(err); errs, xerr, err_, err2", []int{0, 9}},
		{"err", "err", []int{0}},
		{"err", "(err)", []int{1}},
		{"größe", "größe größer übergröße größe", []int{0, 30}},
		{"cafe", "cafe\u0301 cafe", []int{7}},
		{"名前", "名前 x名前 名前空間", []int{0}},
		{"a.b", "a.b xa.b a.bc a.b", []int{0, 14}},
		{"x", "\xffx\xff", []int{1}},
		// A boundary only where the word has a word character at that end.
		{"operate(", "operate(x) operate() xoperate(y) (operate(f(z)))", []int{0, 11, 34}},
		{".Name", "a.Name b.NameX .Name", []int{1, 15}},
		{"++", "i++ ++j +++", []int{1, 4, 8, 9}},
		{"(x)", "f(x)(x)", []int{1, 4}},
		{"a.b", "xa.b", nil},
		{"é(", "café( é(", []int{7}},
	} {
		s := NewWordScanner(tc.word)
		var got []int
		for at := s.Next([]byte(tc.text), 0); at >= 0; at = s.Next([]byte(tc.text), at+1) {
			got = append(got, at)
		}
		if len(got) != len(tc.want) {
			t.Errorf("occurrences of %q in %q = %v; want %v", tc.word, tc.text, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("occurrences of %q in %q = %v; want %v", tc.word, tc.text, got, tc.want)
				break
			}
		}
	}
}

func TestShowLine(t *testing.T) {
	long := strings.Repeat("a", 400) + " Name " + strings.Repeat("b", 400)
	got := lines.Show([]byte("\t"+long+"\r"), 401, 405)
	if !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") || !strings.Contains(got, " Name ") {
		t.Errorf("lines.Show cut = %q", got)
	}
	if n := len([]rune(got)); n != MaxLineRunes+2 {
		t.Errorf("lines.Show cut to %d runes; want %d and two …", n, MaxLineRunes)
	}
	if got := lines.Show([]byte("  short line\r"), 2, 7); got != "short line" {
		t.Errorf("lines.Show = %q", got)
	}
	end := strings.Repeat("é", 500) + "Name"
	if got := lines.Show([]byte(end), len(end)-4, len(end)); !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "Name") || len([]rune(got)) != MaxLineRunes+1 {
		t.Errorf("lines.Show at the end = %q", got)
	}
}
