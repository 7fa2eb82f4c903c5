package outline

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestClangDifferential compares zumba's C++ outlines with clang's AST
// (clang -Xclang -ast-dump=json -fsyntax-only) for every header under
// ZUMBA_CLANG_DIFF_DIR that the translation unit ZUMBA_CLANG_DIFF_TU
// includes; ZUMBA_CLANG_DIFF_FLAGS adds clang flags (-I, -std).
// scripts/clang-diff fetches pinned Debian packages and runs it. One
// translation unit covers every header it includes, so clang runs once
// per library, and its dump is read as a stream. Compared are the
// namespaces, classes, structs and unions with a body, and the functions,
// methods, constructors, destructors and operators clang finds in those
// headers (a friend function only when it is defined there): recall by
// (line, kind, name), nesting by the name of the nearest enclosing entry.
// Headers where clang reports an error are left out.
func TestClangDifferential(t *testing.T) {
	dir, tu := os.Getenv("ZUMBA_CLANG_DIFF_DIR"), os.Getenv("ZUMBA_CLANG_DIFF_TU")
	if dir == "" || tu == "" {
		t.Skip("set ZUMBA_CLANG_DIFF_DIR and ZUMBA_CLANG_DIFF_TU (scripts/clang-diff) to compare with clang's AST")
	}
	clang, err := exec.LookPath("clang")
	if err != nil {
		t.Skip("clang not found: the differential test against clang's AST needs it")
	}
	dir, _ = filepath.Abs(dir)
	args := append([]string{"-x", "c++-header", "-fsyntax-only", "-Xclang", "-ast-dump=json"},
		strings.Fields(os.Getenv("ZUMBA_CLANG_DIFF_FLAGS"))...)
	cmd := exec.Command(clang, append(args, tu)...)
	stderr, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	want, err := readClangDump(out, dir)
	if err != nil {
		t.Fatalf("read clang's dump: %v", err)
	}
	waitErr := cmd.Wait()
	diag, _ := os.ReadFile(stderr.Name())
	// Headers with an error clang reports are not compared.
	bad := map[string]bool{}
	for _, l := range strings.Split(string(diag), "\n") {
		if i := strings.Index(l, ": error:"); i > 0 {
			if f := strings.Split(l[:i], ":"); len(f) > 0 {
				p, _ := filepath.Abs(f[0])
				bad[p] = true
			}
		}
	}
	if waitErr != nil {
		t.Logf("clang: %v; %d headers with errors", waitErr, len(bad))
	}

	var files []string
	for p := range want {
		if !bad[p] {
			files = append(files, p)
		}
	}
	sort.Strings(files)
	f := oracleDiff{lang: "cpp", oracle: "clang", want: want, ours: clangEntries}.compare(t, files)
	t.Logf("clang differential: %d headers (%d with clang errors left out, %d with tree-sitter syntax errors); %d entries from clang",
		f.files, len(bad), f.partial, f.total)
	f.report(t, "ZUMBA_CLANG_DIFF_DUMP", 0, 0.99)
}

// clangEntries lists zumba's entries of o as clang's dump is read:
// out-of-line members are named Class.member, and so are the containers
// they are.
func clangEntries(o *Outline) []javaDef {
	var out []javaDef
	for _, s := range withParents(o) {
		name, parent := unqualified(s.Name), unqualified(s.parent)
		out = append(out, javaDef{line: s.Line, kind: clangKind(s.Kind.String()), name: conversionName(name), parent: parent})
	}
	return out
}

// unqualified returns the name after a qualified name's last ".".
func unqualified(name string) string {
	if i := strings.LastIndex(name, "."); i > 0 && !strings.HasPrefix(name, "operator") {
		return name[i+1:]
	}
	return name
}

// clangKind folds zumba's kinds onto the oracle's.
func clangKind(k string) string {
	if k == "method" {
		return "function"
	}
	return k
}

// clangDef is an entry of clang's dump, with the file it is written in.
type clangDef struct {
	javaDef
	file string
}

// clangNode is one JSON object of the dump being read: a declaration, a
// source location, or anything else.
type clangNode struct {
	key              string // the key it is the value of in its parent
	kind, name, tag  string
	implicit, body   bool
	complete, friend bool
	offset           bool // a bare source location
	macro            bool // its location is a macro's expansion
	lambda           bool // inside a lambda's implicit class
	// A template's inner list holds its pattern, then its implicit
	// instantiations (an explicit specialization stands where it is
	// written), under the template's first declaration, a friend
	// declaration in another class perhaps: tmpl is the template whose
	// list holds the node, sawPattern says the template's pattern came,
	// instance marks an instantiation and instantiated what is inside one.
	// None of these is written where the dump shows it.
	tmpl                               *clangNode
	sawPattern, instance, instantiated bool
	file                               string
	line                               int
	// The location the declaration's "loc" resolved to.
	locFile string
	locLine int
	// entry is the outline entry this declaration is, if any, once decided;
	// parent is the nearest enclosing entry's name.
	decided bool
	entry   *clangDef
	parent  string
}

// readClangDump reads clang's JSON dump as a stream, keeping the
// declarations written in files under dir. The dump names a location's
// file and line only where they change from the location printed before,
// so they are tracked in the order of the stream.
func readClangDump(r io.Reader, dir string) (map[string][]javaDef, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	out := map[string][]javaDef{}
	seen := map[clangDef]bool{}
	var curFile string
	var curLine int
	var stack []*clangNode
	// containers: 'o' for an object, 'a' for an array; expectKey says
	// whether the next string of the innermost object is a key.
	var containers []byte
	expectKey := false
	key := ""
	top := func() *clangNode {
		if len(stack) == 0 {
			return nil
		}
		return stack[len(stack)-1]
	}
	decide := func(n *clangNode) {
		if !n.decided {
			n.decided = true
			if n.tmpl != nil && strings.HasSuffix(n.kind, "Decl") && n.kind != "TemplateTypeParmDecl" &&
				n.kind != "NonTypeTemplateParmDecl" && n.kind != "TemplateTemplateParmDecl" {
				n.instance = n.tmpl.sawPattern
				n.tmpl.sawPattern = true
			}
			n.entry = clangEntry(n, dir)
		}
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		inObject := len(containers) > 0 && containers[len(containers)-1] == 'o'
		if s, ok := tok.(string); ok && inObject && expectKey {
			key, expectKey = s, false
			continue
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				n := &clangNode{}
				if inObject {
					n.key = key
				}
				if p := top(); p != nil {
					n.parent = p.parent
					if p.entry != nil {
						n.parent = p.entry.name
					}
					n.friend = p.kind == "FriendDecl" || (p.friend && p.entry == nil)
					n.lambda = p.lambda || p.kind == "LambdaExpr"
					if (p.kind == "ClassTemplateDecl" || p.kind == "FunctionTemplateDecl") && !inObject {
						n.tmpl = p
					}
					n.instantiated = p.instantiated || p.instance
				}
				stack = append(stack, n)
				containers = append(containers, 'o')
				expectKey = true
			case '}':
				containers = containers[:len(containers)-1]
				expectKey = true
				n := top()
				stack = stack[:len(stack)-1]
				p := top()
				if n.offset {
					if n.file != "" {
						curFile = n.file
					}
					if n.line != 0 {
						curLine = n.line
					}
					n.locFile, n.locLine = curFile, curLine
				}
				if p != nil && (n.key == "loc" || n.key == "spellingLoc" || n.key == "expansionLoc") && n.locLine != 0 {
					if n.key != "spellingLoc" || p.locLine == 0 {
						p.locFile, p.locLine = n.locFile, n.locLine
					}
					p.macro = p.macro || n.key == "expansionLoc" || (n.key == "loc" && n.macro)
				}
				if p != nil && n.key == "" && n.kind == "CompoundStmt" {
					p.body = true
				}
				decide(n)
				if e := n.entry; e != nil && (n.kind != "FunctionDecl" || !n.friend || n.body) && !seen[*e] {
					seen[*e] = true
					out[e.file] = append(out[e.file], e.javaDef)
				}
			case '[':
				if n := top(); n != nil && inObject && key == "inner" {
					// A declaration's fields come before its inner list:
					// decide now, so its members know their parent.
					decide(n)
				}
				containers = append(containers, 'a')
			case ']':
				containers = containers[:len(containers)-1]
				expectKey = true
			}
		case string:
			if n := top(); n != nil && inObject {
				switch key {
				case "kind":
					n.kind = v
				case "name":
					n.name = v
				case "tagUsed":
					n.tag = v
				case "file":
					n.file = v
				}
			}
			expectKey = true
		default:
			if n := top(); n != nil && inObject {
				switch key {
				case "offset":
					n.offset = true
				case "line":
					if num, ok := v.(json.Number); ok {
						l, _ := num.Int64()
						n.line = int(l)
					}
				case "isImplicit":
					n.implicit = v == true
				case "completeDefinition":
					n.complete = v == true
				}
			}
			expectKey = true
		}
	}
}

// clangEntry returns the outline entry a declaration is, or nil.
func clangEntry(n *clangNode, dir string) *clangDef {
	// A declaration a macro writes (NLOHMANN_JSON_NAMESPACE_BEGIN) is not
	// in the file's text; what it holds nests in what holds it.
	if n.implicit || n.macro || n.lambda || n.instance || n.instantiated || n.name == "" || n.locLine == 0 || !strings.HasPrefix(filepath.Clean(n.locFile), dir+string(filepath.Separator)) {
		return nil
	}
	kind := ""
	switch n.kind {
	case "NamespaceDecl":
		kind = "namespace"
	case "CXXRecordDecl", "ClassTemplateSpecializationDecl", "ClassTemplatePartialSpecializationDecl":
		if !n.complete {
			return nil
		}
		switch n.tag {
		case "class", "struct", "union":
			kind = n.tag
		default:
			return nil
		}
	case "FunctionDecl", "CXXMethodDecl", "CXXConstructorDecl", "CXXDestructorDecl", "CXXConversionDecl":
		kind = "function"
	default:
		return nil
	}
	name := n.name
	if i := strings.IndexByte(name, '<'); i > 0 && !strings.HasPrefix(name, "operator") {
		name = name[:i]
	}
	name = conversionName(name)
	return &clangDef{javaDef{line: n.locLine, kind: kind, name: name, parent: n.parent}, filepath.Clean(n.locFile)}
}

// conversionName folds every conversion operator's name into one: clang
// spells the type as it resolves it ("operator nlohmann::detail::value_t",
// "operator type-parameter-0-0"), zumba as written ("operator value_t").
func conversionName(name string) string {
	if rest, ok := strings.CutPrefix(name, "operator "); ok && rest != "" && rest != "new" && rest != "delete" &&
		!strings.HasPrefix(rest, "new[") && !strings.HasPrefix(rest, "delete[") && !strings.HasPrefix(rest, "\"\"") {
		return "operator (conversion)"
	}
	return name
}
