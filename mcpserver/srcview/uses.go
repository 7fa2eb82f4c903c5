package srcview

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/outline"
)

// The last line of a definition read_symbol shows: the other definitions
// of its file that it uses, so that the next read is not a guess (issue
// 47, item 5):
//
//	Uses in this file: 711 stripFlags, 750 argsMinusFirstX

// Bounds of the uses line: names, and bytes; and the bytes of a
// definition scanned for them.
const (
	maxUses     = 10
	maxUsesLine = 200
	maxUsesScan = 64 << 10
)

// UsesLine is the line naming the definitions of d's file (defs, found
// in data, the file's bytes) that d uses: those whose name (its last
// part) is a word of d's code, from its name's line to its end, outside
// comments and strings (nc: the file's parts that are not code; nil when
// unknown). Left out are d, what it holds or has as members (a Go type's
// methods), what holds it (its class, a Go method's type) and the definitions of a name d or what it holds
// defines (overloads, an interface's methods). In the
// order of their first use, at most maxUses names and maxUsesLine bytes;
// "" when there are none.
func UsesLine(data []byte, d *outline.Definition, defs []outline.Definition, nc outline.NonCode) string {
	if d.Kind == grammar.Heading || len(defs) < 2 {
		return ""
	}
	self := d.QualifiedName()
	holders := map[string]bool{}
	for c := d.Container(); len(c) > 0; c = c[:len(c)-1] {
		holders[strings.Join(c, ".")] = true
	}
	if len(d.Qualified) > 1 && len(d.Container()) == 0 {
		// A Go method, Recv.Name at top level: Recv holds it.
		holders[strings.Join(d.Qualified[:len(d.Qualified)-1], ".")] = true
	}
	// The names d and what it holds define are theirs inside d, whatever
	// else defines them (an interface's method, an overload).
	own := map[string]bool{d.LastSegment(): true}
	for i := range defs {
		if c := &defs[i]; c.Start >= d.Start && c.End <= d.End {
			own[c.LastSegment()] = true
		}
	}
	byName := map[string][]int{}
	for i := range defs {
		c := &defs[i]
		q := c.QualifiedName()
		switch {
		case c.Kind == grammar.Heading, q == self, holders[q], own[c.LastSegment()],
			strings.HasPrefix(q, self+"."),              // d's members declared apart (Go, Rust)
			utf8.RuneCountInString(c.LastSegment()) < 2, // more often a parameter
			c.Start <= d.Start && c.End >= d.End:        // what holds d
			continue
		}
		byName[c.LastSegment()] = append(byName[c.LastSegment()], i)
	}
	if len(byName) == 0 {
		return ""
	}
	from, ok := lineOffset(data, 0, 1, d.Line)
	if !ok {
		return ""
	}
	to := len(data)
	if last, ok := lineOffset(data, from, d.Line, d.End+1); ok {
		to = last
	}
	// What an answer shows of a definition is about this much (200 lines
	// of 300 characters): a minified file's line is not scanned whole.
	to = min(to, from+maxUsesScan)
	var used []*outline.Definition
	seen := map[string]bool{}
	for i := from; i < to; {
		r, size := utf8.DecodeRune(data[i:])
		if !wordRune(r) {
			i += size
			continue
		}
		j := i
		for j < to {
			r, size := utf8.DecodeRune(data[j:])
			if !wordRune(r) {
				break
			}
			j += size
		}
		word := string(data[i:j])
		if idx, ok := byName[word]; ok && (nc == nil || nc.Code(i)) {
			delete(byName, word)
			for _, k := range idx {
				c := &defs[k]
				// One entry for an overload set: its first member, or
				// its implementation.
				if q := c.QualifiedName() + "\x00" + c.Kind.String(); !seen[q] {
					seen[q] = true
					used = append(used, c)
				} else if !c.Decl {
					for u := range used {
						if used[u].QualifiedName() == c.QualifiedName() && used[u].Kind == c.Kind && used[u].Decl {
							used[u] = c
						}
					}
				}
			}
		}
		i = j
	}
	if len(used) == 0 {
		return ""
	}
	return formatUses(used)
}

// formatUses writes the uses line of used, within its bounds.
func formatUses(used []*outline.Definition) string {
	const head = "Uses in this file: "
	var sb strings.Builder
	sb.WriteString(head)
	for k, c := range used {
		item := strconv.Itoa(c.Line) + " " + c.QualifiedName()
		sep := ""
		if k > 0 {
			sep = ", "
		}
		left := len(used) - k - 1
		more := ""
		if left > 0 {
			more = fmt.Sprintf(", … %d more", left)
		}
		// This one fits with the note of those after it, or there is
		// no more room: the note of what is left.
		if k == maxUses || sb.Len()+len(sep)+len(item)+len(more) > maxUsesLine {
			if k == 0 {
				return ""
			}
			fmt.Fprintf(&sb, ", … %d more", len(used)-k)
			return sb.String()
		}
		sb.WriteString(sep + item)
	}
	return sb.String()
}

func wordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
