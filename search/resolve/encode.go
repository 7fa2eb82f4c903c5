package resolve

import (
	"encoding/binary"
	"errors"

	"github.com/zumba-dev/zumba/internal/index"
)

// A file's facts are kept encoded, in memory as in the disk cache: a
// version byte, the file's own table of strings (each once), then the
// facts' lists, every number a uvarint and every string its index in
// the table. Lines and columns of sites and locals are deltas from the
// previous one's. Encode writes the table's strings (encVersion); in the
// index the table is the strings' vocab ids (idsVersion, see Intern),
// each name kept once for the whole project.

const (
	encVersion = 4
	idsVersion = 5
)

var errBadFacts = errors.New("bad facts record")

type encoder struct {
	b    []byte
	strs map[string]uint64
	list []string
}

func (e *encoder) u(v uint64) { e.b = binary.AppendUvarint(e.b, v) }

// z encodes a signed number of any size (zigzag).
func (e *encoder) z(v int32) { e.u(uint64(uint32(v<<1) ^ uint32(v>>31))) }

// i encodes a signed number (-1 for none) as a uvarint.
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

// Encode encodes f.
func Encode(f *File) []byte {
	e := &encoder{strs: map[string]uint64{}}
	e.s(f.Package)
	e.u(uint64(len(f.Imports)))
	for _, im := range f.Imports {
		e.s(im.Name)
		e.s(im.Path)
	}
	e.u(uint64(len(f.Types)))
	for _, t := range f.Types {
		e.s(t.Name)
		e.u(uint64(t.Line))
		flags := uint64(t.Kind)
		if t.Local {
			flags |= 4
		}
		if t.Alias {
			flags |= 8
		}
		e.u(flags)
		e.i(t.Under)
		e.u(uint64(len(t.Members)))
		for _, m := range t.Members {
			e.s(m.Name)
			e.i(m.Type)
			e.u(uint64(m.Line))
			var mf uint64
			if m.Embedded {
				mf |= 1
			}
			if m.Method {
				mf |= 2
			}
			e.u(mf)
		}
	}
	e.u(uint64(len(f.Funcs)))
	for _, fn := range f.Funcs {
		e.s(fn.Name)
		e.s(fn.Recv)
		e.u(uint64(fn.Line))
		e.i(fn.Type)
	}
	e.u(uint64(len(f.Vars)))
	for _, v := range f.Vars {
		e.s(v.Name)
		e.i(v.Type)
	}
	e.u(uint64(len(f.Exprs)))
	for _, x := range f.Exprs {
		e.u(uint64(x.Op))
		e.i(x.A)
		e.i(x.B)
		e.s(x.Name)
	}
	e.u(uint64(len(f.Dots)))
	for _, d := range f.Dots {
		e.u(uint64(d))
	}
	// Sites and locals last: a decoded file keeps them encoded (tail).
	nsites, nlocals := len(f.Sites), len(f.Locals)
	if f.tail != nil {
		nsites, nlocals = f.nsites, f.nlocals
	}
	e.u(uint64(nsites))
	prev, prevX := int32(0), [8]int32{}
	f.eachSite(-1, func(s Site) bool {
		e.u(uint64(s.Line - prev))
		prev = s.Line
		// The kind in the column's low bits, the operand as the change
		// from the last one's of the kind (sites of a line share their
		// operands; each kind's operands index a table of their own).
		e.u(uint64(s.Col)<<3 | uint64(s.Kind))
		e.z(s.X - prevX[s.Kind])
		prevX[s.Kind] = s.X
		e.s(s.Name)
		return true
	})
	e.u(uint64(nlocals))
	prevFrom := int32(0)
	f.eachLocal(func(l Local) {
		// A scope's first line as the change from the last one's.
		e.s(l.Name)
		e.z(l.From - prevFrom)
		prevFrom = l.From
		e.u(uint64(l.To - l.From))
	})
	// The strings, then the body: a reader reads the table first.
	out := make([]byte, 0, len(e.b)+16*len(e.list)+8)
	out = append(out, encVersion)
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
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errBadFacts
		return 0
	}
	d.b = d.b[n:]
	return v
}

// n reads a count, bounded by what is left of the record.
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

// Decode decodes a record Encode made (its strings in it).
func Decode(b []byte) (*File, error) {
	if len(b) == 0 || b[0] != encVersion {
		return nil, errBadFacts
	}
	d := &decoder{b: b[1:]}
	ns := d.n()
	d.strs = make([]string, 0, ns)
	for range ns {
		l := d.n()
		if d.err != nil {
			return nil, d.err
		}
		d.strs = append(d.strs, string(d.b[:l]))
		d.b = d.b[l:]
	}
	return d.body()
}

// DecodeIn decodes a record of the index (Intern made it), its strings
// from strs, the vocab's (a view taken once the record was read): they
// are not copied.
func DecodeIn(b []byte, strs *index.StrTable) (*File, error) {
	if len(b) == 0 || b[0] != idsVersion {
		return nil, errBadFacts
	}
	d := &decoder{b: b[1:]}
	ns := d.n()
	d.strs = make([]string, ns)
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
	f := &File{Package: d.s()}
	f.Imports = make([]Import, d.n())
	for k := range f.Imports {
		f.Imports[k] = Import{Name: d.s(), Path: d.s()}
	}
	f.Types = make([]Type, d.n())
	for k := range f.Types {
		t := &f.Types[k]
		t.Name, t.Line = d.s(), int32(d.u())
		flags := d.u()
		t.Kind, t.Local, t.Alias = TypeKind(flags&3), flags&4 != 0, flags&8 != 0
		t.Under = d.i()
		t.Members = make([]Member, d.n())
		for j := range t.Members {
			m := &t.Members[j]
			m.Name, m.Type, m.Line = d.s(), d.i(), int32(d.u())
			mf := d.u()
			m.Embedded, m.Method = mf&1 != 0, mf&2 != 0
		}
	}
	f.Funcs = make([]Func, d.n())
	for k := range f.Funcs {
		f.Funcs[k] = Func{Name: d.s(), Recv: d.s(), Line: int32(d.u()), Type: d.i()}
	}
	f.Vars = make([]Var, d.n())
	for k := range f.Vars {
		f.Vars[k] = Var{Name: d.s(), Type: d.i()}
	}
	f.Exprs = make([]Expr, d.n())
	for k := range f.Exprs {
		f.Exprs[k] = Expr{Op: Op(d.u()), A: d.i(), B: d.i(), Name: d.s()}
	}
	f.Dots = make([]int32, d.n())
	for k := range f.Dots {
		f.Dots[k] = int32(d.u())
	}
	f.tail, f.strs = d.b, d.strs
	// The sites and locals are checked once, and read where they lie.
	f.nsites = d.n()
	for range f.nsites {
		d.u()
		d.u()
		d.z()
		d.s()
	}
	f.localsAt = len(f.tail) - len(d.b)
	f.nlocals = d.n()
	for range f.nlocals {
		d.s()
		d.u()
		d.u()
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = errBadFacts
	}
	if d.err != nil {
		return nil, d.err
	}
	return f, f.check()
}

// check verifies that every index of f is in range, so that a damaged
// record cannot make the resolver read out of bounds.
func (f *File) check() error {
	nx, nt, nf, ni := int32(len(f.Exprs)), int32(len(f.Types)), int32(len(f.Funcs)), int32(len(f.Imports))
	in := func(v, n int32) bool { return v >= -1 && v < n }
	for _, x := range f.Exprs {
		if x.Op >= opCount || !in(x.A, max(nx, nt, ni)) || !in(x.B, nx) && x.Op != OpCall && x.Op != OpFunc {
			return errBadFacts
		}
	}
	for _, t := range f.Types {
		if !in(t.Under, nx) {
			return errBadFacts
		}
		for _, m := range t.Members {
			if !in(m.Type, nx) {
				return errBadFacts
			}
		}
	}
	for _, fn := range f.Funcs {
		if !in(fn.Type, nx) {
			return errBadFacts
		}
	}
	for _, v := range f.Vars {
		if !in(v.Type, nx) {
			return errBadFacts
		}
	}
	var bad bool
	f.eachSite(-1, func(s Site) bool {
		lim := nx
		switch s.Kind {
		case SitePkg:
			lim = ni
		case SiteMember:
			lim = nt
		case SiteMethod:
			lim = nf
		}
		if s.X < 0 || s.X >= lim {
			bad = true
			return false
		}
		return true
	})
	if bad {
		return errBadFacts
	}
	for _, d := range f.Dots {
		if d < 0 || d >= ni {
			return errBadFacts
		}
	}
	return nil
}

// Intern re-encodes rec, a record Encode made, with its table of strings
// as their ids in v, interning them.
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

// remap appends to dst rec, a record of the index, its string ids (below
// nstrs) mapped by m.
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
