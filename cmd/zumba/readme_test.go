package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/mcpserver"
	"github.com/zumba-dev/zumba/search"
)

// TestReadmeQuickStart: the reply the README's quick start shows is the
// outline tool's answer for cmd/zumba/main.go as it is.
func TestReadmeQuickStart(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var shown string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, `{"jsonrpc":"2.0","id":1,"result"`) {
			shown = l
			break
		}
	}
	var reply struct {
		Result struct {
			Content []struct{ Text string }
		}
	}
	if err := json.Unmarshal([]byte(shown), &reply); err != nil || len(reply.Result.Content) != 1 {
		t.Fatalf("the README's quick start shows no reply line: %q (%v)", shown, err)
	}
	root, err := search.OpenRoot("../..")
	if err != nil {
		t.Fatal(err)
	}
	got, isError := mcpserver.New(mcpserver.Config{Root: root}).CallArgs(context.Background(), "outline", map[string]string{"path": "cmd/zumba/main.go"})
	if isError || got != reply.Result.Content[0].Text {
		t.Errorf("outline cmd/zumba/main.go = %q; the README shows %q", got, reply.Result.Content[0].Text)
	}
}

// TestReadmeLanguages: the README's list of languages names every
// language of the registry, and nothing else.
func TestReadmeLanguages(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "\n## Languages\n")
	para, _, _ := strings.Cut(strings.TrimSpace(after), ": what each")
	if !ok || para == "" {
		t.Fatal("the README has no list under ## Languages ending in \": what each\"")
	}
	// The registry's short names of the languages the README spells out.
	spelled := map[string]string{"C++": "cpp", "C#": "csharp", "HCL/Terraform": "hcl", "Objective-C": "objc"}
	listed := map[string]bool{}
	for _, name := range strings.Split(strings.ReplaceAll(strings.ReplaceAll(para, "\n", " "), " and ", ", "), ",") {
		name = strings.TrimSpace(name)
		short := spelled[name]
		if short == "" {
			short = strings.ToLower(name)
		}
		if listed[short] {
			t.Errorf("the README lists %s twice", name)
		}
		listed[short] = true
	}
	for _, l := range grammar.Languages() {
		if !listed[l.Name] {
			t.Errorf("the README's languages lack %s", l.Name)
		}
		delete(listed, l.Name)
	}
	for name := range listed {
		t.Errorf("the README lists %s, which is no language of the registry", name)
	}
}
