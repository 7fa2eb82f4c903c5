package search

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The gopls differential: find_references' code and group options
// against gopls' references, on a pinned module. It installs gopls with
// the Go module proxy into the test's own GOPATH, so it runs only when
// asked (ZUMBA_GOPLS_DIFF=1) and is skipped when gopls cannot be
// installed. ZUMBA_GOPLS_VERSION and ZUMBA_GOPLS_MODULE override the pins.
//
//	ZUMBA_GOPLS_DIFF=1 go test -count=1 -run TestGoplsDifferential -v ./search
const (
	goplsVersion = "v0.23.0"
	goplsModule  = "golang.org/x/mod@v0.43.0"
	goplsNames   = 50
)

func TestGoplsDifferential(t *testing.T) {
	if os.Getenv("ZUMBA_GOPLS_DIFF") == "" {
		t.Skip("set ZUMBA_GOPLS_DIFF=1 to install gopls and compare with it")
	}
	gopls, ws, env, module, version := goplsWorkspace(t)

	funcs := uniqueExported(t, ws)
	if len(funcs) < goplsNames {
		t.Fatalf("%s has %d exported functions with unique names; want %d", module, len(funcs), goplsNames)
	}
	// Evenly spread over the sorted names, so the choice is stable.
	picked := make([]goFunc, goplsNames)
	for i := range picked {
		picked[i] = funcs[i*len(funcs)/goplsNames]
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	ls, err := startLSP(ctx, gopls, ws, env)
	if err != nil {
		t.Skipf("cannot start gopls: %v", err)
	}
	defer ls.close()

	root, err := OpenRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	asts := map[string]*goFile{}
	var (
		goplsRefs, found, headers, agree int
		codeHits, extra                  int
		misses, disagree, extras         []string
	)
	for _, f := range picked {
		refs, err := ls.references(ctx, filepath.Join(ws, f.path), f.line-1, f.col-1)
		if err != nil {
			t.Fatalf("gopls references %s: %v", f.name, err)
		}
		res, err := allSites(ctx, root, f.name, RefOptions{Code: true, Group: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		sites := map[string]Site{}
		for _, s := range res.Sites {
			sites[s.Path+":"+strconv.Itoa(s.Line)] = s
		}
		seen := map[string]bool{}
		for _, r := range refs {
			key := r.path + ":" + strconv.Itoa(r.line)
			if seen[key] {
				continue
			}
			seen[key] = true
			goplsRefs++
			s, ok := sites[key]
			if !ok {
				misses = append(misses, f.name+" at "+key)
				continue
			}
			found++
			gf := asts[r.path]
			if gf == nil {
				gf = parseGoFile(t, filepath.Join(ws, r.path))
				asts[r.path] = gf
			}
			want, wantLine := gf.enclosing(r.line)
			headers++
			got, gotLine := "", 0
			if s.Def != nil && (s.Def.Kind.String() == "function" || s.Def.Kind.String() == "method") {
				got, gotLine = s.Def.QualifiedName(), s.Def.Line
			}
			if got == want && gotLine == wantLine {
				agree++
			} else {
				disagree = append(disagree, fmt.Sprintf("%s at %s: header %q line %d; go/ast %q line %d", f.name, key, got, gotLine, want, wantLine))
			}
		}
		for key, s := range sites {
			codeHits++
			if !seen[key] {
				extra++
				extras = append(extras, fmt.Sprintf("%s at %s: %s", f.name, key, s.Text))
			}
		}
	}
	t.Logf("gopls %s on %s, %d exported functions and methods with unique names", version, module, len(picked))
	t.Logf("recall: %d of %d gopls references are code hits (%.1f%%)", found, goplsRefs, pct(found, goplsRefs))
	t.Logf("enclosing function: %d of %d group headers agree with go/ast (%.1f%%)", agree, headers, pct(agree, headers))
	t.Logf("code hits gopls does not report: %d of %d (%.1f%%)", extra, codeHits, pct(extra, codeHits))
	sort.Strings(extras)
	for _, e := range extras {
		t.Logf("  not from gopls: %s", e)
	}
	for _, m := range misses {
		t.Errorf("gopls reference not among the code hits: %s", m)
	}
	for _, d := range disagree {
		t.Errorf("enclosing function differs: %s", d)
	}
}

// goplsWorkspace installs gopls (or takes ZUMBA_GOPLS_BIN) and unpacks
// the pinned module into a workspace with its requirements downloaded,
// all in the test's own GOPATH; the test is skipped when that cannot be
// done.
func goplsWorkspace(t *testing.T) (gopls, ws string, env []string, module, version string) {
	version = envOr("ZUMBA_GOPLS_VERSION", goplsVersion)
	module = envOr("ZUMBA_GOPLS_MODULE", goplsModule)
	tmp := t.TempDir()
	gopath := filepath.Join(tmp, "gopath")
	env = append(os.Environ(), "GOPATH="+gopath, "GOMODCACHE="+filepath.Join(gopath, "pkg", "mod"),
		"GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off")
	t.Cleanup(func() {
		// The module cache is read-only; make it removable.
		clean := exec.Command("go", "clean", "-modcache")
		clean.Env = env
		clean.Run()
		filepath.WalkDir(gopath, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
	})
	gopls = os.Getenv("ZUMBA_GOPLS_BIN")
	start := time.Now()
	if gopls == "" {
		install := exec.Command("go", "install", "golang.org/x/tools/gopls@"+version)
		install.Env = env
		if out, err := install.CombinedOutput(); err != nil {
			t.Skipf("cannot install gopls %s: %v\n%s", version, err, out)
		}
		t.Logf("gopls %s installed in %v", version, time.Since(start).Round(time.Second))
		gopls = filepath.Join(gopath, "bin", "gopls")
	}

	dl := exec.Command("go", "mod", "download", "-json", module)
	dl.Env = env
	out, err := dl.Output()
	if err != nil {
		t.Skipf("cannot download %s: %v", module, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		t.Fatalf("go mod download %s: %s", module, out)
	}
	ws = filepath.Join(tmp, "ws")
	if err := os.CopyFS(ws, os.DirFS(info.Dir)); err != nil {
		t.Fatal(err)
	}
	filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	// gopls needs the module's requirements; go.sum is in the zip.
	tidy := exec.Command("go", "mod", "download")
	tidy.Dir, tidy.Env = ws, env
	if out, err := tidy.CombinedOutput(); err != nil {
		t.Skipf("cannot download the requirements of %s: %v\n%s", module, err, out)
	}

	return gopls, ws, env, module, version
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

// goFunc is an exported function or method: its name and where the name is.
type goFunc struct {
	name            string
	path            string
	line, col       int
	receiver, label string
}

// uniqueExported lists the module's exported functions and methods whose
// name no other declaration of the module has (functions, methods, types,
// constants, variables, fields, interface methods), sorted by name.
func uniqueExported(t *testing.T, dir string) []goFunc {
	count := map[string]int{}
	var funcs []goFunc
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) && p != dir {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				count[n.Name.Name]++
				if n.Name.IsExported() && !strings.HasSuffix(rel, "_test.go") {
					pos := fset.Position(n.Name.Pos())
					funcs = append(funcs, goFunc{name: n.Name.Name, path: filepath.ToSlash(rel), line: pos.Line, col: pos.Column})
				}
			case *ast.TypeSpec:
				count[n.Name.Name]++
			case *ast.ValueSpec:
				for _, id := range n.Names {
					count[id.Name]++
				}
			case *ast.Field:
				for _, id := range n.Names {
					count[id.Name]++
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []goFunc
	for _, f := range funcs {
		if count[f.name] == 1 {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// goFile is a parsed file's function declarations, by line.
type goFile struct {
	fset  *token.FileSet
	funcs []*ast.FuncDecl
}

func parseGoFile(t *testing.T, path string) *goFile {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("go/parser: %v", err)
	}
	gf := &goFile{fset: fset}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			gf.funcs = append(gf.funcs, fd)
		}
	}
	return gf
}

// enclosing returns the FuncDecl holding line, named as zumba names it
// ("Recv.Name" for a method), and the line of its name; "" outside any.
func (gf *goFile) enclosing(line int) (string, int) {
	for _, fd := range gf.funcs {
		start := gf.fset.Position(fd.Pos()).Line
		if fd.Doc != nil {
			start = gf.fset.Position(fd.Doc.Pos()).Line
		}
		if start <= line && line <= gf.fset.Position(fd.End()).Line {
			name := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				name = recvName(fd.Recv.List[0].Type) + "." + name
			}
			return name, gf.fset.Position(fd.Name.Pos()).Line
		}
	}
	return "", 0
}

func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.ParenExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}

// lsp is a minimal Language Server Protocol client over a server's stdio.
type lsp struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	root string

	mu     sync.Mutex
	nextID int
}

type location struct {
	path string
	line int // 1-based
}

func startLSP(ctx context.Context, bin, root string, env []string) (*lsp, error) {
	return startLSPArgs(ctx, root, env, bin, "serve")
}

// startLSPArgs starts the language server bin with args in root and
// initializes it.
func startLSPArgs(ctx context.Context, root string, env []string, bin string, args ...string) (*lsp, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = root, env
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	l := &lsp{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20), root: root}
	uri := fileURI(root)
	if _, err := l.call("initialize", map[string]any{
		"processId":    os.Getpid(),
		"rootUri":      uri,
		"capabilities": map[string]any{},
		"workspaceFolders": []any{
			map[string]any{"uri": uri, "name": "ws"},
		},
	}); err != nil {
		l.close()
		return nil, err
	}
	if err := l.notify("initialized", map[string]any{}); err != nil {
		l.close()
		return nil, err
	}
	return l, nil
}

func (l *lsp) close() {
	l.call("shutdown", nil)
	l.notify("exit", nil)
	l.in.Close()
	done := make(chan struct{})
	go func() { l.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		l.cmd.Process.Kill()
		<-done
	}
}

func fileURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

func (l *lsp) write(msg map[string]any) error {
	msg["jsonrpc"] = "2.0"
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(l.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
	return err
}

func (l *lsp) notify(method string, params any) error {
	return l.write(map[string]any{"method": method, "params": params})
}

// call sends a request and reads until its reply, answering the server's
// own requests (configuration, progress, registrations) with null.
func (l *lsp) call(method string, params any) (json.RawMessage, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.nextID++
	id := l.nextID
	if err := l.write(map[string]any{"id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	for {
		msg, err := l.read()
		if err != nil {
			return nil, err
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(msg, &m); err != nil {
			return nil, err
		}
		switch {
		case m.Method != "" && len(m.ID) > 0:
			var result any
			if m.Method == "workspace/configuration" {
				var p struct{ Items []any }
				json.Unmarshal(m.Params, &p)
				result = make([]any, len(p.Items))
			}
			if err := l.write(map[string]any{"id": m.ID, "result": result}); err != nil {
				return nil, err
			}
		case m.Method != "":
			// A notification: logs, diagnostics, progress.
		case string(m.ID) == strconv.Itoa(id):
			if m.Error != nil {
				return nil, fmt.Errorf("%s: %s", method, m.Error.Message)
			}
			return m.Result, nil
		}
	}
}

func (l *lsp) read() ([]byte, error) {
	n := -1
	for {
		line, err := l.out.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	if n < 0 {
		return nil, fmt.Errorf("lsp: a message without Content-Length")
	}
	b := make([]byte, n)
	_, err := io.ReadFull(l.out, b)
	return b, err
}

// references asks for the references of the identifier at a 0-based line
// and byte column (ASCII names: the same as UTF-16), declaration included.
func (l *lsp) references(ctx context.Context, file string, line, col int) ([]location, error) {
	res, err := l.call("textDocument/references", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(file)},
		"position":     map[string]any{"line": line, "character": col},
		"context":      map[string]any{"includeDeclaration": true},
	})
	if err != nil {
		return nil, err
	}
	var locs []struct {
		URI   string `json:"uri"`
		Range struct {
			Start struct{ Line int } `json:"start"`
		} `json:"range"`
	}
	if err := json.Unmarshal(res, &locs); err != nil {
		return nil, err
	}
	var out []location
	for _, loc := range locs {
		u, err := url.Parse(loc.URI)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(l.root, filepath.FromSlash(u.Path))
		if err != nil || strings.HasPrefix(rel, "..") {
			continue // outside the module: the standard library
		}
		out = append(out, location{path: filepath.ToSlash(rel), line: loc.Range.Start.Line + 1})
	}
	return out, nil
}
