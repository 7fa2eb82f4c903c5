package resolve

import (
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/search/resolve/factrec"
)

// A file's facts are kept encoded, in memory as in the disk cache: a
// version byte, the file's own table of strings (each once), then the
// facts' lists, every number a uvarint and every string its index in
// the table. Lines and columns of sites and locals are deltas from the
// previous one's. Encode writes the table's strings (encVersion); in the
// index the table is the strings' vocab ids (idsVersion, see Kind.Intern),
// each name kept once for the whole project.

const (
	encVersion = 4
	idsVersion = 5
)

var errBadFacts = factrec.ErrCorrupt

// encoder and decoder write and read the record's frame and numbers
// (factrec).
type (
	encoder struct{ factrec.Encoder }
	decoder struct{ factrec.Decoder }
)

// Encode encodes f.
func Encode(f *File) []byte {
	e := &encoder{}
	e.S(f.Package)
	e.U(uint64(len(f.Imports)))
	for _, im := range f.Imports {
		e.S(im.Name)
		e.S(im.Path)
	}
	e.U(uint64(len(f.Types)))
	for _, t := range f.Types {
		e.S(t.Name)
		e.U(uint64(t.Line))
		flags := uint64(t.Kind)
		if t.Local {
			flags |= 4
		}
		if t.Alias {
			flags |= 8
		}
		e.U(flags)
		e.I(t.Under)
		e.U(uint64(len(t.Members)))
		for _, m := range t.Members {
			e.S(m.Name)
			e.I(m.Type)
			e.U(uint64(m.Line))
			var mf uint64
			if m.Embedded {
				mf |= 1
			}
			if m.Method {
				mf |= 2
			}
			e.U(mf)
		}
	}
	e.U(uint64(len(f.Funcs)))
	for _, fn := range f.Funcs {
		e.S(fn.Name)
		e.S(fn.Recv)
		e.U(uint64(fn.Line))
		e.I(fn.Type)
	}
	e.U(uint64(len(f.Vars)))
	for _, v := range f.Vars {
		e.S(v.Name)
		e.I(v.Type)
	}
	e.U(uint64(len(f.Exprs)))
	for _, x := range f.Exprs {
		e.U(uint64(x.Op))
		e.I(x.A)
		e.I(x.B)
		e.S(x.Name)
	}
	e.U(uint64(len(f.Dots)))
	for _, d := range f.Dots {
		e.U(uint64(d))
	}
	// Sites and locals last: a decoded file keeps them encoded (tail).
	nsites, nlocals := len(f.Sites), len(f.Locals)
	if f.tail != nil {
		nsites, nlocals = f.nsites, f.nlocals
	}
	e.U(uint64(nsites))
	prev, prevX := int32(0), [8]int32{}
	f.eachSite(-1, func(s Site) bool {
		e.U(uint64(s.Line - prev))
		prev = s.Line
		// The kind in the column's low bits, the operand as the change
		// from the last one's of the kind (sites of a line share their
		// operands; each kind's operands index a table of their own).
		e.U(uint64(s.Col)<<3 | uint64(s.Kind))
		e.Z(s.X - prevX[s.Kind])
		prevX[s.Kind] = s.X
		e.S(s.Name)
		return true
	})
	e.U(uint64(nlocals))
	prevFrom := int32(0)
	f.eachLocal(func(l Local) {
		// A scope's first line as the change from the last one's.
		e.S(l.Name)
		e.Z(l.From - prevFrom)
		prevFrom = l.From
		e.U(uint64(l.To - l.From))
	})
	// The strings, then the body: a reader reads the table first.
	return e.Record(encVersion)
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
// from strs, the vocab's (a view taken once the record was read): they
// are not copied.
func DecodeIn(b []byte, strs *index.StrTable) (*File, error) {
	d, err := factrec.OpenIn(b, idsVersion, strs)
	if err != nil {
		return nil, err
	}
	return (&decoder{*d}).body()
}

// body decodes the facts after the table of strings.
func (d *decoder) body() (*File, error) {
	f := &File{Package: d.S()}
	f.Imports = make([]Import, d.N())
	for k := range f.Imports {
		f.Imports[k] = Import{Name: d.S(), Path: d.S()}
	}
	f.Types = make([]Type, d.N())
	for k := range f.Types {
		t := &f.Types[k]
		t.Name, t.Line = d.S(), int32(d.U())
		flags := d.U()
		t.Kind, t.Local, t.Alias = TypeKind(flags&3), flags&4 != 0, flags&8 != 0
		t.Under = d.I()
		t.Members = make([]Member, d.N())
		for j := range t.Members {
			m := &t.Members[j]
			m.Name, m.Type, m.Line = d.S(), d.I(), int32(d.U())
			mf := d.U()
			m.Embedded, m.Method = mf&1 != 0, mf&2 != 0
		}
	}
	f.Funcs = make([]Func, d.N())
	for k := range f.Funcs {
		f.Funcs[k] = Func{Name: d.S(), Recv: d.S(), Line: int32(d.U()), Type: d.I()}
	}
	f.Vars = make([]Var, d.N())
	for k := range f.Vars {
		f.Vars[k] = Var{Name: d.S(), Type: d.I()}
	}
	f.Exprs = make([]Expr, d.N())
	for k := range f.Exprs {
		f.Exprs[k] = Expr{Op: Op(d.U()), A: d.I(), B: d.I(), Name: d.S()}
	}
	f.Dots = make([]int32, d.N())
	for k := range f.Dots {
		f.Dots[k] = int32(d.U())
	}
	f.tail, f.strs = d.B, d.Strs
	// The sites and locals are checked once, and read where they lie.
	f.nsites = d.N()
	for range f.nsites {
		d.U()
		d.U()
		d.Z()
		d.S()
	}
	f.localsAt = len(f.tail) - len(d.B)
	f.nlocals = d.N()
	for range f.nlocals {
		d.S()
		d.U()
		d.U()
	}
	if d.Err == nil && len(d.B) != 0 {
		d.Err = errBadFacts
	}
	if d.Err != nil {
		return nil, d.Err
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
