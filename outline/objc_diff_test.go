package outline

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestObjCDifferential compares zumba's Objective-C outlines with clang's
// AST for the files under ZUMBA_OBJC_DIFF_DIR: those the translation unit
// ZUMBA_OBJC_DIFF_TU includes, or, without one, each .m file as its own
// translation unit; ZUMBA_OBJC_DIFF_FLAGS adds clang flags (-I, -D).
// scripts/objc-diff fetches pinned Debian packages and sources and runs
// it. clang 14's JSON dump stops with a crash on GNUstep's headers, so its
// text dump (-ast-dump) is read, a line at a time. Compared are classes,
// implementations, categories, protocols (not forward declarations),
// methods (not the accessors clang makes for properties), properties,
// functions, and named structs, unions and enums with a body: recall by
// (line, kind, name), nesting by the name of the nearest enclosing entry.
// Files where clang reports an error are left out.
func TestObjCDifferential(t *testing.T) {
	dir := os.Getenv("ZUMBA_OBJC_DIFF_DIR")
	if dir == "" {
		t.Skip("set ZUMBA_OBJC_DIFF_DIR (scripts/objc-diff) to compare with clang's AST")
	}
	clang, err := exec.LookPath("clang")
	if err != nil {
		t.Skip("clang not found: the differential test against clang's AST needs it")
	}
	dir, _ = filepath.Abs(dir)
	var tus []string
	if tu := os.Getenv("ZUMBA_OBJC_DIFF_TU"); tu != "" {
		tus = []string{tu}
	} else {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".m") {
				tus = append(tus, p)
			}
			return nil
		})
	}
	want := map[string][]javaDef{}
	bad := map[string]bool{}
	for _, tu := range tus {
		objcClang(t, clang, tu, dir, want, bad)
	}
	var files []string
	for p := range want {
		if !bad[p] {
			files = append(files, p)
		}
	}
	sort.Strings(files)
	f := oracleDiff{lang: "objc", oracle: "clang", want: want, ours: func(o *Outline) []javaDef {
		return parentedDefs(o, objcKind)
	}}.compare(t, files)
	t.Logf("objc differential: %d files (%d with clang errors left out, %d with tree-sitter syntax errors); %d entries from clang",
		f.files, len(bad), f.partial, f.total)
	f.report(t, "ZUMBA_OBJC_DIFF_DUMP", 20, 0.99)
}

// objcKind folds zumba's kinds onto the oracle's.
func objcKind(k string) string {
	if k == "type" {
		return "struct"
	}
	return k
}

// objcClang runs clang over the translation unit tu, adding to want the
// definitions written in files under dir and to bad the files clang
// reports an error in.
func objcClang(t *testing.T, clang, tu, dir string, want map[string][]javaDef, bad map[string]bool) {
	args := append([]string{"-x", "objective-c", "-fsyntax-only", "-ferror-limit=0", "-Xclang", "-ast-dump"},
		strings.Fields(os.Getenv("ZUMBA_OBJC_DIFF_FLAGS"))...)
	cmd := exec.Command(clang, append(args, tu)...)
	stderr, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := objcDumpReader{dir: dir, out: want, lines: map[string][]string{}}
	if err := r.read(out); err != nil {
		t.Fatalf("%s: read clang's dump: %v", tu, err)
	}
	waitErr := cmd.Wait()
	diag, _ := os.ReadFile(stderr.Name())
	n := len(bad)
	for _, l := range strings.Split(string(diag), "\n") {
		if i := strings.Index(l, ": error:"); i > 0 {
			if f := strings.Split(l[:i], ":"); len(f) > 0 {
				p, _ := filepath.Abs(f[0])
				bad[p] = true
			}
		}
	}
	if waitErr != nil {
		t.Logf("clang %s: %v; %d files with errors", tu, waitErr, len(bad)-n)
		bad[tu] = true
	}
}

// objcLoc matches a source location of the text dump: "file.h:12:3",
// "line:12:3", "col:3", or a location clang has none for.
var objcLoc = regexp.MustCompile(`<invalid sloc>|<built-in>|<scratch space>|line:(\d+):(\d+)|col:(\d+)|([^\s<>:,]+):(\d+):(\d+)`)

// objcDumpReader reads clang's text dump. The dump names a location's
// file and line only where they change from the location printed before,
// so they are tracked in the order of the lines.
type objcDumpReader struct {
	dir   string
	out   map[string][]javaDef
	file  string
	line  int
	lines map[string][]string // the files' lines, for forward declarations
	stack []objcDumpNode
	seen  map[string]bool
}

// objcDumpNode is a node of the dump on the path to the current line.
type objcDumpNode struct {
	depth int
	kind  string
	// name is the entry's name when the node is an entry; parent the
	// nearest enclosing entry's name.
	name, parent string
	entry        *javaDef
	file         string
}

func (r *objcDumpReader) read(in io.Reader) error {
	r.seen = map[string]bool{}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		r.readLine(sc.Text())
	}
	r.flush(0)
	return sc.Err()
}

// flush ends the nodes at depth and below, adding their entries.
func (r *objcDumpReader) flush(depth int) {
	for len(r.stack) > 0 && r.stack[len(r.stack)-1].depth >= depth {
		n := r.stack[len(r.stack)-1]
		r.stack = r.stack[:len(r.stack)-1]
		if n.entry == nil {
			continue
		}
		key := fmt.Sprint(n.file, *n.entry)
		if !r.seen[key] {
			r.seen[key] = true
			r.out[n.file] = append(r.out[n.file], *n.entry)
		}
	}
}

func (r *objcDumpReader) readLine(l string) {
	depth := strings.IndexFunc(l, func(c rune) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '<' })
	if depth < 0 {
		return
	}
	rest := l[depth:]
	kind, rest, _ := strings.Cut(rest, " ")
	// The range: from the first " <" to its ">", then the location.
	locFile, locLine := "", 0
	if i := strings.Index(rest, "<"); i >= 0 {
		d, j := 0, i
		for ; j < len(rest); j++ {
			if rest[j] == '<' {
				d++
			} else if rest[j] == '>' {
				d--
				if d == 0 {
					break
				}
			}
		}
		r.locations(rest[i:min(j+1, len(rest))])
		rest = strings.TrimLeft(rest[min(j+1, len(rest)):], " ")
		if m := objcLoc.FindStringIndex(rest); m != nil && m[0] == 0 {
			r.locations(rest[:m[1]])
			locFile, locLine = r.file, r.line
			rest = strings.TrimLeft(rest[m[1]:], " ")
			if strings.HasPrefix(rest, "<Spelling=") {
				k := strings.Index(rest, ">")
				r.locations(rest[:k+1])
				rest = strings.TrimLeft(rest[k+1:], " ")
			}
		}
	}
	r.flush(depth)
	parent := ""
	if len(r.stack) > 0 {
		p := &r.stack[len(r.stack)-1]
		parent = p.parent
		if p.entry != nil {
			parent = p.name
		}
		// A category names its class in a child line.
		if kind == "ObjCInterface" && (p.kind == "ObjCCategoryDecl" || p.kind == "ObjCCategoryImplDecl") && p.entry != nil &&
			!strings.Contains(p.name, "(") {
			if q := strings.Index(rest, "'"); q >= 0 {
				class := strings.Trim(rest[q:], "'")
				p.name = class + "(" + p.name + ")"
				p.entry.name = p.name
			}
		}
	}
	n := objcDumpNode{depth: depth, kind: kind, parent: parent, file: filepath.Clean(locFile)}
	if name, k := r.entry(kind, rest, locFile, locLine); k != "" {
		n.name = name
		n.entry = &javaDef{line: locLine, kind: k, name: name, parent: parent}
	}
	r.stack = append(r.stack, n)
}

// locations reads the locations of s in order, following the file and line.
func (r *objcDumpReader) locations(s string) {
	for _, m := range objcLoc.FindAllStringSubmatch(s, -1) {
		switch {
		case m[1] != "":
			r.line, _ = strconv.Atoi(m[1])
		case m[4] != "":
			r.file = m[4]
			r.line, _ = strconv.Atoi(m[5])
		}
	}
}

// entry returns the name and kind of the entry a declaration is, or "".
func (r *objcDumpReader) entry(kind, rest, file string, line int) (string, string) {
	if line == 0 || !strings.HasPrefix(filepath.Clean(file), r.dir+string(filepath.Separator)) {
		return "", ""
	}
	f := strings.Fields(rest)
	for len(f) > 0 && (f[0] == "implicit" || f[0] == "used" || f[0] == "referenced" || f[0] == "invalid" ||
		f[0] == "prev" || f[0] == "parent" || strings.HasPrefix(f[0], "0x")) {
		if f[0] == "implicit" {
			return "", ""
		}
		f = f[1:]
	}
	name := ""
	if len(f) > 0 {
		name = f[0]
	}
	switch kind {
	case "ObjCInterfaceDecl", "ObjCProtocolDecl":
		if r.forward(file, line) {
			return "", ""
		}
		if kind == "ObjCProtocolDecl" {
			return name, "protocol"
		}
		return name, "class"
	case "ObjCImplementationDecl":
		return name, "class"
	case "ObjCCategoryDecl", "ObjCCategoryImplDecl":
		if strings.HasPrefix(name, "'") {
			name = ""
		}
		return name, "extension"
	case "ObjCMethodDecl":
		if len(f) > 1 && (name == "-" || name == "+") {
			return f[1], "method"
		}
	case "ObjCPropertyDecl":
		return name, "method"
	case "FunctionDecl":
		return name, "function"
	case "RecordDecl", "EnumDecl":
		k := "enum"
		if kind == "RecordDecl" {
			if len(f) < 3 || f[2] != "definition" {
				return "", ""
			}
			k, name = f[0], f[1]
		}
		if name == "" || strings.HasPrefix(name, "'") || !strings.Contains(r.text(file, line), name) {
			return "", "" // anonymous, or named by a macro
		}
		return name, k
	}
	return "", ""
}

// objcForward matches a forward declaration of protocols.
var objcForward = regexp.MustCompile(`@protocol\s+[\w\s,]+;`)

// forward reports whether line of file declares a class or protocol
// without defining it: "@class A, B;", "@protocol P;".
func (r *objcDumpReader) forward(file string, line int) bool {
	s := r.text(file, line)
	if !strings.Contains(s, "@interface") && !strings.Contains(s, "@protocol") {
		return true // "@class A,\n B;"
	}
	return objcForward.MatchString(s)
}

// text returns line of file.
func (r *objcDumpReader) text(file string, line int) string {
	ls, ok := r.lines[file]
	if !ok {
		b, _ := os.ReadFile(file)
		ls = strings.Split(string(b), "\n")
		r.lines[file] = ls
	}
	if line < 1 || line > len(ls) {
		return ""
	}
	return ls[line-1]
}
