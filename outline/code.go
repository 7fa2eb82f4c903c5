package outline

import (
	"context"
	"sort"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
)

// Span is the bytes [Start, End) of a file.
type Span struct{ Start, End uint32 }

// NonCode is the parts of a file that are not code, as its grammar parses
// them: comments and string literals, without the interpolations inside
// strings, which are code (grammar.CodeRules). The spans are sorted and
// disjoint; spans separated only by white space are joined, since no word
// can sit between them.
type NonCode []Span

// Code reports whether the byte at offset i is code.
func (nc NonCode) Code(i int) bool {
	j := sort.Search(len(nc), func(j int) bool { return int(nc[j].End) > i })
	return j == len(nc) || int(nc[j].Start) > i
}

// nonCode computes the NonCode of a parsed file from the language's code
// query. The innermost marked node holding a byte decides for it: an
// interpolation inside a string is code, a string inside it is not.
func nonCode(ctx context.Context, lang *grammar.Language, root *sitter.Node, src []byte) (NonCode, error) {
	if lang.CodeRules().Prose {
		return NonCode{{0, uint32(len(src))}}, nil
	}
	q, err := lang.CodeQuery()
	if err != nil || q == nil {
		return nil, err
	}
	type mark struct {
		Span
		code bool
	}
	var marks []mark
	for m := range matches(ctx, q, root, src, nil) {
		for _, c := range m.Captures {
			s, e := c.Node.StartByte(), c.Node.EndByte()
			if s < e {
				marks = append(marks, mark{Span{s, e}, q.CaptureNameForId(c.Index) == grammar.CodeCaptureCode})
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if lang.Comments != nil {
		for _, c := range lang.Comments(src) {
			marks = append(marks, mark{Span{uint32(c[0]), uint32(c[1])}, false})
		}
	}
	// Outer before inner: by start, then the longer first.
	sort.SliceStable(marks, func(i, j int) bool {
		if marks[i].Start != marks[j].Start {
			return marks[i].Start < marks[j].Start
		}
		return marks[i].End > marks[j].End
	})
	var out NonCode
	emit := func(s, e uint32, code bool) {
		if code || s >= e {
			return
		}
		if n := len(out); n > 0 && blank(src, out[n-1].End, s) {
			out[n-1].End = max(out[n-1].End, e)
			return
		}
		out = append(out, Span{s, e})
	}
	// A sweep with a stack of the marks holding the position: pos is how
	// far the bytes are decided; each byte takes the innermost mark's
	// class, and no mark at all is code.
	var stack []mark
	pos := uint32(0)
	top := func() bool { return len(stack) == 0 || stack[len(stack)-1].code }
	for _, m := range marks {
		for len(stack) > 0 && stack[len(stack)-1].End <= m.Start {
			t := stack[len(stack)-1]
			emit(pos, t.End, t.code)
			pos = max(pos, t.End)
			stack = stack[:len(stack)-1]
		}
		emit(pos, m.Start, top())
		pos = max(pos, m.Start)
		if len(stack) > 0 {
			// A well-formed tree nests its nodes; clip one that would not.
			m.End = min(m.End, stack[len(stack)-1].End)
		}
		stack = append(stack, m)
	}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		emit(pos, t.End, t.code)
		pos = max(pos, t.End)
		stack = stack[:len(stack)-1]
	}
	return out, nil
}

// blank reports whether src[s:e] is only white space (or empty).
func blank(src []byte, s, e uint32) bool {
	if e < s || int(e) > len(src) {
		return e <= s
	}
	for _, c := range src[s:e] {
		switch c {
		case ' ', '\t', '\n', '\r', '\v', '\f':
		default:
			return false
		}
	}
	return true
}
