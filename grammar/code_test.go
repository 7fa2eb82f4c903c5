package grammar

import (
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// TestCodeRules checks that every registered language says what in it is
// not code, that every node type named there is a named node of its
// grammar, and that the query built from them compiles.
func TestCodeRules(t *testing.T) {
	for name := range codeRules {
		if ByName(name) == nil {
			t.Errorf("code rules for %s, which is not registered", name)
		}
	}
	for _, l := range registry {
		t.Run(l.Name, func(t *testing.T) {
			t.Parallel()
			r, ok := codeRules[l.Name]
			if !ok {
				t.Fatalf("no code rules for %s: add a row to codeRules in grammar/code.go", l.Name)
			}
			if r.Prose {
				if len(r.Comments)+len(r.Strings)+len(r.Code) != 0 {
					t.Error("a prose language lists no node types")
				}
				return
			}
			if len(r.Comments) == 0 {
				t.Error("no comment node types")
			}
			named := map[string]bool{}
			s := l.Sitter()
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
				case CodeCaptureComment, CodeCaptureString, CodeCaptureCode:
				default:
					t.Errorf("unexpected capture @%s", c)
				}
			}
		})
	}
}
