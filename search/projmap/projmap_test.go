package projmap

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/zumba-dev/zumba/internal/fixture"
)

// mapProject is a small project whose map's weights are counted by hand
// in TestMapRanking.
const mapProject = `
-- lib/core.go --
package lib

// Server serves.
type Server struct{}

func (s *Server) Serve() error { return nil }

func NewServer() *Server { return &Server{} }

func helper() int { return 1 }

func String() string { return "" }
-- lib/other.go --
package lib

func useHelper() int { return helper() }
-- app/a.go --
package app

func A() { lib.NewServer().Serve(); _ = lib.String() }
-- app/b.go --
package app

// helper here is another package's word: lib's helper is not exported.
func B() { lib.NewServer(); helper() }
-- app/c.go --
package app

func C() { NewServer() }
-- app/a_test.go --
package app

func TestA() { NewServer(); String(); helper() }
-- x/s1.go --
package x

func String() string { return "" }
-- x/s2.go --
package x

func (T) String() string { return "" }

func use() { String() }
-- py/shapes.py --
class Shape:
    def area(self):
        return 0

    def label(self):
        return ""
-- py/use.py --
from shapes import Shape
Shape().area()
-- README.md --
# Project

NewServer NewServer Shape String
`

func mapFixture(t *testing.T) string {
	t.Helper()
	return fixture.Unpack(t, txtar.Parse([]byte(mapProject)))
}

// weights prints the n best definitions of m, best first, with their
// weights.
func weights(m *Map, n int) []string {
	defs, scores := m.Ranked(n)
	var out []string
	for i, d := range defs {
		out = append(out, fmt.Sprintf("%s:%d %s %.2f", d.Path, d.Line, d.Name, scores[i]))
	}
	return out
}

func TestMapRanking(t *testing.T) {
	root, err := openRoot(mapFixture(t))
	if err != nil {
		t.Fatal(err)
	}
	m, err := root.Map(context.Background(), ".")
	if err != nil {
		t.Fatal(err)
	}
	// NewServer: app/a.go and b.go, which name its package lib (c.go
	// does not; the test and the README do not count). Shape: py/use.py,
	// plus its member area's use there. Server: its method Serve's use
	// in app/a.go. helper: lib/other.go alone, as app/b.go is another
	// package. String in lib: app/a.go, split among its 3 defining
	// files; in x: x/s2.go for x/s1.go's and the other way round.
	want := []string{
		"lib/core.go:8 NewServer 2.00",
		"py/shapes.py:1 Shape 2.00",
		"lib/core.go:4 Server 1.00",
		"lib/core.go:6 Server.Serve 1.00",
		// At equal weights, a public name first.
		"py/shapes.py:2 area 1.00",
		"lib/core.go:10 helper 1.00",
		"lib/core.go:12 String 0.33",
		"x/s1.go:3 String 0.33",
		"x/s2.go:3 T.String 0.33",
		// Then what tests use: app/a_test.go calls NewServer, String
		// and helper (none is left), and what else is public.
	}
	if diff := cmp.Diff(want, weights(m, len(want))); diff != "" {
		t.Errorf("Map ranking (-want +got):\n%s", diff)
	}
	if m.Files != 11 || m.Defs != 17 || m.Building {
		t.Errorf("Map: %d files, %d definitions, building %v; want 11, 17, false", m.Files, m.Defs, m.Building)
	}
}

// TestMapIndexSameRanking: the index ranks as the files read afresh do.
func TestMapIndexSameRanking(t *testing.T) {
	dir := mapFixture(t)
	ix, root, _ := testIndex(t, dir, "-", true)
	for _, folder := range []string{".", "lib", "py"} {
		want, err := root.Map(context.Background(), folder)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ix.Map(context.Background(), folder)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(weights(want, 50), weights(got, 50)); diff != "" {
			t.Errorf("Index.Map(%q) (-Root +Index):\n%s", folder, diff)
		}
		if got.Files != want.Files || got.Defs != want.Defs || got.Building {
			t.Errorf("Index.Map(%q): %d files, %d definitions, building %v; want %d, %d", folder, got.Files, got.Defs, got.Building, want.Files, want.Defs)
		}
	}
}

// lineSizer measures every line as one byte per character of a plain
// rendering, for testing Select without the tool's text.
type lineSizer struct{}

func (lineSizer) FileLine(p string) int { return len(p) + 1 }
func (lineSizer) DefLine(d *Def, depth int, sig bool) int {
	n := 2*depth + 2 + len(d.Name) + 1
	if sig {
		n += len(d.Text) + 3
	}
	return n
}
func (lineSizer) FolderLine(f Folder) int { return len(f.Path) + 30 }

// render prints a selection plainly.
func render(sel *Selection) string {
	var sb strings.Builder
	for _, f := range sel.Files {
		sb.WriteString(f.Path + "\n")
		for _, e := range f.Entries {
			sig := ""
			if e.Sig {
				sig = " — " + e.Text
			}
			fmt.Fprintf(&sb, "%s%d %s%s\n", strings.Repeat("  ", e.Depth+1), e.Line, e.Name, sig)
		}
	}
	for _, f := range sel.Folders {
		fmt.Fprintf(&sb, "%s/ %d %d %d\n", f.Path, f.Folders, f.Files, f.Defs)
	}
	if sel.More != nil {
		fmt.Fprintf(&sb, "… %d %d %d\n", sel.More.Folders, sel.More.Files, sel.More.Defs)
	}
	return sb.String()
}

func TestMapSelect(t *testing.T) {
	root, err := openRoot(mapFixture(t))
	if err != nil {
		t.Fatal(err)
	}
	m, err := root.Map(context.Background(), ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		budget, lines int
		want          string
	}{
		// Everything fits: members nest under their class, in line order.
		{10000, 100, ""},
		// The best first, as many as fit without their texts, shown in
		// line order under their files in path order; no room is left
		// for texts. The files not shown are in folders with files
		// shown.
		{200, 100, `README.md
  1 Project
app/a.go
  3 A
lib/core.go
  4 Server
  6 Server.Serve
  8 NewServer
  10 helper
  12 String
py/shapes.py
  1 Shape
    2 area
x/s1.go
  3 String
x/s2.go
  3 T.String
`},
		// Less room: the folders with nothing shown are summed up on one
		// line, the room kept back for them being too small for two.
		{117, 100, `lib/core.go
  4 Server
  6 Server.Serve
  8 NewServer
  10 helper
py/shapes.py
  1 Shape
    2 area
… 2 6 7
`},
		// Lines bound it too: one is kept for the folders, and what is
		// left after the definitions goes to the biggest folder first.
		{10000, 4, `lib/core.go
  8 NewServer — func NewServer() *Server { return &Server{} }
app/ 1 4 4
… 2 4 6
`},
		// Room for the texts, best first.
		{10000, 9, `lib/core.go
  4 Server — type Server struct{}
  6 Server.Serve — func (s *Server) Serve() error { return nil }
  8 NewServer — func NewServer() *Server { return &Server{} }
  10 helper — func helper() int { return 1 }
py/shapes.py
  1 Shape — class Shape:
    2 area — def area(self):
… 2 6 7
`},
	} {
		sel, err := m.Select(context.Background(), tc.budget, tc.lines, lineSizer{})
		if err != nil {
			t.Fatal(err)
		}
		got := render(sel)
		if tc.want == "" {
			if sel.Shown != m.Defs || !strings.Contains(got, "py/shapes.py\n  1 Shape — class Shape:\n    2 area — def area(self):\n    5 label — def label(self):\n") {
				t.Errorf("Select(%d) shows %d of %d:\n%s", tc.budget, sel.Shown, m.Defs, got)
			}
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Select(%d, %d) (-want +got):\n%s", tc.budget, tc.lines, diff)
		}
	}
}

// TestMapTieBreaks: what no other code uses ranks public names first, then
// by how many tests use them; vendored code weighs nothing, unless the
// map is of a vendored folder.
func TestMapTieBreaks(t *testing.T) {
	dir := fixture.Unpack(t, txtar.Parse([]byte(`
-- api/api.go --
package api

func Alpha() {}

func Gen() {}

func helper() {}
-- api/api_test.go --
package api

func TestGen(t *testing.T) { Gen(); helper() }
-- main.go --
package main

func main() { v.Used() }
-- vendor/v/v.go --
package v

func Used() {}
`)))
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir  string
		want []string
	}{
		{".", []string{"api/api.go:5 Gen 0.00", "api/api.go:3 Alpha 0.00", "api/api_test.go:3 TestGen 0.00", "vendor/v/v.go:3 Used 0.00", "api/api.go:7 helper 0.00", "main.go:3 main 0.00"}},
		{"vendor", []string{"vendor/v/v.go:3 Used 1.00"}},
	} {
		m, err := root.Map(context.Background(), tc.dir)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, weights(m, len(tc.want))); diff != "" {
			t.Errorf("Map(%q) ranking (-want +got):\n%s", tc.dir, diff)
		}
	}
}

// TestMapOverloads: an overload set is one definition in the map, the
// first of it.
func TestMapOverloads(t *testing.T) {
	dir := fixture.Unpack(t, txtar.Parse([]byte(`
-- of.ts --
export function of(a: number): number;
export function of(a: string): string;
export function of(a: any): any { return a; }
export class Box {
  put(a: number): void;
  put(a: string): void;
  put(a: any): void {}
}
-- use.ts --
import { of, Box } from "./of";
of(1); new Box().put(2);
`)))
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := root.Map(context.Background(), ".")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"of.ts:4 Box 2.00", "of.ts:1 of 1.00", "of.ts:5 put 1.00"}
	if diff := cmp.Diff(want, weights(m, 10)); diff != "" {
		t.Errorf("Map ranking (-want +got):\n%s", diff)
	}
}

// TestMapCHeaders: what a C source file defines counts uses elsewhere only
// when a header declares it (lib.c's one, used in lib.c alone, is not
// x.c's "one"); a one-character name counts a tenth.
func TestMapCHeaders(t *testing.T) {
	dir := fixture.Unpack(t, txtar.Parse([]byte(`
-- lib/lib.h --
int api(int a);
#define n 1
-- lib/lib.c --
#include "lib.h"
int api(int a) { return one(a); }
static int one(int a) { return a; }
-- app/x.c --
#include "lib.h"
/* one of the callers */
int x(void) { return api(n); }
-- app/y.c --
/* one more */
int y(void) { return api(n); }
`)))
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := root.Map(context.Background(), "lib")
	if err != nil {
		t.Fatal(err)
	}
	// api: app/x.c, app/y.c and the other of lib's files, split between
	// the header and the source. n: the two app files, a tenth. one:
	// no header defines it.
	want := []string{"lib/lib.c:2 api 1.50", "lib/lib.h:1 api 1.50", "lib/lib.h:2 n 0.20", "lib/lib.c:3 one 0.00"}
	if diff := cmp.Diff(want, weights(m, 10)); diff != "" {
		t.Errorf("Map ranking (-want +got):\n%s", diff)
	}
}
