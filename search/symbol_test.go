package search

import (
	"testing"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/outline"
)

// TestQualifiedRecords pins how qualified names match members, on outlines
// built by hand: Rust inherent and trait impls (with generics and paths),
// Go's "Recv.Name" methods, nested containers.
func TestQualifiedRecords(t *testing.T) {
	fn := func(name string) *outline.Entry { return &outline.Entry{Name: name, Kind: grammar.Method} }
	o := &outline.Outline{Entries: []*outline.Entry{
		{Name: "Rpc", Kind: grammar.Impl, Children: []*outline.Entry{fn("spawn")}},
		{Name: "Display for Rpc", Kind: grammar.Impl, Children: []*outline.Entry{fn("fmt")}},
		{Name: "fmt::Debug for Rpc<T>", Kind: grammar.Impl, Children: []*outline.Entry{fn("debug")}},
		{Name: "Server.Serve", Kind: grammar.Method},
		{Name: "net", Kind: grammar.Module, Children: []*outline.Entry{
			{Name: "Conn", Kind: grammar.Class, Children: []*outline.Entry{fn("close")}},
		}},
		{Name: "v1.2 notes", Kind: grammar.Heading, Children: []*outline.Entry{{Name: "Install", Kind: grammar.Heading}}},
	}}
	recs := records(o)
	matches := func(query string) []string {
		q := ParseSymbolQuery(query)
		var out []string
		for i := range recs {
			if q.exact(&recs[i]) {
				out = append(out, recs[i].display)
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
