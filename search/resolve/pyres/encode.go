package pyres

import (
	"encoding/binary"
	"errors"

	"github.com/zumba-dev/zumba/internal/index"
)

// A file's facts are kept encoded, in memory as in the disk cache: a
// version byte, the file's own table of strings (each once: in the
// index, their ids in its vocabulary), then the facts' lists, every
// number a uvarint and every string its index in the table; the lines
// of sites are deltas from the previous site's.

// encVersion marks a record with its strings in it (Encode), idsVersion
// one whose table holds the strings' ids in the index's vocabulary
// (Intern).
const (
	encVersion = 1
	idsVersion = 2
)

var errBadFacts = errors.New("bad Python facts record")

type encoder struct {
	b    []byte
	strs map[string]uint64
	list []string
}

func (e *encoder) u(v uint64) { e.b = binary.AppendUvarint(e.b, v) }

// i encodes a number of -1 or more.
func (e *encoder) i(v int32) { e.u(uint64(int64(v) + 1)) }

func (e *encoder) s(s string) {
	id, ok := e.strs[s]
	if !ok {
		id = uint64(len(e.list))
		e.strs[s] = id
		e.list = append(e.list, s)
	}
	e.u(id)
}

// z encodes a signed number (zigzag).
func (e *encoder) z(v int32) { e.u(uint64(uint32(v<<1) ^ uint32(v>>31))) }

func (e *encoder) list32(l []int32) {
	e.u(uint64(len(l)))
	for _, v := range l {
		e.i(v)
	}
}

// Encode encodes f.
func Encode(f *File) []byte {
	e := &encoder{strs: map[string]uint64{}}
	e.u(uint64(len(f.Classes)))
	for _, c := range f.Classes {
		e.s(c.Name)
		e.u(uint64(c.Line))
		e.u(uint64(c.Col))
		e.i(c.Parent)
		e.list32(c.Bases)
	}
	e.u(uint64(len(f.Funcs)))
	prev := int32(0)
	for _, fn := range f.Funcs {
		e.s(fn.Name)
		// Lines as the distance from the previous one's.
		e.z(fn.Line - prev)
		prev = fn.Line
		e.u(uint64(fn.Col))
		e.i(fn.Class)
		e.u(uint64(fn.Flags))
		e.list32(fn.Rets)
	}
	e.u(uint64(len(f.Vars)))
	prev = 0
	for _, v := range f.Vars {
		e.s(v.Name)
		e.i(v.Class)
		e.z(v.Line - prev)
		prev = v.Line
		e.list32(v.Vals)
	}
	e.u(uint64(len(f.Exprs)))
	for k, x := range f.Exprs {
		e.u(uint64(x.Op))
		// An operand comes before its expression: A as the distance.
		e.z(int32(k) - x.A)
		if x.Op == OpUnion {
			e.i(x.B)
		}
		e.s(x.Name)
	}
	e.list32(f.Stars)
	e.u(uint64(len(f.Sites)))
	prev, prevX := int32(0), int32(0)
	for _, s := range f.Sites {
		e.u(uint64(s.Line-prev)<<2 | uint64(s.Kind))
		prev = s.Line
		e.u(uint64(s.Col))
		e.z(s.X - prevX)
		prevX = s.X
		e.s(s.Name)
	}
	e.u(uint64(len(f.Locals)))
	for _, l := range f.Locals {
		e.s(l.Name)
		e.u(uint64(l.From))
		e.u(uint64(l.To - l.From))
		e.u(uint64(l.Kind))
		e.i(l.X)
	}
	out := []byte{encVersion}
	out = binary.AppendUvarint(out, uint64(len(e.list)))
	for _, s := range e.list {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return append(out, e.b...)
}

type decoder struct {
	b    []byte
	strs []string
	err  error
}

func (d *decoder) u() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errBadFacts
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

// n is a count, bounded by the bytes left.
func (d *decoder) n() int {
	v := d.u()
	if v > uint64(len(d.b)) {
		d.err = errBadFacts
		return 0
	}
	return int(v)
}

func (d *decoder) i() int32 { return int32(int64(d.u()) - 1) }

func (d *decoder) z() int32 {
	v := uint32(d.u())
	return int32(v>>1) ^ -int32(v&1)
}

func (d *decoder) s() string {
	v := d.u()
	if v >= uint64(len(d.strs)) {
		d.err = errBadFacts
		return ""
	}
	return d.strs[v]
}

func (d *decoder) list32() []int32 {
	n := d.n()
	if n == 0 {
		return nil
	}
	out := make([]int32, n)
	for k := range out {
		out[k] = d.i()
	}
	return out
}

// Decode decodes a record Encode made (its strings in it).
func Decode(b []byte) (*File, error) {
	if len(b) == 0 || b[0] != encVersion {
		return nil, errBadFacts
	}
	d := &decoder{b: b[1:]}
	d.strs = make([]string, d.n())
	for k := range d.strs {
		n := d.n()
		if d.err != nil {
			return nil, d.err
		}
		d.strs[k] = string(d.b[:n])
		d.b = d.b[n:]
	}
	return d.body()
}

// DecodeIn decodes a record of the index (Intern made it), its strings
// from strs, the vocabulary's: they are not copied.
func DecodeIn(b []byte, strs *index.StrTable) (*File, error) {
	if len(b) == 0 || b[0] != idsVersion {
		return nil, errBadFacts
	}
	d := &decoder{b: b[1:]}
	d.strs = make([]string, d.n())
	for k := range d.strs {
		id := d.u()
		if d.err != nil || id >= uint64(strs.Len()) {
			return nil, errBadFacts
		}
		d.strs[k] = strs.Str(uint32(id))
	}
	return d.body()
}

// body decodes the facts after the table of strings.
func (d *decoder) body() (*File, error) {
	f := &File{}
	f.Classes = make([]Class, d.n())
	for k := range f.Classes {
		f.Classes[k] = Class{Name: d.s(), Line: int32(d.u()), Col: int32(d.u()), Parent: d.i(), Bases: d.list32()}
	}
	f.Funcs = make([]Func, d.n())
	line := int32(0)
	for k := range f.Funcs {
		name := d.s()
		line += d.z()
		f.Funcs[k] = Func{Name: name, Line: line, Col: int32(d.u()), Class: d.i(), Flags: uint8(d.u()), Rets: d.list32()}
	}
	f.Vars = make([]Var, d.n())
	line = 0
	for k := range f.Vars {
		v := Var{Name: d.s(), Class: d.i()}
		line += d.z()
		v.Line, v.Vals = line, d.list32()
		f.Vars[k] = v
	}
	f.Exprs = make([]Expr, d.n())
	for k := range f.Exprs {
		x := Expr{Op: Op(d.u()), B: -1}
		x.A = int32(k) - d.z()
		if x.Op == OpUnion {
			x.B = d.i()
		}
		x.Name = d.s()
		f.Exprs[k] = x
	}
	f.Stars = d.list32()
	f.Sites = make([]Site, d.n())
	prev, prevX := int32(0), int32(0)
	for k := range f.Sites {
		lk := d.u()
		prev += int32(lk >> 2)
		col := int32(d.u())
		prevX += d.z()
		f.Sites[k] = Site{Line: prev, Col: col, Kind: uint8(lk & 3), X: prevX, Name: d.s()}
	}
	f.Locals = make([]Local, d.n())
	for k := range f.Locals {
		l := Local{Name: d.s(), From: int32(d.u())}
		l.To = l.From + int32(d.u())
		l.Kind, l.X = uint8(d.u()), d.i()
		f.Locals[k] = l
	}
	if d.err != nil {
		return nil, d.err
	}
	return f, f.check()
}

// check rejects a record whose indexes point outside its lists.
func (f *File) check() error {
	ne, nc, nf := int32(len(f.Exprs)), int32(len(f.Classes)), int32(len(f.Funcs))
	in := func(v, n int32) bool { return v >= -1 && v < n }
	for _, x := range f.Exprs {
		if x.Op >= opCount {
			return errBadFacts
		}
		switch x.Op {
		case OpSelf, OpClass, OpSuper:
			if x.A < 0 || x.A >= nc {
				return errBadFacts
			}
		default:
			if !in(x.A, ne) || !in(x.B, ne) {
				return errBadFacts
			}
		}
	}
	lists := [][]int32{f.Stars}
	for _, c := range f.Classes {
		if !in(c.Parent, nc) {
			return errBadFacts
		}
		lists = append(lists, c.Bases)
	}
	for _, fn := range f.Funcs {
		if !in(fn.Class, nc) {
			return errBadFacts
		}
		lists = append(lists, fn.Rets)
	}
	for _, v := range f.Vars {
		if !in(v.Class, nc) {
			return errBadFacts
		}
		lists = append(lists, v.Vals)
	}
	for _, s := range f.Sites {
		if !in(s.X, ne) {
			return errBadFacts
		}
	}
	for _, l := range f.Locals {
		if l.Kind == LocalMember && !in(l.X, nc) || l.Kind == LocalAlias && !in(l.X, ne) {
			return errBadFacts
		}
	}
	for _, l := range lists {
		for _, v := range l {
			if v < 0 || v >= ne {
				return errBadFacts
			}
		}
	}
	_ = nf
	return nil
}

// Intern re-encodes rec, a record Encode made, with its table of
// strings as their ids in v, interning them.
func Intern(rec []byte, v *index.Vocab) ([]byte, error) {
	if len(rec) == 0 || rec[0] != encVersion {
		return nil, errBadFacts
	}
	d := &decoder{b: rec[1:]}
	ns := d.n()
	out := make([]byte, 0, len(rec))
	out = append(out, idsVersion)
	out = binary.AppendUvarint(out, uint64(ns))
	for range ns {
		l := d.n()
		if d.err != nil {
			return nil, d.err
		}
		out = binary.AppendUvarint(out, uint64(v.Intern(d.b[:l])))
		d.b = d.b[l:]
	}
	out = append(out, d.b...)
	// Kept for as long as the file is unchanged: without spare room.
	return out[:len(out):len(out)], nil
}

// remap appends to dst rec, a record of the index, its string ids
// (below nstrs) mapped by m.
func remap(dst, rec []byte, nstrs uint64, m func(uint32) uint32) ([]byte, error) {
	if len(rec) == 0 {
		return dst, nil
	}
	if rec[0] != idsVersion {
		return dst, errBadFacts
	}
	d := &decoder{b: rec[1:]}
	ns := d.n()
	dst = append(dst, idsVersion)
	dst = binary.AppendUvarint(dst, uint64(ns))
	for range ns {
		id := d.u()
		if d.err != nil || id >= nstrs {
			return dst, errBadFacts
		}
		dst = binary.AppendUvarint(dst, uint64(m(uint32(id))))
	}
	return append(dst, d.b...), nil
}
