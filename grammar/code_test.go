package grammar

import "testing"

// TestCodeRules checks that every registered language says what in it is
// not code, and that every language with rules is registered. Outline's
// TestCodeRules checks the node types against the grammars.
func TestCodeRules(t *testing.T) {
	for name := range codeRules {
		if ByName(name) == nil {
			t.Errorf("code rules for %s, which is not registered", name)
		}
	}
	for _, l := range registry {
		r, ok := codeRules[l.Name]
		if !ok {
			t.Errorf("no code rules for %s: add a row to codeRules in grammar/code.go", l.Name)
			continue
		}
		if r.Prose && len(r.Comments)+len(r.Strings)+len(r.Code) != 0 {
			t.Errorf("%s: a prose language lists no node types", l.Name)
		}
		if !r.Prose && len(r.Comments) == 0 {
			t.Errorf("%s: no comment node types", l.Name)
		}
	}
}
