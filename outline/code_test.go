package outline

import (
	"context"
	"regexp"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
)

// TestNonCode parses one snippet per case: every word "yes" in it must be
// code and every word "no" must not.
func TestNonCode(t *testing.T) {
	tests := []struct{ lang, src string }{
		{"go", "// no\npackage yes\n/* no */ var yes = \"no\" + `no` + string('n')\n"},
		{"python", "# no\ndef yes():\n    \"\"\"no\"\"\"\n    return f\"no {yes + len('no')} no {yes!r:>{yes}}\"\n"},
		{"javascript", "// no\n/** no */\nconst yes = `no ${yes(`no ${yes}`)} no` + 'no' + /no/;\nconst e = <div>no {yes}</div>;\n"},
		{"typescript", "type yes = `no${yes}no`; const a: string = \"no\"; // no\n"},
		{"rust", "/// no\nfn yes() { let s = \"no\"; let c = 'n'; /* no */ yes!(\"no\", yes); }\n"},
		{"ruby", "# no\ndef yes; \"no #{yes} no\"; end\n=begin\nno\n=end\n"},
		{"kotlin", "// no\nval yes = \"no $yes ${yes + 1} no\"\n"},
		{"swift", "// no\nlet yes = \"no \\(yes) no\"\n"},
		{"csharp", "// no\nvar yes = $\"no {yes} no\" + \"no\";\n"},
		{"php", "<?php // no\n$yes = \"no $yes no {$yes->yes} no\"; $b = 'no';\n"},
		{"bash", "# no\nyes \"no $yes ${yes} $(yes 'no')\" 'no'\n"},
		{"c", "// no\nint yes = printf(\"no\" yes \"no\");\n"},
		{"markdown", "# no\n\nno `no`\n"},
		{"vue", "<template>\n  <!-- no -->\n  <p :a=\"yes\">{{ yes }}</p>\n</template>\n<script>\n// no\nconst yes = 'no'\n</script>\n<style>\n/* no */ .yes { color: red }\n</style>\n"},
		{"svelte", "<!-- no\nno -->\n<script>\n/* no */ let yes = 1\n</script>\n{#if yes}<p>{yes}</p>{/if}\n"},
	}
	word := regexp.MustCompile(`\b(yes|no)\b`)
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			lang := grammar.ByName(tt.lang)
			_, nc, err := ParseCode(context.Background(), lang, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range word.FindAllStringSubmatchIndex(tt.src, -1) {
				want := tt.src[m[2]:m[3]] == "yes"
				if got := nc.Code(m[2]); got != want {
					t.Errorf("Code(%q at %d) = %v; want %v (non-code spans %v)", tt.src[m[2]:m[3]], m[2], got, want, nc)
				}
			}
		})
	}
}
