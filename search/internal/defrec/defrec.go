// Package defrec is the definitions' kind of record in the index: a
// file's definitions encoded with their strings as the vocabulary's ids
// (Encode, Decode, Walk), found by their names (Kind).
package defrec

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/diskcache"
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/outline"
)

// A file's definitions are kept encoded, in memory as in the disk cache,
// with their strings as vocab ids (about 10 bytes a definition instead of
// an outline.Definition's hundred):
//
//	count         uvarint
//	each          name id, kind (1 byte, its top bit Definition.Decl),
//	              line, line - first line, last line - line,
//	              the qualified name's part count, then their ids
//
// All numbers are uvarints. The definitions come out of Decode as
// outline.Definition values again, without their Path.

// DeclBit, in a definition's kind byte, is Definition.Decl.
const DeclBit = 0x80

func kindByte(k grammar.Kind, decl bool) byte {
	if decl {
		return byte(k) | DeclBit
	}
	return byte(k)
}

// Encode encodes defs, interning their strings in v.
func Encode(v *index.Vocab, defs []outline.Definition) []byte {
	if len(defs) == 0 {
		return nil
	}
	b := make([]byte, 0, 1+len(defs)*10)
	b = binary.AppendUvarint(b, uint64(len(defs)))
	for _, d := range defs {
		b = binary.AppendUvarint(b, uint64(v.InternString(d.Name)))
		b = append(b, kindByte(d.Kind, d.Decl))
		line := max(d.Line, 0)
		b = binary.AppendUvarint(b, uint64(line))
		b = binary.AppendUvarint(b, uint64(max(line-d.Start, 0)))
		b = binary.AppendUvarint(b, uint64(max(d.End-line, 0)))
		b = binary.AppendUvarint(b, uint64(len(d.Qualified)))
		for _, q := range d.Qualified {
			b = binary.AppendUvarint(b, uint64(v.InternString(q)))
		}
	}
	if cap(b)-len(b) > len(b)/8 {
		// Kept for as long as the file is unchanged: without the
		// growth's spare room.
		b = append([]byte(nil), b...)
	}
	return b
}

var errBad = errors.New("bad definitions record")

// defKeys calls f with the keys a definition is found by (its last
// segment and its whole name), for each definition of raw.
func defKeys(raw []byte, f func(name, last uint32)) error {
	return Walk(raw, math.MaxUint32, func(name uint32, _ byte, _, _, _ uint64, quals []uint32) {
		last := name
		if len(quals) > 0 {
			last = quals[len(quals)-1]
		}
		f(name, last)
	})
}

// Walk decodes raw, checking every string id against nstrs, and calls
// f for each definition; quals is valid during the call only.
func Walk(raw []byte, nstrs uint64, f func(name uint32, kind byte, line, before, after uint64, quals []uint32)) error {
	r := diskcache.NewReader(raw)
	maxKind := uint64(len(grammar.Kinds()))
	var quals [16]uint32
	n := r.Count()
	for range n {
		name := r.Uvarint()
		k := r.Byte()
		line, before, after := r.Uvarint(), r.Uvarint(), r.Uvarint()
		nq := r.Count()
		if err := r.Err(); err != nil {
			return err
		}
		kk := k &^ DeclBit
		if name >= nstrs || kk == 0 || uint64(kk) > maxKind || line > math.MaxInt32 || before > line || after > math.MaxInt32-line {
			return errBad
		}
		qs := quals[:0]
		for range nq {
			q := r.Uvarint()
			if err := r.Err(); err != nil {
				return err
			}
			if q >= nstrs {
				return errBad
			}
			qs = append(qs, uint32(q))
		}
		f(uint32(name), k, line, before, after, qs)
	}
	if r.Err() == nil && !r.Done() {
		return errBad
	}
	return r.Err()
}

// Decode turns raw back into definitions, their strings from strs
// (the vocab's, taken under the index's lock).
func Decode(strs *index.StrTable, raw []byte) []outline.Definition {
	if len(raw) == 0 {
		return nil
	}
	var defs []outline.Definition
	var quals []string
	type span struct{ from, to int }
	var spans []span
	err := Walk(raw, uint64(strs.Len()), func(name uint32, k byte, line, before, after uint64, qs []uint32) {
		from := len(quals)
		for _, q := range qs {
			quals = append(quals, strs.Str(q))
		}
		spans = append(spans, span{from, len(quals)})
		defs = append(defs, outline.Definition{
			Name: strs.Str(name), Kind: grammar.Kind(k &^ DeclBit), Decl: k&DeclBit != 0,
			Line: int(line), Start: int(line - before), End: int(line + after),
		})
	})
	if err != nil {
		return nil
	}
	// One backing array for every qualified name of the file.
	for i, s := range spans {
		defs[i].Qualified = quals[s.from:s.to:s.to]
	}
	return defs
}

// Kind is the definitions' kind of record in the index (see
// [index.RecordKind]), found by their names.
type Kind struct{}

// Make encodes the definitions.
func (Kind) Make(_ string, _ []byte, defs []outline.Definition, v *index.Vocab) []byte {
	return Encode(v, defs)
}

// Keys lists each definition's last segment and whole name.
func (Kind) Keys(rec []byte, dst []uint32) []uint32 {
	from := len(dst)
	defKeys(rec, func(name, last uint32) { dst = append(dst, name, last) })
	slices.Sort(dst[from:])
	return append(dst[:from], slices.Compact(dst[from:])...)
}

// Export renumbers the strings.
func (Kind) Export(dst, rec []byte, nstrs uint64, m func(uint32) uint32) ([]byte, error) {
	return appendRemapDefs(dst, rec, nstrs, m)
}

// PathStrings lists none: the record does not depend on the path.
func (Kind) PathStrings(_ string, dst [][]byte) [][]byte { return dst }

// Import renumbers the strings.
func (Kind) Import(dst, rec []byte, nstrs uint64, m func(uint32) uint32, _ []uint32) ([]byte, error) {
	return appendRemapDefs(dst, rec, nstrs, m)
}

// appendRemapDefs appends to dst the definitions record raw re-encoded,
// its string ids (below nstrs) mapped by m.
func appendRemapDefs(dst, raw []byte, nstrs uint64, m func(uint32) uint32) ([]byte, error) {
	if len(raw) == 0 {
		return dst, nil
	}
	r := diskcache.NewReader(raw)
	n := r.Count()
	out := binary.AppendUvarint(dst, uint64(n))
	err := Walk(raw, nstrs, func(name uint32, k byte, line, before, after uint64, quals []uint32) {
		out = binary.AppendUvarint(out, uint64(m(name)))
		out = append(out, k)
		out = binary.AppendUvarint(out, line)
		out = binary.AppendUvarint(out, before)
		out = binary.AppendUvarint(out, after)
		out = binary.AppendUvarint(out, uint64(len(quals)))
		for _, q := range quals {
			out = binary.AppendUvarint(out, uint64(m(q)))
		}
	})
	return out, err
}
