package mcpserver

import (
	"context"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/zumba-dev/zumba/search"
)

// Stack-trace frames, as runtimes print them, read as the PATH:LINE they
// name (the file's innermost definition holding the line).
var (
	// Python: File "pkg/x.py", line 12, in foo
	pythonFrame = regexp.MustCompile(`^File "([^"]+)", line (\d+)(?:, in .*)?$`)
	// Node: at foo (src/x.ts:12:5), at async foo (file:///x.js:1:2)
	nodeFrame = regexp.MustCompile(`^at (?:.* )?\((.+?):(\d+)(?::\d+)?\)$`)
	// Node without a function, Rust: at src/x.js:12:5
	bareFrame = regexp.MustCompile(`^at (\S+?):(\d+)(?::\d+)?$`)
	// Go: /home/u/pkg/x.go:12 +0x1d
	goFrame = regexp.MustCompile(`^(\S+\.go):(\d+)(?: \+0x[0-9a-fA-F]+)?$`)
	// Java, Kotlin, Scala: at com.x.Y.m(Y.java:12)
	jvmFrame = regexp.MustCompile(`^at (?:[\w$]+\.)*?([\w$]+)\.([\w$<>]+)\(([\w$]+\.(?:java|kt|kts|scala|groovy)):(\d+)\)$`)
)

// frameLocation is the PATH:LINE a stack-trace frame of Python, Node,
// Rust or Go names.
func frameLocation(q string) (string, bool) {
	for _, re := range []*regexp.Regexp{pythonFrame, nodeFrame, bareFrame, goFrame} {
		if m := re.FindStringSubmatch(q); m != nil {
			return m[1] + ":" + m[2], true
		}
	}
	return "", false
}

// jvmFrameRef is a JVM frame: the class and method, the source file's
// base name and the line.
type jvmFrameRef struct {
	class, method, file string
	line                int
}

// javaFrame reads a Java, Kotlin or Scala frame.
func javaFrame(q string) (jvmFrameRef, bool) {
	m := jvmFrame.FindStringSubmatch(q)
	if m == nil {
		return jvmFrameRef{}, false
	}
	n, err := strconv.Atoi(m[4])
	if err != nil {
		return jvmFrameRef{}, false
	}
	// An inner class is Outer$Inner in the frame.
	class := m[1][strings.LastIndexByte(m[1], '$')+1:]
	return jvmFrameRef{class: class, method: m[2], file: m[3], line: n}, true
}

// readJavaFrame answers a JVM frame: the line in the file of that name
// that defines Class.method (a frame names no folder), else the method
// by its qualified name.
func (s *Server) readJavaFrame(ctx context.Context, f jvmFrameRef, o readOpts) (string, bool) {
	name := f.class + "." + f.method
	if f.method == "<init>" {
		name = f.class + "." + f.class
	}
	q := search.ParseSymbolQuery(name)
	q.Limit = readMaxBodies + readMaxList
	if res, err := s.engine().Symbols(ctx, q); err == nil && !res.Fuzzy {
		for _, d := range res.Defs {
			if path.Base(d.Path) == f.file && d.Start <= f.line && f.line <= d.End {
				return readAt(ctx, s.cfg.Root, d.Path, f.line, o)
			}
		}
	}
	return s.readByName(ctx, name, o)
}
