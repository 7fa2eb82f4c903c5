package search

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/zumba-dev/zumba/internal/project"
)

// Go names a package by its package clause, which need not be its
// folder's name: cmd/zumba/main.go is package main, an external test
// file is package http_test, misc/cgo/test is package cgotest. A qualified
// query's leading part may name either (see SymbolQuery.exact); the
// clause is read from the head of a candidate file, once per file and
// call.

// packageHead is how much of a Go file is read for its package clause:
// a licence comment and build constraints come before it.
const packageHead = 8 << 10

// goPackages reads Go files' package clauses for one search call. It is
// safe for concurrent use.
type goPackages struct {
	root *project.Root
	mu   sync.Mutex
	seen map[string]string
}

func newGoPackages(root *project.Root) *goPackages {
	return &goPackages{root: root, seen: map[string]string{}}
}

// of is the package clause's name of the Go file p; "" when it has none
// or cannot be read.
func (g *goPackages) of(p string) string {
	g.mu.Lock()
	name, ok := g.seen[p]
	g.mu.Unlock()
	if ok {
		return name
	}
	if f, _, err := g.root.Open(p); err == nil {
		head, _ := io.ReadAll(io.LimitReader(f, packageHead))
		f.Close()
		name = packageClause(head)
	}
	g.mu.Lock()
	g.seen[p] = name
	g.mu.Unlock()
	return name
}

// packageClause is the name a Go file's package clause gives, skipping
// the comments before it.
func packageClause(src []byte) string {
	for len(src) > 0 {
		src = bytes.TrimLeft(src, " \t\r\n")
		switch {
		case bytes.HasPrefix(src, []byte("//")):
			i := bytes.IndexByte(src, '\n')
			if i < 0 {
				return ""
			}
			src = src[i+1:]
		case bytes.HasPrefix(src, []byte("/*")):
			i := bytes.Index(src[2:], []byte("*/"))
			if i < 0 {
				return ""
			}
			src = src[2+i+2:]
		case bytes.HasPrefix(src, []byte("package")):
			rest := bytes.TrimLeft(src[len("package"):], " \t")
			if len(rest) == len(src)-len("package") {
				return ""
			}
			end := bytes.IndexFunc(rest, func(r rune) bool { return !IsWordRune(r) })
			if end < 0 {
				end = len(rest)
			}
			return string(rest[:end])
		default:
			return ""
		}
	}
	return ""
}

// goFrame matches a Go stack-trace frame's function: an import path, the
// package's name, an optional receiver in parentheses, the function; type
// arguments as "[...]", closures' ".func1" and call arguments "(…)" after.
var goFrame = regexp.MustCompile(`^(?:[\w.~-]+/)*([\w-]+)\.(?:\(\*?(\w+)(?:\[[^\]]*\])?\)\.)?(\w+)(?:\[[^\]]*\])?(?:\.func\d+(?:\.\d+)*)*(?:\(.*\))?$`)

// goFrameName is the qualified name a Go stack-trace frame names
// ("net/http.(*Server).Serve" is "http.Server.Serve"); ok is false for
// what is not written as a frame (a plain "http.Server.Serve" stays).
func goFrameName(s string) (string, bool) {
	if !strings.ContainsAny(s, "/(") {
		return "", false
	}
	m := goFrame.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	if m[2] != "" {
		return m[1] + "." + m[2] + "." + m[3], true
	}
	return m[1] + "." + m[3], true
}

// goMethodExpr matches a Go method expression, as a method is written
// in Go itself: "(*os.File).Close", "(T).String".
var goMethodExpr = regexp.MustCompile(`^\(\*?((?:\w+\.)?\w+)(?:\[[^\]]*\])?\)\.(\w+)$`)

// goMethodExprName is the qualified name a Go method expression names
// ("(*os.File).Close" is "os.File.Close").
func goMethodExprName(s string) (string, bool) {
	m := goMethodExpr.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	return m[1] + "." + m[2], true
}
