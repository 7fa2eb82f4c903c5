package factrec

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/internal/index"
)

type facts struct {
	Names  []string
	Lines  []int32
	Parent int32
}

func encode(f facts) []byte {
	var e Encoder
	e.U(uint64(len(f.Names)))
	for _, n := range f.Names {
		e.S(n)
	}
	e.U(uint64(len(f.Lines)))
	prev := int32(0)
	for _, l := range f.Lines {
		e.Z(l - prev)
		prev = l
	}
	e.I(f.Parent)
	return e.Record(1)
}

func decode(d *Decoder) (facts, error) {
	var f facts
	f.Names = make([]string, d.N())
	for k := range f.Names {
		f.Names[k] = d.S()
	}
	f.Lines = make([]int32, d.N())
	prev := int32(0)
	for k := range f.Lines {
		prev += d.Z()
		f.Lines[k] = prev
	}
	f.Parent = d.I()
	if len(d.B) != 0 {
		d.Err = ErrCorrupt
	}
	return f, d.Err
}

func TestRecord(t *testing.T) {
	want := facts{Names: []string{"Close", "File", "Close", "os", ""}, Lines: []int32{10, 3, 400, 400}, Parent: -1}
	rec := encode(want)
	d, err := Open(rec, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Strs) != 4 {
		t.Errorf("table of %d strings, want 4 (each once)", len(d.Strs))
	}
	got, err := decode(d)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
	if _, err := Open(rec, 2); err == nil {
		t.Error("a record of version 1 opened as version 2")
	}
	// Every cut of the record fails, at Open or at the last read.
	for i := range len(rec) {
		d, err := Open(rec[:i], 1)
		if err == nil {
			_, err = decode(d)
		}
		if err == nil {
			t.Errorf("the record cut at %d of %d bytes decoded", i, len(rec))
		}
	}

	// Interned into a vocabulary, exported with other ids and imported
	// back, it decodes the same from the vocabulary's strings.
	v := index.NewVocab()
	v.Intern([]byte("unrelated"))
	in, err := Intern(rec, 1, 2, v)
	if err != nil {
		t.Fatal(err)
	}
	strs := v.View()
	d, err = OpenIn(in, 2, strs)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := decode(d); err != nil || !cmp.Equal(want, got) {
		t.Errorf("interned: %v, %v; want %v", got, err, want)
	}
	shift := func(id uint32) uint32 { return id + 100 }
	unshift := func(id uint32) uint32 { return id - 100 }
	out, err := Remap(nil, in, 2, uint64(strs.Len()), shift)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Remap(nil, out, 2, uint64(strs.Len())+100, unshift)
	if err != nil || !cmp.Equal(in, back) {
		t.Errorf("remapped there and back: %v, %v; want %v", back, err, in)
	}
	if _, err := Remap(nil, in, 2, 1, shift); err == nil {
		t.Error("an id past the table remapped")
	}
	if _, err := OpenIn(in, 2, &index.StrTable{}); err == nil {
		t.Error("an id past the vocabulary opened")
	}
}
