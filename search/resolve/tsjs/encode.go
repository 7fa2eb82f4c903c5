package tsjs

import (
	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/search/resolve/factrec"
)

// A file's facts as the index keeps them: a version byte, the file's
// table of strings (each once), then the tables of imports, exports,
// declarations, expressions and sites, each a count and its entries,
// every number a uvarint and every string its index in the table. Sites'
// lines are deltas, their operands deltas from the last one's of their
// kind. Encode writes the table's strings (encVersion); in the index the
// table is the strings' vocab ids (idsVersion, see Kind.Intern), each name
// kept once for the whole project.

const (
	encVersion = 1
	idsVersion = 2
)

// Encode returns f as the index keeps it.
func Encode(f *File) []byte {
	body := &encoder{}
	body.U(uint64(len(f.Imports)))
	for _, im := range f.Imports {
		body.U(body.ID(im.Local))
		body.U(body.ID(im.Spec))
		body.U(body.ID(im.Name))
	}
	body.U(uint64(len(f.Exports)))
	for _, ex := range f.Exports {
		body.U(body.ID(ex.Name))
		body.U(body.ID(ex.Local))
		body.U(body.ID(ex.Spec))
	}
	body.U(uint64(len(f.Decls)))
	for _, d := range f.Decls {
		flags := uint64(d.Kind) << 2
		if d.Static {
			flags |= 2
		}
		if d.Local {
			flags |= 1
		}
		body.U(body.ID(d.Name))
		body.U(flags)
		body.U(uint64(d.Line))
		body.I(d.Parent)
		body.I(d.Type)
	}
	body.U(uint64(len(f.Exprs)))
	for _, x := range f.Exprs {
		body.U(uint64(x.Op))
		body.I(x.A)
		body.I(x.B)
		body.U(body.ID(x.Name))
	}
	body.U(uint64(len(f.Sites)))
	prev, prevX := int32(0), [8]int32{}
	for _, s := range f.Sites {
		body.U(uint64(s.Line - prev))
		prev = s.Line
		body.U(uint64(s.Col)<<3 | uint64(s.Kind))
		// Each kind's operands index a table of their own; a line's
		// sites share them.
		body.Z(s.X - prevX[s.Kind])
		prevX[s.Kind] = s.X
		body.U(body.ID(s.Name))
	}
	return body.Record(encVersion)
}

var errCorrupt = factrec.ErrCorrupt

// encoder and decoder write and read the record's frame and numbers
// (factrec).
type (
	encoder struct{ factrec.Encoder }
	decoder struct{ factrec.Decoder }
)

// Decode reads facts Encode wrote (its strings in it).
func Decode(b []byte) (*File, error) {
	d, err := factrec.Open(b, encVersion)
	if err != nil {
		return nil, err
	}
	return (&decoder{*d}).body()
}

// DecodeIn reads a record of the index (Kind.Intern made it), its strings
// from strs, the vocab's (a view taken once the record was read): they
// are not copied.
func DecodeIn(b []byte, strs *index.StrTable) (*File, error) {
	d, err := factrec.OpenIn(b, idsVersion, strs)
	if err != nil {
		return nil, err
	}
	return (&decoder{*d}).body()
}

// body reads the facts after the table of strings.
func (d *decoder) body() (*File, error) {
	f := &File{}
	f.Imports = make([]Import, d.N())
	for k := range f.Imports {
		f.Imports[k] = Import{Local: d.S(), Spec: d.S(), Name: d.S()}
	}
	f.Exports = make([]Export, d.N())
	for k := range f.Exports {
		f.Exports[k] = Export{Name: d.S(), Local: d.S(), Spec: d.S()}
	}
	f.Decls = make([]Decl, d.N())
	for k := range f.Decls {
		name := d.S()
		flags := d.U()
		f.Decls[k] = Decl{Name: name, Kind: DeclKind(flags >> 2), Static: flags&2 != 0, Local: flags&1 != 0, Line: int32(d.U()), Parent: d.I(), Type: d.I()}
	}
	f.Exprs = make([]Expr, d.N())
	for k := range f.Exprs {
		f.Exprs[k] = Expr{Op: Op(d.U()), A: d.I(), B: d.I(), Name: d.S()}
	}
	f.Sites = make([]Site, d.N())
	prev, prevX := int32(0), [8]int32{}
	for k := range f.Sites {
		prev += int32(d.U())
		ck := d.U()
		kind := SiteKind(ck & 7)
		prevX[kind] += d.Z()
		f.Sites[k] = Site{Line: prev, Col: int32(ck >> 3), Kind: kind, X: prevX[kind], Name: d.S()}
	}
	if d.Err != nil {
		return nil, d.Err
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
