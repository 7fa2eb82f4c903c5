package findcode

import (
	"encoding/binary"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// vocabBytes encodes a table as scripts/vocab pack writes it.
func vocabBytes(words []string, near [][]vocabNear) []byte {
	b := []byte("zvocab1\n")
	b = binary.AppendUvarint(b, uint64(len(words)))
	for _, w := range words {
		b = binary.AppendUvarint(b, uint64(len(w)))
		b = append(b, w...)
	}
	for _, ns := range near {
		b = binary.AppendUvarint(b, uint64(len(ns)))
		for _, n := range ns {
			b = binary.AppendUvarint(b, uint64(n.id))
			b = append(b, byte(n.sim*255))
		}
	}
	return b
}

func TestDecodeVocab(t *testing.T) {
	words := []string{"typo", "mistype", "suggest"}
	near := [][]vocabNear{{{1, 200.0 / 255}}, {{0, 200.0 / 255}, {2, 140.0 / 255}}, {}}
	b := vocabBytes(words, near)
	v, err := decodeVocab(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(words, v.words); diff != "" {
		t.Errorf("words (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(near, v.near, cmp.AllowUnexported(vocabNear{}), cmp.Comparer(func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 })); diff != "" {
		t.Errorf("nearest (-want +got):\n%s", diff)
	}
	if v.ids["mistype"] != 1 {
		t.Errorf("id of mistype = %d, want 1", v.ids["mistype"])
	}
	// Every cut of the table, and a neighbour out of range, is refused.
	for i := range len(b) - 1 {
		if _, err := decodeVocab(b[:i]); err == nil {
			t.Errorf("a table cut at %d of %d bytes decoded", i, len(b))
		}
	}
	bad := vocabBytes(words, [][]vocabNear{{{7, 0.5}}, nil, nil})
	if _, err := decodeVocab(bad); err == nil {
		t.Error("a nearest word out of range decoded")
	}
}
