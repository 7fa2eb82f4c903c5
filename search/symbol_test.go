package search

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/fixture"
	"github.com/zumba-dev/zumba/outline"
)

// TestQualifiedRecords pins how qualified names match members: Rust
// inherent and trait impls (with generics and paths), Go's "Recv.Name"
// methods, nested containers. outline's TestQualify pins the names.
func TestQualifiedRecords(t *testing.T) {
	def := func(name string, kind grammar.Kind, qual ...string) outline.Definition {
		return outline.Definition{Name: name, Kind: kind, Qualified: qual}
	}
	defs := []outline.Definition{
		def("Rpc", grammar.Impl, "Rpc"),
		def("spawn", grammar.Method, "Rpc", "spawn"),
		def("Display for Rpc", grammar.Impl, "Display for Rpc"),
		def("fmt", grammar.Method, "Rpc", "fmt"),
		def("fmt::Debug for Rpc<T>", grammar.Impl, "fmt", "Debug for Rpc<T>"),
		def("debug", grammar.Method, "Rpc", "debug"),
		def("Server.Serve", grammar.Method, "Server", "Serve"),
		def("net", grammar.Module, "net"),
		def("Conn", grammar.Class, "net", "Conn"),
		def("close", grammar.Method, "net", "Conn", "close"),
		def("v1.2 notes", grammar.Heading, "v1.2 notes"),
		def("Install", grammar.Heading, "v1.2 notes", "Install"),
	}
	matches := func(query string) []string {
		q := ParseSymbolQuery(query)
		var out []string
		for i := range defs {
			if q.exact(&defs[i]) {
				out = append(out, defs[i].QualifiedName())
			}
		}
		return out
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"Rpc.spawn", []string{"Rpc.spawn"}},
		{"Rpc::spawn", []string{"Rpc.spawn"}},
		{"spawn", []string{"Rpc.spawn"}},
		{"Rpc::fmt", []string{"Rpc.fmt"}},
		{"Rpc.debug", []string{"Rpc.debug"}},
		{"Display for Rpc", []string{"Display for Rpc"}},
		{"Server.Serve", []string{"Server.Serve"}},
		{"Serve", []string{"Server.Serve"}},
		{"Client.Serve", nil},
		{"net::Conn::close", []string{"net.Conn.close"}},
		{"Conn.close", []string{"net.Conn.close"}},
		{"other.Conn.close", nil},
		{"v1.2 notes", []string{"v1.2 notes"}},
		{"notes", nil},
	} {
		got := matches(tc.query)
		if len(got) != len(tc.want) || (len(got) > 0 && got[0] != tc.want[0]) {
			t.Errorf("exact matches of %q = %q; want %q", tc.query, got, tc.want)
		}
	}
}

// TestSymbolTimeLimit: a search whose time limit has passed starts no
// file and says how far it got (mcpserver's find_symbol prints it).
func TestSymbolTimeLimit(t *testing.T) {
	dir := t.TempDir()
	for i := range 3 {
		fixture.WriteFile(t, dir, fmt.Sprintf("f%d.go", i), "package f\n\nfunc Slow() {}\n")
	}
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, err := root.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Symbols(context.Background(), files, root, ParseSymbolQuery("Slow"), SymbolLimit, time.Now().Add(-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(&SymbolResult{Files: 3}, res, resultOpts); d != "" {
		t.Errorf("result (-want +got):\n%s", d)
	}
}

// TestSymbolLimitIsNotTimeLimit: stopping at the 40th definition is a
// complete answer, whatever the deadline.
func TestSymbolLimitIsNotTimeLimit(t *testing.T) {
	dir := t.TempDir()
	for i := range 60 {
		fixture.WriteFile(t, dir, fmt.Sprintf("f%02d.go", i), "package f\n\nfunc Many() {}\n")
	}
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, err := root.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		res, err := Symbols(context.Background(), files, root, ParseSymbolQuery("Many"), 3, time.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if !res.More || res.Searched != res.Files || len(res.Defs) != 3 || res.Defs[2].Path != "f02.go" {
			t.Fatalf("Symbols stopped at the limit: More %v, searched %d of %d, %d defs", res.More, res.Searched, res.Files, len(res.Defs))
		}
	}
}

// TestIndexFoldASCII compares indexFoldASCII, which looks for the
// needle's rarest byte first, with lower-casing and searching, on random
// text over a small alphabet (so matches and near misses are common).
func TestIndexFoldASCII(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "aAbBzZ_1 x"
	str := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return b
	}
	for range 20000 {
		data := str(rng.IntN(40))
		lower := bytes.ToLower(str(1 + rng.IntN(4)))
		want := bytes.Index(bytes.ToLower(data), lower)
		if got := indexFoldASCII(data, lower); got != want {
			t.Fatalf("indexFoldASCII(%q, %q) = %d; want %d", data, lower, got, want)
		}
	}
}
