package resolve

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestClassifyMarks resolves every Close of testdata/close.txtar for the
// target a.File.Close and compares with the mark on its line.
func TestClassifyMarks(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "close.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	var paths []string
	for _, f := range ar.Files {
		files[f.Name] = f.Data
		paths = append(paths, f.Name)
	}
	src := NewFiles(paths, func(p string) ([]byte, error) {
		if d, ok := files[p]; ok {
			return d, nil
		}
		return nil, os.ErrNotExist
	})
	r := NewResolver(src)
	target, ok := r.TargetAt("a/file.go", 7, "Close")
	if !ok {
		t.Fatal("no target at a/file.go:7")
	}
	if want := (Target{Dir: "a", Pkg: "a", Recv: "File", Name: "Close"}); target != want {
		t.Fatalf("TargetAt = %+v; want %+v", target, want)
	}
	names := map[Class]string{Other: "other", Match: "match", Through: "through", Unresolved: "unresolved"}
	seen := map[string]int{}
	for _, p := range paths {
		if !IsGo(p) {
			continue
		}
		lines := bytes.Split(files[p], []byte("\n"))
		Uses(files[p], "Close", func(line, col int32) {
			text := string(lines[line-1])
			_, mark, ok := strings.Cut(text, "// ")
			if !ok {
				t.Errorf("%s:%d: no mark: %s", p, line, text)
				return
			}
			u := r.Classify(p, line, col, "Close", []Target{target})
			seen[mark]++
			if got := names[u.Class]; got != mark {
				t.Errorf("%s:%d:%d: %s: got %s, want %s", p, line, col, strings.TrimSpace(text), got, mark)
			}
		})
	}
	if seen["match"] < 10 || seen["through"] < 3 || seen["other"] < 3 || seen["unresolved"] < 1 {
		t.Errorf("marks seen: %v; the fixture has more", seen)
	}
}

// TestEncodeRoundTrip checks that a file's facts survive the record.
func TestEncodeRoundTrip(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "close.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if !IsGo(f.Name) {
			continue
		}
		facts := Parse(f.Data)
		rec := Encode(facts)
		got, err := Decode(rec)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if again := Encode(got); !bytes.Equal(again, rec) {
			t.Errorf("%s: Encode(Decode(rec)) differs from rec", f.Name)
		}
		var sites []Site
		got.eachSite(-1, func(s Site) bool { sites = append(sites, s); return true })
		if a, b := fmt.Sprintf("%+v", facts.Sites), fmt.Sprintf("%+v", sites); a != b {
			t.Errorf("%s: decoded sites =\n%s\nwant\n%s", f.Name, b, a)
		}
		if _, err := Decode(Encode(facts)[:len(Encode(facts))-1]); err == nil {
			t.Errorf("%s: a cut record decodes", f.Name)
		}
	}
}
