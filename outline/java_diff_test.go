package outline

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

// javaDef is one outline entry as both sides see it; methods and
// functions are both "function".
type javaDef struct {
	line               int
	kind, name, parent string
}

func (d javaDef) String() string {
	return fmt.Sprintf("%d %s %s (in %q)", d.line, d.kind, d.name, d.parent)
}

// TestJavaDifferential outlines the .java files under ZUMBA_JAVA_DIFF_DIR
// (scripts/java-diff fetches the JDK's own sources from a pinned Debian
// package) and compares (line, kind, name, parent) with what javac's
// parser gives, through testdata/difftest/JavaOutline.java. Recall counts
// javac's entries zumba lists with the same line, kind and name; nesting
// counts those that also have the same parent.
func TestJavaDifferential(t *testing.T) {
	root := os.Getenv("ZUMBA_JAVA_DIFF_DIR")
	if root == "" {
		t.Skip("set ZUMBA_JAVA_DIFF_DIR to a tree of .java files (scripts/java-diff) to compare with javac's parser")
	}
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("java not found: the differential test against javac's parser needs a JDK")
	}
	var files []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".java") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(t.TempDir(), "files")
	if err := os.WriteFile(list, []byte(strings.Join(files, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	oracle, err := filepath.Abs("../testdata/difftest/JavaOutline.java")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(java,
		"--add-exports", "jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED",
		"--add-exports", "jdk.compiler/com.sun.tools.javac.code=ALL-UNNAMED",
		oracle, list)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("javac oracle: %v", err)
	}
	want := map[string][]javaDef{}
	rejected := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) == 3 && f[1] == "!" {
			rejected[f[0]] = true
			continue
		}
		if len(f) != 5 {
			t.Fatalf("oracle line %q", sc.Text())
		}
		line, _ := strconv.Atoi(f[1])
		want[f[0]] = append(want[f[0]], javaDef{line, f[2], f[3], f[4]})
	}

	lang := grammar.ByName("java")
	var found, nested, total, extra, zumbaTotal, partialFiles int
	var missLog []string
	for _, p := range files {
		if rejected[p] {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		o, err := Parse(context.Background(), lang, src)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if o.Partial {
			partialFiles++
		}
		// By (line, kind, name): the parent is what nesting measures.
		type key struct {
			line       int
			kind, name string
		}
		ours := map[key][]string{}
		for _, s := range withParents(o) {
			kind := s.Kind.String()
			if kind == "method" {
				kind = "function"
			}
			ours[key{s.Line, kind, s.Name}] = append(ours[key{s.Line, kind, s.Name}], s.parent)
			zumbaTotal++
		}
		for _, d := range want[p] {
			total++
			k := key{d.line, d.kind, d.name}
			parents := ours[k]
			if len(parents) == 0 {
				missLog = append(missLog, fmt.Sprintf("%s: javac has, zumba has not: %s", p, d))
				continue
			}
			found++
			i := indexOf(parents, d.parent)
			if i < 0 {
				missLog = append(missLog, fmt.Sprintf("%s: %s; zumba in %q", p, d, parents[0]))
				i = 0
			} else {
				nested++
			}
			ours[k] = append(parents[:i], parents[i+1:]...)
		}
		for k, ps := range ours {
			for range ps {
				extra++
				missLog = append(missLog, fmt.Sprintf("%s: zumba has, javac has not: %d %s %s", p, k.line, k.kind, k.name))
			}
		}
	}
	sort.Strings(missLog)
	recall := float64(found) / float64(max(total, 1))
	nesting := float64(nested) / float64(max(found, 1))
	precision := float64(zumbaTotal-extra) / float64(max(zumbaTotal, 1))
	t.Logf("java differential: %d files (%d javac rejects, %d with tree-sitter syntax errors); %d entries from javac, %d from zumba",
		len(files), len(rejected), partialFiles, total, zumbaTotal)
	t.Logf("recall %.4f%% (%d missed), nesting %.4f%% (%d of the found elsewhere), precision %.4f%% (%d extra)",
		100*recall, total-found, 100*nesting, found-nested, 100*precision, extra)
	if dump := os.Getenv("ZUMBA_JAVA_DIFF_DUMP"); dump != "" {
		if err := os.WriteFile(dump, []byte(strings.Join(missLog, "\n")+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
	for i, m := range missLog {
		if i == 20 {
			t.Logf("… %d more", len(missLog)-i)
			break
		}
		t.Log(m)
	}
	if recall < 0.995 || nesting < 0.995 {
		t.Errorf("recall %.4f, nesting %.4f; want both at least 0.995", recall, nesting)
	}
}

func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}
