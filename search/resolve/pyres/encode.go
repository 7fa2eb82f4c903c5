package pyres

import (
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/search/resolve/factrec"
)

// A file's facts are kept encoded, in memory as in the disk cache, as a
// factrec record: a version byte, the file's own table of strings (each
// once: in the index, their ids in its vocabulary), then the facts'
// lists, every number a uvarint and every string its index in the
// table; the lines of sites are deltas from the previous site's.

// encVersion marks a record with its strings in it (Encode), idsVersion
// one whose table holds the strings' ids in the index's vocabulary
// (Kind.Intern).
const (
	encVersion = 1
	idsVersion = 2
)

var errBadFacts = factrec.ErrCorrupt

// encoder and decoder write and read the record's frame and numbers
// (factrec); lists of numbers are Python's own.
type (
	encoder struct{ factrec.Encoder }
	decoder struct{ factrec.Decoder }
)

func (e *encoder) list32(l []int32) {
	e.U(uint64(len(l)))
	for _, v := range l {
		e.I(v)
	}
}

// Encode encodes f.
func Encode(f *File) []byte {
	e := &encoder{}
	e.U(uint64(len(f.Classes)))
	for _, c := range f.Classes {
		e.S(c.Name)
		e.U(uint64(c.Line))
		e.U(uint64(c.Col))
		e.I(c.Parent)
		e.list32(c.Bases)
	}
	e.U(uint64(len(f.Funcs)))
	prev := int32(0)
	for _, fn := range f.Funcs {
		e.S(fn.Name)
		// Lines as the distance from the previous one's.
		e.Z(fn.Line - prev)
		prev = fn.Line
		e.U(uint64(fn.Col))
		e.I(fn.Class)
		e.U(uint64(fn.Flags))
		e.list32(fn.Rets)
	}
	e.U(uint64(len(f.Vars)))
	prev = 0
	for _, v := range f.Vars {
		e.S(v.Name)
		e.I(v.Class)
		e.Z(v.Line - prev)
		prev = v.Line
		e.list32(v.Vals)
	}
	e.U(uint64(len(f.Exprs)))
	for k, x := range f.Exprs {
		e.U(uint64(x.Op))
		// An operand comes before its expression: A as the distance.
		e.Z(int32(k) - x.A)
		if x.Op == OpUnion {
			e.I(x.B)
		}
		e.S(x.Name)
	}
	e.list32(f.Stars)
	e.U(uint64(len(f.Sites)))
	prev, prevX := int32(0), int32(0)
	for _, s := range f.Sites {
		e.U(uint64(s.Line-prev)<<2 | uint64(s.Kind))
		prev = s.Line
		e.U(uint64(s.Col))
		e.Z(s.X - prevX)
		prevX = s.X
		e.S(s.Name)
	}
	e.U(uint64(len(f.Locals)))
	for _, l := range f.Locals {
		e.S(l.Name)
		e.U(uint64(l.From))
		e.U(uint64(l.To - l.From))
		e.U(uint64(l.Kind))
		e.I(l.X)
	}
	return e.Record(encVersion)
}

func (d *decoder) list32() []int32 {
	n := d.N()
	if n == 0 {
		return nil
	}
	out := make([]int32, n)
	for k := range out {
		out[k] = d.I()
	}
	return out
}

// Decode decodes a record Encode made (its strings in it).
func Decode(b []byte) (*File, error) {
	d, err := factrec.Open(b, encVersion)
	if err != nil {
		return nil, err
	}
	return (&decoder{*d}).body()
}

// DecodeIn decodes a record of the index (Kind.Intern made it), its strings
// from strs, the vocabulary's: they are not copied.
func DecodeIn(b []byte, strs *index.StrTable) (*File, error) {
	d, err := factrec.OpenIn(b, idsVersion, strs)
	if err != nil {
		return nil, err
	}
	return (&decoder{*d}).body()
}

// body decodes the facts after the table of strings.
func (d *decoder) body() (*File, error) {
	f := &File{}
	f.Classes = make([]Class, d.N())
	for k := range f.Classes {
		f.Classes[k] = Class{Name: d.S(), Line: int32(d.U()), Col: int32(d.U()), Parent: d.I(), Bases: d.list32()}
	}
	f.Funcs = make([]Func, d.N())
	line := int32(0)
	for k := range f.Funcs {
		name := d.S()
		line += d.Z()
		f.Funcs[k] = Func{Name: name, Line: line, Col: int32(d.U()), Class: d.I(), Flags: uint8(d.U()), Rets: d.list32()}
	}
	f.Vars = make([]Var, d.N())
	line = 0
	for k := range f.Vars {
		v := Var{Name: d.S(), Class: d.I()}
		line += d.Z()
		v.Line, v.Vals = line, d.list32()
		f.Vars[k] = v
	}
	f.Exprs = make([]Expr, d.N())
	for k := range f.Exprs {
		x := Expr{Op: Op(d.U()), B: -1}
		x.A = int32(k) - d.Z()
		if x.Op == OpUnion {
			x.B = d.I()
		}
		x.Name = d.S()
		f.Exprs[k] = x
	}
	f.Stars = d.list32()
	f.Sites = make([]Site, d.N())
	prev, prevX := int32(0), int32(0)
	for k := range f.Sites {
		lk := d.U()
		prev += int32(lk >> 2)
		col := int32(d.U())
		prevX += d.Z()
		f.Sites[k] = Site{Line: prev, Col: col, Kind: uint8(lk & 3), X: prevX, Name: d.S()}
	}
	f.Locals = make([]Local, d.N())
	for k := range f.Locals {
		l := Local{Name: d.S(), From: int32(d.U())}
		l.To = l.From + int32(d.U())
		l.Kind, l.X = uint8(d.U()), d.I()
		f.Locals[k] = l
	}
	if d.Err != nil {
		return nil, d.Err
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
