package project

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// layout is a project folder and, beside it, files it must never expose.
type layout struct {
	base    string // holds proj, out and proj-evil
	root    *Root
	secrets []os.FileInfo // files outside the project
}

// newLayout makes base/proj (the project, opened through base/alias, a
// link to it, so Dir and Real differ), base/out and base/proj-evil (whose
// name starts like the project's) with secret files, and base/proj/.. links
// made by links(proj, out).
func newLayout(t testing.TB, links func(proj, out string)) *layout {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(base, "proj")
	out := filepath.Join(base, "out")
	evil := filepath.Join(base, "proj-evil")
	for _, d := range []string{proj, out, evil, filepath.Join(out, "dir")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	l := &layout{base: base}
	for _, f := range []string{filepath.Join(out, "secret.go"), filepath.Join(out, "dir", "secret.go"), filepath.Join(evil, "secret.go"), filepath.Join(base, "secret.go")} {
		must(t, os.WriteFile(f, []byte("package secret\n"), 0o644))
		fi, err := os.Stat(f)
		must(t, err)
		l.secrets = append(l.secrets, fi)
	}
	if links != nil {
		links(proj, out)
	}
	must(t, os.Symlink(proj, filepath.Join(base, "alias")))
	l.root, err = OpenRoot(filepath.Join(base, "alias"))
	must(t, err)
	t.Cleanup(func() { l.root.FS().Close() })
	if l.root.Real != proj || l.root.Dir != filepath.Join(base, "alias") {
		t.Fatalf("OpenRoot: Dir %s, Real %s; want %s/alias and %s", l.root.Dir, l.root.Real, base, proj)
	}
	return l
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// checkOpen opens p and checks the one property that matters: a file that
// opens is inside the project's real path and is none of the secrets. It
// also checks Open against an independent oracle: p opens exactly when
// Rel accepts it and its links, resolved by the OS, end on a regular file
// inside the project.
func (l *layout) checkOpen(t testing.TB, p string) (opened bool) {
	t.Helper()
	f, rel, err := l.root.Open(p)
	opened = err == nil
	if err == nil {
		defer f.Close()
		if where, ok := openedPath(f); ok && !strings.HasPrefix(where, l.root.Real+string(filepath.Separator)) {
			t.Fatalf("Open(%q) opened %s, outside the project %s", p, where, l.root.Real)
		}
		fi, err := f.Stat()
		must(t, err)
		for _, s := range l.secrets {
			if os.SameFile(fi, s) {
				t.Fatalf("Open(%q) opened the secret %s", p, s.Name())
			}
		}
		if !fi.Mode().IsRegular() {
			t.Fatalf("Open(%q) opened a %v", p, fi.Mode())
		}
	} else {
		var pe *PathError
		if !errors.As(err, &pe) {
			t.Fatalf("Open(%q) = %v; want a PathError, a one-line message for the model", p, err)
		}
		if strings.ContainsAny(pe.Msg, "\n\r") || len(pe.Msg) > 2*maxShown+200 {
			t.Fatalf("Open(%q) message %q is not one short line", p, pe.Msg)
		}
	}
	want, wantErr := l.oracle(p)
	switch {
	case err == nil && wantErr != "":
		t.Fatalf("Open(%q) opened %s; want it refused (%s)", p, rel, wantErr)
	case err != nil && wantErr == "":
		t.Fatalf("Open(%q) = %v; want it to open %s", p, err, want)
	case err == nil:
		fi, _ := f.Stat()
		wfi, _ := os.Stat(want)
		if !os.SameFile(fi, wfi) {
			t.Fatalf("Open(%q) opened another file than %s", p, want)
		}
	}
	return opened
}

// oracle says which file p names, or why it names none, with the OS
// resolving the links.
func (l *layout) oracle(p string) (file, refusal string) {
	rel, err := l.root.Rel(p)
	if err != nil {
		return "", err.Error()
	}
	real, err := filepath.EvalSymlinks(filepath.Join(l.root.Real, filepath.FromSlash(rel)))
	if err != nil {
		return "", err.Error()
	}
	if !strings.HasPrefix(real, l.root.Real+string(filepath.Separator)) {
		return "", "outside: " + real
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", err.Error()
	}
	if !fi.Mode().IsRegular() {
		return "", "not a regular file"
	}
	return real, ""
}

// openedPath is where f really is, as the kernel sees it.
func openedPath(f *os.File) (string, bool) {
	if runtime.GOOS != "linux" {
		return "", false
	}
	p, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", f.Fd()))
	return p, err == nil
}

func TestRel(t *testing.T) {
	l := newLayout(t, nil)
	ok := map[string]string{
		"a.go":                                "a.go",
		"./a.go":                              "a.go",
		"src//a.go":                           "src/a.go",
		"src/./x/../a.go":                     "src/a.go",
		`src\a.go`:                            "src/a.go",
		"src/":                                "src",
		".":                                   ".",
		"%2e%2e/a.go":                         "%2e%2e/a.go",
		"a~":                                  "a~",
		"./~":                                 "~",
		"file:a.go":                           "file:a.go",
		l.base + "/alias/a.go":                "a.go",
		l.base + "/proj/a.go":                 "a.go",
		l.base + "/proj":                      ".",
		l.base + "/proj/":                     ".",
		"file://" + l.base + "/proj/a%20b.go": "a b.go",
		"FILE://" + l.base + "/proj/a.go":     "a.go",
		"file://localhost" + l.base + "/proj/a.go":    "a.go",
		"file://" + l.base + "/proj/a.go#L3":          "a.go",
		"file://" + l.base + "/proj/%2e%2e/proj/a.go": "a.go",
	}
	for p, want := range ok {
		got, err := l.root.Rel(p)
		if err != nil || got != want {
			t.Errorf("Rel(%q) = %q, %v; want %q", p, got, err, want)
		}
	}
	refused := map[string]string{
		"":                                 "missing path",
		"  ":                               "missing path",
		"..":                               "outside",
		"../proj/a.go":                     "outside",
		"a/../../x":                        "outside",
		`..\x`:                             "outside",
		`src\..\..\x`:                      "outside",
		"/etc/passwd":                      "outside",
		l.base + "/proj-evil/secret.go":    "outside",
		l.base + "/proj/../out/secret.go":  "outside",
		l.base:                             "outside",
		"~":                                "~ is not expanded",
		"~/x":                              "~ is not expanded",
		"~root/x":                          "~ is not expanded",
		"a\x00b":                           "NUL",
		"file://" + l.base + "/proj/a%00b": "NUL",
		"file://" + l.base + "/proj/%2e%2e/out/secret.go": "outside",
		"file://" + l.base + "/proj/..%2fout/secret.go":   "outside",
		"file://evil.example/x":                           "invalid file URI",
		"file://%zz":                                      "invalid file URI",
		strings.Repeat("a/", MaxPath):                     "too long",
	}
	for p, want := range refused {
		got, err := l.root.Rel(p)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Rel(%q) = %q, %v; want an error containing %q", short(p), got, err, want)
		}
	}
}

func short(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

func TestOpen(t *testing.T) {
	l := newLayout(t, func(proj, out string) {
		must(t, os.MkdirAll(filepath.Join(proj, "src", "deep"), 0o755))
		must(t, os.WriteFile(filepath.Join(proj, "src", "a.go"), []byte("package a\n"), 0o644))
		must(t, os.Symlink("a.go", filepath.Join(proj, "src", "rel.go")))
		must(t, os.Symlink(filepath.Join(proj, "src", "a.go"), filepath.Join(proj, "src", "abs.go")))
		must(t, os.Symlink("../a.go", filepath.Join(proj, "src", "deep", "up.go")))
		must(t, os.Symlink("../../src", filepath.Join(proj, "src", "deep", "srcdir")))
		must(t, os.Symlink(filepath.Join(proj, "src"), filepath.Join(proj, "abssrc")))
		must(t, os.Symlink("../out/secret.go", filepath.Join(proj, "out.go")))
		must(t, os.Symlink(filepath.Join(out, "secret.go"), filepath.Join(proj, "absout.go")))
		must(t, os.Symlink("../out", filepath.Join(proj, "outdir")))
		must(t, os.Symlink("../proj/src/a.go", filepath.Join(proj, "roundtrip.go")))
		must(t, os.Symlink("loop.go", filepath.Join(proj, "loop.go")))
		must(t, os.Symlink("nowhere.go", filepath.Join(proj, "dangling.go")))
		must(t, syscall.Mkfifo(filepath.Join(proj, "fifo.go"), 0o644))
	})
	cases := map[string]string{ // path → "" to open, or the message wanted
		"src/a.go":               "",
		"src/rel.go":             "",
		"src/abs.go":             "",
		"src/deep/up.go":         "",
		"src/deep/srcdir/a.go":   "",
		"abssrc/a.go":            "",
		"abssrc/../src/a.go":     "",
		"roundtrip.go":           "",
		"src/b.go":               "no such file: src/b.go",
		"src/a.go/x":             "no such file: src/a.go/x",
		"src":                    "src is a directory, not a file",
		".":                      ". is a directory, not a file",
		"out.go":                 "path outside the project: out.go (a symbolic link leaves the project)",
		"absout.go":              "path outside the project: absout.go (a symbolic link leaves the project)",
		"outdir/secret.go":       "path outside the project: outdir/secret.go (a symbolic link leaves the project)",
		"outdir/dir/secret.go":   "path outside the project: outdir/dir/secret.go (a symbolic link leaves the project)",
		"loop.go":                "cannot read loop.go: too many levels of symbolic links",
		"dangling.go":            "no such file: dangling.go",
		"fifo.go":                "fifo.go is not a regular file",
		strings.Repeat("x", 300): "no such file: " + strings.Repeat("x", 200) + "… (the name is too long)",
	}
	for p, want := range cases {
		done := make(chan struct{})
		go func() {
			defer close(done)
			f, _, err := l.root.Open(p)
			if f != nil {
				f.Close()
			}
			if want == "" && err != nil {
				t.Errorf("Open(%q) = %v; want it opened", short(p), err)
			}
			if want != "" && (err == nil || err.Error() != want) {
				t.Errorf("Open(%q) = %v; want %q", short(p), err, short(want))
			}
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("Open(%q) hangs", p)
		}
		l.checkOpen(t, p)
	}
}

// TestContainmentProperty opens random path strings in random layouts of
// links: inside to inside, inside to outside, files and folders, relative
// and absolute, chains, loops and dangling ones. Whatever opens must be
// inside the project, and Open must agree with the OS's own resolution.
func TestContainmentProperty(t *testing.T) {
	t.Parallel()
	layouts, paths := 40, 400
	if testing.Short() {
		layouts, paths = 8, 200
	}
	var tried, opened int
	for seed := range uint64(layouts) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			var names []string
			l := newLayout(t, func(proj, out string) { names = randomTree(t, rng, proj, out) })
			for range paths {
				tried++
				if l.checkOpen(t, randomPath(rng, l, names)) {
					opened++
				}
			}
			// Every name in the tree, asked for directly.
			for _, n := range names {
				tried++
				if l.checkOpen(t, n) {
					opened++
				}
			}
		})
	}
	t.Logf("%d paths tried, %d opened", tried, opened)
	if opened < tried/20 {
		t.Errorf("only %d of %d paths opened; the generator hardly reaches files", opened, tried)
	}
}

// randomTree fills proj with folders, files and links, and returns every
// project-relative name it made.
func randomTree(t testing.TB, rng *rand.Rand, proj, out string) []string {
	dirs := []string{"."}
	var names, files []string
	for i := range 3 + rng.IntN(5) {
		d := path.Join(dirs[rng.IntN(len(dirs))], fmt.Sprintf("d%d", i))
		must(t, os.MkdirAll(filepath.Join(proj, d), 0o755))
		dirs = append(dirs, d)
		names = append(names, d)
	}
	for i := range 3 + rng.IntN(6) {
		f := path.Join(dirs[rng.IntN(len(dirs))], fmt.Sprintf("f%d.go", i))
		must(t, os.WriteFile(filepath.Join(proj, f), []byte("package f\n"), 0o644))
		files = append(files, f)
		names = append(names, f)
	}
	outside := []string{filepath.Join(out, "secret.go"), filepath.Join(out, "dir"), out, filepath.Join(out, "dir", "secret.go"), filepath.Dir(out), "/etc/passwd", "/", filepath.Join(filepath.Dir(out), "proj-evil")}
	for i := range 4 + rng.IntN(10) {
		at := path.Join(dirs[rng.IntN(len(dirs))], fmt.Sprintf("l%d", i))
		var target string
		switch rng.IntN(9) {
		case 0, 1: // inside, relative
			target = relTarget(path.Dir(at), pick(rng, append(files, dirs...)))
		case 2: // inside, absolute
			target = filepath.Join(proj, pick(rng, append(files, dirs...)))
		case 3: // outside, relative
			r, _ := filepath.Rel(filepath.Join(proj, path.Dir(at)), pick(rng, outside))
			target = r
		case 4: // outside, absolute
			target = pick(rng, outside)
		case 5: // to another link, maybe not made yet
			target = relTarget(path.Dir(at), path.Join(pick(rng, dirs), fmt.Sprintf("l%d", rng.IntN(14))))
		case 6: // leaves and comes back
			target = "../" + strings.Repeat("../", strings.Count(at, "/")) + "proj/" + pick(rng, files)
		case 7: // dangling or a loop
			target = pick(rng, []string{"nowhere", path.Base(at), "../nowhere/x"})
		case 8: // through the alias of the project
			target = filepath.Join(filepath.Dir(out), "alias", pick(rng, files))
		}
		if os.Symlink(target, filepath.Join(proj, at)) == nil {
			names = append(names, at)
		}
	}
	return names
}

func relTarget(fromDir, to string) string {
	r, err := filepath.Rel(fromDir, to)
	if err != nil {
		return to
	}
	return filepath.ToSlash(r)
}

func pick(rng *rand.Rand, s []string) string { return s[rng.IntN(len(s))] }

// randomPath builds a path string an agent might send, well-meaning or not.
func randomPath(rng *rand.Rand, l *layout, names []string) string {
	parts := []string{"..", ".", "", "~", "%2e%2e", "..%2f", "\x00", "secret.go", "out", "proj", "proj-evil", "alias", "x", strings.Repeat("n", 300)}
	var sb strings.Builder
	switch rng.IntN(8) {
	case 0:
		sb.WriteString("/")
	case 1:
		sb.WriteString(l.root.Dir + "/")
	case 2:
		sb.WriteString(l.root.Real + "/")
	case 3:
		sb.WriteString("file://" + l.root.Real + "/")
	case 4:
		sb.WriteString(l.base + "/")
	}
	n := 1 + rng.IntN(5)
	for i := range n {
		if i > 0 {
			sb.WriteString(pick(rng, []string{"/", "/", "/", "//", `\`, "/./"}))
		}
		if rng.IntN(3) == 0 {
			sb.WriteString(pick(rng, parts))
		} else {
			sb.WriteString(pick(rng, names))
		}
	}
	p := sb.String()
	if strings.HasPrefix(p, "file://") && rng.IntN(2) == 0 {
		p = "file://" + strings.ReplaceAll(url.PathEscape(strings.TrimPrefix(p, "file://")), "%2F", "/")
	}
	return p
}

// TestOpenWhileSwapped: a file that flips between a regular file and a
// link to a secret while it is being opened is never opened as the secret.
func TestOpenWhileSwapped(t *testing.T) {
	t.Parallel()
	l := newLayout(t, nil)
	target := filepath.Join(l.root.Real, "x.go")
	tmpFile := filepath.Join(l.root.Real, "x.go.file")
	tmpLink := filepath.Join(l.root.Real, "x.go.link")
	must(t, os.WriteFile(target, []byte("package x\n"), 0o644))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if i%2 == 0 {
				os.Symlink(filepath.Join(l.base, "out", "secret.go"), tmpLink)
				os.Rename(tmpLink, target)
			} else {
				os.WriteFile(tmpFile, []byte("package x\n"), 0o644)
				os.Rename(tmpFile, target)
			}
		}
	}()
	opened := 0
	// Each swap makes two files; the file system pays for every one
	// deleted (ext4 scans past recently freed inodes), -short swaps less.
	spell := 300 * time.Millisecond
	if testing.Short() {
		spell = 100 * time.Millisecond
	}
	deadline := time.Now().Add(spell)
	for time.Now().Before(deadline) {
		f, _, err := l.root.Open("x.go")
		if err != nil {
			continue
		}
		opened++
		fi, _ := f.Stat()
		where, _ := openedPath(f)
		f.Close()
		for _, s := range l.secrets {
			if os.SameFile(fi, s) {
				t.Fatalf("opened the secret through a swapped link (%s)", where)
			}
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("opened x.go %d times while it was swapped", opened)
}

func TestReadFileLimit(t *testing.T) {
	l := newLayout(t, func(proj, out string) {
		must(t, os.WriteFile(filepath.Join(proj, "big.go"), make([]byte, 1000), 0o644))
	})
	if _, _, err := l.root.ReadFile("big.go", 999); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("ReadFile over the limit = %v; want too large", err)
	}
	if b, _, err := l.root.ReadFile("big.go", 1000); err != nil || len(b) != 1000 {
		t.Errorf("ReadFile at the limit = %d bytes, %v", len(b), err)
	}
}

func TestOpenRoot(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	must(t, os.WriteFile(file, nil, 0o644))
	for p, want := range map[string]string{
		filepath.Join(dir, "missing"): "does not exist",
		file:                          "is not a directory",
	} {
		if _, err := OpenRoot(p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("OpenRoot(%s) = %v; want %q", p, err, want)
		}
	}
}
