package prompts

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// bindAll binds each argument of p to v(i, name), as a strict client binds
// them to "$1", "$2", ….
func bindAll(p *prompt, v func(i int, name string) string) map[string]string {
	args := map[string]string{}
	for i, a := range p.Args {
		args[a.Name] = v(i, a.Name)
	}
	return args
}

func getText(t *testing.T, name string, args map[string]string) string {
	t.Helper()
	params, _ := json.Marshal(map[string]any{"name": name, "arguments": args})
	_, text, err := Get(params)
	if err != nil {
		t.Fatalf("prompts/get %s %v: %v", name, args, err)
	}
	return text
}

// TestPromptPlaceholders: every argument bound to "$N" comes back as $N,
// wherever it appears, never quoted or escaped, as the strict client
// needs to fill it in later.
func TestPromptPlaceholders(t *testing.T) {
	if len(prompts) < 4 {
		t.Fatalf("%d prompts; want explain, impact, find and orient at least", len(prompts))
	}
	for _, p := range prompts {
		args := bindAll(p, func(i int, _ string) string { return fmt.Sprintf("$%d", i+1) })
		text := getText(t, p.Name, args)
		for i := range p.Args {
			ph := fmt.Sprintf("$%d", i+1)
			if !strings.Contains(text, ph) {
				t.Errorf("%s: text lacks %s:\n%s", p.Name, ph, text)
			}
			for _, q := range []string{`"`, `'`, "`", `\`} {
				if strings.Contains(text, q+ph) || strings.Contains(text, ph+q) {
					t.Errorf("%s: %s is quoted or escaped with %s:\n%s", p.Name, ph, q, text)
				}
			}
		}
		if len(text) > maxPromptText {
			t.Errorf("%s: %d bytes; want at most %d", p.Name, len(text), maxPromptText)
		}
	}
}

// TestPromptVerbatim: a value is put in as given, whatever it holds.
func TestPromptVerbatim(t *testing.T) {
	odd := "a \"b\" 'c' `d` \\e ${f} <g>\n$2 %s"
	for _, p := range prompts {
		text := getText(t, p.Name, bindAll(p, func(int, string) string { return odd }))
		if len(p.Args) > 0 && !strings.Contains(text, odd) {
			t.Errorf("%s: text does not hold %q verbatim:\n%s", p.Name, odd, text)
		}
	}
}

// TestPromptOptionalLeftOut: optional arguments left out (or empty) give
// a text with no hole in it.
func TestPromptOptionalLeftOut(t *testing.T) {
	for _, p := range prompts {
		for _, empty := range []bool{false, true} {
			args := map[string]string{}
			for i, a := range p.Args {
				switch {
				case a.Required:
					args[a.Name] = fmt.Sprintf("x%d", i)
				case empty:
					args[a.Name] = ""
				}
			}
			text := getText(t, p.Name, args)
			for _, hole := range []string{"undefined", "null", `""`, "''", "``", "  ", " .\n", " ,", " :", "<nil>", "%!"} {
				if strings.Contains(text, hole) {
					t.Errorf("%s %v: text holds %q:\n%s", p.Name, args, hole, text)
				}
			}
		}
	}
}

// TestPromptList: the list is small and names every argument.
func TestPromptList(t *testing.T) {
	b, err := json.Marshal(List())
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > maxPromptList {
		t.Errorf("prompts/list's prompts take %d bytes; want at most %d", len(b), maxPromptList)
	}
	for _, want := range []string{"explain", "impact", "find", "orient"} {
		if !strings.Contains(string(b), `"name":"`+want+`"`) {
			t.Errorf("prompts/list lacks %s: %s", want, b)
		}
	}
}

// TestPromptText: the command-line twin gives prompts/get's text.
func TestPromptText(t *testing.T) {
	for _, p := range prompts {
		var pos []string
		for i := range p.Args {
			pos = append(pos, fmt.Sprintf("v%d", i))
		}
		got, err := Text(p.Name, pos)
		if err != nil {
			t.Fatalf("Text(%s, %v): %v", p.Name, pos, err)
		}
		want := getText(t, p.Name, bindAll(p, func(i int, _ string) string { return fmt.Sprintf("v%d", i) }))
		if got != want {
			t.Errorf("Text(%s) = %q; want prompts/get's %q", p.Name, got, want)
		}
	}
	if _, err := Text("explain", []string{"a", "b"}); err == nil {
		t.Error("Text(explain, a, b): no error for an argument too many")
	}
}
