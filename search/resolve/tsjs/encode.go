package tsjs

import (
	"encoding/binary"
	"errors"

	"github.com/zumba-dev/zumba/internal/index"
)

// A file's facts as the index keeps them: a version byte, the file's
// table of strings (each once), then the tables of imports, exports,
// declarations, expressions and sites, each a count and its entries,
// every number a uvarint and every string its index in the table. Sites'
// lines are deltas, their operands deltas from the last one's of their
// kind. Encode writes the table's strings (encVersion); in the index the
// table is the strings' vocab ids (idsVersion, see Intern), each name
// kept once for the whole project.

const (
	encVersion = 1
	idsVersion = 2
)

type encoder struct {
	b    []byte
	ids  map[string]uint64
	strs []string
}

func (e *encoder) u(v uint64) { e.b = binary.AppendUvarint(e.b, v) }

// i encodes an index that may be -1.
func (e *encoder) i(v int32) { e.u(uint64(int64(v) + 1)) }

// z encodes a signed number (zigzag).
func (e *encoder) z(v int32) { e.u(uint64(uint32(v<<1) ^ uint32(v>>31))) }

func (e *encoder) id(s string) uint64 {
	if id, ok := e.ids[s]; ok {
		return id
	}
	id := uint64(len(e.strs))
	e.ids[s] = id
	e.strs = append(e.strs, s)
	return id
}

// Encode returns f as the index keeps it.
func Encode(f *File) []byte {
	body := &encoder{ids: map[string]uint64{}}
	body.u(uint64(len(f.Imports)))
	for _, im := range f.Imports {
		body.u(body.id(im.Local))
		body.u(body.id(im.Spec))
		body.u(body.id(im.Name))
	}
	body.u(uint64(len(f.Exports)))
	for _, ex := range f.Exports {
		body.u(body.id(ex.Name))
		body.u(body.id(ex.Local))
		body.u(body.id(ex.Spec))
	}
	body.u(uint64(len(f.Decls)))
	for _, d := range f.Decls {
		flags := uint64(d.Kind) << 2
		if d.Static {
			flags |= 2
		}
		if d.Local {
			flags |= 1
		}
		body.u(body.id(d.Name))
		body.u(flags)
		body.u(uint64(d.Line))
		body.i(d.Parent)
		body.i(d.Type)
	}
	body.u(uint64(len(f.Exprs)))
	for _, x := range f.Exprs {
		body.u(uint64(x.Op))
		body.i(x.A)
		body.i(x.B)
		body.u(body.id(x.Name))
	}
	body.u(uint64(len(f.Sites)))
	prev, prevX := int32(0), [8]int32{}
	for _, s := range f.Sites {
		body.u(uint64(s.Line - prev))
		prev = s.Line
		body.u(uint64(s.Col)<<3 | uint64(s.Kind))
		// Each kind's operands index a table of their own; a line's
		// sites share them.
		body.z(s.X - prevX[s.Kind])
		prevX[s.Kind] = s.X
		body.u(body.id(s.Name))
	}
	out := &encoder{b: []byte{encVersion}}
	out.u(uint64(len(body.strs)))
	for _, s := range body.strs {
		out.u(uint64(len(s)))
		out.b = append(out.b, s...)
	}
	return append(out.b, body.b...)
}

type decoder struct {
	b    []byte
	strs []string
	err  error
}

var errCorrupt = errors.New("tsjs: corrupt facts")

func (d *decoder) u() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errCorrupt
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

// n reads a count, bounded by the bytes left.
func (d *decoder) n() int {
	v := d.u()
	if v > uint64(len(d.b)) {
		d.err = errCorrupt
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
		d.err = errCorrupt
		return ""
	}
	return d.strs[v]
}

// Decode reads facts Encode wrote (its strings in it).
func Decode(b []byte) (*File, error) {
	if len(b) == 0 || b[0] != encVersion {
		return nil, errCorrupt
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

// DecodeIn reads a record of the index (Intern made it), its strings
// from strs, the vocab's (a view taken once the record was read): they
// are not copied.
func DecodeIn(b []byte, strs *index.StrTable) (*File, error) {
	if len(b) == 0 || b[0] != idsVersion {
		return nil, errCorrupt
	}
	d := &decoder{b: b[1:]}
	d.strs = make([]string, d.n())
	for k := range d.strs {
		id := d.u()
		if d.err != nil || id >= uint64(strs.Len()) {
			return nil, errCorrupt
		}
		d.strs[k] = strs.Str(uint32(id))
	}
	return d.body()
}

// body reads the facts after the table of strings.
func (d *decoder) body() (*File, error) {
	f := &File{}
	f.Imports = make([]Import, d.n())
	for k := range f.Imports {
		f.Imports[k] = Import{Local: d.s(), Spec: d.s(), Name: d.s()}
	}
	f.Exports = make([]Export, d.n())
	for k := range f.Exports {
		f.Exports[k] = Export{Name: d.s(), Local: d.s(), Spec: d.s()}
	}
	f.Decls = make([]Decl, d.n())
	for k := range f.Decls {
		name := d.s()
		flags := d.u()
		f.Decls[k] = Decl{Name: name, Kind: DeclKind(flags >> 2), Static: flags&2 != 0, Local: flags&1 != 0, Line: int32(d.u()), Parent: d.i(), Type: d.i()}
	}
	f.Exprs = make([]Expr, d.n())
	for k := range f.Exprs {
		f.Exprs[k] = Expr{Op: Op(d.u()), A: d.i(), B: d.i(), Name: d.s()}
	}
	f.Sites = make([]Site, d.n())
	prev, prevX := int32(0), [8]int32{}
	for k := range f.Sites {
		prev += int32(d.u())
		ck := d.u()
		kind := SiteKind(ck & 7)
		prevX[kind] += d.z()
		f.Sites[k] = Site{Line: prev, Col: int32(ck >> 3), Kind: kind, X: prevX[kind], Name: d.s()}
	}
	if d.err != nil {
		return nil, d.err
	}
	return f, f.check()
}

// check rejects facts whose indexes point outside their tables.
func (f *File) check() error {
	nd, nx := int32(len(f.Decls)), int32(len(f.Exprs))
	for _, d := range f.Decls {
		if d.Kind >= declKindCount || d.Parent >= nd || d.Parent < -1 || d.Type >= nx || d.Type < -1 {
			return errCorrupt
		}
		if d.Kind == DeclMember || d.Kind == DeclHeritage {
			if d.Parent < 0 {
				return errCorrupt
			}
		}
	}
	for _, x := range f.Exprs {
		if x.Op >= opCount || x.A < -1 || x.B < -1 {
			return errCorrupt
		}
		switch x.Op {
		case OpDecl, OpThis, OpStatic, OpSuper:
			if x.A < 0 || x.A >= nd {
				return errCorrupt
			}
		case OpRequire:
			if x.A < 0 || int(x.A) >= len(f.Imports) {
				return errCorrupt
			}
		case OpMember, OpCall, OpNew, OpAwait, OpArrayOf, OpElem:
			if x.A >= nx {
				return errCorrupt
			}
		case OpUnion, OpFunc, OpParam:
			if x.A >= nx || x.B >= nx {
				return errCorrupt
			}
		case OpArg, OpArgParam:
			if x.A >= nx {
				return errCorrupt
			}
		}
	}
	for _, s := range f.Sites {
		var n int32
		switch s.Kind {
		case SiteMember, SiteName, SiteKey:
			n = nx
		case SiteDecl:
			n = nd
		case SiteImport:
			n = int32(len(f.Imports))
		case SiteExport:
			n = int32(len(f.Exports))
		default:
			return errCorrupt
		}
		if s.X >= n || s.X < -1 || s.X < 0 && s.Kind != SiteKey {
			return errCorrupt
		}
	}
	return nil
}

// Intern re-encodes rec, a record Encode made, with its table of strings
// as their ids in v, interning them.
func Intern(rec []byte, v *index.Vocab) ([]byte, error) {
	if len(rec) == 0 || rec[0] != encVersion {
		return nil, errCorrupt
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
		return dst, errCorrupt
	}
	d := &decoder{b: rec[1:]}
	ns := d.n()
	dst = append(dst, idsVersion)
	dst = binary.AppendUvarint(dst, uint64(ns))
	for range ns {
		id := d.u()
		if d.err != nil || id >= nstrs {
			return dst, errCorrupt
		}
		dst = binary.AppendUvarint(dst, uint64(m(uint32(id))))
	}
	return append(dst, d.b...), nil
}
