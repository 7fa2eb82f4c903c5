package outline

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/grammar"
)

// TestRustDifferential compares zumba's Rust outline with the items of
// rustc's own parser, for every .rs file under $ZUMBA_RUST_DIFF (a crate's
// src folder, the standard library's sources, or ../testdata/outline/rust).
// It needs rustc on PATH and reads its unstable AST dump
// (-Zunpretty=ast-tree, allowed on stable by RUSTC_BOOTSTRAP=1), so it only
// runs when asked. Files tree-sitter-rust cannot parse without errors
// (syntax newer than the grammar) are counted, not compared. Items inside
// macro invocations are token trees to both parsers.
//
//	ZUMBA_RUST_DIFF=$HOME/.cargo/registry/src go test -run TestRustDifferential ./outline -v
func TestRustDifferential(t *testing.T) {
	root := os.Getenv("ZUMBA_RUST_DIFF")
	if root == "" {
		t.Skip("set ZUMBA_RUST_DIFF to a folder of .rs files")
	}
	if _, err := exec.LookPath("rustc"); err != nil {
		t.Skip("no rustc on PATH")
	}
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".rs") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	lang := grammar.ByName("rust")
	start := time.Now()
	var (
		mu                                     sync.Mutex
		partial, rustcFailed, compared, agreed int
		items, found                           int
	)
	next := make(chan string)
	var wg sync.WaitGroup
	for range min(2, runtime.NumCPU()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for path := range next {
				src, err := os.ReadFile(path)
				if err != nil {
					t.Error(err)
					continue
				}
				o, err := parseDiff(lang, src)
				if err != nil {
					t.Errorf("%s: %v", path, err)
					continue
				}
				if o.Partial {
					mu.Lock()
					partial++
					mu.Unlock()
					continue
				}
				want, err := rustcItems(path)
				if err != nil {
					mu.Lock()
					rustcFailed++
					mu.Unlock()
					t.Logf("%s: rustc: %v", path, err)
					continue
				}
				got := rustZumbaItems(o, src)
				mu.Lock()
				compared++
				items += len(want)
				found += countCommon(want, got)
				if diff := gocmp.Diff(want, got); diff == "" {
					agreed++
				} else {
					t.Errorf("Outline(%q) differs from rustc (-rustc +zumba):\n%s", path, diff)
				}
				mu.Unlock()
			}
		}()
	}
	for _, f := range files {
		next <- f
	}
	close(next)
	wg.Wait()
	t.Logf("rust differential: %d/%d files agree, %d/%d rustc items found; %d files skipped (tree-sitter-rust parse errors), %d rustc failures, %v",
		agreed, compared, found, items, partial, rustcFailed, time.Since(start).Round(time.Millisecond))
}

// rustClass maps rustc's item kinds and zumba's kinds to one class; other
// item kinds (use, extern crate, macro calls, extern blocks) are not
// outline entries.
var rustClass = map[string]string{
	"Fn": "fn", "Struct": "struct", "Enum": "enum", "Union": "union", "Trait": "trait",
	"Impl": "impl", "Mod": "module", "MacroDef": "macro", "Const": "const",
	"Static": "static", "TyAlias": "type", "Type": "type",

	"function": "fn", "method": "fn", "struct": "struct", "enum": "enum", "union": "union",
	"trait": "trait", "impl": "impl", "module": "module", "macro": "macro",
	"const": "const", "static": "static", "type": "type",
}

var (
	astItem  = regexp.MustCompile(`^(\s*)Item \{$`)
	astSpan  = regexp.MustCompile(`^\s*span: .*?:(\d+):\d+: \d+:\d+ `)
	astKind  = regexp.MustCompile(`^\s*kind: (\w+)\(`)
	astIdent = regexp.MustCompile(`^\s*(?:ident: )?(\S+)#\d+,?$`)
	astClose = regexp.MustCompile(`^(\s*)\},?$`)
)

// rustcItems lists "LINE CLASS NAME" for the items of one file as rustc
// parses it (without expanding macros or loading other modules). LINE is
// where the item starts after its attributes; impls have no NAME.
func rustcItems(path string) ([]string, error) {
	cmd := exec.Command("rustc", "-Zparse-crate-root-only", "-Zunpretty=ast-tree", "--edition", "2024", path)
	cmd.Env = append(os.Environ(), "RUSTC_BOOTSTRAP=1")
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		msg, _, _ := strings.Cut(stderr.String(), "\n")
		return nil, fmt.Errorf("%v: %s", err, msg)
	}
	type open struct {
		indent, line int
		kind, name   string
	}
	var items []string
	var stack []*open
	for _, l := range strings.Split(out.String(), "\n") {
		if m := astItem.FindStringSubmatch(l); m != nil {
			stack = append(stack, &open{indent: len(m[1])})
			continue
		}
		if len(stack) == 0 {
			continue
		}
		top := stack[len(stack)-1]
		indent := len(l) - len(strings.TrimLeft(l, " "))
		if indent == top.indent+4 {
			if m := astSpan.FindStringSubmatch(l); m != nil && top.line == 0 {
				fmt.Sscan(m[1], &top.line)
			}
			if m := astKind.FindStringSubmatch(l); m != nil && top.kind == "" {
				top.kind = m[1]
			}
		}
		if top.kind != "" && top.name == "" && (indent == top.indent+8 || indent == top.indent+12) {
			if m := astIdent.FindStringSubmatch(l); m != nil {
				top.name = m[1]
			}
		}
		if m := astClose.FindStringSubmatch(l); m != nil && len(m[1]) == top.indent {
			stack = stack[:len(stack)-1]
			class, ok := rustClass[top.kind]
			if !ok || top.name == "_" {
				continue
			}
			if class == "impl" {
				top.name = ""
			}
			items = append(items, fmt.Sprintf("%d %s %s", top.line, class, top.name))
		}
	}
	slices.Sort(items)
	return items, nil
}

// rustZumbaItems lists zumba's entries like rustcItems, each at the line
// where its node starts.
func rustZumbaItems(o *Outline, src []byte) []string {
	var items []string
	var walk func(es []*Entry)
	walk = func(es []*Entry) {
		for _, e := range es {
			line := bytes.Count(src[:e.StartByte], []byte("\n")) + 1
			name := e.Name
			if e.Kind == grammar.Impl {
				name = ""
			}
			items = append(items, fmt.Sprintf("%d %s %s", line, rustClass[e.Kind.String()], name))
			walk(e.Children)
		}
	}
	walk(o.Entries)
	slices.Sort(items)
	return items
}
