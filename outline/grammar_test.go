package outline

import (
	"regexp"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
)

// Grammar's own tests do not link tree-sitter's grammars (grammar/langs
// does, and outline imports it): the checks of the registry that need them
// are here.

// TestQueriesCompile compiles every query and checks its captures and
// predicates: only the kinds of SPEC.md and the helper captures, and only
// the predicates smacker/go-tree-sitter evaluates.
func TestQueriesCompile(t *testing.T) {
	allowed := map[string]bool{"name": true, "scope": true, "trait": true, "skip": true, "member": true, "listed": true, "end": true, "section": true}
	for _, k := range grammar.Kinds() {
		allowed["definition."+k.String()] = true
	}
	predicate := regexp.MustCompile(`\(#([a-z-]+[?!])`)
	for _, l := range grammar.Languages() {
		t.Run(l.Name, func(t *testing.T) {
			q, err := l.Query()
			if err != nil {
				t.Fatal(err)
			}
			for i := uint32(0); i < q.CaptureCount(); i++ {
				// Captures named _x only feed predicates.
				if name := q.CaptureNameForId(i); !allowed[name] && !strings.HasPrefix(name, "_") {
					t.Errorf("capture @%s is not a kind of SPEC.md nor a helper capture", name)
				}
			}
			src, err := l.Source()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(src, "; ") {
				t.Errorf("the query's first line must name the language and grammar version")
			}
			for _, m := range predicate.FindAllStringSubmatch(src, -1) {
				switch m[1] {
				case "eq?", "not-eq?", "match?", "not-match?":
				default:
					t.Errorf("predicate #%s is silently ignored by smacker/go-tree-sitter", m[1])
				}
			}
		})
	}
}

// TestCodeRules checks that every node type a language's code rules name
// is a named node of its grammar, and that the query built from them
// compiles.
func TestCodeRules(t *testing.T) {
	for _, l := range grammar.Languages() {
		t.Run(l.Name, func(t *testing.T) {
			t.Parallel()
			r := l.CodeRules()
			if r.Prose {
				return
			}
			named := map[string]bool{}
			s := l.Sitter()
			if s == nil {
				t.Fatalf("no grammar linked for %s", l.Name)
			}
			for i := uint32(0); i < s.SymbolCount(); i++ {
				if s.SymbolType(sitter.Symbol(i)) == sitter.SymbolTypeRegular {
					named[s.SymbolName(sitter.Symbol(i))] = true
				}
			}
			seen := map[string]bool{}
			for _, typ := range append(append(append([]string{}, r.Comments...), r.Strings...), r.Code...) {
				for _, part := range strings.Split(typ, "/") {
					if !named[part] {
						t.Errorf("%s is not a named node type of the %s grammar", part, l.Name)
					}
				}
				if seen[typ] {
					t.Errorf("%s is listed twice", typ)
				}
				seen[typ] = true
			}
			q, err := l.CodeQuery()
			if err != nil {
				t.Fatal(err)
			}
			if q == nil {
				t.Fatal("no code query")
			}
			for i := uint32(0); i < q.CaptureCount(); i++ {
				switch c := q.CaptureNameForId(i); c {
				case grammar.CodeCaptureComment, grammar.CodeCaptureString, grammar.CodeCaptureCode:
				default:
					t.Errorf("unexpected capture @%s", c)
				}
			}
		})
	}
}

// TestOutlineNodeTypes: every node type a language's row names for the
// outline (Bodyless, Skip) is a node type of its grammar, so that a
// misspelt or renamed one fails here rather than silently searching more
// (or marking fewer declarations).
func TestOutlineNodeTypes(t *testing.T) {
	for _, l := range grammar.Languages() {
		sl := l.Sitter()
		have := map[string]bool{}
		for s := range sl.SymbolCount() {
			have[sl.SymbolName(sitter.Symbol(s))] = true
		}
		for _, list := range [][]string{l.Bodyless, l.Skip.Scanned, l.Skip.Inert} {
			for _, n := range list {
				if !have[n] {
					t.Errorf("%s: %q is not a node type of its grammar", l.Name, n)
				}
			}
		}
		if len(l.Skip.Scanned) > 0 && l.Skip.Scan == grammar.NoScan {
			t.Errorf("%s: Skip.Scanned without a Scan", l.Name)
		}
	}
}
