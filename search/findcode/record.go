package findcode

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/zumba-dev/zumba/internal/diskcache"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
)

// A file's find_code words are kept beside its definitions, encoded, in
// memory as in the disk cache (fileRec.code), turned around so that
// scoring a file reads only the lists of the query's words:
//
//	defs          uvarint: the file's definitions, in its definitions
//	              record's order
//	lengths       codeFields uvarints: each field's length summed over
//	              the definitions (for the fields' mean lengths)
//	def lengths   two bytes per definition: how many words its doc
//	              comment holds (at most 127; the top bit set when its
//	              name says it is private, see privateName) and how
//	              many its body holds (at most 255)
//	words         uvarint count, then per word: its vocab id's difference
//	              from the word before's (ids increase; the first from 0),
//	              then its list's length in bytes shifted left by one, the
//	              low bit set when the file's path holds the word
//	lists         each word's list, in the words' order: per definition
//	              holding the word, in increasing order, a uvarint of its
//	              index's difference from the one before (the first from
//	              0) shifted left by one, its low bit set when a byte
//	              follows saying which fields hold the word (bit f for
//	              field f); without it, the body alone
//
// A field's length is how many distinct words it holds. All numbers are
// uvarints. On the Go standard library the record is about 18 bytes a
// definition.

// The fields of a definition, as find_code weighs them.
const (
	// fieldName is the words of the definition's own name.
	fieldName = iota
	// fieldContainer is the words of the names of the definitions
	// holding it (a method's type, a class's module).
	fieldContainer
	// fieldDoc is the words of its doc comment (the lines between its
	// start and its name, and a Python docstring).
	fieldDoc
	// fieldBody is the words of its other lines (identifiers, strings,
	// comments), but for those of the definitions nested in it.
	fieldBody
	// fieldSummary is the words of the doc comment's first sentence
	// (also in fieldDoc): where a doc comment says what the definition
	// does.
	fieldSummary
	codeFields
)

// maxDefTerms bounds the distinct words a definition keeps: those of its
// name, qualifier and doc comment, then its body's most frequent.
const maxDefTerms = 120

var errBadCode = errors.New("bad find_code record")

// codeBuilder collects a file's words, field by field, before they are
// interned and encoded (outside the index's lock).
type codeBuilder struct {
	local map[string]uint32
	words []string
	path  []uint32
	defs  [][codeFields][]uint32
	// private marks the definitions whose names say they are private.
	private []bool
	buf     []byte
}

func (b *codeBuilder) add(dst []uint32, w []byte) []uint32 {
	id, ok := b.local[string(w)]
	if !ok {
		id = uint32(len(b.words))
		s := string(w)
		b.local[s] = id
		b.words = append(b.words, s)
	}
	return append(dst, id)
}

func (b *codeBuilder) addText(dst []uint32, text []byte) []uint32 {
	b.buf = forCodeWords(text, b.buf, func(w []byte) { dst = b.add(dst, w) })
	return dst
}

func (b *codeBuilder) addIdent(dst []uint32, s string) []uint32 {
	b.buf = splitIdent([]byte(s), b.buf, func(w []byte) { dst = b.add(dst, w) })
	return dst
}

// collectCode gathers the words of the file at path, whose text is data
// and whose definitions are defs (in outline order).
func collectCode(path string, data []byte, defs []outline.Definition) *codeBuilder {
	b := &codeBuilder{local: map[string]uint32{}, defs: make([][codeFields][]uint32, len(defs)), private: make([]bool, len(defs))}
	goFile := goPath(path)
	b.path = b.addText(b.path, []byte(pathWords(path)))
	lines := lineStarts(data)
	line := func(n int) []byte { // 1-based
		if n < 1 || n > len(lines) {
			return nil
		}
		end := len(data)
		if n < len(lines) {
			end = lines[n]
		}
		return data[lines[n-1]:end]
	}
	for i := range defs {
		d := &defs[i]
		f := &b.defs[i]
		f[fieldName] = b.addIdent(f[fieldName], d.LastSegment())
		b.private[i] = privateName(d.LastSegment(), goFile)
		for _, c := range d.Container() {
			f[fieldContainer] = b.addIdent(f[fieldContainer], c)
		}
		// The summary is open until a line ends a sentence, or a line
		// without words follows some.
		open := true
		docLine := func(text []byte) {
			n := len(f[fieldDoc])
			f[fieldDoc] = b.addText(f[fieldDoc], text)
			if !open {
				return
			}
			if len(f[fieldDoc]) == n && len(f[fieldSummary]) > 0 {
				open = false
				return
			}
			f[fieldSummary] = append(f[fieldSummary], f[fieldDoc][n:]...)
			if t := bytes.TrimSpace(text); bytes.HasSuffix(t, []byte(".")) || bytes.Contains(t, []byte(". ")) {
				open = false
			}
		}
		for n := d.Start; n < d.Line; n++ {
			docLine(line(n))
		}
		doc := docstring(line, d.Line, d.End)
		end := min(d.End, len(lines))
		body := func(from, to int) {
			for n := from; n <= to; n++ {
				if n >= doc.from && n <= doc.to {
					docLine(line(n))
				} else {
					f[fieldBody] = b.addText(f[fieldBody], line(n))
				}
			}
		}
		// The lines of the definitions nested in it are theirs (defs
		// are in start order, each nested one after its container).
		n := d.Line
		for j := i + 1; j < len(defs) && defs[j].Start <= end; j++ {
			if e := &defs[j]; e.Start > d.Line && e.End <= d.End {
				body(n, e.Start-1)
				n = max(n, e.End+1)
			}
		}
		body(n, end)
	}
	return b
}

// privateName reports whether a definition's name says it is not part of
// its package's interface: a Go name starting with a lower-case letter, a
// name starting with "_" or "#" (Python's convention, JavaScript's private
// fields). find_code ranks such definitions a little lower (see
// codeWeights.private): a description is more often of what a package
// offers than of its helpers.
func privateName(name string, goFile bool) bool {
	if name == "" {
		return false
	}
	if name[0] == '_' || name[0] == '#' {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name)
	return goFile && unicode.IsLower(r)
}

// docstring returns the lines of a docstring after the definition's
// header, blank and comment lines aside (Python's: a string literal, most
// often in three quotes, as the body's first statement), or an empty
// span.
func docstring(line func(int) []byte, name, end int) (s struct{ from, to int }) {
	n := headerEnd(line, name, end) + 1
	for ; n <= end; n++ {
		if t := bytes.TrimSpace(line(n)); len(t) > 0 && t[0] != '#' {
			break
		}
	}
	if n > end {
		return s
	}
	rest, q := openString(line(n))
	if q == "" {
		return s
	}
	s.from = n
	for m := n; m <= end; m++ {
		l := line(m)
		if m == n {
			l = rest
		}
		if closesString(l, q) {
			s.to = m
			return s
		}
	}
	s.to = end
	return s
}

// openString returns, for a line that opens a string literal a
// docstring may be, what follows the opening quote, and the quote ("" for
// a line that opens none). Raw and unicode strings may be docstrings;
// bytes and f-strings may not.
func openString(text []byte) (rest []byte, q string) {
	t := bytes.TrimLeft(bytes.TrimSpace(text), "rRuU")
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if rest, ok := bytes.CutPrefix(t, []byte(q)); ok {
			return rest, q
		}
	}
	return nil, ""
}

// closesString reports whether text holds the quote q unescaped.
func closesString(text []byte, q string) bool {
	for i := 0; i < len(text); i++ {
		if text[i] == '\\' {
			i++
		} else if bytes.HasPrefix(text[i:], []byte(q)) {
			return true
		}
	}
	return false
}

// headerEnd returns the line where the header of a definition named on
// line name ends: the first line from name on whose code ends in ":"
// outside brackets and strings, as a Python def or class does whose
// parameters or bases span several lines (formatters put a long
// signature one parameter a line, and its docstring after the last);
// name itself when no line within maxHeader lines does.
func headerEnd(line func(int) []byte, name, end int) int {
	depth := 0
	for n := name; n <= end && n < name+maxHeader; n++ {
		l := line(n)
		var last byte
	scan:
		for i := 0; i < len(l); i++ {
			switch c := l[i]; c {
			case '#':
				break scan
			case '"', '\'':
				// A string on the line: skipped to its closing quote.
				for i++; i < len(l) && l[i] != c; i++ {
					if l[i] == '\\' {
						i++
					}
				}
				last = c
			case '(', '[', '{':
				depth++
				last = c
			case ')', ']', '}':
				depth--
				last = c
			case ' ', '\t', '\r', '\n':
			default:
				last = c
			}
		}
		if depth <= 0 && last == ':' {
			return n
		}
	}
	return name
}

// maxHeader bounds how many lines a definition's header may take.
const maxHeader = 64

// lineStarts is the offset of each line's start in data.
func lineStarts(data []byte) []int {
	starts := make([]int, 1, bytes.Count(data, []byte{'\n'})+1)
	for i, c := range data {
		if c == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// pathWords is the text of a project path that find_code's qualifier
// takes: its folders and its file name without the extension.
func pathWords(p string) string {
	base := project.Base(p)
	if i := bytes.IndexByte([]byte(base), '.'); i > 0 {
		base = base[:i]
	}
	return p[:len(p)-len(project.Base(p))] + base
}

// encode interns the words in v and returns the file's record and its
// words' ids (increasing). The caller holds the index's lock.
func (b *codeBuilder) encode(v *index.Vocab) (rec []byte, ids []uint32) {
	n := len(b.words)
	gid := make([]uint32, n)
	for i, w := range b.words {
		gid[i] = v.InternString(w)
	}
	order := make([]uint32, n)
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(x, y uint32) int { return int(gid[x]) - int(gid[y]) })
	rank := make([]uint32, n)
	ids = make([]uint32, n)
	for r, l := range order {
		rank[l] = uint32(r)
		ids[r] = gid[l]
	}
	// Each definition's words, then the definitions holding each word.
	var sums [codeFields]uint64
	lens := make([]byte, 2*len(b.defs))
	type hold struct {
		def  uint32
		mask uint8
	}
	held := make([][]hold, n)
	var ents []codeEntry
	for d := range b.defs {
		ents = ents[:0]
		for f := range codeFields {
			for _, l := range b.defs[d][f] {
				ents = append(ents, codeEntry{rank[l], 1 << f, 1})
			}
		}
		ents = countEntries(ents, order)
		var fl [codeFields]int
		for _, e := range ents {
			held[e.local] = append(held[e.local], hold{uint32(d), e.mask})
			for f := range codeFields {
				if e.mask&(1<<f) != 0 {
					fl[f]++
				}
			}
		}
		for f := range codeFields {
			sums[f] += uint64(fl[f])
		}
		lens[2*d], lens[2*d+1] = byte(min(fl[fieldDoc], 127)), byte(min(fl[fieldBody], 255))
		if b.private[d] {
			lens[2*d] |= 0x80
		}
	}
	inPath := make([]bool, n)
	for _, l := range b.path {
		inPath[rank[l]] = true
	}
	var lists []byte
	rec = binary.AppendUvarint(make([]byte, 0, 32+len(lens)+8*n), uint64(len(b.defs)))
	for _, s := range sums {
		rec = binary.AppendUvarint(rec, s)
	}
	rec = append(rec, lens...)
	rec = binary.AppendUvarint(rec, uint64(n))
	prev := uint32(0)
	for r, id := range ids {
		start := len(lists)
		last := uint32(0)
		for _, h := range held[r] {
			e := uint64(h.def-last) << 1
			if h.mask == 1<<fieldBody {
				lists = binary.AppendUvarint(lists, e)
			} else {
				lists = append(binary.AppendUvarint(lists, e|1), h.mask)
			}
			last = h.def
		}
		l := uint64(len(lists)-start) << 1
		if inPath[r] {
			l |= 1
		}
		rec = binary.AppendUvarint(binary.AppendUvarint(rec, uint64(id-prev)), l)
		prev = id
	}
	// The record stays as long as the file does: allocated to its size
	// (appending lists to rec would leave up to half of it unused).
	out := make([]byte, len(rec)+len(lists))
	copy(out[copy(out, rec):], lists)
	return out, ids
}

// A codeEntry is a word of a definition: its local index, the fields
// holding it, and how often it is there (at most 255).
type codeEntry struct {
	local uint32
	mask  uint8
	n     uint8
}

// countEntries sorts entries by local index and merges equal ones, then
// keeps the maxDefTerms best: those outside the body first, then the most
// frequent, then those the file uses first (order[local] is the place of
// a word's first use in the file: which words are kept must not depend on
// their vocab ids, which depend on the order the files were indexed in);
// in index order.
func countEntries(ents []codeEntry, order []uint32) []codeEntry {
	slices.SortFunc(ents, func(a, b codeEntry) int { return int(a.local) - int(b.local) })
	out := ents[:0]
	for _, e := range ents {
		if k := len(out); k > 0 && out[k-1].local == e.local {
			out[k-1].mask |= e.mask
			out[k-1].n = uint8(min(int(out[k-1].n)+1, 255))
			continue
		}
		out = append(out, e)
	}
	if len(out) > maxDefTerms {
		key := func(e codeEntry) int {
			if e.mask != 1<<fieldBody {
				return 1000
			}
			return int(e.n)
		}
		slices.SortFunc(out, func(a, b codeEntry) int {
			return cmp.Or(key(b)-key(a), cmp.Compare(order[a.local], order[b.local]))
		})
		out = out[:maxDefTerms]
		slices.SortFunc(out, func(a, b codeEntry) int { return int(a.local) - int(b.local) })
	}
	return out
}

// codeHead is the start of a file's record.
type codeHead struct {
	defs int
	sums [codeFields]uint64
}

// readCodeHead reads the start of rec, leaving r at its definitions'
// lengths.
func readCodeHead(r *diskcache.Reader) codeHead {
	var h codeHead
	h.defs = r.Count()
	for f := range codeFields {
		h.sums[f] = r.Uvarint()
	}
	return h
}

// codeTerms calls f with the vocab id of every word of rec, its list's
// length and whether the path holds it, and returns the offset in rec
// where the lists start.
func codeTerms(rec []byte, f func(id uint32, size int, path bool)) (int, error) {
	r := diskcache.NewReader(rec)
	h := readCodeHead(r)
	r.Skip(2 * h.defs)
	n := r.Count()
	var id, total uint64
	for range n {
		id += r.Uvarint()
		l := r.Uvarint()
		if r.Err() != nil {
			return 0, r.Err()
		}
		total += l >> 1
		f(uint32(id), int(l>>1), l&1 != 0)
	}
	if r.Err() != nil {
		return 0, r.Err()
	}
	if total != uint64(len(r.Rest())) {
		return 0, errBadCode
	}
	return len(rec) - len(r.Rest()), nil
}
