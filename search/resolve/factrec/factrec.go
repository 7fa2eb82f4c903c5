// Package factrec is what every language's resolver does alike with a
// file's facts: parse the file for them where the index has no tree of
// it (Parse), and keep them as the index's record kind (Kind), in memory
// as in the disk cache: a version byte, the file's own table of strings
// (each once), then the facts, every number a uvarint and every string
// its index in the table. A language's resolver (search/resolve for Go,
// its sub-packages for the others) chooses the facts and their order;
// this package writes and reads the frame and the numbers.
//
// A record as Encoder writes it holds its strings; in the index the
// table holds the strings' ids in the vocabulary instead (Intern), each
// name kept once for the whole project, and the version byte says which.
package factrec

import (
	"encoding/binary"
	"errors"

	"github.com/zumba-dev/zumba/internal/index"
)

// ErrCorrupt is the error of a record that does not decode.
var ErrCorrupt = errors.New("corrupt facts record")

// Encoder writes a record: the facts into B, their strings into the
// table.
type Encoder struct {
	B    []byte
	ids  map[string]uint64
	strs []string
}

// U writes a number.
func (e *Encoder) U(v uint64) { e.B = binary.AppendUvarint(e.B, v) }

// I writes a number of -1 or more (-1 for none).
func (e *Encoder) I(v int32) { e.U(uint64(int64(v) + 1)) }

// Z writes a signed number (zigzag).
func (e *Encoder) Z(v int32) { e.U(uint64(uint32(v<<1) ^ uint32(v>>31))) }

// ID returns s's index in the table, adding it.
func (e *Encoder) ID(s string) uint64 {
	if id, ok := e.ids[s]; ok {
		return id
	}
	if e.ids == nil {
		e.ids = map[string]uint64{}
	}
	id := uint64(len(e.strs))
	e.ids[s] = id
	e.strs = append(e.strs, s)
	return id
}

// S writes s as its index in the table.
func (e *Encoder) S(s string) { e.U(e.ID(s)) }

// Record returns the record: version, the table of strings, then B.
func (e *Encoder) Record(version byte) []byte {
	n := 1 + binary.MaxVarintLen64 + len(e.B)
	for _, s := range e.strs {
		n += binary.MaxVarintLen64 + len(s)
	}
	out := make([]byte, 0, n)
	out = append(out, version)
	out = binary.AppendUvarint(out, uint64(len(e.strs)))
	for _, s := range e.strs {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return append(out, e.B...)
}

// Decoder reads a record's facts from B, after its table (Strs). The
// first error is kept in Err; every read after it returns zero.
type Decoder struct {
	B    []byte
	Strs []string
	Err  error
}

// U reads a number.
func (d *Decoder) U() uint64 {
	if d.Err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.B)
	if n <= 0 {
		d.Err, d.B = ErrCorrupt, nil
		return 0
	}
	d.B = d.B[n:]
	return v
}

// N reads a count, bounded by the bytes left.
func (d *Decoder) N() int {
	v := d.U()
	if v > uint64(len(d.B)) {
		d.Err = ErrCorrupt
		return 0
	}
	return int(v)
}

// I reads a number I wrote.
func (d *Decoder) I() int32 { return int32(int64(d.U()) - 1) }

// Z reads a number Z wrote.
func (d *Decoder) Z() int32 {
	v := uint32(d.U())
	return int32(v>>1) ^ -int32(v&1)
}

// S reads a string S wrote.
func (d *Decoder) S() string {
	v := d.U()
	if v >= uint64(len(d.Strs)) {
		d.Err = ErrCorrupt
		return ""
	}
	return d.Strs[v]
}

// Open returns the decoder of rec, a record Encoder wrote with version
// (its strings in it; copied).
func Open(rec []byte, version byte) (*Decoder, error) {
	if len(rec) == 0 || rec[0] != version {
		return nil, ErrCorrupt
	}
	d := &Decoder{B: rec[1:]}
	d.Strs = make([]string, d.N())
	for k := range d.Strs {
		l := d.N()
		if d.Err != nil {
			return nil, d.Err
		}
		d.Strs[k] = string(d.B[:l])
		d.B = d.B[l:]
	}
	return d, d.Err
}

// OpenIn returns the decoder of rec, a record of the index (Intern made
// it with version), its strings from strs, the vocab's (a view taken
// once the record was read): they are not copied.
func OpenIn(rec []byte, version byte, strs *index.StrTable) (*Decoder, error) {
	if len(rec) == 0 || rec[0] != version {
		return nil, ErrCorrupt
	}
	d := &Decoder{B: rec[1:]}
	d.Strs = make([]string, d.N())
	for k := range d.Strs {
		id := d.U()
		if d.Err != nil || id >= uint64(strs.Len()) {
			return nil, ErrCorrupt
		}
		d.Strs[k] = strs.Str(uint32(id))
	}
	return d, d.Err
}

// Intern re-encodes rec, a record Encoder wrote with version from, with
// its table of strings as their ids in v, interning them, and version
// to.
func Intern(rec []byte, from, to byte, v *index.Vocab) ([]byte, error) {
	if len(rec) == 0 || rec[0] != from {
		return nil, ErrCorrupt
	}
	d := &Decoder{B: rec[1:]}
	ns := d.N()
	out := make([]byte, 0, len(rec))
	out = append(out, to)
	out = binary.AppendUvarint(out, uint64(ns))
	for range ns {
		l := d.N()
		if d.Err != nil {
			return nil, d.Err
		}
		out = binary.AppendUvarint(out, uint64(v.Intern(d.B[:l])))
		d.B = d.B[l:]
	}
	out = append(out, d.B...)
	// Kept for as long as the file is unchanged: without spare room.
	return out[:len(out):len(out)], nil
}

// Remap appends to dst rec, a record of the index of version, its
// string ids (below nstrs) mapped by m: for the index's Export and
// Import. An empty rec appends nothing.
func Remap(dst, rec []byte, version byte, nstrs uint64, m func(uint32) uint32) ([]byte, error) {
	if len(rec) == 0 {
		return dst, nil
	}
	if rec[0] != version {
		return dst, ErrCorrupt
	}
	d := &Decoder{B: rec[1:]}
	ns := d.N()
	dst = append(dst, version)
	dst = binary.AppendUvarint(dst, uint64(ns))
	for range ns {
		id := d.U()
		if d.Err != nil || id >= nstrs {
			return dst, ErrCorrupt
		}
		dst = binary.AppendUvarint(dst, uint64(m(uint32(id))))
	}
	return append(dst, d.B...), nil
}
