package outline

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// javaDef is one outline entry as both sides of a differential test see
// it (oracleDiff); first written for Java, where methods and functions
// are both "function".
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

	var compared []string
	for _, p := range files {
		if !rejected[p] {
			compared = append(compared, p)
		}
	}
	f := oracleDiff{lang: "java", oracle: "javac", want: want, extra: true, ours: func(o *Outline) []javaDef {
		return parentedDefs(o, methodAsFunction)
	}}.compare(t, compared)
	t.Logf("java differential: %d files (%d javac rejects, %d with tree-sitter syntax errors); %d entries from javac, %d from zumba",
		len(files), len(rejected), f.partial, f.total, f.ours)
	f.report(t, "ZUMBA_JAVA_DIFF_DUMP", 0, 0.995)
}

func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}
