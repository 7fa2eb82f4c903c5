package pyres

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/zumba-dev/zumba/search/resolve"
)

// TestMarks resolves the uses of pkg.conn.Connection.close and
// pkg.conn.open_conn in testdata/conn.txtar and compares each with the
// mark on its line.
func TestMarks(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "conn.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	var paths []string
	for _, f := range ar.Files {
		files[f.Name] = f.Data
		paths = append(paths, f.Name)
	}
	r := NewResolver(NewFiles(paths, func(p string) ([]byte, error) {
		if d, ok := files[p]; ok {
			return d, nil
		}
		return nil, os.ErrNotExist
	}))
	if got := strings.Join(r.Modules(), " "); got != "app app.main pkg pkg.conn run util" {
		t.Errorf("modules %q", got)
	}
	names := map[resolve.Class]string{resolve.Other: "other", resolve.Match: "match", resolve.Unresolved: "unresolved"}
	for _, tc := range []struct {
		line int32
		name string
		want resolve.Target
	}{
		{13, "close", resolve.Target{Dir: "pkg/conn.py", Pkg: "pkg.conn", Recv: "Connection", Name: "close"}},
		{35, "open_conn", resolve.Target{Dir: "pkg/conn.py", Pkg: "pkg.conn", Name: "open_conn"}},
	} {
		target, ok := r.TargetAt("pkg/conn.py", tc.line, tc.name)
		if !ok || target != tc.want {
			t.Fatalf("TargetAt(pkg/conn.py, %d, %s) = %+v, %v; want %+v", tc.line, tc.name, target, ok, tc.want)
		}
		got, want := map[string]string{}, map[string]string{}
		for _, p := range paths {
			for i, l := range strings.Split(string(files[p]), "\n") {
				_, marks, _ := strings.Cut(l, "# ")
				for _, m := range strings.Fields(marks) {
					if name, class, ok := strings.Cut(m, "="); ok && name == tc.name && class != "other" {
						want[p+":"+strconv.Itoa(i+1)] = class
					}
				}
			}
			uses, ok := r.FileUses(p, tc.name, []resolve.Target{target}, func() []byte { return files[p] })
			if !ok {
				t.Fatalf("no facts of %s", p)
			}
			for _, u := range uses {
				got[p+":"+strconv.Itoa(int(u.Line))] = names[u.Class]
			}
		}
		var diffs []string
		for k, w := range want {
			if got[k] != w {
				diffs = append(diffs, k+": got "+got[k]+", want "+w)
			}
		}
		for k, g := range got {
			if _, ok := want[k]; !ok {
				diffs = append(diffs, k+": got "+g+", want other")
			}
		}
		sort.Strings(diffs)
		for _, d := range diffs {
			t.Errorf("%s: %s", tc.name, d)
		}
	}
}

// TestEncode: a file's facts read back from their record are the same.
func TestEncode(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "conn.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		facts := Parse(f.Data)
		back, err := Decode(Encode(facts))
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if a, b := Encode(facts), Encode(back); string(a) != string(b) {
			t.Errorf("%s: the record changed on a round trip", f.Name)
		}
	}
	if _, err := Decode([]byte{encVersion, 1, 200}); err == nil {
		t.Error("Decode accepted a bad record")
	}
}

// TestUses: the lexer finds code's words, not those in strings,
// comments, after a dot or naming a keyword argument; f-strings'
// fields are code.
func TestUses(t *testing.T) {
	src := "x = 1  # x\ns = 'x' + \"\"\"x\n\\\nx\"\"\"\nf(x=x, y=x)\nprint(f\"{x!r} {{x}} {a:{x}}\")\na.x\nx\n"
	var got []string
	Uses([]byte(src), "x", func(line, col int32) { got = append(got, strconv.Itoa(int(line))+":"+strconv.Itoa(int(col))) })
	want := "1:1 5:5 5:10 6:10 6:25 8:1"
	if strings.Join(got, " ") != want {
		t.Errorf("Uses = %q; want %q", strings.Join(got, " "), want)
	}
}
