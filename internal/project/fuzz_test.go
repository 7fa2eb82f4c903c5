package project

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

var fuzzPaths = []string{
	"a.go", "./src//a.go", `src\a.go`, "../x", "src/../../x", "/etc/passwd", "~/.ssh/id_rsa",
	"%2e%2e/x", "a\x00b", "file:///etc/passwd", "file://localhost/x", "file:///%2e%2e/x",
	"link/a.go", "out.go", "outdir/secret.go", "abs.go", "abssrc/a.go", "loop.go", ".", "",
	strings.Repeat("../", 100) + "etc/passwd", strings.Repeat("a", 5000),
}

// FuzzRel: whatever string a tool is given, Rel either refuses it or
// returns a clean relative path that cannot climb out of the project.
func FuzzRel(f *testing.F) {
	for _, p := range fuzzPaths {
		f.Add(p)
	}
	l := newLayout(f, nil)
	f.Add("file://" + l.root.Real + "/a.go")
	f.Add(l.root.Dir + "/../out/secret.go")
	f.Fuzz(func(t *testing.T, p string) {
		rel, err := l.root.Rel(p)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("Rel(%q) message %q is not one line", p, err)
			}
			return
		}
		if rel != "." && (path.Clean(rel) != rel || path.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") ||
			strings.ContainsAny(rel, "\x00\\") || !filepath.IsLocal(filepath.FromSlash(rel))) {
			t.Fatalf("Rel(%q) = %q; want a clean local path", p, rel)
		}
	})
}

// FuzzOpen: whatever string a tool is given, the file Open opens is inside
// the project, and Open agrees with the OS's own resolution of the links.
func FuzzOpen(f *testing.F) {
	for _, p := range fuzzPaths {
		f.Add(p)
	}
	l := newLayout(f, func(proj, out string) {
		must(f, os.MkdirAll(filepath.Join(proj, "src", "deep"), 0o755))
		must(f, os.WriteFile(filepath.Join(proj, "a.go"), []byte("package a\n"), 0o644))
		must(f, os.WriteFile(filepath.Join(proj, "src", "a.go"), []byte("package a\n"), 0o644))
		for at, target := range map[string]string{
			"link":               "src",
			"abs.go":             filepath.Join(proj, "a.go"),
			"abssrc":             filepath.Join(proj, "src"),
			"src/deep/up.go":     "../a.go",
			"src/deep/root":      "../..",
			"out.go":             "../out/secret.go",
			"outdir":             "../out",
			"absout":             out,
			"etc":                "/etc",
			"loop.go":            "loop.go",
			"roundtrip.go":       "../proj/a.go",
			"src/deep/aliasroot": filepath.Join(filepath.Dir(proj), "alias"),
		} {
			must(f, os.Symlink(target, filepath.Join(proj, at)))
		}
	})
	f.Add("file://" + l.root.Real + "/a.go")
	f.Add(l.root.Dir + "/src/deep/root/abs.go")
	f.Fuzz(func(t *testing.T, p string) {
		l.checkOpen(t, p)
	})
}
