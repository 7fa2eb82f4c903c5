package search

import (
	"testing"

	"github.com/zumba-dev/zumba/outline"
)

func TestPackageClause(t *testing.T) {
	for src, want := range map[string]string{
		"package main\n": "main",
		"// Copyright.\n\n//go:build x\n\npackage p_test // c\n": "p_test",
		"/* a\n b */ package q\n":                                "q",
		"/* unclosed":                                            "",
		"packagex\n":                                             "",
		"func f() {}\npackage p\n":                               "",
		"":                                                       "",
	} {
		if got := packageClause([]byte(src)); got != want {
			t.Errorf("packageClause(%q) = %q; want %q", src, got, want)
		}
	}
}

func TestGoFrameName(t *testing.T) {
	for in, want := range map[string]string{
		"net/http.(*Server).Serve":     "http.Server.Serve",
		"main.main":                    "",
		"main.main()":                  "main.main",
		"github.com/x/y/z.(*T[...]).M": "z.T.M",
		"github.com/x/go-y.F.func1.2":  "go-y.F",
		"runtime.gopark(0x0, 0x0)":     "runtime.gopark",
		"http.Server.Serve":            "",
		"operate(":                     "",
	} {
		got, ok := goFrameName(in)
		if want == "" && ok || want != "" && got != want {
			t.Errorf("goFrameName(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestObjCMessageName(t *testing.T) {
	for in, want := range map[string]string{
		"-[UIView setNeedsLayout]":                "UIView.setNeedsLayout",
		"+[SDImageCache sharedImageCache]":        "SDImageCache.sharedImageCache",
		"-[UIView(WebCache) sd_setImageWithURL:]": "UIView.sd_setImageWithURL:",
		"-[Shape initWithName:sides:]":            "Shape.initWithName:sides:",
		"[Shape draw]":                            "",
		"-[Shape]":                                "",
	} {
		got, ok := objcMessageName(in)
		if got != want || ok != (want != "") {
			t.Errorf("objcMessageName(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	q := ParseSymbolQuery("Shape.initWithName:sides:")
	if string(q.needle) != "initWithName" {
		t.Errorf("needle of a selector = %q; want its longest piece", q.needle)
	}
}

func TestErlangNames(t *testing.T) {
	for in, want := range map[string]string{"lists:map/2": "lists.map/2", "shapes:area": "shapes.area", "std::vector": "", "a:B": ""} {
		got, ok := erlangMFA(in)
		if got != want || ok != (want != "") {
			t.Errorf("erlangMFA(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for in, want := range map[string]string{"area/2": "area", "area": "area", "a/b": "a/b", "x/": "x/"} {
		if got := outline.DropArity(in); got != want {
			t.Errorf("DropArity(%q) = %q; want %q", in, got, want)
		}
	}
}
