package grammar

import (
	"bytes"
	"embed"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

//go:embed queries/*.scm
var queryFiles embed.FS

// Language is one row of the registry.
type Language struct {
	// Name is the language's short name and the base name of its query.
	Name string
	// Extensions are the file name suffixes it covers, lower case with the
	// dot (".rs", ".d.ts").
	Extensions []string
	// Filenames are exact base names it covers ("Dockerfile").
	Filenames []string
	// Interpreters are the #! programs of extensionless scripts it covers
	// ("python3", "node").
	Interpreters []string
	// Shared are extensions that belong to another language's row but that
	// this language takes over when Detect reports true for the head of the
	// file: a ".h" file is C unless its first 8 KiB look like C++.
	Shared []string
	// Detect inspects the head of a file with a Shared extension.
	Detect func(head []byte) bool
	// Prepare, when set, rewrites a file before it is parsed without
	// moving any byte or line (it may only overwrite bytes: with spaces,
	// or a macro with the keyword it stands for, as Objective-C's
	// NS_ENUM), to hide what the grammar cannot parse or show it what the
	// preprocessor would; it returns src itself when it
	// changes nothing and never modifies src.
	Prepare func(src []byte) []byte
	// Comments, when set, returns the [start, end) byte ranges of the
	// comments in the parts of a file Prepare blanks (a component's markup
	// and styles): the parser never sees them, but they are not code.
	Comments func(src []byte) [][2]int
	// Rename, when set, names a definition of kind k from its source from
	// its @name capture on (head, cut at the definition's end and at
	// MaxRenameHead bytes), where one node does not hold the name: an
	// Objective-C selector is spread among its parameters. It returns ""
	// to keep the captured name.
	Rename func(k Kind, head []byte) string
	// HeadingLevels: the language's headings nest by their level (Markdown's
	// # and ##), not by the containment of their nodes.
	HeadingLevels bool
	// Clauses: a function is defined by a signature and equations that
	// are sibling nodes of one name (Haskell's f :: Int -> Int, f 0 = 1,
	// f n = …); outline joins them into one entry.
	Clauses bool
	// Tests says which of the language's files hold tests (see
	// [IsTestFile]).
	Tests TestFiles
	// Bodyless are the node types of a function or method declared
	// without its body (a C prototype, a TypeScript overload signature):
	// outline marks their definitions Decl.
	Bodyless []string
	// Skip are the node types outline's search may leave out (see
	// [Skips]).
	Skip Skips

	// language makes the tree-sitter language; Bind sets it.
	language func() *sitter.Language

	once  sync.Once
	lang  *sitter.Language
	query *sitter.Query
	err   error
}

// registry is the one table of languages, sorted by name.
var registry = []*Language{
	{Name: "bash", Extensions: []string{".sh", ".bash"}, Interpreters: []string{"sh", "bash", "dash", "ksh"}},
	{Name: "c", Extensions: []string{".c", ".h"}, Prepare: prepareC, Bodyless: cBodyless, Skip: cSkips},
	{Name: "cpp", Extensions: []string{".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp", ".inl"}, Shared: []string{".h"}, Detect: looksLikeCpp, Prepare: prepareCpp, Bodyless: cBodyless},
	{Name: "csharp", Extensions: []string{".cs"}, Tests: dotnetTests},
	{Name: "css", Extensions: []string{".css"}, Rename: cssName},
	{Name: "dart", Extensions: []string{".dart"}, Tests: TestFiles{Names: []string{"*_test.dart"}, Dirs: []string{"test"}}, Bodyless: []string{"declaration"}},
	{Name: "dockerfile", Extensions: []string{".dockerfile"}, Filenames: []string{"Dockerfile", "Containerfile"}},
	{Name: "elixir", Extensions: []string{".ex", ".exs"}, Interpreters: []string{"elixir"}},
	{Name: "elm", Extensions: []string{".elm"}},
	{Name: "erlang", Extensions: []string{".erl", ".hrl", ".escript"}, Interpreters: []string{"escript"}, Rename: erlangName, Clauses: true, Tests: TestFiles{Names: []string{"*_SUITE.erl", "*_tests.erl"}, Dirs: []string{"test"}}},
	{Name: "go", Extensions: []string{".go"}, Tests: TestFiles{Names: []string{"*_test.go"}}},
	{Name: "haskell", Extensions: []string{".hs"}, Tests: TestFiles{Names: []string{"*Spec.hs"}, Dirs: []string{"test", "tests"}}, Bodyless: []string{"signature"}, Clauses: true},
	{Name: "hcl", Extensions: []string{".tf", ".tfvars", ".hcl"}},
	{Name: "java", Extensions: []string{".java"}, Tests: dotnetTests},
	{Name: "javascript", Extensions: []string{".js", ".mjs", ".cjs", ".jsx"}, Interpreters: []string{"node", "nodejs", "deno", "bun"}, Tests: jsTests},
	{Name: "julia", Extensions: []string{".jl"}, Interpreters: []string{"julia"}, Tests: TestFiles{Dirs: []string{"test"}}},
	{Name: "kotlin", Extensions: []string{".kt", ".kts"}, Tests: dotnetTests},
	{Name: "lua", Extensions: []string{".lua"}, Interpreters: []string{"lua", "luajit"}},
	{Name: "markdown", Extensions: []string{".md", ".markdown"}, Prepare: guardMarkdown, HeadingLevels: true},
	{Name: "objc", Extensions: []string{".m"}, Shared: []string{".h"}, Detect: looksLikeObjC, Prepare: prepareObjC, Rename: objcName, Bodyless: objcBodyless, Tests: TestFiles{Names: []string{"*Tests.m", "*Test.m", "*Spec.m"}, Dirs: []string{"Tests"}}},
	{Name: "ocaml", Extensions: []string{".ml"}},
	{Name: "perl", Extensions: []string{".pl", ".pm", ".t"}, Interpreters: []string{"perl"}, Rename: perlName, Tests: TestFiles{Names: []string{"*.t"}, Dirs: []string{"t"}}},
	{Name: "php", Extensions: []string{".php"}, Interpreters: []string{"php"}},
	{Name: "protobuf", Extensions: []string{".proto"}},
	{Name: "python", Extensions: []string{".py", ".pyi"}, Interpreters: []string{"python", "python2", "python3", "pypy", "pypy3"}, Tests: TestFiles{Names: []string{"test_*.py", "*_test.py", "conftest.py"}, Dirs: []string{"tests"}}},
	{Name: "r", Extensions: []string{".r"}, Interpreters: []string{"Rscript"}, Rename: rName, Tests: TestFiles{Names: []string{"test-*.R", "test-*.r"}, Dirs: []string{"tests/testthat"}}},
	{Name: "ruby", Extensions: []string{".rb", ".rake", ".gemspec"}, Filenames: []string{"Rakefile", "Gemfile"}, Interpreters: []string{"ruby"}, Tests: TestFiles{Dirs: []string{"spec", "test"}}},
	{Name: "rust", Extensions: []string{".rs"}, Tests: TestFiles{Dirs: []string{"tests"}}},
	{Name: "scala", Extensions: []string{".scala", ".sc"}},
	{Name: "solidity", Extensions: []string{".sol"}, Tests: TestFiles{Names: []string{"*.t.sol"}, Dirs: []string{"test"}}},
	{Name: "sql", Extensions: []string{".sql"}},
	{Name: "svelte", Extensions: []string{".svelte"}, Prepare: prepareComponent, Comments: componentComments, Tests: jsTests, Bodyless: tsBodyless, Skip: tsSkips},
	{Name: "swift", Extensions: []string{".swift"}, Prepare: guardSwift},
	{Name: "toml", Extensions: []string{".toml"}},
	{Name: "tsx", Extensions: []string{".tsx"}, Tests: jsTests, Bodyless: tsBodyless, Skip: tsSkips},
	{Name: "typescript", Extensions: []string{".ts", ".mts", ".cts", ".d.ts"}, Interpreters: []string{"ts-node", "tsx"}, Tests: jsTests, Bodyless: tsBodyless, Skip: tsSkips},
	{Name: "vue", Extensions: []string{".vue"}, Prepare: prepareComponent, Comments: componentComments, Tests: jsTests, Bodyless: tsBodyless, Skip: tsSkips},
	{Name: "yaml", Extensions: []string{".yaml", ".yml"}},
	{Name: "zig", Extensions: []string{".zig"}, Tests: TestFiles{Dirs: []string{"test", "tests"}}},
}

// Languages returns the registry, sorted by name.
func Languages() []*Language { return registry }

// ByName returns the language with this name, or nil.
func ByName(name string) *Language {
	for _, l := range registry {
		if l.Name == name {
			return l
		}
	}
	return nil
}

// ForPath chooses the language of a file from its name and, for a file
// without a known extension, from a #! line at the start of head (the
// first bytes of the file; nil to skip). It returns nil when no grammar
// covers the file.
func ForPath(name string, head []byte) *Language {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	lower := strings.ToLower(base)
	var best *Language
	bestExt := ""
	for _, l := range registry {
		for _, f := range l.Filenames {
			if base == f || lower == strings.ToLower(f) {
				return l
			}
		}
		for _, ext := range l.Extensions {
			if len(ext) > len(bestExt) && strings.HasSuffix(lower, ext) && len(lower) > len(ext) {
				best, bestExt = l, ext
			}
		}
	}
	if best != nil {
		return shared(best, bestExt, head)
	}
	if strings.Contains(base, ".") && !strings.HasPrefix(base, ".") {
		return nil
	}
	return forShebang(head)
}

// shared hands a file whose extension other languages share to the first
// of them whose Detect claims its head, and otherwise to owner.
func shared(owner *Language, ext string, head []byte) *Language {
	if len(head) > headSize {
		head = head[:headSize]
	}
	for _, l := range registry {
		if l.Detect == nil || l == owner {
			continue
		}
		for _, e := range l.Shared {
			if e == ext && l.Detect(head) {
				return l
			}
		}
	}
	return owner
}

// forShebang reads "#!/usr/bin/env -S python3 -u" or "#!/bin/bash".
func forShebang(head []byte) *Language {
	if !bytes.HasPrefix(head, []byte("#!")) {
		return nil
	}
	line := head[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return nil
	}
	prog := path.Base(fields[0])
	if prog == "env" {
		prog = ""
		for _, f := range fields[1:] {
			if strings.HasPrefix(f, "-") || strings.Contains(f, "=") {
				continue
			}
			prog = path.Base(f)
			break
		}
	}
	if prog == "" {
		return nil
	}
	for _, l := range registry {
		for _, in := range l.Interpreters {
			if prog == in || versioned(prog, in) {
				return l
			}
		}
	}
	return nil
}

// versioned reports whether prog is in followed by a version ("python3.12").
func versioned(prog, in string) bool {
	rest, ok := strings.CutPrefix(prog, in)
	if !ok || rest == "" {
		return false
	}
	return strings.Trim(rest, "0123456789.") == ""
}

// Extensions returns every extension in the registry, sorted, for messages
// that list what is supported.
func Extensions() []string {
	var exts []string
	for _, l := range registry {
		exts = append(exts, l.Extensions...)
	}
	sort.Strings(exts)
	return exts
}

// Sitter returns the language's tree-sitter language, or nil when none
// is linked (see Bind).
func (l *Language) Sitter() *sitter.Language {
	l.load()
	return l.lang
}

// Query returns the language's compiled query, compiled once and shared.
// A query is safe for concurrent use; cursors are not.
func (l *Language) Query() (*sitter.Query, error) {
	l.load()
	return l.query, l.err
}

// Source returns the text of the language's query with inherited queries
// prepended.
func (l *Language) Source() (string, error) {
	return querySource(l.Name, 0)
}

// Bind gives the named language of the registry its tree-sitter grammar.
// Package grammar/langs binds every language at init, so that a program
// (or a test) that does not import it links none of the grammars; Bind
// panics on a name the registry does not hold.
func Bind(name string, language func() *sitter.Language) {
	l := ByName(name)
	if l == nil {
		panic("grammar.Bind: no language " + name)
	}
	l.language = language
}

func (l *Language) load() {
	l.once.Do(func() {
		if l.language == nil {
			l.err = fmt.Errorf("language %s: no tree-sitter grammar linked (import github.com/zumba-dev/zumba/grammar/langs)", l.Name)
			return
		}
		l.lang = l.language()
		src, err := l.Source()
		if err != nil {
			l.err = err
			return
		}
		l.query, l.err = sitter.NewQuery([]byte(src), l.lang)
		if l.err != nil {
			l.err = fmt.Errorf("compile query %s: %w", l.Name, l.err)
		}
	})
}

func querySource(name string, depth int) (string, error) {
	if depth > 4 {
		return "", fmt.Errorf("query %s: inherits too deep", name)
	}
	b, err := queryFiles.ReadFile("queries/" + name + ".scm")
	if err != nil {
		return "", fmt.Errorf("query %s: %w", name, err)
	}
	src := string(b)
	var parents []string
	for _, line := range strings.SplitN(src, "\n", 4) {
		if rest, ok := strings.CutPrefix(line, "; inherits:"); ok {
			for _, p := range strings.Split(rest, ",") {
				if p = strings.TrimSpace(p); p != "" {
					parents = append(parents, p)
				}
			}
		}
	}
	var sb strings.Builder
	for _, p := range parents {
		ps, err := querySource(p, depth+1)
		if err != nil {
			return "", err
		}
		sb.WriteString(ps)
		sb.WriteString("\n")
	}
	sb.WriteString(src)
	return sb.String(), nil
}
